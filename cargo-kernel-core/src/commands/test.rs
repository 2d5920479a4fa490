// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo kernel-core test`: the driver's host suites, then its plan in each cell asked for.

use crate::cli::{self, Test};
use crate::infra::error::Result;
use crate::infra::progress;
use crate::kernel;
use crate::model::driver::Driver;
use crate::model::event::{Events, Reporter};
use crate::model::plan::Plan;
use crate::pipeline::cell::{self, Planned};
use crate::pipeline::{host, plan};
use crate::report::json_lines::JsonLines;
use crate::report::junit::Junit;
use crate::report::ktap::KtapFiles;
use crate::report::run_json::RunJson;
use crate::report::summary::Summary;
use crate::report::terminal::Terminal;
use std::path::Path;

/// Runs the host suites of the driver in `dir`, then its plan in each cell `options` ask
/// for, with the reporters of a run: the terminal, JUnit, KTAP files, `run.json`, the
/// summary, and JSON lines with `--events`.
pub fn run(dir: &Path, options: &Test) -> Result {
    let (host, kernels) = (!options.no_host, !options.host_only);
    let jobs = options.matrix.jobs();
    let cells = &options.matrix.cells;
    let judging = plan::Options {
        deny_warnings: options.deny_warnings,
        case_timeout: std::time::Duration::from_secs(options.case_timeout),
        icount: options.icount,
        cold_boot: options.cold_boot,
    };
    let reporters = reporters(&options.events, Summary::new())?;
    let _installed = reporters.install();
    let start = std::time::Instant::now();
    let matrix = if kernels { cells.matrix()? } else { Vec::new() };
    let driver = Driver::open(dir)?;
    crate::note!(
        "{}: kernel-core {} from {}",
        driver.name(),
        driver.kernel_core_version,
        driver.kernel_core.display()
    );
    kernel::announce_cold(&matrix);
    if host {
        let host_options = host::Options {
            fail_each_alloc: options.fail_each_alloc,
            allow_leaks: options.allow_leaks.clone(),
            model: options.model,
        };
        host::host_tests(&driver, &host_options)?;
    }
    let out = driver.target_dir.join("kernel-core");
    // The first error (a kernel that does not build, an interrupted run) ends the run.
    let reports = cell::run_all(&matrix, jobs, &out, judging, false, |_| {
        Ok(Planned::Plans(vec![Plan::of_driver(&driver)]))
    })?
    .reports;
    let problems: Vec<&String> = reports.iter().flat_map(|r| r.problems()).collect();
    if problems.is_empty() {
        let cases: usize = reports
            .iter()
            .flat_map(|r| &r.plans)
            .map(|p| p.cases.len())
            .sum();
        crate::note!(
            "{}: {} ({})",
            driver.name(),
            match (reports.len(), cases) {
                (0, _) => "every host test passed".to_string(),
                (cells, 0) => format!(
                    "every module loaded and unloaded cleanly in {cells} cell(s), which ran no KUnit case"
                ),
                (cells, cases) => format!("all {cases} case results are as declared in {cells} cell(s)"),
            },
            progress::elapsed(start.elapsed())
        );
        Ok(())
    } else {
        Err(anyhow::anyhow!(
            "{} problem(s):\n  {}",
            problems.len(),
            problems
                .iter()
                .map(|p| p.as_str())
                .collect::<Vec<_>>()
                .join("\n  ")
        ))
    }
}

/// The reporters of a run of cells: the terminal's lines, a `junit.xml` per plan, a KTAP log
/// per module, a `run.json` per cell, the `summary` tables at the end, and with
/// `--events FILE` every event as a line of JSON.
pub fn reporters(events: &cli::Events, summary: Summary) -> Result<Events> {
    let mut reporters: Vec<Box<dyn Reporter>> = vec![
        Box::new(Terminal::new()),
        Box::new(Junit),
        Box::new(KtapFiles),
        Box::new(RunJson),
        Box::new(summary),
    ];
    if let Some(path) = &events.events {
        reporters.push(Box::new(JsonLines::create(path)?));
    }
    Ok(Events::new(reporters))
}
