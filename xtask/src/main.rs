// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! kernel-core's scripts: `cargo xtask --help`.
//!
//! Written in Rust on a few well-kept crates (clap for this command line), so a fresh clone
//! needs nothing but cargo.

mod bench;
mod corpus;
mod host;
mod modules;
mod newcomer;
mod qemu;
mod runner;

// The runner's library, which `cargo kernel-core` is built on: kernel-core's own modules are
// drivers like any other.
pub(crate) use cargo_kernel_core::{
    arch, bail, build_error, guest, kernel, ktap, preflight, rust_analyzer, setup, ui, verdict,
};

use crate::ui::Context as _;
use arch::{Arch, Kernel, ARCHES, KERNELS};
use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use ui::{Error, Result};

/// kernel-core's build, test and QEMU scripts.
#[derive(Parser)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    after_help = kernel::CACHE_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Everything CI checks.
    ///
    /// rustfmt, clippy, the host suites on stable and on Rust 1.85 (debug and release), i686,
    /// Miri, the no_std targets, packaging, the docs, the corpus, the newcomer's crate, the
    /// differential tests against Linux 7.3's own code, then the kernel runs: x86_64 on 7.3,
    /// 7.2 and 6.12, then arm64, riscv64 and loongarch64 on 7.3 and 6.12, of which a run whose
    /// kernel is not cached is left out (and said so) past 70 minutes, to stay within CI's 90;
    /// on 7.3 the switch-back check; and `rust-analyzer --strict` on every kernel. Installs
    /// what is missing.
    Test {
        /// Skip the kernel runs.
        #[arg(long, conflicts_with = "kernel_only")]
        host_only: bool,
        /// Skip the host checks.
        #[arg(long)]
        kernel_only: bool,
        /// nextest's `ci` profile (JUnit in target/nextest/ci/junit.xml).
        #[arg(long)]
        ci: bool,
    },
    /// Build a kernel (cached) and the modules, boot QEMU, run the KUnit suites.
    ///
    /// Builds kernel-core's modules and the example driver, checks that an unprovable
    /// build_assert! fails modpost naming its site, boots QEMU, runs the KUnit suites and the
    /// corpus (whose verdicts must match `cargo test`'s), and prints a summary. On 7.3, the
    /// switch-back check: the sample, the example and the suites built again with
    /// `kernel_core::` naming the kernel's own items, booted, and passing. Fails on any failed
    /// or missing case, Oops, BUG, WARNING, panic or timeout. The console log is saved to
    /// target/kernel/<kernel>-<arch>/console.log.
    Qemu(Targets),
    /// `cargo kernel-core` end to end, as a driver author uses it.
    ///
    /// actionlint on the CI workflow that `cargo kernel-core new` writes; kernel-core packaged
    /// into a vendor directory outside the repository, a driver made by
    /// `cargo kernel-core new` on it, `cargo kernel-core test` on the cells asked for (default:
    /// all of them), then again with one KUnit case made to fail, which must fail the run
    /// naming the case and the cell.
    Runner(Targets),
    /// `qemu` with the defaults, ending with what the sample module printed.
    Demo(Targets),
    /// The kernels of the matrix: list them, or build them into the cache.
    #[command(subcommand)]
    Kernels(KernelsCmd),
    /// Build kernel-core's modules and the example driver against your own kernel build.
    ///
    /// The kernel build directory (its O=) is checked first: Rust support, the same rustc,
    /// Module.symvers. The architecture is read from its .config unless given. Output:
    /// target/kernel/custom/.
    Modules {
        /// The kernel build directory.
        #[arg(long, value_name = "DIR")]
        kdir: PathBuf,
        /// x86_64, arm64, riscv64 or loongarch64 (default: from the .config).
        #[arg(long, value_name = "A")]
        arch: Option<String>,
    },
    /// Write a module's rust-project.json for rust-analyzer.
    ///
    /// So that rust-analyzer knows the kernel's crates, kernel_core and kernel_core_macros:
    /// builds the kernel if it is not cached, runs `make M=DIR rust-analyzer`, builds
    /// libkernel_core_macros.so with Kbuild into target/kernel/<kernel>-<arch>/rust-analyzer/,
    /// checks the file, and runs `rust-analyzer diagnostics DIR` if rust-analyzer is installed
    /// (`rustup component add rust-analyzer`).
    RustAnalyzer {
        /// The kernel the module is built against: 7.3, 7.2 or 6.12.
        #[arg(long, value_name = "K")]
        kernel: String,
        /// x86_64 (default), arm64, riscv64 or loongarch64.
        #[arg(long, value_name = "A")]
        arch: Option<String>,
        /// The module's directory (default: examples/out-of-tree-driver).
        #[arg(long, value_name = "DIR")]
        module: Option<PathBuf>,
        /// rust-analyzer must run and find no error in the module or in kernel-core (as `test`
        /// runs it).
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
    /// Measure what kernel-core costs, as ratios.
    ///
    /// Compile time of 10,000 assertions (rustc instructions), instructions against
    /// hand-written code (x86_64, aarch64, riscv64), bytes and build seconds added to a Linux
    /// 7.3 module, test-suite times. Writes bench/RESULTS.md; figures that miss their goals are
    /// reported, never fatal.
    Bench,
}

