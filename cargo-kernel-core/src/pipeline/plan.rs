// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! One plan in a cell ([`crate::model::plan`]): its module builds, one boot that loads what
//! they built, and its verdict: every declared case, the kernel's reports of trouble, the
//! modules' loads, what the kernel's `kunit.py` says of each KTAP document, and the plan's
//! checks. What it finds is emitted as it is found (KTAP documents, kernel reports, cases,
//! the plan's report): reporters write the files.
//!
//! Results never outlive their run: a plan's previous logs and results are removed before it
//! starts, and a plan that fails before its boot still reports why.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::model::cell;
use crate::model::declared::{self, Declared};
use crate::model::event::{self, Event};
use crate::model::ktap::Outcome;
use crate::model::plan::{Booted, Expect, Failed, ModuleBuild, Plan};
use crate::model::report::PlanReport;
use crate::pipeline::guest::{self, Boot};
use crate::pipeline::module::{self, build_module, Against, Built};
use crate::pipeline::verdict;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How a cell's plans are judged.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Module-build warnings fail the cell.
    pub deny_warnings: bool,
    /// How long a case may run without output before it counts as hung.
    pub case_timeout: Duration,
    /// Guest time from the guest's instructions under QEMU ([`guest::ICOUNT`]).
    pub icount: bool,
    /// Boot every guest from its kernel, never resume a saved boot
    /// ([`crate::pipeline::snapshot`]).
    pub cold_boot: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            deny_warnings: false,
            case_timeout: guest::CASE_TIMEOUT,
            icount: false,
            cold_boot: false,
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

/// A cell whose plans run, one after another: what they share, and what a plan leaves for
/// the next.
pub struct Cell<'a> {
    /// The kernel the modules are built against and booted.
    pub against: Against<'a>,
    /// The guest's `/init`.
    pub init: &'a Path,
    /// The cell's directory; each plan's is in it.
    pub dir: &'a Path,
    /// `<kernel version>/<arch>`, which every problem starts with.
    pub name: &'a str,
    /// How the plans are judged.
    pub options: Options,
    /// The seconds of each step so far.
    pub laps: Laps,
    /// The modules this run built, plan after plan: a plan that reads its declared cases from
    /// another plan's build reads them only from a module built now, never from a stale one.
    pub built_here: Vec<PathBuf>,
    /// On a kernel without KUnit built in, kernel-core's harness module, built for the cell's
    /// first plan and loaded first by every boot ([`crate::pipeline::module::HARNESS`]).
    pub harness: Option<PathBuf>,
}

/// What a plan's module builds made.
#[derive(Default)]
struct Modules {
    /// The modules to load, in order.
    kos: Vec<PathBuf>,
    /// Modules whose cases the plan's checks judge instead of the verdict.
    judged_by_checks: Vec<String>,
    /// Each module, and the build directory whose module of the same name declares its cases
    /// (`None`: its own).
    declared_in: Vec<(PathBuf, Option<PathBuf>)>,
}

