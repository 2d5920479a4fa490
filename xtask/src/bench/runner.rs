// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Part 5: a driver author's retest loop with `cargo kernel-core`.
//!
//! The driver is the one `cargo xtask runner` checks: made by `cargo kernel-core new` on
//! kernel-core packaged into a vendor directory outside the repository. It is run once on
//! every cell untimed (the kernels are cached; this builds the guests' `/init` and the
//! kernel-core object of each kernel), then, 3 times, one line of its logic (`logic.rs`, which
//! both the host crate and the module compile) is changed and `cargo kernel-core test
//! --kernel all --arch all` runs again: host suites, then every cell. The split per step
//! comes from the run's own `target/kernel-core/run.json`.

use super::{median, runs, Goal, Part, REPS};
use crate::runner;
use crate::ui::Context as _;
use crate::ui::{self, Result};
use cargo_kernel_core::summary::Timings;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::time::Instant;

/// The goal for a one-line change retested on every cell, in seconds.
const GOAL_SECONDS: f64 = 60.0;

/// Runs part 5.
pub fn run(repo: &Path, out: &Path) -> Result<Part> {
    let prepared = runner::prepare(repo, &out.join("runner"))?;
    let all = ["test", "--kernel", "all", "--arch", "all"];
    ui::run(&mut prepared.command(&all), "the warm-up run failed")?;
    let glue = prepared.driver.join("logic.rs");
    let original = fs::read_to_string(&glue).at(&glue)?;
    let mut walls = Vec::new();
    // Per step, in the order of a cell's steps: the seconds of each run, summed over the cells.
    let mut steps: Vec<(String, Vec<f64>)> = Vec::new();
    let mut host = Vec::new();
    let mut cells = 0;
    for rep in 0..REPS {
        // One line, which both builds must compile again.
        let changed = original.replacen(
            "/// The longest timeout: one hour.",
            &format!("/// The longest timeout: one hour (change {rep})."),
            1,
        );
        if changed == original {
            crate::bail!("{}: the line to change is not there", glue.display());
        }
        fs::write(&glue, changed).at(&glue)?;
        let start = Instant::now();
        ui::run(&mut prepared.command(&all), "a timed run failed")?;
        walls.push(start.elapsed().as_secs_f64());
        let path = prepared.driver.join("target/kernel-core/run.json");
        let text = fs::read_to_string(&path).at(&path)?;
        let timings: Timings =
            serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        host.push(timings.host_seconds.unwrap_or_default());
        cells = timings.cells.len();
        let mut sums: BTreeMap<String, f64> = BTreeMap::new();
        for cell in &timings.cells {
            for (step, seconds) in &cell.steps {
                *sums.entry(step.clone()).or_default() += seconds;
            }
        }
        for cell in timings.cells.iter().take(1) {
            for (step, _) in &cell.steps {
                let seconds = sums.get(step).copied().unwrap_or_default();
                match steps.iter_mut().find(|(s, _)| s == step) {
                    Some((_, values)) => values.push(seconds),
                    None => steps.push((step.clone(), vec![seconds])),
                }
            }
        }
    }
    fs::write(&glue, original).at(&glue)?;

    let wall = median(&walls);
    let mut md = String::new();
    let _ = writeln!(
        md,
        "A driver made by `cargo kernel-core new` (outside the repository, on kernel-core's \
         packages), kernels cached: one line of its logic changed (`logic.rs`, compiled by both \
         the host crate and the module), then `cargo kernel-core \
         test --kernel all --arch all` (host suites, then {cells} cells). Median of {REPS} runs: \
         **{wall:.1} s** (runs: {}), goal ≤ {GOAL_SECONDS:.0} s.\n",
        runs(&walls)
    );
    md.push_str("| step | seconds, all cells together (median) | per cell |\n|---|---|---|\n");
    let _ = writeln!(
        md,
        "| host suites (`cargo nextest run`) | {:.1} | |",
        median(&host)
    );
    for (step, values) in &steps {
        let m = median(values);
        let _ = writeln!(md, "| {step} | {m:.1} | {:.2} |", m / cells.max(1) as f64);
    }
    md.push_str(
        "\nThe rest of the wall time is the runner's own start, `cargo metadata`, and printing. \
         Each cell rebuilds only the changed crate: kernel-core's object and macros come from \
         the caches in the kernel build (section 3).\n",
    );
    Ok(Part {
        markdown: md,
        goals: vec![Goal {
            what: format!("one-line change retested on every cell ({cells} cells, cached kernels)"),
            figure: format!("{wall:.1} s"),
            goal: format!("≤ {GOAL_SECONDS:.0} s"),
            met: Some(wall <= GOAL_SECONDS),
        }],
    })
}
