// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo xtask bench` (this crate, `kernel-core-bench`): what kernel-core costs, measured side by
//! side with doing without it.
//!
//! Seven parts, each in its own module (`src/<name>.rs`), each reporting ratios rather than absolute times (these
//! machines have 2 cores and often run other builds, so only figures measured in the same run
//! compare):
//!
//! 1. `compile`: the compile time of 10,000 assertions, against plain `assert!` in a const
//!    and against `static_assertions` 1.1;
//! 2. `codegen`: the instructions of each run-time function, against a hand-written
//!    reference, on x86_64, aarch64 and riscv64;
//! 3. `module`: the bytes and build seconds kernel-core adds to a Linux 7.3 module;
//! 4. `suite`: what the test suites take;
//! 5. `runner`: a driver author's retest loop with `cargo kernel-core`, on every cell;
//! 6. `mmio`: the instructions of `Mmio::read32`/`write32` on every required cell, against one
//!    call of the helper they reach and Linux 7.3's own `Mmio`;
//! 7. `detectors`: the example's host suites with the host's bug detectors against without,
//!    and how soon `cargo test` reports each planted bug.
//!
//! It writes `bench/RESULTS.md`. A figure that misses its goal is reported as such, but never
//! makes the command fail: only a part that cannot be measured does.
//!
//! Generated crates and modules live in `target/bench/`, never in the source tree. Setting
//! `KERNEL_CORE_BENCH=compile,codegen,module,suite,runner,mmio,detectors` (any subset) runs only those parts.

mod codegen;
mod compile;
mod detectors;
mod mmio;
mod module;
mod objects;
mod runner;
mod suite;

use cargo_kernel_core::infra::error::Context as _;
use cargo_kernel_core::infra::error::Result;
use cargo_kernel_core::infra::files::write_if_changed;
use cargo_kernel_core::infra::{command, process, progress};
use cargo_kernel_core::kernel::setup;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Instant, SystemTime};

/// Repetitions of each timed measurement; the median is reported.
const REPS: usize = 3;

/// One figure next to its goal, for the summary.
struct Goal {
    /// What was measured.
    what: String,
    /// The figure, as printed.
    figure: String,
    /// The goal, as printed.
    goal: String,
    /// Whether the figure meets the goal; `None` for figures without one.
    met: Option<bool>,
}

/// What one part measured.
struct Part {
    /// Its section of `RESULTS.md`, without the heading.
    markdown: String,
    /// Its figures and goals.
    goals: Vec<Goal>,
}

/// A part of the benchmark: its key for `KERNEL_CORE_BENCH`, its heading, and its runner.
type Runner = fn(&Path, &Path) -> Result<Part>;

const PARTS: &[(&str, &str, Runner)] = &[
    (
        "compile",
        "1. Compile-time cost of assertions",
        compile::run,
    ),
    ("codegen", "2. Run-time cost: instructions", codegen::run),
    ("module", "3. Module cost (Linux 7.3, x86_64)", module::run),
    ("suite", "4. Test-suite cost", suite::run),
    (
        "runner",
        "5. A driver's retest loop (`cargo kernel-core`)",
        runner::run,
    ),
    (
        "mmio",
        "6. `Mmio` accessors on every kernel and architecture",
        mmio::run,
    ),
    ("detectors", "7. The host's bug detectors", detectors::run),
];

