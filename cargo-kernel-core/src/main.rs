// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo kernel-core`: a driver's host suites with cargo, and its KUnit suites on every kernel
//! and architecture (`cargo kernel-core --help`).

use cargo_kernel_core::cli::{self, Cells, Shared};
use cargo_kernel_core::driver::{self, Driver};
use cargo_kernel_core::ui::{self, Result};
use cargo_kernel_core::{cell, kernel, new, probes, process, rust_analyzer, setup};
use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Cargo runs a subcommand as `cargo-kernel-core kernel-core ARGS`.
#[derive(Parser)]
#[command(name = "cargo", bin_name = "cargo")]
enum Cargo {
    KernelCore(Cli),
}

/// Test an out-of-tree Rust kernel driver on every kernel and architecture.
#[derive(Args)]
#[command(version, after_help = kernel::CACHE_HELP)]
struct Cli {
    /// The driver's directory.
    #[arg(long, value_name = "DIR", default_value = ".", global = true)]
    driver: PathBuf,
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Make a driver skeleton in DIR that builds and passes as generated.
    ///
    /// Its library (src/, two files with a #[kunit_tests] suite each), tested on the host by
    /// its Cargo.toml and built into the module by its Kbuild; the module glue; rust-analyzer
    /// set-up; a CI workflow for the required matrix.
    New {
        /// The new driver's directory; its name is the driver's.
        dir: PathBuf,
        /// The kernel-core dependency: a version (default: this tool's), a path to a
        /// kernel-core package (a checkout's `kernel-core/`, a vendor directory), or a git
        /// repository (`git+https://...`).
        #[arg(long, value_name = "VERSION|PATH|GIT")]
        kernel_core: Option<String>,
    },
    /// Run the driver's host suites, then its KUnit suites in each cell.
    ///
    /// With neither --kernel nor --arch: the host suites, then the fast cell (Linux 7.3 on
    /// User-Mode Linux, a plain process). Per cell: builds the kernel if it is not cached,
    /// builds the module, boots, and judges every case the module declares. Writes a KTAP
    /// log (accepted by the kernel's kunit.py parse), JUnit XML and run.json per cell in
    /// target/kernel-core/<kernel>-<arch>/. Fails on a failed, hung or missing case, a kernel
    /// WARNING, BUG, Oops or panic, lost log lines, a module that did not build or load, or a
    /// timeout, naming the log. Cells run --jobs at a time, those that took longest last time
    /// first; each cell's output comes whole, in the matrix's order.
    Test {
        #[command(flatten)]
        matrix: cli::Matrix,
        /// Skip the host suites.
        #[arg(long, conflicts_with = "host_only")]
        no_host: bool,
        /// Run the host suites only.
        #[arg(long)]
        host_only: bool,
        /// Fail on module-build warnings.
        #[arg(long)]
        deny_warnings: bool,
        /// How long a case may run without output before it counts as hung.
        #[arg(long, value_name = "SECONDS", default_value_t = 30)]
        case_timeout: u64,
        /// Under QEMU, keep the guest's time by its own instructions (`-icount shift=0,sleep=off`)
        /// instead of the host's clock, so that a busy host cannot stretch a case's timeouts.
        #[arg(long)]
        icount: bool,
    },
    /// Install what the kernel builds and boots need, saying what it changes: Debian
    /// packages (clang, lld, QEMU, ...; run as root), rustup toolchains and bindgen.
    Setup {
        #[command(flatten)]
        cells: Cells,
    },
    #[command(flatten)]
    Shared(Shared),
}

