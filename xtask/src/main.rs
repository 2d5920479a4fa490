// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! kernel-core's own checks: `cargo xtask --help`.
//!
//! The runner is `cargo-kernel-core`'s library, the same one a driver author's
//! `cargo kernel-core` is: xtask only declares what kernel-core checks ([`plans`]: its modules,
//! examples, fixtures and self-tests as plans of module builds and checks; [`host`]: the host
//! checks), and runs them through that one pipeline.

mod corpus;
mod dkms;
mod host;
mod newcomer;
mod plans;
mod planted;
mod runner;
mod survey;
mod unbridged;

use anyhow::bail;
use cargo_kernel_core::cli::{self, Cells, Shared, CACHE_HELP};
use cargo_kernel_core::commands::{self, rust_analyzer, shared};
use cargo_kernel_core::infra::command;
use cargo_kernel_core::infra::error::Context as _;
use cargo_kernel_core::infra::error::Result;
use cargo_kernel_core::infra::{process, progress};
use cargo_kernel_core::kernel::{self, fetch_check, setup};
use cargo_kernel_core::model::arch::{self, Arch, Kernel, ARCHES, KERNELS};
use cargo_kernel_core::model::event::Events;
use cargo_kernel_core::model::{api, cell as cell_dir, console, plan::Plan, report::Report};
use cargo_kernel_core::pipeline::cell::{self, Planned};
use cargo_kernel_core::pipeline::{lanes, plan};
use cargo_kernel_core::report::summary::Summary;
use cargo_kernel_core::report::terminal::Terminal;
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// kernel-core's build, test and QEMU scripts.
#[derive(Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask", after_help = CACHE_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Everything CI checks.
    ///
    /// The host checks (rustfmt, clippy, the suites on stable and on the MSRV, release, i686,
    /// Miri, the no_std targets, packaging, the docs, the corpus, the newcomer's crate, the
    /// differential tests against Linux 7.3's own code, the survey of its drivers'
    /// references), then the required kernel matrix
    /// (x86_64 first; a cell whose kernel is not cached is left out, and said so, past 70
    /// minutes, to stay within CI's 90), the runner check, the DKMS check and
    /// `rust-analyzer --strict` on every kernel. Installs what is missing.
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
    /// kernel-core's checks in the cells asked for (default: Linux 7.3 on x86_64).
    ///
    /// Per cell, through cargo kernel-core's pipeline: kernel-core's modules and the example
    /// drivers built, booted and judged case by case; an unprovable build_assert! that must
    /// fail modpost naming its site; the KUnit self-test and the corpus checked; on 7.3 the
    /// switch-back check; on x86_64 the self-tests of the verdict (a WARN, a hang, lost log
    /// lines). Logs, KTAP, JUnit and run.json in target/kernel/<kernel>-<arch>/.
    Qemu {
        #[command(flatten)]
        matrix: cli::Matrix,
        #[command(flatten)]
        events: cli::Events,
    },
    /// `cargo kernel-core` end to end, as a driver author uses it.
    ///
    /// actionlint on the CI workflow that `cargo kernel-core new` writes; kernel-core packaged
    /// into a vendor directory outside the repository, a driver made by `cargo kernel-core
    /// new` on it, grown by ordinary Rust means, `cargo kernel-core test` on the cells asked
    /// for (default: the required matrix), then faults and misuse, each of which must fail the
    /// run naming what and where.
    Runner(Cells),
    /// The DKMS check: the driver `cargo kernel-core new` makes, packaged with `cargo
    /// kernel-core package --dkms` (and --with-tests, and the stock kernels' overlays), built
    /// by DKMS in a Debian trixie system (debootstrap, cached) against Debian's own headers
    /// with Debian's rustc, for the stock kernel and after a kernel upgrade (its rt-amd64
    /// flavour); the modules DKMS built loaded into Debian's vmlinuz under QEMU; then the
    /// overlay removed, and the preflight's message in DKMS's make.log. Needs root.
    Dkms {
        /// Only make the Debian root file system (debootstrap and apt, cached), as `cargo
        /// xtask test` does beside the host checks.
        #[arg(long)]
        root_only: bool,
    },
    /// `qemu` on Linux 7.3 for riscv64 unless told otherwise, ending with what the sample
    /// module printed.
    ///
    /// riscv64: the QEMU cell whose kernel builds fastest (three minutes on 2 cores, where
    /// x86_64's, which carries KASAN, KFENCE, lockdep and UBSAN, takes twice as long), so that
    /// the demo takes minutes on a fresh machine.
    Demo(cli::Matrix),
    /// Measure what kernel-core costs, as ratios, into bench/RESULTS.md (`kernel-core-bench`).
    Bench,
    /// How much of what Linux 7.3's in-tree Rust drivers and samples import from `kernel::`
    /// and `pin_init::` kernel-core provides.
    ///
    /// Every reference of `drivers/` and `samples/rust/` (use trees expanded, paths in types,
    /// expressions and macros' tokens, macros written without a path mapped to their module),
    /// checked by `cargo check` of a generated crate against kernel-core; per crate, in total
    /// and by missing module. Fails below the required share (`REQUIRED_PERCENT` in `xtask/src/survey.rs`).
    Survey(survey::Args),
    /// The planted bugs on the host (`kbuild/fixtures/planted_host`), through `cargo
    /// kernel-core test --fail-each-alloc`'s host step under nextest and `cargo test`: each
    /// caught by the host detector that the runner's table claims (lockdep, the atomic-sleep
    /// check, kmemleak, fault injection), named in the kernel's words, and none with the bugs
    /// removed (one of the host checks of `test`).
    #[command(hide = true)]
    PlantedHost,
    /// A driver outside the repository on kernel-core's packages (vendored), as the runner
    /// check makes one: `cargo kernel-core new`'s skeleton, or a copy of an example.
    #[command(hide = true)]
    PrepareDriver {
        /// The directory to make it in (emptied first).
        dir: PathBuf,
        /// An example driver of the repository to copy instead of the skeleton.
        #[arg(long, value_name = "EXAMPLE")]
        from: Option<PathBuf>,
    },
    #[command(flatten)]
    Shared(Shared),
}

