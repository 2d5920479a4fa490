// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The summary a run prints (a line per cell and plan, then every case against every cell),
//! and each cell's `run.json` ([`CellRun`]), which benchmarks and CI read.

use crate::infra::error::Result;
use crate::infra::files;
use crate::model::cell;
use crate::model::ktap::Outcome;
use crate::model::report::{CellRun, Report};
use std::fmt::Write as _;

/// Writes `report`'s `run.json` into its cell's directory, atomically.
pub fn write_cell(report: &Report) -> Result {
    let path = report.dir.join(cell::RUN_JSON);
    let text = serde_json::to_string_pretty(&CellRun::of(report)).expect("plain data serializes");
    files::write_atomic(&path, text + "\n", None)
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
