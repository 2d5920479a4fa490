// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A built kernel: what a module is built against and what a guest boots, whoever built it
//! (the kernel layer's upstream builds and distribution kernels, or the user's own tree).

use crate::infra::error::Result;
use crate::model::arch::Arch;
use std::fs;
use std::path::{Path, PathBuf};

/// An extracted kernel source tree.
pub struct Source {
    pub dir: PathBuf,
    /// `VERSION.PATCHLEVEL.SUBLEVEL` from its Makefile.
    pub version: String,
}

/// A configured, built kernel: what a module is built against (`make -C dir M=...`) and what
/// a guest boots.
pub struct Build {
    /// The build directory (`O=`), with `.config`, `Module.symvers` and the kernel crate's
    /// metadata.
    pub dir: PathBuf,
    pub source: Source,
    /// The image a guest boots (for UML, the kernel program itself).
    pub image: PathBuf,
    /// How long the build took, if it ran.
    pub seconds: Option<u64>,
    /// Whether the kernel has KUnit built in (`CONFIG_KUNIT=y`), so that a module's
    /// `#[kunit_tests]` suites run when it loads. Distribution kernels have none: there the
    /// suites are built for kernel-core's harness module, which the boot loads first
    /// ([`crate::pipeline::module::HARNESS`]).
    pub kunit: bool,
}

impl Build {
    /// A kernel build directory made elsewhere (`cargo xtask modules --kdir`), for `arch`.
    pub fn existing(dir: &Path, arch: &Arch) -> Result<Self> {
        let release =
            fs::read_to_string(dir.join("include/config/kernel.release")).unwrap_or_default();
        let source = dir.join("source");
        Ok(Self {
            dir: dir.to_path_buf(),
            source: Source {
                dir: if source.exists() {
                    source
                } else {
                    dir.to_path_buf()
                },
                version: release.trim().to_string(),
            },
            image: dir.join(arch.image_path),
            seconds: None,
            kunit: fs::read_to_string(dir.join(".config"))
                .is_ok_and(|c| c.lines().any(|l| l == "CONFIG_KUNIT=y")),
        })
    }
}
