// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Part 8: what the host's bug detectors cost (`kernel-core/src/env/host/detect.rs`).
//!
//! - **Their overhead.** The example driver's host suites (`examples/dma-engine`), built once
//!   with `cargo +stable test --no-run` in a target directory of their own
//!   (`target/bench/detectors`), then each test binary run as `cargo test` runs it (every test
//!   in one process), round-robin with the detectors on and with `KERNEL_CORE_DETECTORS=off`,
//!   which makes every hook return at once. The ratio of the medians is judged (goal: at most
//!   1.5×). The binaries are run directly, so cargo's own start-up, the same either way, does
//!   not dilute the ratio.
//! - **How soon a bug is reported.** Each bug of the host's planted-bug fixture
//!   (`kbuild/fixtures/planted_host`, built once), from the start of `cargo +stable test` on
//!   the warm build, filtered to its case, to the end of the run that printed its detector's
//!   title: the slowest is judged (goal: 2 s). The unchecked allocation failure is the fault
//!   mode's: its run fails the case's first allocation (`KERNEL_CORE_FAIL_NTH=1`), as the
//!   round of `--fail-each-alloc` that finds it does.
//!
//! How the fault mode's time grows with the allocations is printed by the runner itself, at
//! the end of every `--fail-each-alloc` run.

use super::{cargo, children_cpu, median, run_captured, runs, Goal, Part, Timing, REPS};
use cargo_kernel_core::infra::error::Context as _;
use cargo_kernel_core::infra::error::Result;
use cargo_kernel_core::infra::progress;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The goal for the suites' time with the detectors over their time without.
const OVERHEAD_GOAL: f64 = 1.5;

/// The goal for a planted bug's report, in seconds from the start of `cargo test`.
const REPORT_GOAL: f64 = 2.0;

/// Rounds of the suites' timing: each runs every binary once each way.
const ROUNDS: usize = 2 * REPS + 1;

/// A planted bug of the host fixture: its name, the `cargo test` filter that runs its case
/// (with the case that must run before it), the title that its detector prints, and the
/// environment of the run that finds it.
struct Planted {
    bug: &'static str,
    filter: &'static str,
    title: &'static str,
    env: &'static [(&'static str, &'static str)],
}

/// The host fixture's bugs (`kbuild/fixtures/planted_host/src/lib.rs`).
const PLANTED: &[Planted] = &[
    Planted {
        bug: "AB-BA in two tests",
        filter: "lock_order",
        title: "possible circular locking dependency detected",
        env: &[],
    },
    Planted {
        bug: "a sleep under a spinlock",
        filter: "sleep_under_spinlock",
        title: "sleeping function called from invalid context",
        env: &[],
    },
    Planted {
        bug: "an unchecked allocation failure",
        filter: "unchecked_allocation_failure",
        title: "FAULT_INJECTION: forcing a failure",
        env: &[("KERNEL_CORE_FAIL_NTH", "1")],
    },
    Planted {
        bug: "a leaked `KBox`",
        filter: "leaked_kbox",
        title: "unreferenced object",
        env: &[],
    },
];

/// The test binaries that `cargo +stable test --no-run` builds in `dir` into `target_dir`,
/// from cargo's JSON messages.
fn test_binaries(dir: &Path, target_dir: &Path) -> Result<Vec<PathBuf>> {
    let out = run_captured(
        cargo(dir)
            .args(["test", "--no-run", "--message-format=json"])
            .env("CARGO_TARGET_DIR", target_dir),
    )?;
    let binaries: Vec<PathBuf> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["profile"]["test"] == true)
        .filter_map(|message| message["executable"].as_str().map(PathBuf::from))
        .collect();
    if binaries.is_empty() {
        anyhow::bail!(
            "`cargo test --no-run` in {} built no test binary",
            dir.display()
        );
    }
    Ok(binaries)
}

