// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Part 4: what the test suites take.
//!
//! - The retest loop: one cell of the QEMU matrix run again after a change, split per step.
//! - The host suite: `cargo +stable nextest run --workspace` in a target directory of its own
//!   (`target/bench/host-suite`), built and run once untimed (the first run also builds the
//!   ui-tests' fixtures), then timed 3 times.
//! - The kernel matrix: read from `target/kernel/timings.txt`, to which `cargo xtask qemu`
//!   appends one line per run (the last line of each kernel and architecture wins; `#` starts
//!   a comment):
//!
//!   ```text
//!   <kernel> <arch> <build seconds, or `cached`> <boot seconds> <passed> <failed>
//!   7.2.12 x86_64 cached 41.3 118 0
//!   ```

use super::{cargo, median, runs, timed, Goal, Part, REPS};
use crate::arch::{ARCHES, KERNELS};
use crate::ui::Context as _;
use crate::ui::{self, Result};
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Stdio;
use std::time::Instant;

/// One line of `target/kernel/timings.txt`.
struct KernelRun {
    kernel: String,
    arch: String,
    /// `None` when the kernel came from the cache.
    build_seconds: Option<f64>,
    boot_seconds: f64,
    passed: u64,
    failed: u64,
}

/// Parses `timings.txt`; returns the runs (last one per kernel and architecture, in first-seen
/// order) and the lines it could not read.
fn parse_timings(text: &str) -> (Vec<KernelRun>, Vec<String>) {
    let mut runs: Vec<KernelRun> = Vec::new();
    let mut bad = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let parsed = (|| {
            let [kernel, arch, build, boot, passed, failed] = fields[..] else {
                return None;
            };
            Some(KernelRun {
                kernel: kernel.to_string(),
                arch: arch.to_string(),
                build_seconds: if build == "cached" {
                    None
                } else {
                    Some(build.parse().ok()?)
                },
                boot_seconds: boot.parse().ok()?,
                passed: passed.parse().ok()?,
                failed: failed.parse().ok()?,
            })
        })();
        match parsed {
            Some(run) => {
                if let Some(old) = runs
                    .iter_mut()
                    .find(|r| r.kernel == run.kernel && r.arch == run.arch)
                {
                    *old = run;
                } else {
                    runs.push(run);
                }
            }
            None => bad.push(line.to_string()),
        }
    }
    (runs, bad)
}

/// Measures the host suite, reads the kernel timings and reports.
/// The retest loop: one cell of the matrix (the newest kernel on x86_64, cached) run twice,
/// the second time as after a one-line change to a driver, split per step.
///
/// Every module is built from a clean directory on every run, so a one-line change costs what
/// no change does: the second run is that retest.
fn retest_loop(repo: &Path) -> Result<String> {
    let (kernel, arch) = (KERNELS[0], ARCHES[0]);
    let start = ui::step(&format!(
        "retest loop: Linux {} on {}, once to warm up, then timed",
        kernel.name, arch.name
    ));
    crate::qemu::run(repo, &kernel, &arch)?;
    let total = Instant::now();
    let summary = crate::qemu::run(repo, &kernel, &arch)?;
    let total = total.elapsed().as_secs_f64();
    ui::done(&format!("retest took {total:.1}s"), start);
    let mut md = format!(
        "### Retest loop: one cell after a one-line change\n\n\
         `cargo xtask qemu --kernel {} --arch {}` with the kernel cached, per step. Every module \
         is built from a clean directory, so this is also what a one-line change to a driver \
         costs. Total: **{total:.1} s**{}.\n\n| step | seconds |\n|---|---|\n",
        kernel.name,
        arch.name,
        if summary.problems.is_empty() {
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
    let start = ui::step(&format!(
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
    ui::done("built and warmed up", start);

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

    let timings = repo.join("target/kernel/timings.txt");
    md.push_str(
        "Kernel matrix, from the last run of each kernel and architecture \
         (`target/kernel/timings.txt`, written by the QEMU runner):\n\n\
         | kernel | arch | kernel build | boot and KUnit | passed | failed |\n\
         |---|---|---|---|---|---|\n",
    );
    match fs::read_to_string(&timings) {
        Ok(text) => {
            let (kernel_runs, bad) = parse_timings(&text);
            for r in &kernel_runs {
                let build = r
                    .build_seconds
                    .map_or("cached".to_string(), |s| format!("{s:.0} s"));
                let _ = writeln!(
                    md,
                    "| {} | {} | {build} | {:.1} s | {} | {} |",
                    r.kernel, r.arch, r.boot_seconds, r.passed, r.failed
                );
                goals.push(Goal {
                    what: format!("kernel run, Linux {} on {}", r.kernel, r.arch),
                    figure: format!(
                        "build {build}, boot {:.1} s, {} passed, {} failed",
                        r.boot_seconds, r.passed, r.failed
                    ),
                    goal: "(reported)".to_string(),
                    met: None,
                });
            }
            if kernel_runs.is_empty() {
                md.push_str("| (no runs recorded) | | | | | |\n");
            }
            md.push('\n');
            if !bad.is_empty() {
                let _ = writeln!(
                    md,
                    "Lines of `timings.txt` that were not understood: `{}`.\n",
                    bad.join("`, `")
                );
            }
        }
        Err(_) => {
            for kernel in KERNELS {
                for arch in ARCHES {
                    let _ = writeln!(
                        md,
                        "| {} | {} | not measured yet | not measured yet | | |",
                        kernel.name, arch.name
                    );
                }
            }
            let _ = writeln!(
                md,
                "\n`target/kernel/timings.txt` does not exist yet: `cargo xtask qemu` (or \
                 `cargo xtask test`) writes it, one line per run: `<kernel> <arch> \
                 <build seconds|cached> <boot seconds> <passed> <failed>`.\n"
            );
            goals.push(Goal {
                what: "kernel matrix per arch".to_string(),
                figure: "not measured yet".to_string(),
                goal: "(reported)".to_string(),
                met: None,
            });
        }
    }
    println!("    host suite: {host:.1}s (median of {REPS})");
    md.push_str(&retest_loop(repo)?);
    Ok(Part {
        markdown: md,
        goals,
    })
}

#[cfg(test)]
mod tests {
    use super::parse_timings;

    #[test]
    fn timings_keep_the_last_run_of_each_pair() {
        let (runs, bad) = parse_timings(
            "# kernel arch build boot passed failed\n\
             7.2.12 x86_64 371 40.5 118 0\n\
             6.12.118 x86_64 cached 38.0 100 1\n\
             7.2.12 x86_64 cached 41.3 118 0\n\
             garbage line\n",
        );
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0].kernel, "7.2.12");
        assert_eq!(runs[0].build_seconds, None);
        assert_eq!(runs[0].boot_seconds, 41.3);
        assert_eq!(runs[1].failed, 1);
        assert_eq!(bad, vec!["garbage line".to_string()]);
    }
}