/// The repository root (the parent of `xtask/`).
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the repository")
        .to_path_buf()
}

/// Where kernel-core's cells write: `target/kernel/<kernel>-<arch>/`.
fn out(repo: &Path) -> PathBuf {
    repo.join("target/kernel")
}

/// One cell of the matrix, and whether `test` may leave it out past the deadline.
#[derive(Clone, Copy)]
struct Run {
    kernel: Kernel,
    arch: Arch,
    optional: bool,
}

/// The demo's architecture (see `cargo xtask demo --help`).
const DEMO_ARCH: &str = "riscv64";

/// How long into `cargo xtask test` a cell whose kernel is not cached may still start a
/// kernel build: CI allows 90 minutes, and one more build and its cells take up to about 15
/// on 2 cores.
const OPTIONAL_BUILD_DEADLINE: std::time::Duration = std::time::Duration::from_secs(70 * 60);

/// The plans of a cell: kernel-core's, the planted bugs (every cell), the switch-back check
/// where the kernel has the whole mirrored API (not on a distribution's kernel, whose own
/// `#[kunit_tests]` would compile the suites out), and the verdict self-tests on x86_64 (all
/// on 7.3, the WARN on 6.12).
fn cell_plans(
    repo: &Path,
    kernel: &Kernel,
    arch: &Arch,
    host: &Arc<corpus::Verdicts>,
) -> Result<Vec<Plan>> {
    let planted = plans::planted(repo, planted::claims(kernel, arch));
    if kernel.stock.is_some() {
        return Ok(vec![
            plans::kernel_core(repo, kernel, host.clone())?,
            planted,
        ]);
    }
    let levels = api::read(&repo.join("kernel-core"))?;
    let version = api::series(kernel.package.trim_start_matches("linux-source-"))
        .ok_or_else(|| anyhow::anyhow!("no version in {}", kernel.package))?;
    let api = api::cfgs(&levels, version);
    let mut plans = vec![plans::kernel_core(repo, kernel, host.clone())?, planted];
    if api.iter().any(|cfg| cfg == api::MIRRORED) {
        let cell_dir = cell_dir::dir(&out(repo), kernel.name, arch.name);
        plans.push(plans::switch_back(repo, &cell_dir)?);
    }
    // On x86_64, in the cells of the kernels that carry the detectors (the newest and the
    // LTS): the two forms of the kernel's WARN reports (6.12's `WARNING: CPU: 0 PID: 1 at ...`,
    // 7.x's `WARNING: file:line at ...`), once each; the hang and the lost lines, whose reports
    // have one form, on the newest.
    if arch.name == arch::x86_64().name && kernel.detectors {
        plans.extend(plans::verdict_selftests(
            repo,
            kernel.name == KERNELS[0].name,
        ));
    }
    Ok(plans)
}