/// Which kernels and architectures to run.
#[derive(Args)]
struct Targets {
    /// x86_64 (default), arm64, riscv64, loongarch64, or all.
    #[arg(long, value_name = "A")]
    arch: Option<String>,
    /// 7.3 (default), 7.2, 6.12, or all (with `--arch all`: 7.2 on x86_64 only, as in the test
    /// matrix, unless named).
    #[arg(long, value_name = "K")]
    kernel: Option<String>,
}

#[derive(Subcommand)]
enum KernelsCmd {
    /// The kernels and architectures, and which builds are cached.
    List,
    /// Fetch and build kernels into the cache, with nothing else.
    Build(Targets),
}

/// The repository root (the parent of `xtask/`).
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the repository")
        .to_path_buf()
}

/// The example driver, the module `rust-analyzer` sets up by default.
const EXAMPLE: &str = "examples/out-of-tree-driver";

/// This checkout's kernel-core, for `rust-analyzer`: output in `target/kernel/`.
fn sources(repo: &Path) -> rust_analyzer::Sources {
    rust_analyzer::Sources {
        kernel_core: repo.join("kernel-core"),
        macros: repo.join("macros"),
        out: repo.join("target/kernel"),
    }
}

/// One QEMU run of the matrix.
#[derive(Clone, Copy)]
struct Run {
    arch: Arch,
    kernel: Kernel,
    /// Whether `cargo xtask test` may leave it out when its kernel is not cached and CI's time
    /// runs short (see [`test`]).
    optional: bool,
}

/// Parses the options of `qemu`: the cells they name, as `cargo kernel-core test` reads them
/// ([`arch::matrix`]), with neither option the newest kernel on x86_64.
fn targets(targets: &Targets) -> Result<Vec<Run>> {
    let (kernel, arch) = match (targets.kernel.as_deref(), targets.arch.as_deref()) {
        (None, None) => (Some(KERNELS[0].name), Some(ARCHES[0].name)),
        options => options,
    };
    Ok(arch::matrix(kernel, arch)?
        .into_iter()
        .map(|(kernel, arch)| Run {
            arch,
            kernel,
            optional: false,
        })
        .collect())
}

/// How long into `cargo xtask test` an optional run may still start a kernel build: CI allows
/// 90 minutes, and one more build and boot takes up to about 10 on 2 cores.
const OPTIONAL_BUILD_DEADLINE: std::time::Duration = std::time::Duration::from_secs(70 * 60);

/// Runs the QEMU matrix and prints its table; fails if any run failed. Optional runs whose
/// kernel is not cached are left out, and said so, once `started` is past the deadline.
fn qemu_matrix(
    repo: &Path,
    runs: &[Run],
    started: std::time::Instant,
) -> Result<Vec<qemu::Summary>> {
    let mut summaries = Vec::new();
    let mut errors = Vec::new();
    let mut left_out = Vec::new();
    for run in runs {
        let (arch, kernel) = (&run.arch, &run.kernel);
        if run.optional && started.elapsed() > OPTIONAL_BUILD_DEADLINE {
            let cached = kernel::is_cached(kernel, arch);
            if !cached {
                println!(
                    "=== Linux {} on {}: NOT RUN: its kernel is not cached and {} have passed, so building it could exceed CI's 90 minutes; the next run builds it ===",
                    kernel.name,
                    arch.name,
                    ui::elapsed(started.elapsed())
                );
                left_out.push(format!("{} on {}", kernel.name, arch.name));
                continue;
            }
        }
        match qemu::run(repo, kernel, arch) {
            Ok(summary) => summaries.push(summary),
            Err(e) => {
                println!("    Linux {} on {}: FAILED: {e}", kernel.name, arch.name);
                errors.push(format!("{} on {}: {e}", kernel.name, arch.name));
            }
        }
    }
    record_timings(repo, &summaries);
    println!();
    println!(
        "| arch | kernel | passed | failed | skipped | switch-back | kernel build | boot | result |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for s in &summaries {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {:.1}s | {} |",
            s.arch,
            s.kernel,
            s.passed,
            s.failed,
            s.skipped,
            s.switch_back
                .map_or("n/a".to_string(), |n| format!("{n} passed")),
            s.build_seconds.map_or("cached".to_string(), |t| format!(
                "{}m{:02}s",
                t / 60,
                t % 60
            )),
            s.boot_seconds,
            if s.problems.is_empty() {
                "ok"
            } else {
                "FAILED"
            }
        );
    }
    for run in &left_out {
        println!("| {run}: not run (time budget, see above) | | | | | | | | |");
    }
    for s in &summaries {
        for p in &s.problems {
            errors.push(format!("{} on {}: {p}", s.kernel, s.arch));
        }
    }
    if !errors.is_empty() {
        return Err(Error(format!(
            "{} problem(s):\n  {}",
            errors.len(),
            errors.join("\n  ")
        )));
    }
    Ok(summaries)
}

