// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The summary a run prints at its end: a row per cell and plan (counts, seconds, result, and
//! the cells left out), then every case against every cell.

use crate::infra::error::Result;
use crate::infra::progress;
use crate::infra::table::Table;
use crate::model::event::{Event, Lane, Reporter};
use crate::model::ktap::Outcome;
use crate::model::report::{NotRun, Report};

/// The summary reporter: the tables, after a blank line, once the cells are done.
#[derive(Debug, Default)]
pub struct Summary {
    always: bool,
}

impl Summary {
    /// The tables when some cell was run or left out.
    pub fn new() -> Self {
        Self::default()
    }

    /// The tables even when no cell has a report (kernel-core's own checks: their header
    /// says the run got that far).
    pub fn always() -> Self {
        Self { always: true }
    }
}

impl Reporter for Summary {
    fn report(&self, _: Option<&Lane>, event: &Event<'_>) -> Result {
        if let Event::RunFinished { reports, not_run } = event {
            if self.always || !reports.is_empty() || !not_run.is_empty() {
                progress::print_now(&format!("\n{}", tables(reports, not_run)));
            }
        }
        Ok(())
    }
}

/// Markdown tables of `reports`: per cell and plan (counts, seconds, result) with the cells
/// `not_run`, then per case.
pub fn tables(reports: &[Report], not_run: &[NotRun]) -> String {
    let mut plans = Table::new(&[
        "cell", "plan", "passed", "failed", "skipped", "warnings", "boot", "result",
    ]);
    for r in reports {
        for p in &r.plans {
            let (passed, failed, skipped) = p.counts();
            plans.row(&[
                r.cell.clone(),
                p.name.clone(),
                passed.to_string(),
                failed.to_string(),
                skipped.to_string(),
                p.warnings.len().to_string(),
                p.boot_seconds
                    .map_or("-".to_string(), |s| format!("{s:.1}s")),
                if p.problems.is_empty() {
                    "ok"
                } else {
                    "FAILED"
                }
                .to_string(),
            ]);
        }
    }
    for cell in not_run {
        plans.row(&[
            format!("{} on {}", cell.kernel, cell.arch),
            format!("not run ({})", cell.why),
        ]);
    }
    let mut out = plans.to_string();
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
    let mut header = vec!["case".to_string()];
    header.extend(reports.iter().map(|r| r.cell.clone()));
    let mut table = Table::new(&header);
    for (suite, name) in cases {
        let mut row = vec![format!("{suite}::{name}")];
        for r in reports {
            let case = r
                .plans
                .iter()
                .flat_map(|p| &p.cases)
                .find(|c| c.suite == suite && c.name == name);
            row.push(
                match case {
                    Some(c) if c.hung.is_some() => "HUNG",
                    Some(c) if c.ok() && c.outcome == Some(Outcome::Skip) => "skip",
                    Some(c) if c.ok() => "ok",
                    Some(c) if c.outcome.is_none() && !c.reports.is_empty() => "CRASHED",
                    Some(c) if c.outcome.is_none() => "NOT RUN",
                    Some(_) => "FAIL",
                    None => "-",
                }
                .to_string(),
            );
        }
        table.row(&row);
    }
    out.push('\n');
    out.push_str(table.text());
    out
}