/// Runs `runs`, prints the summary; fails if any failed. Optional runs whose kernel is not
/// cached are left out, and said so, once `started` is past the deadline.
fn matrix(
    repo: &Path,
    runs: &[Run],
    jobs: usize,
    started: std::time::Instant,
    events: &cli::Events,
) -> Result<Vec<Report>> {
    let host = Arc::new(corpus::host(repo)?);
    // cargo kernel-core test's reporters, and the summary even when no cell ran.
    let reporters = commands::test::reporters(events, Summary::always())?;
    let _installed = reporters.install();
    let cells: Vec<(Kernel, Arch)> = runs.iter().map(|r| (r.kernel, r.arch)).collect();
    // A cell that cannot run is reported and the others still run.
    let options = plan::Options::default();
    let cell::Results {
        reports,
        mut errors,
        ..
    } = cell::run_all(&cells, jobs, &out(repo), options, true, |i| {
        let (kernel, arch) = (&runs[i].kernel, &runs[i].arch);
        if runs[i].optional
            && started.elapsed() > OPTIONAL_BUILD_DEADLINE
            && !kernel::is_cached(kernel, arch)
        {
            cargo_kernel_core::note!(
                "=== Linux {} on {}: NOT RUN: its kernel is not cached and {} have passed, so building it could exceed CI's 90 minutes; the next run builds it ===",
                kernel.name,
                arch.name,
                progress::elapsed(started.elapsed())
            );
            return Ok(Planned::LeftOut("time budget, see above".to_string()));
        }
        cell_plans(repo, kernel, arch, &host).map(Planned::Plans)
    })?;
    errors.extend(reports.iter().flat_map(|r| r.problems().cloned()));
    if !errors.is_empty() {
        bail!("{} problem(s):\n  {}", errors.len(), errors.join("\n  "));
    }
    Ok(reports)
}

/// The cells `qemu`, `demo` and `runner` run: those the options name; with neither, Linux 7.3
/// on x86_64 (`qemu`, `demo`) or the required matrix (`runner`).
fn runs(cells: &Cells, default: (Option<&str>, Option<&str>)) -> Result<Vec<Run>> {
    let cells = if cells.kernel.is_none() && cells.arch.is_none() {
        Cells {
            kernel: default.0.map(String::from),
            arch: default.1.map(String::from),
        }
    } else {
        cells.clone()
    };
    Ok(cells
        .matrix()?
        .into_iter()
        .map(|(kernel, arch)| Run {
            kernel,
            arch,
            optional: false,
        })
        .collect())
}

