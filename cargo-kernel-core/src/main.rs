// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo kernel-core`: a driver's host suites with cargo, and its KUnit suites under QEMU on
//! every kernel and architecture (`cargo kernel-core --help`).

use cargo_kernel_core::arch::{self, ARCHES, KERNELS};
use cargo_kernel_core::driver::{self, Driver};
use cargo_kernel_core::ui::{self, Error, Result};
use cargo_kernel_core::{build_error, cell, kernel, new, rust_analyzer, setup};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Cargo runs a subcommand as `cargo-kernel-core kernel-core ARGS`.
#[derive(Parser)]
#[command(name = "cargo", bin_name = "cargo")]
enum Cargo {
    KernelCore(Cli),
}

/// Test an out-of-tree Rust kernel driver on every kernel and architecture.
#[derive(Args)]
#[command(
    version,
    after_help = kernel::CACHE_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Make a driver skeleton in DIR that builds and passes as generated.
    ///
    /// Its logic with a #[kunit_tests] suite (tested on the host by its Cargo.toml), the module
    /// glue, a Kbuild that uses kernel-core.mk, rust-analyzer set-up and a CI workflow.
    New {
        /// The new driver's directory; its name is the driver's.
        dir: PathBuf,
        /// The kernel-core dependency: a version (default: this tool's) or a path to a
        /// kernel-core package (a checkout's `kernel-core/`, a vendor directory).
        #[arg(long, value_name = "VERSION|PATH")]
        kernel_core: Option<String>,
    },
    /// Run the driver's host suites, then its KUnit suites on each kernel and architecture.
    ///
    /// Per cell: builds the kernel if it is not cached, builds the module, boots QEMU, and
    /// judges every case the sources declare. Writes a KTAP log (accepted by the kernel's
    /// kunit.py parse) and JUnit XML per cell in target/kernel-core/<kernel>-<arch>/. Fails on a
    /// failed or missing case, an Oops, BUG, WARNING or panic, a module that did not build or
    /// load, or a timeout, naming the log.
    Test {
        #[command(flatten)]
        cells: Cells,
        /// The driver's directory.
        #[arg(long, value_name = "DIR", default_value = ".")]
        driver: PathBuf,
        /// Skip the host suites.
        #[arg(long)]
        no_host: bool,
    },
    /// The kernels of the matrix: list them, build them into the cache, or remove builds.
    #[command(subcommand)]
    Kernels(KernelsCmd),
    /// Build the driver's module against a kernel build of your own.
    ///
    /// The kernel build directory (its O=) is checked first: Rust support, the same rustc,
    /// Module.symvers. The architecture is read from its .config unless given.
    ///
    /// Or, with --distro or --kernel-release, for a distribution's stock kernel as its users run
    /// it: the module is built against the kernel's Rust metadata, rebuilt and checked in the
    /// cache (as for `test --kernel debian-7.3`), and the output says how to install and sign it.
    Modules {
        /// The kernel build directory.
        #[arg(long, value_name = "DIR", required_unless_present_any = ["distro", "kernel_release"], conflicts_with_all = ["distro", "kernel_release"])]
        kdir: Option<PathBuf>,
        /// A distribution kernel of the matrix: debian-7.3 (trixie-backports) or debian-7.2
        /// (forky); its newest release unless --kernel-release is given.
        #[arg(long, value_name = "K")]
        distro: Option<String>,
        /// The stock kernel release to build for, such as `$(uname -r)` on the machine that will
        /// load the module (`7.3.4+deb13-amd64`); picks the --distro row if that is not given.
        #[arg(long, value_name = "KREL")]
        kernel_release: Option<String>,
        /// With a stock kernel: also write the metadata overlay package (rust/*.rmeta, the proc
        /// macros, scripts/target.json), which makes `make -C /lib/modules/$KREL/build M=...`
        /// build Rust modules on the user's machine.
        #[arg(long)]
        overlay: bool,
        /// The driver's directory.
        #[arg(long, value_name = "DIR", default_value = ".")]
        driver: PathBuf,
        /// x86_64, arm64, riscv64 or loongarch64 (default: from the .config).
        #[arg(long, value_name = "A")]
        arch: Option<String>,
    },
    /// Write the driver's rust-project.json, so that rust-analyzer knows the kernel's crates,
    /// kernel_core and kernel_core_macros in the module.
    ///
    /// Runs the kernel's `make M=DIR rust-analyzer`, builds libkernel_core_macros.so with
    /// Kbuild, adds kernel-core (the version the driver's Cargo.toml resolves), checks the
    /// file, and runs `rust-analyzer diagnostics` on the driver if rust-analyzer is installed.
    RustAnalyzer {
        /// The kernel the module is built against: 7.3 (default), 7.2 or 6.12.
        #[arg(long, value_name = "K", default_value = "7.3")]
        kernel: String,
        /// x86_64 (default), arm64, riscv64 or loongarch64.
        #[arg(long, value_name = "A")]
        arch: Option<String>,
        /// The driver's directory.
        #[arg(long, value_name = "DIR", default_value = ".")]
        driver: PathBuf,
        /// rust-analyzer must run and find no error in the driver or in kernel-core.
        #[arg(long)]
        strict: bool,
    },
    /// Name each build_assert!/build_error! call that survived optimization in these objects.
    WhyBuildError {
        /// The object files.
        #[arg(required = true, value_name = "OBJECT.o")]
        objects: Vec<PathBuf>,
    },
}