impl Cell<'_> {
    /// Runs `plan`: its builds, its boot, its verdict. The report's problems are those of the
    /// verdict; the plan's judge, if it has one, has not judged them yet.
    pub fn run(&mut self, plan: &Plan) -> Result<PlanReport> {
        let dir = self.dir.join(&plan.dir);
        clear_results(&dir)?;
        let mut report = PlanReport {
            name: plan.name.clone(),
            cases: Vec::new(),
            problems: Vec::new(),
            warnings: Vec::new(),
            dir: dir.clone(),
            boot_seconds: None,
        };
        let modules = self.build(plan, &dir, &mut report)?;
        self.judge_warnings(&mut report);
        if modules.kos.is_empty() || !report.problems.is_empty() {
            // Nothing to boot, or a build failed: no boot, but a report that says why.
            self.emit_finished(plan, &report, report.problems.len())?;
            return Ok(report);
        }
        let declared = self.declared(&modules, &mut report);
        let boot = guest::boot(
            self.against.build,
            self.against.arch,
            &dir,
            self.init,
            &modules.kos,
            guest::Settings {
                case_timeout: self.options.case_timeout,
                icount: self.options.icount,
                resume: !self.options.cold_boot,
            },
        )?;
        let mut problems = self.judge_boot(&boot, &modules, &declared, &mut report)?;
        problems.extend(self.judge_ktap(&boot, &dir, &modules, &report)?);
        problems.extend(run_checks(
            plan,
            &Booted {
                cell: self.name,
                log: &boot.log,
                console: &boot.console,
                build: self.against.build,
                kos: &modules.kos,
                declared: &declared,
                dir: &dir,
            },
        ));
        report.problems.extend(problems);
        let outside_cases = report.problems.len();
        report.problems.extend(verdict::case_problems(
            &report.cases,
            self.name,
            &boot.console,
        ));
        self.emit_found(plan, &boot, &report)?;
        self.laps.lap(format!("{}: verdict", plan.name));
        self.emit_finished(plan, &report, outside_cases)?;
        Ok(report)
    }

    /// Runs the plan's module builds in `dir`, noting into `report` their warnings and the
    /// problems of those that did not come out as they must.
    fn build(&mut self, plan: &Plan, dir: &Path, report: &mut PlanReport) -> Result<Modules> {
        let mut modules = Modules::default();
        let mut symvers = None;
        let prebuilt = plan
            .builds
            .iter()
            .find_map(|spec| spec.sources.prebuilt_harness());
        if let Some(harness) = prebuilt {
            // Modules built elsewhere come with their own harness, or with none.
            if let Some(harness) = harness {
                modules.kos.extend(module::copy_in(
                    &[harness.to_path_buf()],
                    &dir.join("harness"),
                )?);
            }
        } else if !self.against.build.kunit {
            let harness = self.harness(report)?;
            // The suites' modules use the harness's symbols: modpost must know them.
            symvers = harness
                .as_ref()
                .and_then(|ko| Some(ko.parent()?.join("Module.symvers")));
            modules.kos.extend(harness);
        }
        for spec in &plan.builds {
            let against = Against {
                harness: symvers.as_deref(),
                ..self.against
            };
            let built = build_module(spec, against, &dir.join(&spec.name))?;
            self.laps.lap(format!("{}: {} build", plan.name, spec.name));
            self.note_build(spec, dir, built, &mut modules, report);
        }
        Ok(modules)
    }

    /// The harness module, built once per cell; a failed build is a problem of `report`.
    fn harness(&mut self, report: &mut PlanReport) -> Result<Option<PathBuf>> {
        if self.harness.is_none() {
            let spec = module::harness_build();
            match build_module(&spec, self.against, &self.dir.join(&spec.name))? {
                Built::Modules(kos, _) => self.harness = kos.into_iter().next(),
                Built::Failed(problems, _) => {
                    report
                        .problems
                        .extend(problems.into_iter().map(|p| format!("{}: {p}", self.name)));
                    return Ok(None);
                }
            }
            self.laps.lap("kunit-harness build");
        }
        Ok(self.harness.clone())
    }

    /// Notes what the build `spec` gave, against what must come of it.
    fn note_build(
        &mut self,
        spec: &ModuleBuild,
        dir: &Path,
        built: Built,
        modules: &mut Modules,
        report: &mut PlanReport,
    ) {
        let cell = self.name;
        match (&spec.expect, built) {
            (
                Expect::Modules {
                    judged_by_checks,
                    declared_in,
                },
                Built::Modules(built, warnings),
            ) => {
                for ko in &built {
                    modules.declared_in.push((ko.clone(), declared_in.clone()));
                }
                self.built_here.extend(built.iter().cloned());
                modules.kos.extend(built);
                modules
                    .judged_by_checks
                    .extend(judged_by_checks.iter().cloned());
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

    /// Shows the builds' warnings; with `--deny-warnings`, they are a problem.
    fn judge_warnings(&self, report: &mut PlanReport) {
        for warning in &report.warnings {
            crate::note!("    warning: {warning}");
        }
        if self.options.deny_warnings && !report.warnings.is_empty() {
            report.problems.push(format!(
                "{}: {} module-build warning(s), and --deny-warnings: {}",
                self.name,
                report.warnings.len(),
                report.warnings.join("; ")
            ));
        }
    }

    /// The suites each module declares, read from its object before the boot, so that the
    /// boot's monitor and the verdict know them; a module whose table cannot be read is a
    /// problem. A kernel without KUnit (a distribution's) runs no case: none is declared.
    fn declared(&self, modules: &Modules, report: &mut PlanReport) -> Vec<Declared> {
        let cell = self.name;
        let mut declared: Vec<Declared> = Vec::new();
        for (ko, from) in &modules.declared_in {
            let module = ko
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if modules.judged_by_checks.contains(&module) {
                continue;
            }
            let source = match from {
                Some(other) => other.join(&module),
                None => ko.clone(),
            };
            if !self.built_here.contains(&source) {
                report.problems.push(format!(
                    "{cell}: {module}'s cases are those {} declares, which this run did not build \
                     (its build failed or did not run): {module} is not judged",
                    source.display()
                ));
                continue;
            }
            match declared::module(&source) {
                Ok(suites) => declared.push((module, suites)),
                Err(e) => report.problems.push(format!("{cell}: {e}")),
            }
        }
        declared
    }

    /// The verdict of the boot: every declared case into `report`; the problems of the boot
    /// itself, of the modules' loads, of the kernel's reports outside any case, and of a hang
    /// outside any case.
    fn judge_boot(
        &mut self,
        boot: &Boot,
        modules: &Modules,
        declared: &[Declared],
        report: &mut PlanReport,
    ) -> Result<Vec<String>> {
        let (cell, build) = (self.name, self.against.build);
        let mut problems = boot.problems(cell);
        let harnessed = modules
            .kos
            .first()
            .is_some_and(|ko| ko.ends_with("kernel_core_kunit.ko"));
        if !build.kunit && harnessed {
            crate::note!(
                "    {} has no KUnit built in: kernel-core's harness module ran the suites",
                build.source.version
            );
        }
        self.laps.lap(format!("{}: boot and KUnit", report.name));
        report.boot_seconds = Some(boot.seconds);
        report.cases = verdict::cases(&boot.log, declared, boot.hang.as_ref());
        problems.extend(verdict::load_problems(
            &boot.log,
            &modules.kos,
            cell,
            &boot.console,
        ));
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
        Ok(problems)
    }

    /// Each module's KTAP document, emitted (for its file) and given to the kernel's own
    /// `kunit.py parse`, which must accept it: a problem where it disagrees with the log.
    fn judge_ktap(
        &self,
        boot: &Boot,
        dir: &Path,
        modules: &Modules,
        report: &PlanReport,
    ) -> Result<Vec<String>> {
        let (cell, source) = (self.name, &self.against.build.source.dir);
        // kunit.py fails on a failed case too: that is no disagreement.
        let failed_cases = report
            .cases
            .iter()
            .any(|c| c.outcome == Some(Outcome::Fail))
            || !modules.judged_by_checks.is_empty();
        let mut problems = Vec::new();
        for load in &boot.log.loads {
            let Some(doc) = &load.ktap else { continue };
            let module = &load.module;
            event::emit(&Event::Ktap {
                dir,
                module,
                lines: &doc.lines,
            })?;
            let ktap_file = cell::ktap_file(dir, module);
            let parsed = verdict::kunit_py_parse(source, &doc.lines)?;
            crate::note!(
                "    kunit.py parse {}: {}",
                ktap_file.display(),
                parsed.verdict
            );
            let may_fail = failed_cases || modules.judged_by_checks.contains(module);
            if parsed.verdict.is_empty() || (!parsed.passed && !may_fail) {
                problems.push(format!(
                    "{cell}: kunit.py parse ({}) disagrees with the log {}:\n{}",
                    source.display(),
                    ktap_file.display(),
                    parsed.output
                ));
            }
        }
        Ok(problems)
    }

    /// Emits what the boot found: the kernel's reports, then every case.
    fn emit_found(&self, plan: &Plan, boot: &Boot, report: &PlanReport) -> Result {
        for found in &boot.log.events {
            event::emit(&Event::KernelReport {
                cell: self.name,
                plan: &plan.name,
                report: found,
            })?;
        }
        for case in &report.cases {
            event::emit(&Event::CaseFinished {
                cell: self.name,
                plan: &plan.name,
                case,
            })?;
        }
        Ok(())
    }

    /// Emits the plan's report: its first `outside_cases` problems belong to no case.
    fn emit_finished(&self, plan: &Plan, report: &PlanReport, outside_cases: usize) -> Result {
        event::emit(&Event::PlanFinished {
            cell: self.name,
            plan: report,
            outside_cases,
            judged: plan.judge.is_some(),
        })
    }
}

/// The problems the plan's own checks find in the boot, each named by its check.
fn run_checks(plan: &Plan, booted: &Booted<'_>) -> Vec<String> {
    plan.checks
        .iter()
        .flat_map(|check| {
            (check.run)(booted)
                .into_iter()
                .map(|p| format!("{}: {}: {p}", booted.cell, check.name))
        })
        .collect()
}

/// Removes the files a plan leaves in its directory `dir`, before it runs again.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::toolchain::Toolchain;
    use crate::model::arch;
    use crate::model::build::{Build, Source};

    /// A cell of a kernel that was never built, in `dir`: enough for everything but a boot.
    fn with_cell(dir: &Path, options: Options, test: impl FnOnce(&mut Cell<'_>)) {
        let build = Build {
            dir: dir.join("kernel"),
            source: Source {
                dir: dir.join("source"),
                version: "7.3.4".into(),
            },
            image: dir.join("kernel/bzImage"),
            seconds: None,
            kunit: true,
        };
        let (tools, arch) = (Toolchain::default(), arch::x86_64());
        let mut cell = Cell {
            against: Against {
                harness: None,
                build: &build,
                tools: &tools,
                arch: &arch,
            },
            init: Path::new("/init"),
            dir,
            name: "7.3.4/x86_64",
            options,
            laps: Laps::start(),
            built_here: Vec::new(),
            harness: None,
        };
        test(&mut cell);
    }

    fn spec(name: &str, expect: Expect) -> ModuleBuild {
        ModuleBuild {
            name: name.into(),
            sources: crate::model::plan::Sources::Kbuild(String::new()),
            variables: Vec::new(),
            expect,
        }
    }

    fn modules_expected() -> Expect {
        Expect::Modules {
            judged_by_checks: Vec::new(),
            declared_in: None,
        }
    }

    fn empty_report(dir: &Path) -> PlanReport {
        PlanReport {
            name: "mydrv".into(),
            cases: Vec::new(),
            problems: Vec::new(),
            warnings: Vec::new(),
            dir: dir.to_path_buf(),
            boot_seconds: None,
        }
    }

    #[test]
    fn each_build_is_judged_by_what_must_come_of_it() {
        let scratch = tempfile::tempdir().unwrap();
        with_cell(scratch.path(), Options::default(), |cell| {
            let dir = scratch.path();
            let mut modules = Modules::default();
            let mut report = empty_report(dir);
            let ko = dir.join("module/mydrv.ko");
            let built = Built::Modules(vec![ko.clone()], vec!["unused variable `x`".into()]);
            cell.note_build(
                &spec("module", modules_expected()),
                dir,
                built,
                &mut modules,
                &mut report,
            );
            assert_eq!(modules.kos, std::slice::from_ref(&ko));
            assert_eq!(cell.built_here, [ko]);
            assert_eq!(
                report.warnings,
                ["7.3.4/x86_64: module: unused variable `x`"]
            );
            let failed = Built::Failed(vec!["the module build `b` failed".into()], String::new());
            cell.note_build(
                &spec("b", modules_expected()),
                dir,
                failed,
                &mut modules,
                &mut report,
            );
            let must_fail = spec("fixture", Expect::Failure(Box::new(|_| Vec::new())));
            let built = Built::Modules(Vec::new(), Vec::new());
            cell.note_build(&must_fail, dir, built, &mut modules, &mut report);
            let failed_as_it_must = Built::Failed(Vec::new(), "error".into());
            cell.note_build(
                &must_fail,
                dir,
                failed_as_it_must,
                &mut modules,
                &mut report,
            );
            assert_eq!(report.problems.len(), 2, "{:?}", report.problems);
            assert_eq!(
                report.problems[0],
                "7.3.4/x86_64: the module build `b` failed"
            );
            assert!(report.problems[1].starts_with(
                "7.3.4/x86_64: the module build `fixture` must fail, but it built (see "
            ));
        });
    }

    #[test]
    fn warnings_fail_the_plan_only_when_denied() {
        let scratch = tempfile::tempdir().unwrap();
        for deny_warnings in [false, true] {
            let options = Options {
                deny_warnings,
                ..Options::default()
            };
            with_cell(scratch.path(), options, |cell| {
                let mut report = empty_report(scratch.path());
                report.warnings.push("7.3.4/x86_64: module: w".into());
                cell.judge_warnings(&mut report);
                assert_eq!(report.problems.len(), usize::from(deny_warnings));
            });
        }
    }

    #[test]
    fn cases_are_read_only_from_modules_this_run_built() {
        let scratch = tempfile::tempdir().unwrap();
        with_cell(scratch.path(), Options::default(), |cell| {
            let dir = scratch.path();
            let modules = Modules {
                kos: vec![dir.join("switch-back/mydrv.ko")],
                judged_by_checks: Vec::new(),
                declared_in: vec![(dir.join("switch-back/mydrv.ko"), Some(dir.join("module")))],
            };
            let mut report = empty_report(dir);
            assert!(cell.declared(&modules, &mut report).is_empty());
            assert!(
                report.problems[0].contains("which this run did not build"),
                "{:?}",
                report.problems
            );
        });
    }

    #[test]
    fn an_earlier_run_s_results_are_removed_and_nothing_else() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        for file in [
            "console.log",
            "junit.xml",
            "ktap-mydrv.log",
            "build.log",
            "mydrv.ko",
        ] {
            fs::write(dir.join(file), "").unwrap();
        }
        clear_results(dir).unwrap();
        let mut left: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["build.log", "mydrv.ko"]);
    }

    #[test]
    fn checks_name_themselves_and_the_cell() {
        let plan = Plan {
            name: "kernel-core".into(),
            dir: PathBuf::new(),
            builds: Vec::new(),
            checks: vec![crate::model::plan::Check {
                name: "sample".into(),
                run: Box::new(|_| vec!["it said nothing".into()]),
            }],
            judge: None,
        };
        let build = Build::existing(Path::new("/nonexistent"), &arch::x86_64()).unwrap();
        let booted = Booted {
            cell: "7.3.4/x86_64",
            log: &crate::model::console::parse(""),
            console: Path::new("console.log"),
            build: &build,
            kos: &[],
            declared: &[],
            dir: Path::new("."),
        };
        assert_eq!(
            run_checks(&plan, &booted),
            ["7.3.4/x86_64: sample: it said nothing"]
        );
    }
}
