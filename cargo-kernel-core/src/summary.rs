// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The summary a run prints: a line per cell, then every case against every cell.

use crate::cell::Report;
use crate::ktap::Outcome;
use crate::ui::Context as _;
use crate::ui::Result;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::Path;

/// What a run took, step by step: `target/kernel-core/run.json`, which benchmarks read.
#[derive(Serialize, Deserialize, Debug)]
pub struct Timings {
    /// The host suites' seconds, if they ran.
    pub host_seconds: Option<f64>,
    /// The whole run's seconds.
    pub total_seconds: f64,
    /// Each cell's steps, in order.
    pub cells: Vec<CellTimings>,
}

/// One cell's steps.
#[derive(Serialize, Deserialize, Debug)]
pub struct CellTimings {
    /// `<kernel version>/<arch>`.
    pub cell: String,
    /// `(step, seconds)`, in order.
    pub steps: Vec<(String, f64)>,
    /// Whether the cell passed.
    pub ok: bool,
}

/// Writes [`Timings`] of a run to `path`.
pub fn write_timings(
    path: &Path,
    host_seconds: Option<f64>,
    total_seconds: f64,
    reports: &[Report],
) -> Result {
    let timings = Timings {
        host_seconds,
        total_seconds,
        cells: reports
            .iter()
            .map(|r| CellTimings {
                cell: r.cell.clone(),
                steps: r
                    .steps
                    .iter()
                    .map(|(s, t)| ((*s).to_string(), *t))
                    .collect(),
                ok: r.problems.is_empty(),
            })
            .collect(),
    };
    let text = serde_json::to_string_pretty(&timings).expect("plain data serializes");
    std::fs::write(path, text + "\n").at(path)
}

/// Markdown tables of `reports`: per cell (counts, seconds per step, result), then per case.
pub fn table(reports: &[Report]) -> String {
    let mut out = String::new();
    out.push_str("| cell | passed | failed | skipped | module build | boot | result |\n");
    out.push_str("|---|---|---|---|---|---|---|\n");
    for r in reports {
        let (passed, failed, skipped) = r.counts();
        let step = |name: &str| {
            r.steps
                .iter()
                .find(|(s, _)| *s == name)
                .map_or("-".to_string(), |(_, t)| format!("{t:.1}s"))
        };
        let _ = writeln!(
            out,
            "| {} | {passed} | {failed} | {skipped} | {} | {} | {} |",
            r.cell,
            step("module build"),
            step("boot and KUnit"),
            if r.problems.is_empty() {
                "ok"
            } else {
                "FAILED"
            }
        );
    }
    let mut cases: Vec<(&str, &str)> = Vec::new();
    for r in reports {
        for c in &r.cases {
            if !cases.contains(&(&c.suite, &c.name)) {
                cases.push((&c.suite, &c.name));
            }
        }
    }
    if cases.is_empty() {
        return out;
    }
    out.push('\n');
    out.push_str("| case |");
    for r in reports {
        let _ = write!(out, " {} |", r.cell);
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(reports.len()));
    out.push('\n');
    for (suite, name) in cases {
        let _ = write!(out, "| {suite}::{name} |");
        for r in reports {
            let mark = match r
                .cases
                .iter()
                .find(|c| c.suite == suite && c.name == name)
                .map(|c| c.outcome)
            {
                Some(Some(Outcome::Pass)) => "ok",
                Some(Some(Outcome::Fail)) => "FAIL",
                Some(Some(Outcome::Skip)) => "skip",
                Some(None) => "NOT RUN",
                None => "-",
            };
            let _ = write!(out, " {mark} |");
        }
        out.push('\n');
    }
    out
}
