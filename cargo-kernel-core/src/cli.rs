// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The command line both tools share: `--kernel`/`--arch` with one grammar, read from the
//! matrix, and the commands `kernels`, `modules`, `rust-analyzer` and `why-build-error`,
//! written once and flattened into `cargo kernel-core` and kernel-core's own `cargo xtask`.
//! What differs between the two is what a module build is: a driver's plan for one, kernel-core's
//! own modules for the other ([`Context`]).

use crate::arch::{self, Arch, Kernel, ARCHES, KERNELS};
use crate::cell;
use crate::kernel;
use crate::plan::Plan;
use crate::rust_analyzer;
use crate::setup;
use crate::ui::{self, Result};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

/// Checks a `--kernel` value: a kernel of the matrix, a comma-separated list, or `all`.
pub fn kernel_list(value: &str) -> std::result::Result<String, String> {
    list(
        value,
        &KERNELS.iter().map(|k| k.name).collect::<Vec<_>>(),
        "kernel",
    )
}

/// Checks an `--arch` value: an architecture of the matrix, a comma-separated list, or `all`.
pub fn arch_list(value: &str) -> std::result::Result<String, String> {
    list(
        value,
        &ARCHES.iter().map(|a| a.name).collect::<Vec<_>>(),
        "architecture",
    )
}

/// Checks one `--arch` name.
pub fn one_arch(value: &str) -> std::result::Result<String, String> {
    list(
        value,
        &ARCHES.iter().map(|a| a.name).collect::<Vec<_>>(),
        "architecture",
    )
    .and_then(|v| {
        if v.contains(',') || v == "all" {
            Err("one architecture here".to_string())
        } else {
            Ok(v)
        }
    })
}

/// Checks one `--kernel` name.
pub fn one_kernel(value: &str) -> std::result::Result<String, String> {
    list(
        value,
        &KERNELS.iter().map(|k| k.name).collect::<Vec<_>>(),
        "kernel",
    )
    .and_then(|v| {
        if v.contains(',') || v == "all" {
            Err("one kernel here".to_string())
        } else {
            Ok(v)
        }
    })
}

fn list(value: &str, names: &[&str], what: &str) -> std::result::Result<String, String> {
    if value == "all" {
        return Ok(value.to_string());
    }
    for item in value.split(',') {
        if !names.contains(&item.trim()) {
            return Err(format!(
                "unknown {what} `{}`: use {}, a comma-separated list of them, or all",
                item.trim(),
                names.join(", ")
            ));
        }
    }
    Ok(value.to_string())
}

/// Which cells: `--kernel` and `--arch`.
#[derive(Args, Clone, Debug, Default)]
pub struct Cells {
    /// Kernels: a kernel of the matrix (`kernels list`), a comma-separated list, or all. With
    /// neither option: the fast cell (Linux 7.3 on UML); with `--kernel all --arch all`: the
    /// required matrix.
    #[arg(long, value_name = "K", value_parser = kernel_list)]
    pub kernel: Option<String>,
    /// Architectures: one of the matrix (x86_64 when only --kernel is given), a
    /// comma-separated list, or all (every architecture the kernels have Rust on).
    #[arg(long, value_name = "A", value_parser = arch_list)]
    pub arch: Option<String>,
}

impl Cells {
    /// The cells the options name ([`arch::matrix`]).
    pub fn matrix(&self) -> Result<Vec<(Kernel, Arch)>> {
        arch::matrix(self.kernel.as_deref(), self.arch.as_deref())
    }
}

/// The commands both tools share.
#[derive(Subcommand, Debug)]
pub enum Shared {
    /// The kernels of the matrix: list them, build them into the cache, or remove builds.
    #[command(subcommand)]
    Kernels(KernelsCmd),
    /// Build the modules against a kernel build of your own.
    ///
    /// The kernel build directory (its O=) is checked first: Rust support, the same rustc,
    /// Module.symvers. The architecture is read from its .config unless given.
    Modules {
        /// The kernel build directory.
        #[arg(long, value_name = "DIR")]
        kdir: PathBuf,
        /// The architecture (default: from the .config).
        #[arg(long, value_name = "A", value_parser = one_arch)]
        arch: Option<String>,
    },
    /// Write the module's rust-project.json, so that rust-analyzer knows the kernel's crates,
    /// kernel_core, kernel_core_macros and the driver's library in the module.
    ///
    /// Runs the kernel's `make M=DIR rust-analyzer`, builds libkernel_core_macros.so with
    /// Kbuild, adds kernel-core, checks the file, and runs `rust-analyzer diagnostics` on the
    /// module if rust-analyzer is installed.
    RustAnalyzer {
        /// The kernel the module is built against.
        #[arg(long, value_name = "K", default_value = "7.3", value_parser = one_kernel)]
        kernel: String,
        /// The architecture (default: x86_64).
        #[arg(long, value_name = "A", value_parser = one_arch)]
        arch: Option<String>,
        /// The module's directory (default: the driver's).
        #[arg(long, value_name = "DIR")]
        module: Option<PathBuf>,
        /// rust-analyzer must run and find no error in the module or in kernel-core.
        #[arg(long)]
        strict: bool,
    },
    /// Name each build_assert!/build_error! call that survived optimization in these objects.
    ///
    /// Kernel or host objects (after a failed link, target/*/deps/*.o): each site's
    /// file:line:column and the function that holds it, and the functions that call
    /// build_error with no site. Module builds print this unasked when modpost fails on
    /// rust_build_error.
    WhyBuildError {
        /// The object files.
        #[arg(required = true, value_name = "OBJECT.o")]
        objects: Vec<PathBuf>,
    },
}