/// `cargo xtask bench`: runs every part, prints each figure next to its goal and writes
/// `bench/RESULTS.md`.
fn run(repo: &Path) -> Result {
    let total = Instant::now();
    let out = repo.join("target/bench");
    fs::create_dir_all(&out).at(&out)?;
    let only = std::env::var("KERNEL_CORE_BENCH").ok();
    let selected = |key: &str| {
        only.as_deref()
            .is_none_or(|list| list.split(',').any(|k| k.trim() == key))
    };
    if let Some(list) = &only {
        for key in list.split(',').map(str::trim) {
            if !PARTS.iter().any(|(k, _, _)| *k == key) {
                anyhow::bail!(
                    "KERNEL_CORE_BENCH names `{key}`: use a comma-separated subset of {}",
                    PARTS.iter().map(|p| p.0).collect::<Vec<_>>().join(", ")
                );
            }
        }
    }
    let load_before = load_average();

    let mut sections = String::new();
    let mut goals = Vec::new();
    let mut failed = Vec::new();
    for (key, title, runner) in PARTS {
        let _ = writeln!(sections, "## {title}\n");
        if !selected(key) {
            let _ = writeln!(
                sections,
                "Not run this time (`KERNEL_CORE_BENCH={}`).\n",
                only.as_deref().unwrap_or_default()
            );
            continue;
        }
        println!();
        println!("=== bench: {title} ===");
        let start = Instant::now();
        match runner(repo, &out) {
            Ok(part) => {
                sections.push_str(&part.markdown);
                if !part.markdown.ends_with("\n\n") {
                    sections.push('\n');
                }
                goals.extend(part.goals);
                println!(
                    "    {title}: measured in {}",
                    progress::elapsed(start.elapsed())
                );
            }
            Err(e) => {
                println!("    {title}: FAILED: {e}");
                let _ = writeln!(sections, "Not measured: the run failed:\n\n```\n{e}\n```\n");
                failed.push(format!("{key}: {e}"));
            }
        }
    }
    let load_after = load_average();

    let mut md = String::new();
    md.push_str(
        "<!-- Generated by `cargo xtask bench` (bench/src/main.rs): do not edit by hand. -->\n\n",
    );
    md.push_str("# kernel-core benchmarks\n\n");
    md.push_str(
        "kernel-core promises to cost nothing over doing without it. These figures measure that \
         promise side by side, in one run. **Absolute times are noise**: the machine has 2 \
         cores and other builds may run at the same time, so only the ratios between figures \
         of the same run mean something. Timed figures are medians of 3 runs (5 for the compile \
         times, 7 for the module builds), taken round-robin after a warm-up. Nothing here fails on a slow machine: each figure is printed next to \
         its goal.\n\n",
    );
    let _ = writeln!(
        md,
        "Run: {}, `{}`, {} CPUs, load average {} before and {} after; `cargo xtask bench` took {}.\n",
        utc_now(),
        command::output(Command::new("rustc").args(["+stable", "--version"]))
            .unwrap_or_default()
            .trim(),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load_before,
        load_after,
        progress::elapsed(total.elapsed()),
    );
    md.push_str("## Summary\n\n");
    md.push_str(&summary(&goals, "**missed** (see below)"));
    md.push('\n');
    md.push_str(&sections);
    let results = repo.join("bench/RESULTS.md");
    // Sections measured by hand (the stock kernels' cells), which this run does not measure,
    // are kept as they are, at the end.
    if let Ok(old) = fs::read_to_string(&results) {
        if let Some(at) = old.find(BY_HAND) {
            md = md.trim_end().to_string() + "\n\n" + &old[at..];
        }
    }
    fs::create_dir_all(repo.join("bench")).at(repo.join("bench"))?;
    fs::write(&results, md.trim_end().to_string() + "\n").at(&results)?;

    println!();
    println!("{}", summary(&goals, "MISSED"));
    println!(
        "wrote {} ({}; absolute times are noise, only ratios matter)",
        results.display(),
        progress::elapsed(total.elapsed())
    );
    if !failed.is_empty() {
        return Err(anyhow::anyhow!(
            "{} part(s) could not be measured:\n  {}",
            failed.len(),
            failed.join("\n  ")
        ));
    }
    Ok(())
}

/// The title of the sections of `bench/RESULTS.md` measured by hand, kept by [`run`].
const BY_HAND: &str = "## Measured by hand:";

/// The summary table of `goals`, a row per figure, `missed` marking the goals not met.
fn summary(goals: &[Goal], missed: &str) -> String {
    let mut table = String::from("| figure | measured | goal | |\n|---|---|---|---|\n");
    for goal in goals {
        let verdict = match goal.met {
            Some(true) => "met",
            Some(false) => missed,
            None => "",
        };
        let _ = writeln!(
            table,
            "| {} | {} | {} | {verdict} |",
            goal.what, goal.figure, goal.goal
        );
    }
    table
}

