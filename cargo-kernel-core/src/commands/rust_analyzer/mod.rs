// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo kernel-core rust-analyzer` (and kernel-core's `cargo xtask rust-analyzer`): a
//! `rust-project.json` for an out-of-tree module that uses kernel-core, so go-to-definition
//! and completion work in the driver.
//!
//! The kernel describes its own crates: `make M=<module> rust-analyzer` writes
//! `<module>/rust-project.json` (on 6.12 only given `VPATH=<source>`, as its rule finds
//! `rust/Makefile` only from the source tree). This then
//!
//! 1. lets rust-analyzer load the standard library from `sysroot_src` instead of the copies of
//!    `core`, `alloc`, `std` and `proc_macro` the kernel lists as plain crates (current
//!    rust-analyzer finds the inherent methods of primitive types, such as
//!    `usize::is_power_of_two`, only in sysroot crates), and marks the crates Kbuild compiles
//!    with `-Zcrate-attr=no_std` as `crate_attrs: ["no_std"]`;
//! 2. adds `kernel_core_macros` (a proc macro, whose `libkernel_core_macros.so` Kbuild builds
//!    with `kernel-core.mk`'s own rule in `<out>/<kernel>-<arch>/rust-analyzer/`),
//!    `kernel_core` (built like the module's crates, plus `--cfg kernel`,
//!    `--cfg kernel_core_linux_7_1` on 7.1+ and `kernel_core_linux_7_3` on 7.3+, `build_error`
//!    and the macros) and, for a driver with a `Cargo.toml`, its library (the `[lib]` that
//!    `cargo metadata` names, which `kernel-core.mk` builds as a crate of its own when the
//!    `Kbuild` sets `kernel-core-lib`, and which the kernel's generator does not know), and
//!    makes every other crate of the module depend on them, as `kbuild/kernel-core.mk` does;
//!    crates the kernel made for files of the library are left out. Where the kernel's file
//!    has no `pin_init` crate (Linux 6.12), it also adds kernel-core's pin-init crate,
//!    `kernel_core_pin_init` (from the `kernel-core-pin-init` package, built like
//!    `kernel_core`, with the macros), which kernel-core, the library and the module's crates
//!    then see as `pin_init`, as kernel-core.mk's `--extern pin_init=...` gives it to them;
//! 3. writes the result back, reads it again and checks it (every root and proc-macro library
//!    exists, every dependency index is valid, the driver sees `kernel`, `pin_init`,
//!    `kernel_core`, `kernel_core_macros` and its library), failing with one line per problem;
//! 4. if `rust-analyzer` is installed, runs `rust-analyzer diagnostics` on the module and prints
//!    what it reports in the module's files and in kernel-core.
//!
//! One file per job: `project.rs` (step 1 and the Kbuild runs before it: the kernel's file,
//! the proc-macro library), `library.rs` (the driver's library: its name, root and files),
//! `crates.rs` (step 2), `check.rs` (step 3), `diagnostics.rs` (step 4); `graph.rs` holds the
//! edits of the crate graph they share, and this file runs them in order.

mod check;
mod crates;
mod diagnostics;
#[cfg(test)]
mod fixture;
mod graph;
mod library;
mod project;
pub mod rust_project;

use crate::commands::rust_analyzer::rust_project::Project;
use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::progress;
use crate::kernel;
use crate::model::arch::{self, Arch, Kernel};
use crate::model::cell;
use anyhow::bail;
use crates::KernelCore;
use library::Library;
use std::fs;
use std::path::PathBuf;
use std::time::Duration;

/// The file rust-analyzer looks for in a project directory.
const PROJECT_FILE: &str = "rust-project.json";

/// How long the Kbuild steps and `rust-analyzer diagnostics` may take.
const MAKE_TIMEOUT: Duration = Duration::from_secs(15 * 60);
const DIAGNOSTICS_TIMEOUT: Duration = Duration::from_secs(20 * 60);

/// The kernel-core sources the module is built with, and where to put what this makes.
#[derive(Debug, Clone)]
pub struct Sources {
    /// The `kernel-core` package's directory (it holds `kernel-core.mk` and `src/`).
    pub kernel_core: PathBuf,
    /// The `kernel-core-macros` package's directory.
    pub macros: PathBuf,
    /// The `kernel-core-pin-init` package's directory: the `pin_init` of a kernel that has
    /// none, as `kernel-core.mk`'s `KERNEL_CORE_PIN_INIT_SRC`.
    pub pin_init: PathBuf,
    /// Where the proc-macro library and logs go, under `<kernel>-<arch>/rust-analyzer/`.
    pub out: PathBuf,
}

