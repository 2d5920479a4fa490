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
    /// neither option: the command's default cell (above); with `--kernel all --arch all`: the
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

/// Which cells, and how many run at once: `--kernel`, `--arch` and `--jobs`.
#[derive(Args, Clone, Debug, Default)]
pub struct Matrix {
    #[command(flatten)]
    pub cells: Cells,
    /// How many cells run at once (one builds its module while another boots); their output
    /// still comes cell by cell, in order. One per core by default.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

impl Matrix {
    /// `--jobs`, or one per core.
    pub fn jobs(&self) -> usize {
        self.jobs
            .map_or_else(crate::lanes::default_jobs, usize::from)
    }
}

/// The commands both tools share.
#[derive(Subcommand, Debug)]
pub enum Shared {
    /// The kernels of the matrix: list them, build them into the cache, or remove builds.
    #[command(subcommand)]
    Kernels(KernelsCmd),
    /// Build the modules against a kernel build of your own, or a distribution's stock kernel.
    ///
    /// With --kdir, the kernel build directory (its O=) is checked first: Rust support, the
    /// same rustc, Module.symvers; the architecture is read from its .config unless given.
    /// With --distro or --kernel-release, for a distribution's stock kernel as its users run
    /// it: the modules are built against the kernel's Rust metadata, rebuilt and checked in
    /// the cache (as for `test --kernel debian-7.3`), and the output says how to install and
    /// sign them.
    Modules {
        /// The kernel build directory.
        #[arg(long, value_name = "DIR", required_unless_present_any = ["distro", "kernel_release"], conflicts_with_all = ["distro", "kernel_release"])]
        kdir: Option<PathBuf>,
        /// A distribution kernel of the matrix (debian-7.3, debian-7.2); its newest release
        /// unless --kernel-release is given.
        #[arg(long, value_name = "K", value_parser = one_kernel)]
        distro: Option<String>,
        /// The stock kernel release to build for, such as `$(uname -r)` on the machine that
        /// will load the module (`7.3.4+deb13-amd64`); picks the --distro row if that is not
        /// given.
        #[arg(long, value_name = "KREL")]
        kernel_release: Option<String>,
        /// With a stock kernel: also write the metadata overlay package (rust/*.rmeta, the
        /// proc macros, scripts/target.json), which makes `make -C /lib/modules/$KREL/build
        /// M=...` build Rust modules on the user's machine.
        #[arg(long)]
        overlay: bool,
        /// The architecture (default: from the .config, or x86_64 for a stock kernel).
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
    /// Check that every package the matrix fetches can be fetched, from nothing.
    ///
    /// From empty apt roots of its own (never the cache's): each suite's signed lists, each
    /// package's entry, size and SHA256, and that its URL serves a file of that size. Nothing
    /// but the lists is downloaded (a minute). Fails naming the package, the suite and the URL.
    CheckFetch,
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
    /// Runs the command; `context` is asked for only by the commands that act on modules.
    pub fn run(self, context: impl FnOnce() -> Result<Context>) -> Result {
        match self {
            Shared::Kernels(KernelsCmd::List(cells)) => {
                crate::say!(
                    "| kernel | Debian package (suite) | architecture | required | cached |"
                );
                crate::say!("|---|---|---|---|---|");
                for (k, a) in listed(&cells)? {
                    crate::say!(
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
                crate::say!("cache: {}", kernel::cache_dir().display());
                Ok(())
            }
            Shared::Kernels(KernelsCmd::Build(cells)) => {
                for (k, a) in cells.matrix()? {
                    setup::ensure_kernel_tools(&a)?;
                    let tools = kernel::Toolchain::for_kernel(&k, &a)?;
                    kernel::build(&k, &a, &tools)?;
                }
                Ok(())
            }
            Shared::Kernels(KernelsCmd::CheckFetch) => crate::fetch_check::check_all().map(drop),
            Shared::Kernels(KernelsCmd::Clean(cells)) => {
                for (k, a) in cells.matrix()? {
                    for dir in kernel::clean(&k, &a)? {
                        crate::say!("    removed {}", dir.display());
                    }
                }
                Ok(())
            }
            Shared::Modules {
                kdir: Some(kdir),
                arch,
                ..
            } => modules(&context()?, &kdir, arch.as_deref()),
            Shared::Modules {
                kdir: None,
                distro,
                kernel_release,
                overlay,
                arch,
            } => stock_modules(
                &context()?,
                distro.as_deref(),
                kernel_release.as_deref(),
                arch.as_deref(),
                overlay,
            ),
            Shared::RustAnalyzer {
                kernel,
                arch,
                module,
                strict,
            } => {
                let context = context()?;
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
    build_all(context, &tools, &build, &arch, &context.out).map(drop)
}

/// Builds the module builds of the context's plans against `build` into `out`; returns the
/// modules.
fn build_all(
    context: &Context,
    tools: &kernel::Toolchain,
    build: &kernel::Build,
    arch: &Arch,
    out: &Path,
) -> Result<Vec<PathBuf>> {
    let mut problems = Vec::new();
    let mut built = Vec::new();
    for plan in (context.plans)()? {
        for spec in &plan.builds {
            if !matches!(spec.expect, crate::plan::Expect::Modules { .. }) {
                continue;
            }
            let dir = out.join(&plan.dir).join(&spec.name);
            match cell::build_module(spec, tools, build, arch, &dir)? {
                cell::Built::Modules(kos, warnings) => {
                    for ko in &kos {
                        crate::say!("    built {}", ko.display());
                    }
                    for warning in warnings {
                        crate::say!("    warning: {warning}");
                    }
                    built.extend(kos);
                }
                cell::Built::Failed(failed, _) => problems.extend(failed),
            }
        }
    }
    if problems.is_empty() {
        Ok(built)
    } else {
        Err(anyhow::anyhow!(problems.join("\n")))
    }
}

/// `modules --distro K [--kernel-release KREL]`: the context's modules for a distribution's
/// stock kernel, with how to install and sign them.
fn stock_modules(
    context: &Context,
    distro: Option<&str>,
    release: Option<&str>,
    arch: Option<&str>,
    overlay: bool,
) -> Result {
    use crate::distro;
    let arch = arch::arch(arch.unwrap_or("x86_64"))?;
    let kernel = match (distro, release) {
        (Some(name), _) => arch::kernel(name)?,
        (None, Some(krel)) => distro::row_of(krel)?,
        (None, None) => unreachable!("clap requires one"),
    };
    distro::stock(&kernel)?;
    // The release first: a wrong one is said before anything else is looked at.
    let release = distro::release(&kernel, &arch, release)?;
    setup::ensure_kernel_tools(&arch)?;
    let tools = distro::toolchain::find(&release)?;
    let build = distro::build_release(&kernel, &arch, &tools, &release)?;
    let out = context.out.join("distro").join(&release.release);
    let kos = build_all(context, &tools, &build, &arch, &out)?;
    if overlay {
        let flavour = distro::debian_arch(&arch).unwrap_or("amd64");
        let deb = distro::overlay::write(&release, &build.dir, flavour, &out)?;
        crate::say!(
            "    metadata overlay: {} (install it next to linux-headers-{}; then `make -C /lib/modules/{1}/build M=$PWD` builds Rust modules)",
            deb.display(),
            release.release
        );
    }
    print!("{}", distro::shipping_notes(&release.release, &kos));
    Ok(())
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
