// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The summary a run prints (a line per cell and plan, then every case against every cell),
//! and each cell's `run.json`, which benchmarks and CI read.
//!
//! `run.json` lives in the cell's directory and describes that cell's latest run only: two
//! runs at once hold the cell's lock in turn, and runs of other cells never touch it.

use crate::cell::Report;
use crate::ktap::Outcome;
use crate::ui::Context as _;
use crate::ui::Result;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::Path;

/// One cell's run: `<cell dir>/run.json`.
#[derive(Serialize, Deserialize, Debug)]
pub struct CellRun {
    /// `<kernel version>/<arch>`.
    pub cell: String,
    /// The matrix's names of its kernel and architecture.
    pub kernel: String,
    pub arch: String,
    /// `(step, seconds)`, in order.
    pub steps: Vec<(String, f64)>,
    /// The kernel build's seconds, if it ran.
    pub kernel_build_seconds: Option<u64>,
    /// Each plan's result.
    pub plans: Vec<PlanRun>,
}

/// One plan's result in a cell.
#[derive(Serialize, Deserialize, Debug)]
pub struct PlanRun {
    pub name: String,
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    pub warnings: usize,
    pub boot_seconds: Option<f64>,
    pub problems: Vec<String>,
}

impl CellRun {
    /// What `report` says.
    pub fn of(report: &Report) -> Self {
        Self {
            cell: report.cell.clone(),
            kernel: report.kernel.to_string(),
            arch: report.arch.to_string(),
            steps: report.steps.clone(),
            kernel_build_seconds: report.kernel_build_seconds,
            plans: report
                .plans
                .iter()
                .map(|p| {
                    let (passed, failed, skipped) = p.counts();
                    PlanRun {
                        name: p.name.clone(),
                        passed,
                        failed,
                        skipped,
                        warnings: p.warnings.len(),
                        boot_seconds: p.boot_seconds,
                        problems: p.problems.clone(),
                    }
                })
                .collect(),
        }
    }

    /// Reads a cell's `run.json`.
    pub fn read(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).at(path)?;
        serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
    }

    /// The seconds of the steps whose names contain `what`.
    pub fn seconds(&self, what: &str) -> f64 {
        self.steps
            .iter()
            .filter(|(s, _)| s.contains(what))
            .map(|(_, t)| t)
            .sum()
    }
}

/// Writes `report`'s `run.json` into its cell's directory, atomically.
pub fn write_cell(report: &Report) -> Result {
    let path = report.dir.join("run.json");
    let text = serde_json::to_string_pretty(&CellRun::of(report)).expect("plain data serializes");
    let tmp = report.dir.join(format!(".run.json.{}", std::process::id()));
    std::fs::write(&tmp, text + "\n").at(&tmp)?;
    std::fs::rename(&tmp, &path).at(&path)
}

/// Markdown tables of `reports`: per cell and plan (counts, seconds, result), then per case.
pub fn table(reports: &[Report]) -> String {
    let mut out = String::new();
    out.push_str("| cell | plan | passed | failed | skipped | warnings | boot | result |\n");
    out.push_str("|---|---|---|---|---|---|---|---|\n");
    for r in reports {
        for p in &r.plans {
            let (passed, failed, skipped) = p.counts();
            let _ = writeln!(
                out,
                "| {} | {} | {passed} | {failed} | {skipped} | {} | {} | {} |",
                r.cell,
                p.name,
                p.warnings.len(),
                p.boot_seconds
                    .map_or("-".to_string(), |s| format!("{s:.1}s")),
                if p.problems.is_empty() {
                    "ok"
                } else {
                    "FAILED"
                }
            );
        }
    }
    let mut cases: Vec<(&str, &str)> = Vec::new();
    for r in reports {
        for c in r.plans.iter().flat_map(|p| &p.cases) {
            if !cases.contains(&(&c.suite, &c.name)) {
                cases.push((&c.suite, &c.name));
            }
        }
    }
    if cases.is_empty() || cases.len() > 200 {
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
            let case = r
                .plans
                .iter()
                .flat_map(|p| &p.cases)
                .find(|c| c.suite == suite && c.name == name);
            let mark = match case {
                Some(c) if c.hung.is_some() => "HUNG",
                Some(c) if c.ok() && c.outcome == Some(Outcome::Skip) => "skip",
                Some(c) if c.ok() => "ok",
                Some(c) if c.outcome.is_none() && !c.reports.is_empty() => "CRASHED",
                Some(c) if c.outcome.is_none() => "NOT RUN",
                Some(_) => "FAIL",
                None => "-",
            };
            let _ = write!(out, " {mark} |");
        }
        out.push('\n');
    }
    out
}