/// `cargo +stable` for a generated crate or the workspace, with the variables of the outer
/// `cargo xtask` removed so they cannot leak in.
fn cargo(dir: &Path) -> Command {
    let mut cmd = Command::new("cargo");
    cmd.arg("+stable").current_dir(dir);
    for var in [
        "RUSTUP_TOOLCHAIN",
        "RUSTC",
        "RUSTDOC",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "CARGO_INCREMENTAL",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// What a command took.
#[derive(Clone, Copy, Debug)]
struct Timing {
    /// Wall-clock seconds, from [`Instant`].
    wall: f64,
    /// CPU seconds (user and system) of the command and everything it waited for.
    cpu: f64,
}

/// Runs `cmd` with its output captured and returns the wall-clock seconds it took; on failure,
/// an error with the command and the last lines it printed.
fn timed(cmd: &mut Command) -> Result<f64> {
    timed_cpu(cmd).map(|t| t.wall)
}

/// Like [`timed`], with the CPU time too.
fn timed_cpu(cmd: &mut Command) -> Result<Timing> {
    let (start, cpu) = (Instant::now(), children_cpu());
    run_captured(cmd)?;
    Ok(Timing {
        wall: start.elapsed().as_secs_f64(),
        cpu: children_cpu() - cpu,
    })
}

/// The CPU seconds (user and system) of this process's children that have been waited for,
/// including their own waited-for children: `cutime` and `cstime` of `/proc/self/stat`.
///
/// On a machine that other builds share, CPU time depends much less on them than wall time.
/// Its resolution is one clock tick (10 ms).
fn children_cpu() -> f64 {
    let Ok(stat) = fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    // The fields after the command name, which is in parentheses: `state` is field 3, so
    // `cutime` (16) and `cstime` (17) are the 14th and 15th.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    match (ticks(13), ticks(14)) {
        (Some(user), Some(system)) => (user + system) / clock_ticks(),
        _ => f64::NAN,
    }
}

/// `getconf CLK_TCK`, the unit of `/proc/self/stat` times (100 almost everywhere).
fn clock_ticks() -> f64 {
    static TICKS: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        command::output(Command::new("getconf").arg("CLK_TCK"))
            .and_then(|s| s.trim().parse().ok())
            .filter(|t: &f64| *t > 0.0)
            .unwrap_or(100.0)
    })
}

/// Runs `cmd` with its output captured and returns its standard output; on failure, an error
/// with the command and the last lines it printed.
fn captured(cmd: &mut Command) -> Result<String> {
    let out = run_captured(cmd)?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Runs `cmd` without input and with its output captured; fails with the command, its status
/// and its last 25 lines of output unless it succeeds.
fn run_captured(cmd: &mut Command) -> Result<std::process::Output> {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run `{}`: {e}", process::show(cmd)))?;
    if out.status.success() {
        return Ok(out);
    }
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = text.lines().collect();
    let tail = lines[lines.len().saturating_sub(25)..].join("\n    | ");
    anyhow::bail!(
        "`{}` failed ({}):\n    | {tail}",
        process::show(cmd),
        out.status
    );
}

/// The median of `values` (the mean of the middle two for an even count).
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// Formats a list of run times as `0.91 / 0.93 / 0.95`.
fn runs(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| format!("{v:.2}"))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// Sets the modification time of `path` to now, so that cargo rebuilds its crate.
fn touch(path: &Path) -> Result {
    fs::File::options()
        .write(true)
        .open(path)
        .and_then(|f| f.set_modified(SystemTime::now()))
        .map_err(|e| anyhow::anyhow!("cannot touch {}: {e}", path.display()))
}

/// The 1-minute load average, as `/proc/loadavg` gives it.
fn load_average() -> String {
    fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".to_string())
}

/// The current UTC time as `2025-01-31 12:34 UTC`, from `date`.
fn utc_now() -> String {
    command::output(Command::new("date").args(["-u", "+%Y-%m-%d %H:%M UTC"]))
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "(date unknown)".to_string())
}

/// Escapes `|` for a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

fn main() -> std::process::ExitCode {
    // The watchdog of its children, and the module builds' compiler wrapper, are this program.
    if let Some(status) = cargo_kernel_core::commands::answer_if_asked() {
        return status;
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bench/ lives in the repository")
        .to_path_buf();
    // The benchmark installs what it needs (valgrind), as kernel-core's own tools do.
    setup::allow_installs();
    match run(&repo) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
