// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The summary a run prints at its end: a row per cell and plan (counts, seconds, result, and
//! the cells left out), then every case against every cell; the driver's host suites, when
//! they ran, first, as the cell `host`.

use crate::infra::error::Result;
use crate::infra::progress;
use crate::infra::table::Table;
use crate::model::event::{Event, Lane, Reporter};
use crate::model::ktap::Outcome;
use crate::model::report::{NotRun, PlanReport, Report};
use crate::pipeline::host;
use std::sync::Mutex;

/// The summary reporter: the tables, after a blank line, once the cells are done.
#[derive(Debug, Default)]
pub struct Summary {
    always: bool,
    /// The host suites' reports, as they finished (those without a judge of their own: a
    /// self-test's failures are its judge's to read).
    host: Mutex<Vec<PlanReport>>,
}

impl Summary {
    /// The tables when some cell was run or left out.
    pub fn new() -> Self {
        Self::default()
    }

    /// The tables even when no cell has a report (kernel-core's own checks: their header
    /// says the run got that far).
    pub fn always() -> Self {
        Self {
            always: true,
            ..Self::default()
        }
    }
}

impl Summary {
    /// The tables of the run that ended with the cells' `reports` and `not_run`, with the host
    /// suites' row first if they ran; `None` when there is nothing to show.
    fn rendered(&self, reports: &[Report], not_run: &[NotRun]) -> Option<String> {
        let host = self.host.lock().unwrap_or_else(|e| e.into_inner());
        let host = (!host.is_empty()).then(|| Report {
            cell: host::CELL.to_string(),
            kernel: host::CELL,
            arch: host::CELL,
            plans: host.clone(),
            steps: Vec::new(),
            dir: Default::default(),
            kernel_build_seconds: None,
        });
        if !self.always && host.is_none() && reports.is_empty() && not_run.is_empty() {
            return None;
        }
        let all: Vec<&Report> = host.iter().chain(reports.iter()).collect();
        Some(tables(&all, not_run))
    }
}

impl Reporter for Summary {
    fn report(&self, _: Option<&Lane>, event: &Event<'_>) -> Result {
        match event {
            Event::PlanFinished {
                cell, plan, judged, ..
            } if *cell == host::CELL && !judged => {
                self.host
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((*plan).clone());
            }
            Event::RunFinished { reports, not_run } => {
                if let Some(text) = self.rendered(reports, not_run) {
                    progress::print_now(&format!("\n{text}"));
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// Markdown tables of `reports`: per cell and plan (counts, seconds, result) with the cells
/// `not_run`, then per case.
pub fn tables(reports: &[&Report], not_run: &[NotRun]) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::declared::State;
    use crate::model::report::Case;

    fn plan(name: &str, cases: &[(&str, Outcome)]) -> PlanReport {
        PlanReport {
            name: name.to_string(),
            cases: cases
                .iter()
                .map(|(case, outcome)| Case {
                    module: "kcdriver".into(),
                    suite: "suite".into(),
                    name: case.to_string(),
                    declared: State::Runs,
                    outcome: Some(*outcome),
                    diagnostics: Vec::new(),
                    reports: Vec::new(),
                    report_texts: Vec::new(),
                    hung: None,
                })
                .collect(),
            problems: Vec::new(),
            warnings: Vec::new(),
            dir: Default::default(),
            boot_seconds: Some(0.5),
        }
    }

    #[test]
    fn the_host_suites_are_the_first_row_and_column() {
        let summary = Summary::new();
        assert!(summary.rendered(&[], &[]).is_none(), "nothing ran");
        let host = plan("kcdriver", &[("a", Outcome::Pass), ("b", Outcome::Fail)]);
        summary
            .report(
                None,
                &Event::PlanFinished {
                    cell: host::CELL,
                    plan: &host,
                    outside_cases: 0,
                    judged: false,
                },
            )
            .unwrap();
        let cell = Report {
            cell: "7.3.4/x86_64".to_string(),
            kernel: "7.3",
            arch: "x86_64",
            plans: vec![plan("kcdriver", &[("a", Outcome::Pass)])],
            steps: Vec::new(),
            dir: Default::default(),
            kernel_build_seconds: None,
        };
        let text = summary.rendered(&[cell], &[]).unwrap();
        let rows: Vec<&str> = text.lines().collect();
        let host_row = rows
            .iter()
            .position(|l| l.contains("| host "))
            .expect(&text);
        let cell_row = rows
            .iter()
            .position(|l| l.contains("7.3.4/x86_64 "))
            .expect(&text);
        assert!(host_row < cell_row, "{text}");
        assert!(rows[host_row].contains("| kcdriver | 1 | 1 |"), "{text}");
        let case_b = rows.iter().find(|l| l.contains("suite::b")).expect(&text);
        assert!(case_b.contains("FAIL") && case_b.contains('-'), "{text}");
        // A host-only run: the host's row alone.
        assert!(summary.rendered(&[], &[]).unwrap().contains("| host "));
    }
}
