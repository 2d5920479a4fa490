// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The cells of the matrix: each the plans ([`crate::model::plan`]) run against one kernel
//! and architecture, one after another ([`crate::pipeline::plan`]).
//!
//! A matrix of cells ([`run_all`]) is prepared cell after cell ([`prepare`]: the kernel, the
//! guest's `/init`) and run side by side ([`run`], [`crate::pipeline::lanes`]); each cell
//! ends with its report, the run with every cell's ([`Event::RunFinished`]).

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::lock::Lock;
use crate::infra::process;
use crate::kernel;
use crate::kernel::setup;
use crate::kernel::toolchain::Toolchain;
use crate::model::arch::{Arch, Kernel};
use crate::model::build::Build;
use crate::model::cell;
use crate::model::event::{self, Event};
use crate::model::plan::Plan;
use crate::model::report::{CellRun, NotRun, PlanReport, Report};
use crate::pipeline::module::Against;
use crate::pipeline::plan::{self, Laps, Options};
use crate::pipeline::{guest, lanes};
use std::fs;
use std::path::{Path, PathBuf};

/// The steps of [`prepare`], in `run.json`.
const PREPARE_STEPS: [&str; 2] = ["kernel (cache check)", "guest /init (cached)"];

/// A cell ready to run: its kernel found in the cache (or built), the tools that built it and
/// the guest's `/init`. Preparing prints what it does (a kernel build, say); cells are
/// prepared one after another, then run side by side ([`crate::pipeline::lanes::side_by_side`]).
pub struct Prepared {
    kernel: Kernel,
    arch: Arch,
    tools: Toolchain,
    build: Build,
    init: PathBuf,
    laps: Laps,
}

/// Prepares the cell of `kernel` and `arch`, announcing it with the first plan's name.
pub fn prepare(kernel: &Kernel, arch: &Arch, name: &str) -> Result<Prepared> {
    let mut laps = Laps::start();
    event::emit(&Event::CellStarted {
        kernel: kernel.name,
        arch: arch.name,
        plan: name,
    })?;
    setup::ensure_kernel_tools(arch)?;
    // A distribution's kernel gets its own exact toolchain (kernel/distro/toolchain.rs).
    let tools = kernel::toolchain_for(kernel, arch)?;
    let build = kernel::build(kernel, arch, &tools)?;
    laps.lap(PREPARE_STEPS[0]);
    let init = guest::build_init(arch)?;
    laps.lap(PREPARE_STEPS[1]);
    Ok(Prepared {
        kernel: *kernel,
        arch: *arch,
        tools,
        build,
        init,
        laps,
    })
}

/// Runs `plans` in a prepared cell, in `out/<kernel>-<arch>/`, one after another
/// ([`plan::Cell`]); a plan's judge, if it has one, decides its problems.
pub fn run(plans: &[Plan], prepared: Prepared, out: &Path, options: Options) -> Result<Report> {
    let Prepared {
        kernel,
        arch,
        tools,
        build,
        init,
        mut laps,
    } = prepared;
    // The time it waited for a job is no step of its own.
    laps.resume();
    let name = format!("{}/{}", build.source.version, arch.name);
    let dir = cell::dir(out, kernel.name, arch.name);
    fs::create_dir_all(&dir).at(&dir)?;
    // Two runs on one cell would build into the same directories.
    let _lock = Lock::exclusive(&dir.join(".lock"), "this cell's build directory")?;
    let mut running = plan::Cell {
        against: Against {
            harness: None,
            build: &build,
            tools: &tools,
            arch: &arch,
        },
        init: &init,
        dir: &dir,
        name: &name,
        options,
        laps,
        built_here: Vec::new(),
        harness: None,
    };
    let mut reports = Vec::new();
    for plan in plans {
        match running.run(plan) {
            Ok(mut report) => {
                if let Some(judge) = &plan.judge {
                    let found = std::mem::take(&mut report.problems);
                    report.problems = judge(&PlanReport {
                        problems: found,
                        ..report.clone()
                    });
                }
                reports.push(report);
            }
            Err(e) => {
                // Even an interrupted run says so in its JUnit, then stops.
                let _ = event::emit(&Event::PlanFailed {
                    cell: &name,
                    plan: &plan.name,
                    dir: &dir.join(&plan.dir),
                    error: &e.to_string(),
                });
                return Err(e);
            }
        }
    }
    let report = Report {
        cell: name.clone(),
        kernel: kernel.name,
        arch: arch.name,
        plans: reports,
        steps: running.laps.0,
        dir: dir.clone(),
        kernel_build_seconds: build.seconds,
    };
    event::emit(&Event::CellFinished { report: &report })?;
    Ok(report)
}