/// `rust-analyzer --kernel K [--arch A] [--module DIR]`.
pub fn run(sources: &Sources, request: Request) -> Result {
    let Request {
        kernel,
        arch,
        module,
        strict,
    } = request;
    // The library first: a driver whose Cargo.toml cargo cannot read fails before any build.
    let library = Library::of(&module)?;
    let tools = kernel::toolchain_for(&kernel, &arch)?;
    let build = kernel::build(&kernel, &arch, &tools)?;
    let out = cell::dir(&sources.out, kernel.name, arch.name).join("rust-analyzer");
    fs::create_dir_all(&out).at(&out)?;

    let dylib = project::build_macros(sources, &tools, &build, &arch, &out)?;
    let mut project = project::kernel_project(&tools, &build, &arch, &module, &out)?;
    let dropped = graph::drop_crates_under(&mut project.crates, &module, &module.join("target"));
    if dropped > 0 {
        crate::note!(
            "    left out {dropped} crate(s) under {}",
            module.join("target").display()
        );
    }
    let pin_init = if crates::needs_own_pin_init(&project) {
        "kernel_core_pin_init (as `pin_init`: the kernel has none), "
    } else {
        ""
    };
    let added = match &library {
        None => format!("{pin_init}kernel_core and kernel_core_macros"),
        Some(l) => format!(
            "{pin_init}kernel_core, kernel_core_macros and the driver's library `{}` ({})",
            l.crate_name,
            l.root.display()
        ),
    };
    let start = progress::step(&format!(
        "adding {added} to {}",
        module.join(PROJECT_FILE).display()
    ));
    let spec = KernelCore {
        kernel_core: sources.kernel_core.clone(),
        macros: sources.macros.clone(),
        pin_init: sources.pin_init.clone(),
        module: module.clone(),
        dylib,
        kernel_cfgs: project::kernel_cfgs(&build.dir)?,
        linux_7_1: project::at_least(&build.source.version, (7, 1)),
        linux_7_3: project::at_least(&build.source.version, (7, 3)),
        library,
    };
    let dropped = crates::drop_library_files(&mut project, &spec);
    if !dropped.is_empty() {
        crate::note!(
            "    left out the kernel's crate(s) {}: files of the driver's library",
            dropped.join(", ")
        );
    }
    project::use_sysroot_src(&mut project)?;
    crates::add_kernel_core(&mut project, &spec)?;
    let path = module.join(PROJECT_FILE);
    fs::write(&path, project.to_text()).at(&path)?;

    // Check what was written, as rust-analyzer will read it.
    let text = fs::read_to_string(&path).at(&path)?;
    let written = Project::parse(&text)
        .map_err(|e| anyhow::anyhow!("{} is not a valid rust-project.json: {e}", path.display()))?;
    let summary = check::check(&written, &spec).map_err(|problems| {
        anyhow::anyhow!("{} is wrong: {}", path.display(), problems.join("; "))
    })?;
    progress::done(
        &format!(
            "{} for Linux {} on {}: {summary}",
            path.display(),
            build.source.version,
            arch.name
        ),
        start,
    );
    diagnostics::diagnostics(sources, &module, &out, strict)
}

/// What `rust-analyzer` was asked to do.
#[derive(Debug)]
pub struct Request {
    kernel: Kernel,
    arch: Arch,
    /// The module directory.
    module: PathBuf,
    /// `--strict` (what `cargo xtask test` uses): rust-analyzer must run, and find no error in
    /// the module or in kernel-core.
    strict: bool,
}

impl Request {
    /// Checks the options.
    pub fn new(kernel: &str, arch: Option<&str>, module: PathBuf, strict: bool) -> Result<Self> {
        let kernel = arch::kernel(kernel)?;
        let arch = arch.map_or(Ok(arch::ARCHES[0]), arch::arch)?;
        let module = module.canonicalize().map_err(|e| {
            anyhow::anyhow!(
                "module directory {}: {e}; pass --module <directory of your module's Kbuild>",
                module.display()
            )
        })?;
        if !module.join("Kbuild").is_file() && !module.join("Makefile").is_file() {
            bail!(
                "{} has no Kbuild or Makefile: pass --module <directory of an out-of-tree module>",
                module.display()
            );
        }
        Ok(Request {
            kernel,
            arch,
            module,
            strict,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn options_need_a_known_kernel_and_a_module() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let example = || repo.join("examples/out-of-tree-driver");
        let request = Request::new("6.12", None, example(), false).unwrap();
        assert_eq!(
            (request.kernel.name, request.arch.name, request.strict),
            ("6.12", "x86_64", false)
        );
        assert!(request.module.ends_with("examples/out-of-tree-driver"));
        assert!(Request::new("7.2", None, example(), true).unwrap().strict);
        let e = Request::new("5.10", None, example(), false).err().unwrap();
        assert!(e.to_string().contains("5.10"), "{e}");
        let e = Request::new("7.3", Some("sparc"), example(), false)
            .err()
            .unwrap();
        assert!(e.to_string().contains("sparc"), "{e}");
        let xtask = repo.join("xtask");
        let e = Request::new("7.2", None, xtask, false).err().unwrap();
        assert!(e.to_string().contains("has no Kbuild or Makefile"), "{e}");
    }
}