fn main() -> ExitCode {
    std::sync::LazyLock::force(&START);
    if let Some(status) = commands::answer_if_asked() {
        return status;
    }
    let cli = Cli::parse();
    let repo = repo();
    // kernel-core's own checks install what they need, as its CI asks of them.
    setup::allow_installs();
    if let Err(e) = process::install_signal_handlers() {
        eprintln!("warning: {e}");
    }
    // What every command says goes to the terminal; the cells' runs add their reporters.
    let terminal = Events::new(vec![Box::new(Terminal::new())]);
    let _installed = terminal.install();
    let result = match cli.command {
        Cmd::Qemu { matrix: m, events } => {
            runs(&m.cells, (Some(KERNELS[0].name), Some(ARCHES[0].name))).and_then(|runs| {
                matrix(&repo, &runs, m.jobs(), std::time::Instant::now(), &events).map(drop)
            })
        }
        Cmd::Demo(m) => runs(&m.cells, (Some(KERNELS[0].name), Some(DEMO_ARCH))).and_then(|runs| {
            let reports = matrix(
                &repo,
                &runs,
                m.jobs(),
                std::time::Instant::now(),
                &cli::Events::default(),
            )?;
            println!();
            println!("What the sample module and the example drivers printed:");
            for report in &reports {
                demo_lines(&report.dir);
            }
            Ok(())
        }),
        Cmd::Runner(cells) => {
            let (kernels, arches) = match (&cells.kernel, &cells.arch) {
                (None, None) => ("all".to_string(), "all".to_string()),
                (k, a) => (
                    k.clone().unwrap_or_else(|| KERNELS[0].name.into()),
                    a.clone().unwrap_or_else(|| ARCHES[0].name.into()),
                ),
            };
            runner::lint_workflow(&repo).and_then(|()| runner::check(&repo, &kernels, &arches))
        }
        Cmd::Dkms { root_only: true } => dkms::ensure_root().map(drop),
        Cmd::Dkms { root_only: false } => dkms::check(&repo),
        Cmd::Test {
            host_only,
            kernel_only,
            ci,
        } => test(&repo, !kernel_only, !host_only, ci),
        Cmd::Bench => command::run(
            cargo_kernel_core::infra::command::cargo()
                .args([
                    "run",
                    "--release",
                    "--quiet",
                    "-p",
                    "kernel-core-bench",
                    "--",
                ])
                .current_dir(&repo),
            "the benchmark failed",
        ),
        Cmd::Survey(args) => survey::run(&repo, &args),
        Cmd::PlantedHost => planted::host(&repo),
        Cmd::PrepareDriver { dir, from } => {
            runner::prepare(&repo, &dir, from.as_deref()).map(|prepared| {
                println!("    {}", prepared.driver.display());
            })
        }
        Cmd::Shared(command) => shared::run(command, || {
            let plan_repo = repo.clone();
            Ok(shared::Subject {
                sources: rust_analyzer::Sources {
                    kernel_core: repo.join("kernel-core"),
                    macros: repo.join("macros"),
                    pin_init: repo.join("pin-init"),
                    out: out(&repo),
                },
                module: repo.join(plans::EXAMPLES[0]),
                out: out(&repo).join("custom"),
                plans: Box::new(move || {
                    let host = Arc::new(corpus::Verdicts::new());
                    Ok(vec![plans::kernel_core(&plan_repo, &KERNELS[0], host)?])
                }),
            })
        }),
    };
    process::finish(result)
}

/// Prints what the sample and the example drivers printed in a cell's console.
fn demo_lines(cell_dir: &Path) {
    let console = cell_dir.join("console.log");
    let Ok(text) = std::fs::read_to_string(&console) else {
        return;
    };
    let log = console::parse(&text);
    for load in log.loads.iter().filter(|l| {
        l.module == "kernel_core_sample.ko"
            || l.module.starts_with("kernel_core_example")
            || l.module == "dma_engine.ko"
    }) {
        for line in load
            .lines
            .iter()
            .filter(|l| !l.starts_with(' ') && !l.starts_with("KTAP"))
        {
            println!("  {line}");
        }
    }
}

/// `cargo xtask test`.
/// What the host checks' target directories take from nothing, with room to spare: 7.8 GB
/// measured after a whole `.ci/run` (which sets `CARGO_INCREMENTAL=0`) on 2026-12-07.
const HOST_CHECKS_DISK: u64 = 10 << 30;

/// What a kernel build of the matrix takes in the cache, rounded up (the largest, x86_64's
/// with its detectors, about 0.6 GiB; its source tree beside it, 1.8 GiB, once per kernel).
const KERNEL_BUILD_DISK: u64 = 1 << 30;