/// What running every binary of `binaries` once, in `dir`, takes; with the detectors off when
/// `off`.
fn run_suites(dir: &Path, binaries: &[PathBuf], off: bool) -> Result<Timing> {
    let (start, cpu) = (Instant::now(), children_cpu());
    for binary in binaries {
        let mut cmd = Command::new(binary);
        cmd.current_dir(dir).stdout(Stdio::null());
        if off {
            cmd.env("KERNEL_CORE_DETECTORS", "off");
        } else {
            cmd.env_remove("KERNEL_CORE_DETECTORS");
        }
        run_captured(&mut cmd)?;
    }
    Ok(Timing {
        wall: start.elapsed().as_secs_f64(),
        cpu: children_cpu() - cpu,
    })
}

/// The example's suites with and without the detectors: the section's text and its goal.
fn overhead(repo: &Path, out: &Path) -> Result<(String, Goal)> {
    let dir = repo.join("examples/dma-engine");
    let target_dir = out.join("detectors");
    let start = progress::step(&format!(
        "building the example's host suites in {}",
        target_dir.display()
    ));
    let binaries = test_binaries(&dir, &target_dir)?;
    // Warm-up, each way: page cache, the lock graph's first files.
    run_suites(&dir, &binaries, false)?;
    run_suites(&dir, &binaries, true)?;
    progress::done(
        &format!("{} test binaries built and run once", binaries.len()),
        start,
    );
    let (mut on, mut off) = (Vec::new(), Vec::new());
    for round in 1..=ROUNDS {
        // Round-robin, the order alternating, so that a machine that slows down or speeds up
        // during the runs weighs on both alike.
        for detectors_off in [round % 2 == 0, round % 2 == 1] {
            let timing = run_suites(&dir, &binaries, detectors_off)?;
            if detectors_off { &mut off } else { &mut on }.push(timing);
        }
        println!(
            "    round {round} of {ROUNDS}: with the detectors {:.3}s ({:.2}s CPU), without {:.3}s ({:.2}s CPU)",
            on[round - 1].wall,
            on[round - 1].cpu,
            off[round - 1].wall,
            off[round - 1].cpu
        );
    }
    let wall = |t: &[Timing]| t.iter().map(|t| t.wall).collect::<Vec<_>>();
    let cpu = |t: &[Timing]| t.iter().map(|t| t.cpu).collect::<Vec<_>>();
    let ratio = median(&wall(&on)) / median(&wall(&off));
    let cpu_ratio = median(&cpu(&on)) / median(&cpu(&off));
    let met = ratio <= OVERHEAD_GOAL;
    let md = format!(
        "### Overhead on the example's suites\n\n\
         `examples/dma-engine`'s {} test binaries (`cargo +stable test --no-run`), each run as \
         `cargo test` runs it, {ROUNDS} rounds, round-robin. The goal is judged on wall time, \
         what a driver author waits for; CPU time (user and system, 10 ms resolution) is beside \
         it, since a suite that waits on its device model's clock hides the detectors' work in \
         wall time:\n\n\
         | detectors | wall, median (s) | wall, runs (s) | CPU, median (s) | CPU, runs (s) |\n\
         |---|---|---|---|---|\n\
         | on (the default) | {:.3} | {} | {:.2} | {} |\n\
         | off (`KERNEL_CORE_DETECTORS=off`) | {:.3} | {} | {:.2} | {} |\n\n\
         With / without: **{ratio:.2}×** in wall time (goal ≤ {OVERHEAD_GOAL:.1}×: {}), \
         {cpu_ratio:.2}× in CPU time.\n\n",
        binaries.len(),
        median(&wall(&on)),
        runs(&wall(&on)),
        median(&cpu(&on)),
        runs(&cpu(&on)),
        median(&wall(&off)),
        runs(&wall(&off)),
        median(&cpu(&off)),
        runs(&cpu(&off)),
        if met { "met" } else { "missed" },
    );
    let goal = Goal {
        what: "example's host suites with the detectors / without, wall time".to_string(),
        figure: format!(
            "{ratio:.2}× ({:.3} s against {:.3} s; CPU {cpu_ratio:.2}×)",
            median(&wall(&on)),
            median(&wall(&off))
        ),
        goal: format!("≤ {OVERHEAD_GOAL:.1}×"),
        met: Some(met),
    };
    Ok((md, goal))
}