fn main() -> ExitCode {
    if let Some(status) = probes::answer_if_asked() {
        return status;
    }
    let Cargo::KernelCore(cli) = Cargo::parse();
    if let Err(e) = process::install_signal_handlers() {
        eprintln!("warning: {e}");
    }
    let result = match cli.command {
        Cmd::New { dir, kernel_core } => new::create(&dir, kernel_core.as_deref()),
        Cmd::Test {
            matrix,
            no_host,
            host_only,
            deny_warnings,
            case_timeout,
            icount,
        } => test(
            &matrix.cells,
            &cli.driver,
            !no_host,
            !host_only,
            matrix.jobs(),
            cell::Options {
                deny_warnings,
                case_timeout: std::time::Duration::from_secs(case_timeout),
                icount,
            },
        ),
        Cmd::Setup { cells } => setup_cells(&cells),
        Cmd::Shared(shared) => shared.run(|| {
            let driver = Driver::open(&cli.driver)?;
            let out = driver.target_dir.join("kernel-core");
            Ok(cli::Context {
                sources: rust_analyzer::Sources {
                    kernel_core: driver.kernel_core.clone(),
                    macros: driver.macros.clone(),
                    out: out.clone(),
                },
                module: driver.dir.clone(),
                out: out.join("custom"),
                plans: Box::new(move || Ok(vec![driver.plan()])),
            })
        }),
    };
    process::finish(result)
}

/// `cargo kernel-core setup`: the one command that installs Debian packages.
fn setup_cells(cells: &Cells) -> Result {
    setup::allow_installs();
    for (_, arch) in cells.matrix()? {
        setup::ensure_kernel_tools(&arch)?;
    }
    cargo_kernel_core::say!("    ready");
    Ok(())
}

/// `cargo kernel-core test`.
fn test(
    cells: &Cells,
    dir: &Path,
    host: bool,
    kernels: bool,
    jobs: usize,
    options: cell::Options,
) -> Result {
    let start = std::time::Instant::now();
    let matrix = if kernels { cells.matrix()? } else { Vec::new() };
    let driver = Driver::open(dir)?;
    cargo_kernel_core::say!(
        "{}: kernel-core {} from {}",
        driver.name(),
        driver.kernel_core_version,
        driver.kernel_core.display()
    );
    kernel::announce_cold(&matrix);
    if host {
        driver::host_tests(&driver)?;
    }
    let out = driver.target_dir.join("kernel-core");
    // The first error (a kernel that does not build, an interrupted run) ends the run.
    let reports = cell::run_all(&matrix, jobs, &out, options, false, |_| {
        Ok(Some(vec![driver.plan()]))
    })?
    .reports;
    if !reports.is_empty() {
        cargo_kernel_core::say!();
        print!("{}", cargo_kernel_core::summary::table(&reports));
    }
    let problems: Vec<&String> = reports.iter().flat_map(|r| r.problems()).collect();
    if problems.is_empty() {
        let cases: usize = reports
            .iter()
            .flat_map(|r| &r.plans)
            .map(|p| p.cases.len())
            .sum();
        cargo_kernel_core::say!(
            "{}: {} ({})",
            driver.name(),
            match (reports.len(), cases) {
                (0, _) => "every host test passed".to_string(),
                (cells, 0) => format!(
                    "every module loaded and unloaded cleanly in {cells} cell(s), which ran no KUnit case"
                ),
                (cells, cases) => format!("all {cases} case results are as declared in {cells} cell(s)"),
            },
            ui::elapsed(start.elapsed())
        );
        Ok(())
    } else {
        Err(anyhow::anyhow!(
            "{} problem(s):\n  {}",
            problems.len(),
            problems
                .iter()
                .map(|p| p.as_str())
                .collect::<Vec<_>>()
                .join("\n  ")
        ))
    }
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
        assert!(parse(&["test", "--arch", "sparc"]).is_err());
        assert!(parse(&["test", "--host-only", "--no-host"]).is_err());
        assert!(parse(&["test", "--jobs", "3", "--kernel", "all"]).is_ok());
        assert!(parse(&["test", "-j", "1"]).is_ok());
        assert!(parse(&["test", "--jobs", "0"]).is_err(), "at least one job");
        assert!(
            parse(&["kernels", "list", "--jobs", "2"]).is_err(),
            "only runs take --jobs"
        );
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
        assert!(parse(&["kernels", "list", "--kernel", "6.12", "--arch", "um"]).is_ok());
        assert!(parse(&["why-build-error"]).is_err(), "objects are required");
    }
}