/// Says how much disk the run has and about how much it needs, and warns before anything
/// starts when it looks short: a full disk otherwise shows as a compiler's I/O error half an
/// hour in.
fn disk_check(repo: &Path, host: bool, kernels: bool) {
    let existing = |path: PathBuf| {
        path.ancestors()
            .find(|p| p.exists())
            .map(Path::to_path_buf)
            .unwrap_or(path)
    };
    let target = existing(repo.join("target"));
    let cache = existing(cargo_kernel_core::infra::cache::dir());
    let builds = if kernels {
        arch::required()
            .iter()
            .filter(|(kernel, arch)| !kernel::is_cached(kernel, arch))
            .count() as u64
    } else {
        0
    };
    let needed = if host { HOST_CHECKS_DISK } else { 0 } + builds * KERNEL_BUILD_DISK;
    let gib = |bytes: u64| format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30));
    let (Some(free_target), Some(free_cache)) =
        (setup::free_bytes(&target), setup::free_bytes(&cache))
    else {
        return;
    };
    let device = |path: &Path| {
        use std::os::unix::fs::MetadataExt as _;
        std::fs::metadata(path).map(|m| m.dev()).ok()
    };
    let same_disk = device(&target).is_some() && device(&target) == device(&cache);
    let free = if same_disk {
        free_target
    } else {
        free_target.min(free_cache)
    };
    println!(
        "    disk: {} free for {}{}; this run needs about {} ({} kernel build(s) to make)",
        gib(free_target),
        target.display(),
        if same_disk {
            format!(" and the kernel cache ({})", cache.display())
        } else {
            format!(
                ", {} for the kernel cache ({})",
                gib(free_cache),
                cache.display()
            )
        },
        gib(needed),
        builds
    );
    if free < needed {
        println!(
            "    WARNING: the run may run out of disk ({} free, about {} needed): free some space, \
             remove kernel builds no run uses (`cargo kernel-core kernels clean`), or set \
             KERNEL_CORE_CACHE and CARGO_TARGET_DIR to a larger disk",
            gib(free),
            gib(needed)
        );
    }
}

