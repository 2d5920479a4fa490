// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! kernel-core's scripts: `cargo xtask --help`.
//!
//! Written in Rust with the standard library only, so a fresh clone needs nothing but cargo.

mod arch;
mod bench;
mod build_error;
mod corpus;
mod host;
mod initramfs;
mod json;
mod kernel;
mod ktap;
mod modules;
mod newcomer;
mod preflight;
mod qemu;
mod rust_analyzer;
mod setup;
mod ui;

use crate::ui::Context as _;
use arch::{Arch, Kernel, ARCHES, KERNELS};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use ui::{Error, Result};

const HELP: &str = "\
cargo xtask: kernel-core's build, test and QEMU scripts

USAGE:
    cargo xtask <COMMAND> [OPTIONS]

COMMANDS:
    test        Everything CI checks: rustfmt, clippy, the host suites on stable and on Rust
                1.85 (debug and release), i686, Miri, the no_std targets, packaging, the docs,
                the differential tests against Linux 7.3's own code, then the kernel runs:
                x86_64 on 7.3, 7.2 and 6.12, then arm64, riscv64 and loongarch64 on 7.3 and
                6.12, of which a run whose kernel is not cached is left out (and said so) past
                70 minutes, to stay within CI's 90; on 7.3 the switch-back check; and
                `rust-analyzer --strict` on every kernel. Installs what is missing.
        --host-only     skip the kernel runs
        --kernel-only   skip the host checks
        --ci            nextest's `ci` profile (JUnit in target/nextest/ci/junit.xml)

    qemu        Build a kernel (cached), kernel-core's modules and the example driver, check
                that an unprovable build_assert! fails modpost, boot QEMU, run the KUnit
                suites, and print a summary. On 7.3, the switch-back check: the sample, the
                example and the suites built again with `kernel_core::` naming the kernel's
                own items, booted, and passing. Fails on any failed or missing case, Oops, BUG,
                WARNING, panic or timeout. The console log is saved to
                target/kernel/<kernel>-<arch>/console.log.
        --arch A        x86_64 (default), arm64, riscv64, loongarch64, or all
        --kernel K      7.3 (default), 7.2, 6.12, or all (with `--arch all`: 7.2 on x86_64
                        only, as in the test matrix, unless named)

    kernels list        The kernels and architectures, and which builds are cached.
    kernels build [--kernel K] [--arch A]
                Fetch and build kernels into the cache, with nothing else.

    demo        `qemu` with the defaults, ending with what the sample module printed.

    modules --kdir DIR [--arch A]
                Build kernel-core's modules and the example driver against your own kernel
                build directory (its O=), after checking it can build Rust modules: Rust
                support, the same rustc, Module.symvers. The architecture is read from its
                .config unless given. Output: target/kernel/custom/.

    rust-analyzer --kernel K [--arch A] [--module DIR] [--strict]
                Write DIR/rust-project.json (default: examples/out-of-tree-driver) so that
                rust-analyzer knows the kernel's crates, kernel_core and kernel_core_macros:
                builds the kernel if it is not cached, runs `make M=DIR rust-analyzer`,
                builds libkernel_core_macros.so with Kbuild into
                target/kernel/<kernel>-<arch>/rust-analyzer/, checks the file, and runs
                `rust-analyzer diagnostics DIR` if rust-analyzer is installed
                (`rustup component add rust-analyzer`). With --strict (as `test` runs it),
                rust-analyzer must run and find no error in the module or in kernel-core.

    why-build-error <OBJECT.o>...
                Name each build_assert!/build_error! call that survived optimization in these
                objects, kernel or host (after a failed link, target/*/deps/*.o): its
                file:line:column and the function that holds it, and the functions that call
                build_error with no site. Module builds print this unasked when modpost fails
                on rust_build_error.

    bench       Measure what kernel-core costs, as ratios: compile time of 10,000 assertions,
                instructions against hand-written code (x86_64, aarch64, riscv64), bytes and
                build seconds added to a Linux 7.3 module, test-suite times. Writes
                bench/RESULTS.md; figures that miss their goals are reported, never fatal.

    help        This text.

ENVIRONMENT:
    KERNEL_CORE_CACHE   where kernel sources and builds are cached
                        (default: $XDG_CACHE_HOME/kernel-core or ~/.cache/kernel-core)
";

/// The repository root (the parent of `xtask/`).
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the repository")
        .to_path_buf()
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

/// Parses the options of `qemu`: the runs, every arch with every kernel asked for.
fn targets(args: &[String]) -> Result<Vec<Run>> {
    let mut arches = vec![ARCHES[0]];
    let mut kernels = vec![KERNELS[0]];
    let mut options = ui::Options::new(args);
    while let Some(flag) = options.next_flag() {
        match flag {
            "--arch" => {
                let v = options.value(flag)?;
                arches = if v == "all" {
                    ARCHES.to_vec()
                } else {
                    vec![arch::arch(v)?]
                };
            }
            "--kernel" => {
                let v = options.value(flag)?;
                kernels = if v == "all" {
                    KERNELS.to_vec()
                } else {
                    vec![arch::kernel(v)?]
                };
            }
            other => return Err(ui::unknown_option(other)),
        }
    }
    // With `--kernel all --arch all`, a kernel that the matrix runs on its first architecture
    // only (7.2) runs there alone; naming the kernel, or one architecture, runs what was asked.
    let named_kernel = kernels.len() == 1;
    let every_arch = arches.len() > 1;
    Ok(arches
        .iter()
        .flat_map(|&arch| {
            kernels
                .iter()
                .filter(move |k| named_kernel || !every_arch || k.every_arch || arch == ARCHES[0])
                .map(move |&kernel| Run {
                    arch,
                    kernel,
                    optional: false,
                })
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
            let cached =
                kernel::Toolchain::find().is_ok_and(|t| kernel::is_cached(repo, kernel, arch, &t));
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
    let args: Vec<String> = std::env::args().skip(1).collect();
    let repo = repo();
    let result = match args.first().map(String::as_str) {
        None | Some("help" | "--help" | "-h") => {
            print!("{HELP}");
            Ok(())
        }
        Some("qemu") => targets(&args[1..])
            .and_then(|t| qemu_matrix(&repo, &t, std::time::Instant::now()).map(drop)),
        Some("demo") => targets(&args[1..]).and_then(|t| {
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
        Some("why-build-error") => build_error::why(&args[1..]),
        Some("kernels") => kernels(&repo, &args[1..]),
        Some("test") => test(&repo, &args[1..]),
        Some("bench") => bench::run(&repo),
        Some("modules") => custom_modules(&repo, &args[1..]),
        Some("rust-analyzer") => rust_analyzer::run(&repo, &args[1..]),
        Some(other) => Err(Error(format!(
            "unknown command `{other}`; see `cargo xtask --help`"
        ))),
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
fn kernels(repo: &Path, args: &[String]) -> Result {
    match args.first().map(String::as_str) {
        Some("build") => {
            for run in targets(&args[1..])? {
                setup::ensure_kernel_tools(&[run.arch.qemu_package])?;
                let tools = kernel::Toolchain::find()?;
                kernel::build(repo, &run.kernel, &run.arch, &tools)?;
            }
            Ok(())
        }
        Some("list") => {
            let tools = kernel::Toolchain::find()?;
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
                        if k.every_arch || a.name == ARCHES[0].name {
                            "yes"
                        } else {
                            "no"
                        },
                        if kernel::is_cached(repo, k, a, &tools) {
                            "yes"
                        } else {
                            "no"
                        }
                    );
                }
            }
            println!("cache: {}", kernel::cache_dir().display());
            Ok(())
        }
        _ => Err(Error(
            "usage: cargo xtask kernels list | kernels build [--kernel K] [--arch A]".into(),
        )),
    }
}

/// `cargo xtask modules --kdir DIR`: kernel-core's modules against the user's kernel.
fn custom_modules(repo: &Path, args: &[String]) -> Result {
    let (mut kdir, mut arch_name) = (None, None);
    let mut options = ui::Options::new(args);
    while let Some(flag) = options.next_flag() {
        match flag {
            "--kdir" => kdir = Some(PathBuf::from(options.value(flag)?)),
            "--arch" => arch_name = Some(options.value(flag)?),
            other => return Err(ui::unknown_option(other)),
        }
    }
    let kdir =
        kdir.ok_or_else(|| Error("`modules` needs --kdir <kernel build directory>".into()))?;
    let kdir = kdir.canonicalize().unwrap_or(kdir);
    let tools = kernel::Toolchain::find()?;
    let rustc_version =
        ui::output(std::process::Command::new(&tools.rustc).arg("--version")).unwrap_or_default();
    preflight::KernelDir {
        dir: &kdir,
        rustc_version: &rustc_version,
    }
    .check()
    .map_err(Error)?;
    let arch = match arch_name {
        Some(name) => arch::arch(name)?,
        None => arch::from_config(
            &std::fs::read_to_string(kdir.join(".config")).at(kdir.join(".config"))?,
        )?,
    };
    let build = kernel::Build::existing(&kdir)?;
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
fn test(repo: &Path, args: &[String]) -> Result {
    let (mut host, mut kernel, mut ci) = (true, true, false);
    for arg in args {
        match arg.as_str() {
            "--host-only" => kernel = false,
            "--kernel-only" => host = false,
            "--ci" => ci = true,
            other => return Err(ui::unknown_option(other)),
        }
    }
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
        let mut runs = Vec::new();
        for kernel in KERNELS {
            for arch in ARCHES {
                if kernel.every_arch || arch.name == ARCHES[0].name {
                    runs.push(Run {
                        arch: *arch,
                        kernel: *kernel,
                        optional: arch.name != ARCHES[0].name,
                    });
                }
            }
        }
        runs.sort_by_key(|run| run.optional);
        if let Err(e) = qemu_matrix(repo, &runs, start) {
            println!("{e}");
            failed.push("kernel runs".to_string());
        }
        // The editor support, against both kernels: rust-analyzer must resolve everything in
        // the example driver and in kernel-core.
        setup::ensure_toolchain("stable", &["rust-analyzer"], &[])?;
        for kernel in KERNELS {
            let args = ["--kernel", kernel.name, "--strict"].map(String::from);
            if let Err(e) = rust_analyzer::run(repo, &args) {
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
