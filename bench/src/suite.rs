// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Part 4: what the test suites take.
//!
//! - The retest loop: one cell of the QEMU matrix run again after a change, split per step.
//! - The host suite: `cargo +stable nextest run --workspace` in a target directory of its own
//!   (`target/bench/host-suite`), built and run once untimed (the first run also builds the
//!   ui-tests' fixtures), then timed 3 times.
//! - The kernel matrix: read from each cell's `target/kernel/<cell>/run.json`, which the runner
//!   writes at the end of a cell.

use super::{cargo, median, runs, timed, Goal, Part, REPS};
use cargo_kernel_core::infra::error::Context as _;
use cargo_kernel_core::infra::error::Result;
use cargo_kernel_core::infra::{command, progress};
use cargo_kernel_core::model::arch::{ARCHES, KERNELS};
use cargo_kernel_core::model::cell;
use cargo_kernel_core::model::report::CellRun;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Stdio;
use std::time::Instant;

/// The `run.json` of every cell of `target/kernel/`, which `cargo xtask qemu` writes.
fn cell_runs(repo: &Path) -> Vec<CellRun> {
    let mut runs: Vec<CellRun> = fs::read_dir(repo.join("target/kernel"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| CellRun::read(&e.path().join(cell::RUN_JSON)).ok())
        .collect();
    runs.sort_by(|a, b| (&a.kernel, &a.arch).cmp(&(&b.kernel, &b.arch)));
    runs
}

/// `cargo xtask qemu --kernel K --arch A`, as a user runs it; its cell's `run.json`.
fn qemu(repo: &Path, kernel: &str, arch: &str) -> Result<CellRun> {
    command::run(
        cargo_kernel_core::infra::command::cargo_xtask(repo)
            .args(["qemu", "--kernel", kernel, "--arch", arch]),
        "cargo xtask qemu failed",
    )?;
    CellRun::read(&cell::dir(&repo.join("target/kernel"), kernel, arch).join(cell::RUN_JSON))
}

/// Measures the host suite, reads the kernel timings and reports.
/// The retest loop: one cell of the matrix (the newest kernel on x86_64, cached) run twice,
/// the second time as after a one-line change to a driver, split per step.
///
/// Every module is built from a clean directory on every run, so a one-line change costs what
/// no change does: the second run is that retest.
fn retest_loop(repo: &Path) -> Result<String> {
    let (kernel, arch) = (KERNELS[0], ARCHES[0]);
    let start = progress::step(&format!(
        "retest loop: Linux {} on {}, once to warm up, then timed",
        kernel.name, arch.name
    ));
    qemu(repo, kernel.name, arch.name)?;
    let total = Instant::now();
    let summary = qemu(repo, kernel.name, arch.name)?;
    let total = total.elapsed().as_secs_f64();
    progress::done(&format!("retest took {total:.1}s"), start);
    let mut md = format!(
        "### Retest loop: one cell after a one-line change\n\n\
         `cargo xtask qemu --kernel {} --arch {}` with the kernel cached, per step. Every module \
         is built from a clean directory, so this is also what a one-line change to a driver \
         costs. Total: **{total:.1} s**{}.\n\n| step | seconds |\n|---|---|\n",
        kernel.name,
        arch.name,
        if summary.plans.iter().all(|p| p.problems.is_empty()) {
            ""
        } else {
            " (the run reported problems)"
        }
    );
    for (step, seconds) in &summary.steps {
        let _ = writeln!(md, "| {step} | {seconds:.1} |");
    }
    md.push('\n');
    Ok(md)
}

pub(super) fn run(repo: &Path, out: &Path) -> Result<Part> {
    let target_dir = out.join("host-suite");
    let nextest = || {
        let mut cmd = cargo(repo);
        cmd.args(["nextest", "run", "--workspace"])
            .env("CARGO_TARGET_DIR", &target_dir);
        cmd
    };
    let start = progress::step(&format!(
        "building the host suite in {} and running it once (untimed)",
        target_dir.display()
    ));
    timed(nextest().arg("--no-run").stdout(Stdio::null()))?;
    // The first run also builds the ui-tests' fixtures; a failing test is reported, not fatal.
    let warm_up = nextest()
        .arg("--no-fail-fast")
        .stdin(Stdio::null())
        .output()
        .doing("running cargo nextest")?;
    progress::done("built and warmed up", start);

    let mut times = Vec::new();
    let mut summary = String::new();
    let mut all_passed = true;
    for round in 1..=REPS {
        let start = Instant::now();
        let result = nextest()
            .arg("--no-fail-fast")
            .stdin(Stdio::null())
            .output()
            .doing("running cargo nextest")?;
        let seconds = start.elapsed().as_secs_f64();
        let text = String::from_utf8_lossy(&result.stderr).into_owned()
            + &String::from_utf8_lossy(&result.stdout);
        summary = text
            .lines()
            .rev()
            .find(|l| l.trim_start().starts_with("Summary"))
            .map(|l| l.trim().to_string())
            .unwrap_or_else(|| "(no nextest summary line)".to_string());
        all_passed &= result.status.success();
        println!("    run {round} of {REPS}: {seconds:.1}s ({summary})");
        times.push(seconds);
    }
    let host = median(&times);

    let mut md = String::new();
    let mut goals = Vec::new();
    let _ = writeln!(
        md,
        "Host suite: `cargo +stable nextest run --workspace`, already built, in a target \
         directory of its own: **{host:.1} s** (runs {} s; last summary: `{summary}`){}.\n",
        runs(&times),
        if all_passed && warm_up.status.success() {
            String::new()
        } else {
            "; **some tests failed** in these runs, so the time may not be representative"
                .to_string()
        }
    );
    goals.push(Goal {
        what: "host suite (nextest, built), wall time".to_string(),
        figure: format!("{host:.1} s"),
        goal: "(reported)".to_string(),
        met: None,
    });

    md.push_str(
        "Kernel matrix, from the last run of each cell (its `target/kernel/<cell>/run.json`, \
         written by the runner). Failed cases include those of the plans that must fail (the \
         verdict's self-tests on x86_64, whose judges expect them); the result is the cell's \
         verdict:\n\n\
         | cell | kernel build | boots (every plan) | passed | failed | skipped | result |\n\
         |---|---|---|---|---|---|---|\n",
    );
    let kernel_runs = cell_runs(repo);
    for r in &kernel_runs {
        let build = r
            .kernel_build_seconds
            .map_or("cached".to_string(), |s| format!("{s} s"));
        let boot: f64 = r.plans.iter().filter_map(|p| p.boot_seconds).sum();
        let count = |f: fn(&cargo_kernel_core::model::report::PlanRun) -> usize| {
            r.plans.iter().map(f).sum::<usize>()
        };
        let (passed, failed, skipped) = (
            count(|p| p.passed),
            count(|p| p.failed),
            count(|p| p.skipped),
        );
        let result = if r.plans.iter().all(|p| p.problems.is_empty()) {
            "ok"
        } else {
            "FAILED"
        };
        let _ = writeln!(
            md,
            "| {} | {build} | {boot:.1} s | {passed} | {failed} | {skipped} | {result} |",
            r.cell
        );
        goals.push(Goal {
            what: format!("kernel cell {}", r.cell),
            figure: format!(
                "build {build}, boots {boot:.1} s, {passed} passed, {failed} failed: {result}"
            ),
            goal: "(reported)".to_string(),
            met: None,
        });
    }
    if kernel_runs.is_empty() {
        md.push_str(
            "| (no cell has run: `cargo xtask qemu` or `cargo xtask test` first) | | | | | | |\n",
        );
    }
    md.push('\n');
    println!("    host suite: {host:.1}s (median of {REPS})");
    md.push_str(&retest_loop(repo)?);
    Ok(Part {
        markdown: md,
        goals,
    })
}
