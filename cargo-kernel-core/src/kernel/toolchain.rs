// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The one toolchain type: the compilers a kernel and its modules are built with, as `make`
//! variables. Upstream builds use the matrix's (LLVM, the stable rustc or the release an
//! architecture needs); a distribution's kernel the exact one its `.config` names
//! ([`crate::kernel::distro::toolchain()`]).

use crate::infra::command;
use crate::infra::error::Result;
use crate::kernel::setup;
use crate::model::arch::Arch;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The tools a kernel and module build use, as `make` variables.
#[derive(Debug, Default, Clone)]
pub struct Toolchain {
    pub rustc: PathBuf,
    pub bindgen: PathBuf,
    /// The variables that choose the C toolchain; empty means `LLVM=-19`, as for the kernels
    /// this tool builds. A distribution's kernel has `CC=...` (the kernel's GCC, or a shim).
    pub variables: Vec<String>,
    /// Environment of every `make`: `RUSTC_FORCE_RUSTC_VERSION` for a distribution's kernel
    /// (its Rust symbols hash the distribution's rustc version string).
    pub env: Vec<(String, String)>,
}

impl Toolchain {
    /// Finds the rustc that builds `arch`'s kernels (the stable toolchain, or the release the
    /// architecture needs) and the bindgen [`setup::ensure_kernel_tools`] installed.
    pub fn find(arch: &Arch) -> Result<Self> {
        let toolchain = arch.rustc.unwrap_or("stable");
        Ok(Self {
            rustc: setup::rustup_which("rustc", toolchain)?,
            bindgen: setup::ensure_bindgen()?,
            variables: Vec::new(),
            env: Vec::new(),
        })
    }

    /// `make -C dir ARCH=... LLVM=-19 RUSTC=... BINDGEN=...`.
    pub fn make(&self, dir: &Path, arch: &Arch) -> Command {
        let mut cmd = Command::new("make");
        cmd.arg("-C")
            .arg(dir)
            .arg(format!("ARCH={}", arch.kernel_arch))
            .args(self.variables())
            .args(arch.make_variables)
            .arg(format!("RUSTC={}", self.rustc.display()))
            .arg(format!("HOSTRUSTC={}", self.rustc.display()))
            .arg(format!("BINDGEN={}", self.bindgen.display()))
            .envs(self.env.iter().map(|(k, v)| (k, v)));
        cmd
    }

    /// The C toolchain's variables: [`Self::variables`], or `LLVM=-19`.
    pub fn variables(&self) -> Vec<String> {
        if self.variables.is_empty() {
            vec![format!("LLVM=-{}", setup::LLVM_VERSION)]
        } else {
            self.variables.clone()
        }
    }

    /// Everything that identifies the toolchain, for cache keys: the compilers' versions, the
    /// variables and the environment.
    pub fn fingerprint(&self) -> String {
        let mut text = String::new();
        for version in [
            command::output_once(Command::new(&self.rustc).arg("-vV")),
            command::output_once(Command::new(&self.bindgen).arg("--version")),
        ] {
            text.push_str(&version.unwrap_or_default());
        }
        for variable in &self.variables() {
            text.push_str(variable);
            if let Some(cc) = variable.strip_prefix("CC=") {
                text.push_str(
                    &command::output_once(Command::new(cc).arg("--version")).unwrap_or_default(),
                );
                text.push_str(&std::fs::read_to_string(cc).unwrap_or_default());
            }
        }
        for (k, v) in &self.env {
            text.push_str(&format!("{k}={v}"));
        }
        text
    }

    /// The C compiler: `CC`, or `clang-19`.
    pub fn cc(&self) -> String {
        self.variables
            .iter()
            .find_map(|v| v.strip_prefix("CC="))
            .map_or_else(|| format!("clang-{}", setup::LLVM_VERSION), str::to_string)
    }
}