/// What a run over many cells gave: each cell's report, in order, the cells that could not
/// run (a kernel that did not build), each with why, and the cells left out.
pub struct Results {
    pub reports: Vec<Report>,
    pub errors: Vec<String>,
    pub not_run: Vec<NotRun>,
}

/// What runs in a cell.
pub enum Planned {
    /// These plans, in order.
    Plans(Vec<Plan>),
    /// Nothing: the cell is left out, for this reason (the summary says `not run (<why>)`).
    LeftOut(String),
}

/// Runs `cells`, `jobs` at a time ([`crate::pipeline::lanes::side_by_side`]), the longest first:
/// `plans(i)` gives the plans of cell `i`, or why it is left out. A cell that cannot run says
/// so in its output; with `keep_going` the other cells still run and it is listed in
/// [`Results::errors`], without it the run ends with its error. An interrupted run always ends.
/// The run ends with [`Event::RunFinished`], unless it ends with an error.
pub fn run_all(
    cells: &[(Kernel, Arch)],
    jobs: usize,
    out: &Path,
    options: Options,
    keep_going: bool,
    mut plans: impl FnMut(usize) -> Result<Planned>,
) -> Result<Results> {
    let interrupted = |e: &anyhow::Error| e.downcast_ref::<process::Interrupted>().is_some();
    // An interrupted run says so once, at its end.
    let said = |i: usize, e: &anyhow::Error| {
        if !interrupted(e) {
            let _ = event::emit(&Event::CellFailed {
                kernel: cells[i].0.name,
                arch: cells[i].1.name,
                error: &e.to_string(),
            });
        }
    };
    let mut not_run = Vec::new();
    // The cells whose builds and boots took longest in their previous run start first (the
    // time is all that is read of an earlier run), so that no long cell runs alone at the end.
    let order = lanes::longest_first(
        &cells
            .iter()
            .map(|(kernel, arch)| {
                let run = cell::dir(out, kernel.name, arch.name).join(cell::RUN_JSON);
                CellRun::read(&run).ok().map(|r| {
                    r.steps
                        .iter()
                        .filter(|(step, _)| !PREPARE_STEPS.contains(&step.as_str()))
                        .map(|(_, s)| s)
                        .sum()
                })
            })
            .collect::<Vec<_>>(),
    );
    let names: Vec<String> = cells
        .iter()
        .map(|(kernel, arch)| cell::name(kernel.name, arch.name))
        .collect();
    let results = lanes::side_by_side(
        &names,
        &order,
        jobs,
        |i| {
            let prepared = plans(i).and_then(|plans| match plans {
                Planned::Plans(plans) => {
                    let name = plans.first().map_or("", |p| p.name.as_str());
                    Ok(Some((prepare(&cells[i].0, &cells[i].1, name)?, plans)))
                }
                Planned::LeftOut(why) => {
                    not_run.push((
                        i,
                        NotRun {
                            kernel: cells[i].0.name,
                            arch: cells[i].1.name,
                            why,
                        },
                    ));
                    Ok(None)
                }
            });
            prepared.inspect_err(|e| said(i, e))
        },
        |i, (prepared, plans)| run(&plans, prepared, out, options).inspect_err(|e| said(i, e)),
        |e| !keep_going || interrupted(e),
    );
    // In matrix order, as the cells' reports.
    not_run.sort_by_key(|(i, _)| *i);
    let mut matrix = Results {
        reports: Vec::new(),
        errors: Vec::new(),
        not_run: not_run.into_iter().map(|(_, cell)| cell).collect(),
    };
    for (i, result) in results.into_iter().enumerate() {
        match result {
            None => {}
            Some(Ok(report)) => matrix.reports.push(report),
            Some(Err(e)) if !keep_going || interrupted(&e) => return Err(e),
            Some(Err(e)) => matrix
                .errors
                .push(format!("{} on {}: {e}", cells[i].0.name, cells[i].1.name)),
        }
    }
    event::emit(&Event::RunFinished {
        reports: &matrix.reports,
        not_run: &matrix.not_run,
    })?;
    Ok(matrix)
}