/// Appends one line per run to `target/kernel/timings.txt`, which `cargo xtask bench` reads:
/// `<kernel> <arch> <build seconds|cached> <boot seconds> <passed> <failed>`.
fn record_timings(repo: &Path, summaries: &[qemu::Summary]) {
    use std::io::Write;
    let path = repo.join("target/kernel/timings.txt");
    let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
    else {
        return;
    };
    for s in summaries {
        let build = s
            .build_seconds
            .map_or("cached".to_string(), |t| t.to_string());
        let _ = writeln!(
            file,
            "{} {} {build} {:.1} {} {}",
            s.kernel, s.arch, s.boot_seconds, s.passed, s.failed
        );
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let repo = repo();
    let result = match cli.command {
        Cmd::Qemu(t) => {
            targets(&t).and_then(|t| qemu_matrix(&repo, &t, std::time::Instant::now()).map(drop))
        }
        Cmd::Demo(t) => targets(&t).and_then(|t| {
            let summaries = qemu_matrix(&repo, &t, std::time::Instant::now())?;
            println!();
            println!("What the sample module and the example driver printed:");
            for s in &summaries {
                for line in &s.sample {
                    println!("  {line}");
                }
            }
            Ok(())
        }),
        Cmd::WhyBuildError { objects } => build_error::why(&objects),
        Cmd::Runner(t) => runner::lint_workflow(&repo).and_then(|()| {
            runner::check(
                &repo,
                t.kernel.as_deref().unwrap_or("all"),
                t.arch.as_deref().unwrap_or("all"),
            )
        }),
        Cmd::Kernels(command) => kernels(&command),
        Cmd::Test {
            host_only,
            kernel_only,
            ci,
        } => test(&repo, !kernel_only, !host_only, ci),
        Cmd::Bench => bench::run(&repo),
        Cmd::Modules { kdir, arch } => custom_modules(&repo, kdir, arch.as_deref()),
        Cmd::RustAnalyzer {
            kernel,
            arch,
            module,
            strict,
        } => rust_analyzer::Request::new(
            &kernel,
            arch.as_deref(),
            module.unwrap_or_else(|| repo.join(EXAMPLE)),
            strict,
        )
        .and_then(|request| rust_analyzer::run(&sources(&repo), request)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `cargo xtask kernels list`: the kernels and architectures, and which builds are cached;
/// `cargo xtask kernels build [--kernel K] [--arch A]`: fetch and build kernels into the
/// cache, with nothing else.
fn kernels(command: &KernelsCmd) -> Result {
    match command {
        KernelsCmd::Build(t) => {
            for run in targets(t)? {
                setup::ensure_kernel_tools(&run.arch)?;
                let tools = kernel::Toolchain::find(&run.arch)?;
                kernel::build(&run.kernel, &run.arch, &tools)?;
            }
            Ok(())
        }
        KernelsCmd::List => {
            println!(
                "| kernel | Debian package (suite) | architecture | in the test matrix | cached |"
            );
            println!("|---|---|---|---|---|");
            for k in KERNELS {
                for a in ARCHES {
                    println!(
                        "| {} | {} ({}) | {} | {} | {} |",
                        k.name,
                        k.package,
                        k.suite,
                        a.name,
                        if k.requires(a) { "yes" } else { "no" },
                        if kernel::is_cached(k, a) { "yes" } else { "no" }
                    );
                }
            }
            println!("cache: {}", kernel::cache_dir().display());
            Ok(())
        }
    }
}

/// `cargo xtask modules --kdir DIR`: kernel-core's modules against the user's kernel.
fn custom_modules(repo: &Path, kdir: PathBuf, arch_name: Option<&str>) -> Result {
    let kdir = kdir.canonicalize().unwrap_or(kdir);
    let arch = match arch_name {
        Some(name) => arch::arch(name)?,
        None => arch::from_config(
            &std::fs::read_to_string(kdir.join(".config")).at(kdir.join(".config"))?,
        )?,
    };
    let tools = kernel::Toolchain::find(&arch)?;
    let rustc_version =
        ui::output(std::process::Command::new(&tools.rustc).arg("--version")).unwrap_or_default();
    preflight::KernelDir {
        dir: &kdir,
        rustc_version: &rustc_version,
    }
    .check()
    .map_err(Error)?;
    let build = kernel::Build::existing(&kdir, &arch)?;
    let out = repo.join("target/kernel/custom");
    std::fs::create_dir_all(&out).at(&out)?;
    let flavour = modules::Flavour::KernelCore;
    let mut built = modules::build_ours(repo, &tools, &build, &arch, &out, flavour)?;
    built.push(modules::build_example(
        repo, &tools, &build, &arch, &out, flavour,
    )?);
    for ko in built {
        println!("    built {}", ko.display());
    }
    Ok(())
}

/// `cargo xtask test`.
fn test(repo: &Path, host: bool, kernel: bool, ci: bool) -> Result {
    let start = std::time::Instant::now();
    let mut failed = Vec::new();
    if host {
        host::setup()?;
        failed.extend(host::run(repo, ci));
    }
    if kernel {
        // The matrix: every architecture of the kernels that run on all of them (6.12 and
        // 7.3), the first architecture of the others (7.2). x86_64 first: on a machine whose
        // cache is empty, the other architectures are left out past the deadline if their
        // kernel is not built yet (said so, and built by the next run), to stay within CI's 90
        // minutes; once the kernels are cached, every cell runs.
        let mut runs: Vec<Run> = arch::required()
            .into_iter()
            .map(|(kernel, arch)| Run {
                arch,
                kernel,
                optional: arch.name != ARCHES[0].name,
            })
            .collect();
        runs.sort_by_key(|run| run.optional);
        if let Err(e) = qemu_matrix(repo, &runs, start) {
            println!("{e}");
            failed.push("kernel runs".to_string());
        }
        // The runner, as a driver author uses it: a skeleton outside the repository, on every
        // cell.
        if let Err(e) = runner::check(repo, "all", "all") {
            println!("    FAILED: {e}");
            failed.push("cargo kernel-core".to_string());
        }
        // The editor support, against both kernels: rust-analyzer must resolve everything in
        // the example driver and in kernel-core.
        setup::ensure_toolchain("stable", &["rust-analyzer"], &[])?;
        // The kernels this tool builds (a distribution's stock kernel has the same crates).
        for kernel in KERNELS.iter().filter(|k| k.stock.is_none()) {
            let request = rust_analyzer::Request::new(kernel.name, None, repo.join(EXAMPLE), true);
            if let Err(e) = request.and_then(|request| rust_analyzer::run(&sources(repo), request))
            {
                println!("    FAILED: {e}");
                failed.push(format!("rust-analyzer on {}", kernel.name));
            }
        }
    }
    println!();
    if failed.is_empty() {
        println!("all checks passed ({})", ui::elapsed(start.elapsed()));
        Ok(())
    } else {
        Err(Error(format!(
            "failed: {} ({})",
            failed.join("; "),
            ui::elapsed(start.elapsed())
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn options_parse_and_misuse_is_refused() {
        let parse = |args: &[&str]| Cli::try_parse_from([&["cargo-xtask"], args].concat());
        assert!(matches!(
            parse(&["test", "--host-only", "--ci"]).unwrap().command,
            Cmd::Test {
                host_only: true,
                kernel_only: false,
                ci: true
            }
        ));
        assert!(parse(&["test", "--host-only", "--kernel-only"]).is_err());
        assert!(parse(&["qemu", "--bogus"]).is_err());
        assert!(parse(&["modules"]).is_err(), "--kdir is required");
        assert!(parse(&["why-build-error"]).is_err(), "objects are required");
        let Cmd::Qemu(t) = parse(&["qemu", "--arch", "all", "--kernel", "6.12"])
            .unwrap()
            .command
        else {
            panic!("not qemu");
        };
        let runs = targets(&t).unwrap();
        assert_eq!(runs.len(), arch::kernel("6.12").unwrap().arches.len());
        assert!(runs.iter().all(|r| r.kernel.name == "6.12"));
        let Cmd::Qemu(t) = parse(&["qemu", "--arch", "all", "--kernel", "all"])
            .unwrap()
            .command
        else {
            panic!("not qemu");
        };
        // 7.2 on x86_64 only, as in the test matrix.
        let runs = targets(&t).unwrap();
        assert!(runs
            .iter()
            .any(|r| r.kernel.name == "7.2" && r.arch.name == "x86_64"));
        assert!(!runs
            .iter()
            .any(|r| r.kernel.name == "7.2" && r.arch.name == "arm64"));
        let Cmd::Qemu(t) = parse(&["qemu", "--arch", "sparc"]).unwrap().command else {
            panic!("not qemu");
        };
        assert!(targets(&t).is_err());
    }
}