/// Which kernels and architectures.
#[derive(Args)]
struct Cells {
    /// Comma-separated kernels (7.3, 7.2, 6.12; debian-7.3, debian-7.2: Debian's stock kernels,
    /// booted as shipped) or all; default 7.3.
    #[arg(long, value_name = "K")]
    kernel: Option<String>,
    /// Comma-separated architectures (x86_64, arm64, riscv64, loongarch64) or all; default
    /// x86_64.
    #[arg(long, value_name = "A")]
    arch: Option<String>,
}

#[derive(Subcommand)]
enum KernelsCmd {
    /// The kernels and architectures, and which builds are cached.
    List,
    /// Fetch and build kernels into the cache.
    Build(Cells),
    /// Remove cached kernel builds (sources and packages stay).
    Clean(Cells),
}

fn main() -> ExitCode {
    let Cargo::KernelCore(cli) = Cargo::parse();
    let result = match cli.command {
        Cmd::New { dir, kernel_core } => new::create(&dir, kernel_core.as_deref()),
        Cmd::Test {
            cells,
            driver,
            no_host,
        } => test(&cells, &driver, !no_host),
        Cmd::Kernels(command) => kernels(&command),
        Cmd::Modules {
            kdir: Some(kdir),
            driver,
            arch,
            ..
        } => modules(&kdir, &driver, arch.as_deref()),
        Cmd::Modules {
            kdir: None,
            driver,
            arch,
            distro,
            kernel_release,
            overlay,
        } => stock_modules(
            distro.as_deref(),
            kernel_release.as_deref(),
            &driver,
            arch.as_deref(),
            overlay,
        ),
        Cmd::RustAnalyzer {
            kernel,
            arch,
            driver,
            strict,
        } => Driver::open(&driver).and_then(|driver| {
            let sources = rust_analyzer::Sources {
                kernel_core: driver.kernel_core.clone(),
                macros: driver.macros.clone(),
                out: driver.target_dir.join("kernel-core"),
            };
            let request =
                rust_analyzer::Request::new(&kernel, arch.as_deref(), driver.dir.clone(), strict)?;
            rust_analyzer::run(&sources, request)
        }),
        Cmd::WhyBuildError { objects } => build_error::why(&objects),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `cargo kernel-core test`.
fn test(cells: &Cells, dir: &std::path::Path, host: bool) -> Result {
    let start = std::time::Instant::now();
    let matrix = arch::matrix(cells.kernel.as_deref(), cells.arch.as_deref())?;
    let driver = Driver::open(dir)?;
    println!(
        "{}: kernel-core {} from {}",
        driver.name(),
        driver.kernel_core_version,
        driver.kernel_core.display()
    );
    let host_start = std::time::Instant::now();
    if host {
        driver::host_tests(&driver)?;
    }
    let host_seconds = host.then(|| host_start.elapsed().as_secs_f64());
    let mut reports = Vec::new();
    for (kernel, arch) in &matrix {
        reports.push(cell::run(&driver, kernel, arch)?);
    }
    println!();
    print!("{}", cargo_kernel_core::summary::table(&reports));
    let timings = driver.target_dir.join("kernel-core/run.json");
    cargo_kernel_core::summary::write_timings(
        &timings,
        host_seconds,
        start.elapsed().as_secs_f64(),
        &reports,
    )?;
    let problems: Vec<&String> = reports.iter().flat_map(|r| &r.problems).collect();
    if problems.is_empty() {
        println!(
            "{}: every case passed in {} cell(s) ({})",
            driver.name(),
            reports.len(),
            ui::elapsed(start.elapsed())
        );
        Ok(())
    } else {
        Err(Error(format!(
            "{} problem(s):\n  {}",
            problems.len(),
            problems
                .iter()
                .map(|p| p.as_str())
                .collect::<Vec<_>>()
                .join("\n  ")
        )))
    }
}

/// `cargo kernel-core kernels ...`.
fn kernels(command: &KernelsCmd) -> Result {
    match command {
        KernelsCmd::List => {
            println!("| kernel | Debian package (suite) | architecture | cached |");
            println!("|---|---|---|---|");
            for k in KERNELS {
                for a in ARCHES {
                    println!(
                        "| {} | {} ({}) | {} | {} |",
                        k.name,
                        k.package,
                        k.suite,
                        a.name,
                        if kernel::is_cached(k, a) { "yes" } else { "no" }
                    );
                }
            }
            println!("cache: {}", kernel::cache_dir().display());
            Ok(())
        }
        KernelsCmd::Build(cells) => {
            for (k, a) in arch::matrix(cells.kernel.as_deref(), cells.arch.as_deref())? {
                setup::ensure_kernel_tools(&a)?;
                let tools = kernel::Toolchain::for_kernel(&k, &a)?;
                kernel::build(&k, &a, &tools)?;
            }
            Ok(())
        }
        KernelsCmd::Clean(cells) => {
            for (k, a) in arch::matrix(cells.kernel.as_deref(), cells.arch.as_deref())? {
                for dir in kernel::clean(&k, &a)? {
                    println!("    removed {}", dir.display());
                }
            }
            Ok(())
        }
    }
}

/// `cargo kernel-core modules --kdir DIR`: the driver's module against the user's kernel.
fn modules(kdir: &std::path::Path, dir: &std::path::Path, arch: Option<&str>) -> Result {
    let driver = Driver::open(dir)?;
    let kdir = kdir.canonicalize().unwrap_or_else(|_| kdir.to_path_buf());
    let config = kdir.join(".config");
    let arch = match arch {
        Some(name) => arch::arch(name)?,
        None => arch::from_config(
            &std::fs::read_to_string(&config)
                .map_err(|e| Error(format!("{}: {e}", config.display())))?,
        )?,
    };
    let tools = kernel::Toolchain::find(&arch)?;
    let rustc_version =
        ui::output(std::process::Command::new(&tools.rustc).arg("--version")).unwrap_or_default();
    cargo_kernel_core::preflight::KernelDir {
        dir: &kdir,
        rustc_version: &rustc_version,
    }
    .check()
    .map_err(Error)?;
    let build = kernel::Build::existing(&kdir, &arch)?;
    let out = driver.target_dir.join("kernel-core/custom");
    match cell::build_module(&driver, &tools, &build, &arch, &out)? {
        Ok(kos) => {
            for ko in kos {
                println!("    built {}", ko.display());
            }
            Ok(())
        }
        Err(problems) => Err(Error(problems.join("\n"))),
    }
}

/// `cargo kernel-core modules --distro K [--kernel-release KREL]`: the driver's module for a
/// distribution's stock kernel, with how to install and sign it.
fn stock_modules(
    distro: Option<&str>,
    release: Option<&str>,
    dir: &std::path::Path,
    arch: Option<&str>,
    overlay: bool,
) -> Result {
    use cargo_kernel_core::distro;
    let arch = arch::arch(arch.unwrap_or("x86_64"))?;
    let kernel = match (distro, release) {
        (Some(name), _) => arch::kernel(name)?,
        (None, Some(krel)) => distro::row_of(krel)?,
        (None, None) => unreachable!("clap requires one"),
    };
    distro::stock(&kernel)?;
    // The release first: a wrong one is said before anything else is looked at.
    let release = distro::release(&kernel, &arch, release)?;
    let driver = Driver::open(dir)?;
    setup::ensure_kernel_tools(&arch)?;
    let tools = distro::toolchain::find(&release)?;
    let build = distro::build_release(&kernel, &arch, &tools, &release)?;
    let out = driver
        .target_dir
        .join("kernel-core/distro")
        .join(&release.release);
    let kos = match cell::build_module(&driver, &tools, &build, &arch, &out)? {
        Ok(kos) => kos,
        Err(problems) => return Err(Error(problems.join("\n"))),
    };
    for ko in &kos {
        println!("    built {}", ko.display());
    }
    if overlay {
        let flavour = distro::debian_arch(&arch).unwrap_or("amd64");
        let deb = distro::overlay::write(&release, &build.dir, flavour, &out)?;
        println!(
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
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cargo::command().debug_assert();
    }

    #[test]
    fn options_parse_and_misuse_is_refused() {
        let parse =
            |args: &[&str]| Cargo::try_parse_from([&["cargo", "kernel-core"], args].concat());
        assert!(parse(&["test", "--kernel", "6.12,7.3", "--arch", "all"]).is_ok());
        assert!(parse(&["test", "--bogus"]).is_err());
        assert!(parse(&["new"]).is_err(), "DIR is required");
        assert!(parse(&["modules"]).is_err(), "--kdir is required");
        assert!(parse(&["modules", "--distro", "debian-7.3"]).is_ok());
        assert!(parse(&[
            "modules",
            "--kernel-release",
            "7.3.4+deb13-amd64",
            "--overlay"
        ])
        .is_ok());
        assert!(
            parse(&["modules", "--kdir", "/k", "--distro", "debian-7.3"]).is_err(),
            "a build directory or a stock kernel, not both"
        );
        assert!(parse(&["kernels", "clean", "--kernel", "7.2"]).is_ok());
        assert!(parse(&["why-build-error"]).is_err(), "objects are required");
    }
}
