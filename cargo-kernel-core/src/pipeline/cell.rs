// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! One cell of the matrix: the plans ([`crate::model::plan`]) run against one kernel and
//! architecture. Per plan: its module builds, one boot that loads what they built, and the
//! verdict (every declared case, the kernel's reports of trouble, the modules' loads, the
//! plan's checks), written as KTAP, JUnit and a summary line.
//!
//! A matrix of cells ([`run_all`]) is prepared cell after cell ([`prepare`]: the kernel, the
//! guest's `/init`) and run side by side ([`run`], [`crate::pipeline::lanes`]).
//!
//! Results never outlive their run: a plan's previous logs and JUnit are removed before it
//! starts, and a plan that fails before its boot still writes a JUnit file that says why.

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
use crate::model::declared::{self, Declared};
use crate::model::event::{self, Event};
use crate::model::ktap::Outcome;
use crate::model::plan::{Booted, Expect, Failed, Plan};
use crate::model::report::{CellRun, NotRun, PlanReport, Report};
use crate::pipeline::guest;
use crate::pipeline::module::{build_module, Built};
use crate::pipeline::verdict;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How a cell is judged.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Module-build warnings fail the cell.
    pub deny_warnings: bool,
    /// How long a case may run without output before it counts as hung.
    pub case_timeout: Duration,
    /// Guest time from the guest's instructions under QEMU ([`guest::ICOUNT`]).
    pub icount: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            deny_warnings: false,
            case_timeout: guest::CASE_TIMEOUT,
            icount: false,
        }
    }
}

/// The seconds each step of a run took, in order (`.0`), and when the current step began.
pub struct Laps(pub Vec<(String, f64)>, Instant);

impl Laps {
    /// Starts the clock.
    pub fn start() -> Self {
        Self(Vec::new(), Instant::now())
    }

    /// Records the time since the previous lap (or the start) as step `what`.
    pub fn lap(&mut self, what: impl Into<String>) {
        let now = Instant::now();
        self.0.push((what.into(), (now - self.1).as_secs_f64()));
        self.1 = now;
    }

    /// Restarts the clock of the next step, leaving out the time since the last lap.
    pub fn resume(&mut self) {
        self.1 = Instant::now();
    }
}

/// The files a plan leaves in its directory, removed before it runs again.
fn clear_results(dir: &Path) -> Result {
    fs::create_dir_all(dir).at(dir)?;
    for entry in fs::read_dir(dir).at(dir)? {
        let entry = entry.at(dir)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if cell::is_result(&name) {
            fs::remove_file(entry.path()).at(entry.path())?;
        }
    }
    Ok(())
}

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
    // A distribution's kernel gets its own exact toolchain (distro/toolchain.rs).
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