fn test(repo: &Path, host: bool, kernels: bool, ci: bool) -> Result {
    let start = std::time::Instant::now();
    let mut phases = Phases::default();
    let mut failed = Vec::new();
    // Every package the matrix fetches, resolved from nothing (a minute): a fetch path that
    // only works because the cache holds its result fails here, not on a fresh machine.
    if let Err(e) = fetch_check::check_all() {
        if e.downcast_ref::<process::Interrupted>().is_some() {
            return Err(e);
        }
        println!("    FAILED: {e}");
        failed.push("fetch check".to_string());
    }
    phases.lap("fetch check");
    disk_check(repo, host, kernels);
    // What the builds and the host checks install, before either starts (one installer at a
    // time: apt and rustup each), then the kernels build while the host checks run, so that
    // both cores work from the start: on a fresh machine the builds are most of the run.
    if kernels {
        for (_, arch) in arch::required() {
            setup::ensure_kernel_tools(&arch)?;
        }
        // The DKMS check's: debootstrap and the archive's keyring. Without them (or without
        // root) that check fails and says so; the rest of the run goes on.
        if let Err(e) = cargo_kernel_core::kernel::distro::rootfs::ensure_tools() {
            println!("    the DKMS check cannot run: {e}");
        }
    }
    if host {
        host::setup()?;
    }
    phases.lap("installing what is missing");
    let mut builder = match kernels {
        true => Some(background_builds(repo)?),
        false => None,
    };
    // The DKMS check's Debian root file system too, when it is not cached (debootstrap and
    // apt: mostly downloads and unpacking, 2 minutes of a fresh machine's run).
    let mut root_maker = match kernels {
        true => Some(background_root(repo)?),
        false => None,
    };
    if host {
        failed.extend(host::run(repo, ci)?);
        phases.lap("host checks (the kernels building beside them)");
    }
    if kernels {
        // The required matrix, x86_64 first: on a machine whose cache is empty, the other
        // cells are left out past the deadline if their kernel is not built yet (said so,
        // and built by the next run), to stay within CI's 90 minutes.
        let mut runs: Vec<Run> = arch::required()
            .into_iter()
            .map(|(kernel, arch)| Run {
                kernel,
                arch,
                optional: arch.name != ARCHES[0].name,
            })
            .collect();
        runs.sort_by_key(|run| run.optional);
        let events = cli::Events::default();
        if let Err(e) = matrix(repo, &runs, lanes::default_jobs(), start, &events) {
            if e.downcast_ref::<process::Interrupted>().is_some() {
                return Err(e);
            }
            println!("{e}");
            failed.push("kernel runs".to_string());
        }
        phases.lap("the kernel matrix (the rest of the builds, then the cells)");
        if let Some(builder) = builder.take() {
            if let Err(e) = builder.finish() {
                println!("    FAILED: {e}");
                failed.push("kernel builds".to_string());
            }
        }
        // The runner, as a driver author uses it: a skeleton outside the repository, grown,
        // on every required cell, with its faults.
        if let Err(e) = runner::check(repo, "all", "all") {
            println!("    FAILED: {e}");
            failed.push("cargo kernel-core".to_string());
        }
        phases.lap("the runner as a driver author uses it");
        // The driver shipped as its users get it: DKMS in a Debian system, Debian's kernels.
        if let Some(root_maker) = root_maker.take() {
            if let Err(e) = root_maker.finish() {
                println!("    {e}\n    (the DKMS check makes it again)");
            }
        }
        if let Err(e) = dkms::check(repo) {
            if e.downcast_ref::<process::Interrupted>().is_some() {
                return Err(e);
            }
            println!("    FAILED: {e}");
            failed.push("the DKMS check".to_string());
        }
        phases.lap("the DKMS check: a Debian trixie system, DKMS, Debian's kernels");
        // The editor support, against every kernel built for the required matrix:
        // rust-analyzer must resolve everything in the example drivers and in kernel-core.
        setup::ensure_toolchain("stable", &["rust-analyzer"], &[])?;
        for kernel in KERNELS
            .iter()
            .filter(|k| k.stock.is_none() && !k.required.is_empty())
        {
            for example in plans::EXAMPLES {
                let request =
                    rust_analyzer::Request::new(kernel.name, None, repo.join(example), true);
                let sources = rust_analyzer::Sources {
                    kernel_core: repo.join("kernel-core"),
                    macros: repo.join("macros"),
                    pin_init: repo.join("pin-init"),
                    out: out(repo),
                };
                if let Err(e) = request.and_then(|request| rust_analyzer::run(&sources, request)) {
                    println!("    FAILED: {e}");
                    failed.push(format!("rust-analyzer on {example}, Linux {}", kernel.name));
                }
            }
        }
        phases.lap("rust-analyzer on every kernel of the required matrix");
    }
    print!("{}", phases.report());
    println!();
    if failed.is_empty() {
        println!("all checks passed ({})", progress::elapsed(start.elapsed()));
        Ok(())
    } else {
        bail!(
            "failed: {} ({})",
            failed.join("; "),
            progress::elapsed(start.elapsed())
        )
    }
}

/// The kernel builds of a test run, in a child of their own (this program's `kernels build`
/// on the required matrix), started before the host checks and awaited after the cells,
/// logged to `target/kernel/kernel-builds.log`.
struct Builder {
    group: process::Group,
    log: PathBuf,
    /// What it does, for messages: `the kernel builds`.
    what: &'static str,
}

/// Starts the builds.
fn background_builds(repo: &Path) -> Result<Builder> {
    let dir = out(repo);
    std::fs::create_dir_all(&dir).at(&dir)?;
    let log = dir.join("kernel-builds.log");
    let file = std::fs::File::create(&log).at(&log)?;
    let err = file.try_clone().at(&log)?;
    let exe = std::env::current_exe().doing("finding this program")?;
    let mut cmd = std::process::Command::new(exe);
    cmd.args(["kernels", "build", "--kernel", "all", "--arch", "all"])
        .current_dir(repo)
        .stdin(std::process::Stdio::null())
        .stdout(file)
        .stderr(err);
    let group = process::spawn(&mut cmd)?;
    cargo_kernel_core::note!(
        "==> building every kernel of the required matrix beside the host checks (log: {})",
        log.display()
    );
    Ok(Builder {
        group,
        log,
        what: "the kernel builds",
    })
}