/// `kernels ...`.
#[derive(Subcommand, Debug)]
pub enum KernelsCmd {
    /// The kernels and architectures, which cells are required, and which builds are cached
    /// or being built.
    List(Cells),
    /// Fetch and build kernels into the cache, with nothing else.
    Build(Cells),
    /// Remove cached kernel builds (sources and packages stay).
    Clean(Cells),
}

/// What the shared commands act on.
pub struct Context {
    /// The plans `modules` builds (their module builds only).
    pub plans: Box<dyn Fn() -> Result<Vec<Plan>>>,
    /// The kernel-core sources, and where rust-analyzer's files go.
    pub sources: rust_analyzer::Sources,
    /// The module `rust-analyzer` sets up unless `--module` names one.
    pub module: PathBuf,
    /// Where `modules` builds.
    pub out: PathBuf,
}

/// The cells `list` shows: all of them unless the options name some.
fn listed(cells: &Cells) -> Result<Vec<(Kernel, Arch)>> {
    if cells.kernel.is_none() && cells.arch.is_none() {
        return Ok(KERNELS
            .iter()
            .flat_map(|k| {
                ARCHES
                    .iter()
                    .filter(|a| k.supports(a))
                    .map(move |a| (*k, *a))
            })
            .collect());
    }
    cells.matrix()
}

impl Shared {
    /// Runs the command.
    pub fn run(self, context: &Context) -> Result {
        match self {
            Shared::Kernels(KernelsCmd::List(cells)) => {
                println!("| kernel | Debian package (suite) | architecture | required | cached |");
                println!("|---|---|---|---|---|");
                for (k, a) in listed(&cells)? {
                    println!(
                        "| {} | {} ({}) | {} | {} | {} |",
                        k.name,
                        k.package,
                        k.suite,
                        a.name,
                        if k.requires(&a) { "yes" } else { "no" },
                        match kernel::state(&k, &a) {
                            kernel::State::Cached => "yes",
                            kernel::State::Building => "being built now",
                            kernel::State::Absent => "no",
                        }
                    );
                }
                println!("cache: {}", kernel::cache_dir().display());
                Ok(())
            }
            Shared::Kernels(KernelsCmd::Build(cells)) => {
                for (k, a) in cells.matrix()? {
                    setup::ensure_kernel_tools(&a)?;
                    let tools = kernel::Toolchain::find(&a)?;
                    kernel::build(&k, &a, &tools)?;
                }
                Ok(())
            }
            Shared::Kernels(KernelsCmd::Clean(cells)) => {
                for (k, a) in cells.matrix()? {
                    for dir in kernel::clean(&k, &a)? {
                        println!("    removed {}", dir.display());
                    }
                }
                Ok(())
            }
            Shared::Modules { kdir, arch } => modules(context, &kdir, arch.as_deref()),
            Shared::RustAnalyzer {
                kernel,
                arch,
                module,
                strict,
            } => {
                let request = rust_analyzer::Request::new(
                    &kernel,
                    arch.as_deref(),
                    module.unwrap_or_else(|| context.module.clone()),
                    strict,
                )?;
                if strict {
                    setup::ensure_toolchain("stable", &["rust-analyzer"], &[])?;
                }
                rust_analyzer::run(&context.sources, request)
            }
            Shared::WhyBuildError { objects } => crate::build_error::why(&objects),
        }
    }
}

/// `modules --kdir DIR`: the context's module builds against the user's kernel.
fn modules(context: &Context, kdir: &Path, arch: Option<&str>) -> Result {
    let kdir = kdir.canonicalize().unwrap_or_else(|_| kdir.to_path_buf());
    let config = kdir.join(".config");
    let arch = match arch {
        Some(name) => arch::arch(name)?,
        None => arch::from_config(
            &std::fs::read_to_string(&config)
                .map_err(|e| anyhow::anyhow!("{}: {e}", config.display()))?,
        )?,
    };
    let tools = kernel::Toolchain::find(&arch)?;
    let rustc_version =
        ui::output(std::process::Command::new(&tools.rustc).arg("--version")).unwrap_or_default();
    crate::preflight::KernelDir {
        dir: &kdir,
        rustc_version: &rustc_version,
    }
    .check()
    .map_err(anyhow::Error::msg)?;
    let build = kernel::Build::existing(&kdir, &arch)?;
    let mut problems = Vec::new();
    for plan in (context.plans)()? {
        for spec in &plan.builds {
            if !matches!(spec.expect, crate::plan::Expect::Modules { .. }) {
                continue;
            }
            let dir = context.out.join(&plan.dir).join(&spec.name);
            match cell::build_module(spec, &tools, &build, &arch, &dir)? {
                cell::Built::Modules(kos, warnings) => {
                    for ko in kos {
                        println!("    built {}", ko.display());
                    }
                    for warning in warnings {
                        println!("    warning: {warning}");
                    }
                }
                cell::Built::Failed(failed, _) => problems.extend(failed),
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(anyhow::anyhow!(problems.join("\n")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_checked_against_the_matrix() {
        assert_eq!(kernel_list("6.12,7.3").unwrap(), "6.12,7.3");
        assert_eq!(arch_list("all").unwrap(), "all");
        let e = arch_list("x86_64,sparc").unwrap_err();
        assert!(
            e.contains("unknown architecture `sparc`") && e.contains("loongarch64"),
            "{e}"
        );
        assert!(one_arch("x86_64,arm64").is_err());
        assert!(one_kernel("7.3").is_ok());
        assert!(kernel_list("5.10").is_err());
    }
}
