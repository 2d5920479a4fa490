// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo kernel-core test`: the driver's host suites, then its plan in each cell asked for.

use crate::cli::Cells;
use crate::infra::error::Result;
use crate::infra::progress;
use crate::kernel;
use crate::model::driver::Driver;
use crate::pipeline::{cell, host};
use std::path::Path;

/// Runs the host suites of the driver in `dir` (with `host`), then, with `kernels`, its plan
/// in each of `cells`, `jobs` at a time.
pub fn run(
    cells: &Cells,
    dir: &Path,
    host: bool,
    kernels: bool,
    jobs: usize,
    options: cell::Options,
) -> Result {
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
        host::host_tests(&driver)?;
    }
    let out = driver.target_dir.join("kernel-core");
    // The first error (a kernel that does not build, an interrupted run) ends the run.
    let reports = cell::run_all(&matrix, jobs, &out, options, false, |_| {
        Ok(Some(vec![driver.plan()]))
    })?
    .reports;
    if !reports.is_empty() {
        crate::note!();
        print!("{}", crate::report::summary::table(&reports));
    }
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