/// Each planted bug's time to its report: the section's text and its goal.
fn reports(repo: &Path, out: &Path) -> Result<(String, Goal)> {
    let dir = repo.join("kbuild/fixtures/planted_host");
    let target_dir = out.join("planted-host");
    let start = progress::step(&format!(
        "building the planted bugs' host fixture in {}",
        target_dir.display()
    ));
    test_binaries(&dir, &target_dir)?;
    progress::done("built", start);
    let mut md = String::from(
        "### How soon a planted bug is reported\n\n\
         `cargo +stable test -- <case> --test-threads 1` in `kbuild/fixtures/planted_host`, \
         built, from its start to the end of the run (which must print the detector's \
         title); the median of 3:\n\n\
         | bug | case | report | median (s) | runs (s) |\n|---|---|---|---|---|\n",
    );
    let mut slowest: (f64, &str) = (0.0, "");
    for planted in PLANTED {
        let mut times = Vec::new();
        for _ in 0..REPS {
            let mut cmd = cargo(&dir);
            cmd.args(["test", "--", planted.filter, "--test-threads", "1"])
                .env("CARGO_TARGET_DIR", &target_dir)
                .env_remove("KERNEL_CORE_DETECTORS")
                .env_remove("KERNEL_CORE_FAIL_NTH")
                .envs(planted.env.iter().copied())
                .stdin(Stdio::null());
            let start = Instant::now();
            let output = cmd.output().doing("running cargo test")?;
            let seconds = start.elapsed().as_secs_f64();
            let text = String::from_utf8_lossy(&output.stdout).into_owned()
                + &String::from_utf8_lossy(&output.stderr);
            if output.status.success() || !text.contains(planted.title) {
                anyhow::bail!(
                    "the planted bug `{}` (`cargo test -- {}`) was not reported as `{}`: {}",
                    planted.bug,
                    planted.filter,
                    planted.title,
                    if output.status.success() {
                        "the run passed"
                    } else {
                        "the run failed without the title"
                    }
                );
            }
            times.push(seconds);
        }
        let m = median(&times);
        println!("    {}: reported in {m:.2}s", planted.bug);
        let _ = writeln!(
            md,
            "| {} | `{}` | `{}` | {m:.2} | {} |",
            planted.bug,
            planted.filter,
            planted.title,
            runs(&times)
        );
        if m > slowest.0 {
            slowest = (m, planted.bug);
        }
    }
    let met = slowest.0 <= REPORT_GOAL;
    let _ = writeln!(
        md,
        "\nThe slowest, {}: **{:.2} s** (goal ≤ {REPORT_GOAL:.0} s: {}).\n",
        slowest.1,
        slowest.0,
        if met { "met" } else { "missed" }
    );
    let goal = Goal {
        what: "a planted bug reported, from `cargo test`'s start on a warm build (the slowest)"
            .to_string(),
        figure: format!("{:.2} s ({})", slowest.0, slowest.1),
        goal: format!("≤ {REPORT_GOAL:.0} s"),
        met: Some(met),
    };
    Ok((md, goal))
}

pub(super) fn run(repo: &Path, out: &Path) -> Result<Part> {
    let (mut markdown, overhead) = overhead(repo, out)?;
    let (text, report) = reports(repo, out)?;
    markdown.push_str(&text);
    markdown.push_str(
        "How the fault-injection mode's time grows with the allocations a suite makes is \
         printed by `cargo kernel-core test --fail-each-alloc` itself, at the end of each run: \
         its rounds' time as a fixed cost plus a cost per re-run test.\n\n",
    );
    Ok(Part {
        markdown,
        goals: vec![overhead, report],
    })
}