/// Starts making the DKMS check's Debian root file system (this program's `dkms
/// --root-only`) beside the host checks, logged to `target/kernel/dkms-root.log`; a cached one
/// is found in seconds.
fn background_root(repo: &Path) -> Result<Builder> {
    let dir = out(repo);
    std::fs::create_dir_all(&dir).at(&dir)?;
    let log = dir.join("dkms-root.log");
    let file = std::fs::File::create(&log).at(&log)?;
    let err = file.try_clone().at(&log)?;
    let exe = std::env::current_exe().doing("finding this program")?;
    let mut cmd = std::process::Command::new(exe);
    cmd.args(["dkms", "--root-only"])
        .current_dir(repo)
        .stdin(std::process::Stdio::null())
        .stdout(file)
        .stderr(err);
    let group = process::spawn(&mut cmd)?;
    cargo_kernel_core::note!(
        "==> making the DKMS check's Debian root file system beside the host checks, unless cached (log: {})",
        log.display()
    );
    Ok(Builder {
        group,
        log,
        what: "making the DKMS check's Debian root file system",
    })
}

impl Builder {
    /// Waits for the builds to end; fails if one failed, with the log's last lines.
    fn finish(mut self) -> Result {
        let status = self
            .group
            .wait_unless_interrupted()?
            .doing(&format!("waiting for {}", self.what))?;
        if status.success() {
            return Ok(());
        }
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(15).collect();
        bail!(
            "{} failed ({status}; log: {}):\n{}",
            self.what,
            self.log.display(),
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        )
    }
}

/// The seconds each phase of a test run took, and its end report: the phases, then each
/// kernel build the run made, from the stamps the builds left in the cache.
#[derive(Default)]
struct Phases {
    laps: Vec<(String, std::time::Duration)>,
    last: Option<std::time::Instant>,
}

impl Phases {
    /// Ends the phase `what`, begun when the last one ended (or when the run began).
    fn lap(&mut self, what: &str) {
        let now = std::time::Instant::now();
        let began = self.last.unwrap_or_else(|| {
            now - std::time::Duration::from_secs_f64(START.elapsed().as_secs_f64())
        });
        self.laps.push((what.to_string(), now - began));
        self.last = Some(now);
    }

    /// The phases as a Markdown table, then the kernel builds this run made, a line each.
    fn report(&self) -> String {
        let mut table = cargo_kernel_core::infra::table::Table::new(&["phase", "time"]);
        for (what, took) in &self.laps {
            table.row(&[what.clone(), progress::elapsed(*took)]);
        }
        let mut text = format!("\nWhat this run took:\n\n{}", table.text());
        // From the cache's stamps, whoever built them: the builder beside the host checks, a
        // cell of the matrix, a stock kernel's metadata.
        let began = std::time::SystemTime::now() - START.elapsed();
        let built = kernel::builds_since(began);
        if !built.is_empty() {
            text.push_str("\nKernels built by this run:\n\n");
            for (what, seconds) in built {
                let took = progress::elapsed(std::time::Duration::from_secs(seconds));
                text.push_str(&format!("- {what} built ({took})\n"));
            }
        }
        text
    }
}

/// When this program started: the run's first phase begins there.
static START: std::sync::LazyLock<std::time::Instant> =
    std::sync::LazyLock::new(std::time::Instant::now);

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
        assert!(parse(&["qemu", "--arch", "sparc"]).is_err());
        assert!(parse(&["modules"]).is_err(), "--kdir is required");
        assert!(parse(&["why-build-error"]).is_err(), "objects are required");
        let Cmd::Qemu {
            matrix: cli::Matrix { cells, .. },
            ..
        } = parse(&["qemu", "--arch", "x86_64,arm64"]).unwrap().command
        else {
            panic!("not qemu");
        };
        let two = runs(&cells, (Some("7.3"), Some("x86_64"))).unwrap();
        assert_eq!(
            two.len(),
            2,
            "a list of architectures, as cargo kernel-core test takes"
        );
        let Cmd::Qemu {
            matrix: cli::Matrix { cells, .. },
            ..
        } = parse(&["qemu"]).unwrap().command
        else {
            panic!("not qemu");
        };
        let default = runs(&cells, (Some("7.3"), Some("x86_64"))).unwrap();
        assert_eq!(
            (default[0].kernel.name, default[0].arch.name),
            ("7.3", "x86_64")
        );
    }
}