/// Runs `plans` in a prepared cell, in `out/<kernel>-<arch>/`.
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
    let arch = &arch;
    let cell = format!("{}/{}", build.source.version, arch.name);
    let dir = cell::dir(out, kernel.name, arch.name);
    fs::create_dir_all(&dir).at(&dir)?;
    // Two runs on one cell would build into the same directories.
    let _lock = Lock::exclusive(&dir.join(".lock"), "this cell's build directory")?;
    let mut report = Report {
        cell: cell.clone(),
        kernel: kernel.name,
        arch: arch.name,
        plans: Vec::new(),
        steps: Vec::new(),
        dir: dir.clone(),
        kernel_build_seconds: build.seconds,
    };
    // The modules this run built, plan after plan: a plan that reads its declared cases from
    // another plan's build reads them only from a module built now, never from a stale one.
    let mut built_here: Vec<PathBuf> = Vec::new();
    for plan in plans {
        let result = run_plan(
            plan,
            &build,
            &tools,
            arch,
            &dir,
            &cell,
            &init,
            options,
            &mut laps,
            &mut built_here,
        );
        match result {
            Ok(mut plan_report) => {
                if let Some(judge) = &plan.judge {
                    let found = std::mem::take(&mut plan_report.problems);
                    plan_report.problems = judge(&PlanReport {
                        problems: found,
                        ..plan_report.clone()
                    });
                }
                report.plans.push(plan_report);
            }
            Err(e) => {
                // Even an interrupted run says so in its JUnit, then stops.
                let _ = event::emit(&Event::PlanFailed {
                    cell: &cell,
                    plan: &plan.name,
                    dir: &dir.join(&plan.dir),
                    error: &e.to_string(),
                });
                return Err(e);
            }
        }
    }
    report.steps = laps.0;
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
    let order = crate::pipeline::lanes::longest_first(
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
    let results = crate::pipeline::lanes::side_by_side(
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

/// One plan in a cell.
#[allow(clippy::too_many_arguments)]
fn run_plan(
    plan: &Plan,
    build: &Build,
    tools: &Toolchain,
    arch: &Arch,
    cell_dir: &Path,
    cell: &str,
    init: &Path,
    options: Options,
    laps: &mut Laps,
    built_here: &mut Vec<PathBuf>,
) -> Result<PlanReport> {
    let dir = cell_dir.join(&plan.dir);
    clear_results(&dir)?;
    let mut report = PlanReport {
        name: plan.name.clone(),
        cases: Vec::new(),
        problems: Vec::new(),
        warnings: Vec::new(),
        dir: dir.clone(),
        boot_seconds: None,
    };
    let mut kos = Vec::new();
    let mut judged_by_checks = Vec::new();
    let mut declared_in = Vec::new();
    for spec in &plan.builds {
        let built = build_module(spec, tools, build, arch, &dir.join(&spec.name))?;
        laps.lap(format!("{}: {} build", plan.name, spec.name));
        match (&spec.expect, built) {
            (
                Expect::Modules {
                    judged_by_checks: by_checks,
                    declared_in: from,
                },
                Built::Modules(built, warnings),
            ) => {
                for ko in &built {
                    declared_in.push((ko.clone(), from.clone()));
                }
                built_here.extend(built.iter().cloned());
                kos.extend(built);
                judged_by_checks.extend(by_checks.iter().cloned());
                report.warnings.extend(
                    warnings
                        .into_iter()
                        .map(|w| format!("{cell}: {}: {w}", spec.name)),
                );
            }
            (Expect::Modules { .. }, Built::Failed(problems, _)) => {
                report
                    .problems
                    .extend(problems.into_iter().map(|p| format!("{cell}: {p}")));
            }
            (Expect::Failure(judge), Built::Failed(_, log)) => {
                let problems = judge(&Failed {
                    dir: &dir.join(&spec.name),
                    log: &log,
                });
                report
                    .problems
                    .extend(problems.into_iter().map(|p| format!("{cell}: {p}")));
            }
            (Expect::Failure(_), Built::Modules(..)) => report.problems.push(format!(
                "{cell}: the module build `{}` must fail, but it built (see {})",
                spec.name,
                dir.join(&spec.name).join("build.log").display()
            )),
        }
    }
    for warning in &report.warnings {
        crate::note!("    warning: {warning}");
    }
    if options.deny_warnings && !report.warnings.is_empty() {
        report.problems.push(format!(
            "{cell}: {} module-build warning(s), and --deny-warnings: {}",
            report.warnings.len(),
            report.warnings.join("; ")
        ));
    }
    if kos.is_empty() || !report.problems.is_empty() {
        // Nothing to boot, or a build failed: no boot, but a JUnit that says why.
        event::emit(&Event::PlanFinished {
            cell,
            plan: &report,
            outside_cases: report.problems.len(),
            judged: plan.judge.is_some(),
        })?;
        return Ok(report);
    }

    // The suites each module declares, read from its object before the boot, so that the
    // boot's monitor and the verdict know them.
    let mut declared: Vec<Declared> = Vec::new();
    let mut problems_without_kunit = Vec::new();
    for (ko, from) in &declared_in {
        let module = ko
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if judged_by_checks.contains(&module) {
            continue;
        }
        let source = match from {
            Some(other) => other.join(&module),
            None => ko.clone(),
        };
        if !built_here.contains(&source) {
            report.problems.push(format!(
                "{cell}: {module}'s cases are those {} declares, which this run did not build \
                 (its build failed or did not run): {module} is not judged",
                source.display()
            ));
            continue;
        }
        let suites = match declared::module(&source) {
            Ok(suites) => suites,
            Err(e) => {
                report.problems.push(format!("{cell}: {e}"));
                continue;
            }
        };
        declared.push((module, suites));
    }
    // --- Distribution kernels without KUnit (distro/judge.rs): no case to judge; every module
    // must load, print its init lines and unload, with no kernel trouble.
    if !build.kunit {
        declared.clear();
    }
    let boot = guest::boot(
        build,
        arch,
        &dir,
        init,
        &kos,
        options.case_timeout,
        options.icount,
    )?;
    if !build.kunit {
        problems_without_kunit = verdict::stock::without_kunit(&boot, &kos, &build.source.version)?
            .into_iter()
            .map(|p| format!("{cell}: {p}"))
            .collect();
    }
    laps.lap(format!("{}: boot and KUnit", plan.name));
    report.boot_seconds = Some(boot.seconds);

    report.cases = verdict::cases(&boot.log, &declared, boot.hang.as_ref());
    let mut problems = boot.problems(cell);
    problems.append(&mut problems_without_kunit);
    problems.extend(verdict::load_problems(&boot.log, &kos, cell, &boot.console));
    problems.extend(verdict::event_problems(
        &boot.log,
        &report.cases,
        cell,
        &boot.console,
    ));
    if let Some(hang) = &boot.hang {
        // A hang outside any declared case: a module's init, or a suite of another kind.
        if !report.cases.iter().any(|c| c.hung.is_some()) {
            problems.push(format!(
                "{cell}: {} HUNG: {} (see {})",
                match (&hang.during.module, &hang.during.suite) {
                    (Some(m), Some(s)) =>
                        format!("case #{} of {m}'s suite {s}", hang.during.case_index + 1),
                    (Some(m), None) => format!("{m}'s init or exit"),
                    (None, _) => "the boot".to_string(),
                },
                hang.reason,
                boot.console.display()
            ));
        }
    }
    let failed_cases = report
        .cases
        .iter()
        .any(|c| c.outcome == Some(Outcome::Fail))
        || !judged_by_checks.is_empty();
    for load in &boot.log.loads {
        let Some(doc) = &load.ktap else { continue };
        let module = &load.module;
        event::emit(&Event::Ktap {
            dir: &dir,
            module,
            lines: &doc.lines,
        })?;
        let ktap_file = cell::ktap_file(&dir, module);
        let parsed = verdict::kunit_py_parse(&build.source.dir, &doc.lines)?;
        crate::note!(
            "    kunit.py parse {}: {}",
            ktap_file.display(),
            parsed.verdict
        );
        // kunit.py fails on a failed case too: that is no disagreement.
        let may_fail = failed_cases || judged_by_checks.contains(module);
        if parsed.verdict.is_empty() || (!parsed.passed && !may_fail) {
            problems.push(format!(
                "{cell}: kunit.py parse ({}) disagrees with the log {}:\n{}",
                build.source.dir.display(),
                ktap_file.display(),
                parsed.output
            ));
        }
    }
    let booted = Booted {
        cell,
        log: &boot.log,
        console: &boot.console,
        build,
        kos: &kos,
        declared: &declared,
        dir: &dir,
    };
    for check in &plan.checks {
        problems.extend(
            (check.run)(&booted)
                .into_iter()
                .map(|p| format!("{cell}: {}: {p}", check.name)),
        );
    }
    report.problems.extend(problems);
    let outside_cases = report.problems.len();
    report
        .problems
        .extend(verdict::case_problems(&report.cases, cell, &boot.console));
    for event in &boot.log.events {
        event::emit(&Event::KernelReport {
            cell,
            plan: &plan.name,
            report: event,
        })?;
    }
    for case in &report.cases {
        event::emit(&Event::CaseFinished {
            cell,
            plan: &plan.name,
            case,
        })?;
    }
    laps.lap(format!("{}: verdict", plan.name));
    event::emit(&Event::PlanFinished {
        cell,
        plan: &report,
        outside_cases,
        judged: plan.judge.is_some(),
    })?;
    Ok(report)
}
