// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A driver's host suites, run before its cells: the same `#[kunit_tests]` suites as
//! ordinary tests, with cargo-nextest if it is installed, judged as a cell's cases are; and,
//! with `--fail-each-alloc`, each test run again once per allocation it made, failing each in
//! turn ([`fail_each_alloc`]).
//!
//! Each test is a case ([`crate::model::host`]), and the reports that kernel-core's host
//! detectors print in a failed test's output, in the kernel's words, are read by the guest
//! console's reader: a host case fails with the problem a cell's case would have, naming the
//! same detector (`host: planted::lock_order_b_then_a FAILED: lockdep: WARNING: possible
//! circular locking dependency detected`, `kmemleak: unreferenced object 0x... (size 64):`),
//! in the terminal, in the JUnit of `<target>/kernel-core/host/junit.xml`, and in the events
//! of `--events` (`case-finished` for each test, `plan-finished`).
//!
//! With `--model`, the suites are built with kernel-core's model checker (its feature `loom`,
//! [`MODEL_FEATURE`]): a test whose `kernel_core::extras::model::model` finds an interleaving
//! of its threads that fails fails its case with the model checker's report (`host:
//! counter::tests::two_threads FAILED: BUG: model checker: interleaving 4 fails: ...`). The
//! feature-set differs from the plain run's, so cargo keeps both builds side by side in the
//! target directory: the plain run's cost does not change.
//!
//! Every test of the suites runs in a scope of kernel-core's (with its `std` feature): its
//! allocations are counted, what it leaks and the locks it leaves held fail it, and the scope
//! writes a line of JSON when it ends ([`crate::model::scope`]), to
//! `<target>/kernel-core/host/scopes.jsonl`. The fault mode runs again the tests that passed
//! there, and a test that fails in it fails its case the same way (`host: ring::grows FAILED:
//! fault injection: FAULT_INJECTION: forcing a failure. (its allocation 3 failed)`).
//!
//! Under nextest the results come from its JUnit report, which a tool configuration of the
//! runner's asks for (the profile `kernel-core-host`, which inherits the repository's
//! `default` profile); under `cargo test`, from libtest's output. The harness's output goes to
//! `<target>/kernel-core/host/host.log`, and to the terminal as it comes.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::process::{self, Control, Ending, Monitor};
use crate::infra::{build_log, command, progress};
use crate::model::driver::Driver;
use crate::model::event::{self, Event};
use crate::model::host::{self, HostTest};
use crate::model::report::{Case, PlanReport};
use crate::model::scope::{self, Record, ALLOW_LEAKS_VAR, REPORT_VAR};
use crate::pipeline::verdict;
use anyhow::bail;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub mod fail_each_alloc;

/// The cell name of the host's results: `host: suite::case FAILED: ...`.
pub const CELL: &str = "host";

/// The nextest profile the runner's tool configuration defines.
const PROFILE: &str = "kernel-core-host";

/// The harness that runs the suites.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Harness {
    /// `cargo nextest run`: each test in a process of its own.
    Nextest,
    /// `cargo test`: the tests of a binary on threads of one process.
    CargoTest,
}

impl Harness {
    /// Its command, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Harness::Nextest => "cargo nextest run",
            Harness::CargoTest => "cargo test",
        }
    }

    /// nextest if it is installed, else `cargo test` (said so).
    pub fn installed() -> Self {
        let has_nextest = command::cargo()
            .args(["nextest", "--version"])
            .output()
            .is_ok_and(|o| o.status.success());
        if has_nextest {
            Harness::Nextest
        } else {
            crate::note!("    cargo-nextest is not installed (`cargo install --locked cargo-nextest`): running `cargo test`");
            Harness::CargoTest
        }
    }
}

/// What the host suites check besides their own assertions, as `cargo kernel-core test`'s
/// options ask.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Run each test again once per allocation it made, failing each in turn.
    pub fail_each_alloc: bool,
    /// The tests whose leaks are not reported (`KERNEL_CORE_ALLOW_LEAKS`).
    pub allow_leaks: Vec<String>,
    /// Build the suites with kernel-core's model checker ([`MODEL_FEATURE`]).
    pub model: bool,
}

/// The feature that `--model` builds the suites with: kernel-core's `loom`, through the
/// driver's dependency on it (which must be named `kernel-core`).
pub const MODEL_FEATURE: &str = "kernel-core/loom";

impl Options {
    /// The arguments that these options add to the harness's cargo command.
    fn cargo_args(&self) -> Vec<&'static str> {
        if self.model {
            vec!["--features", MODEL_FEATURE]
        } else {
            Vec::new()
        }
    }
}

/// A host test that failed in the fault mode: which, with which allocation failed, and what
/// the detectors said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The test, as `cargo test` lists it.
    pub test: String,
    /// The allocation that `--fail-each-alloc` failed.
    pub fail_nth: Option<u64>,
    /// What failed it, the first first: the detectors as `cargo kernel-core test` names a
    /// cell's (`fault injection`, `kmemleak`, `lockdep`), or `panic`, `error`, `crash`.
    pub detectors: Vec<String>,
    /// The first line of the first report: the kernel's title.
    pub title: String,
    /// What the test printed, with the reports in full.
    pub text: String,
}

impl Failure {
    /// The report a failed case carries: `fault injection: FAULT_INJECTION: forcing a
    /// failure. (its allocation 3 failed)`, as a cell's case names its detector.
    pub fn report(&self) -> String {
        format!(
            "{}: {}{}",
            self.detectors.first().map_or("test", String::as_str),
            self.title,
            self.fail_nth
                .map(|n| format!(" (its allocation {n} failed)"))
                .unwrap_or_default(),
        )
    }

    /// One line: `ring::tests::grows with its allocation 3 failed: fault injection:
    /// FAULT_INJECTION: forcing a failure.`.
    pub fn line(&self) -> String {
        format!(
            "{}{}: {}: {}",
            self.test,
            self.fail_nth
                .map(|n| format!(" with its allocation {n} failed"))
                .unwrap_or_default(),
            self.detectors.first().map_or("test", String::as_str),
            self.title
        )
    }
}

/// What a run of the host suites found.
#[derive(Debug)]
pub struct Outcome {
    /// The plan's report: every test a case, the fault mode's failures included.
    pub report: PlanReport,
    /// The lines of the scopes of the suites' run.
    pub records: Vec<Record>,
    /// The fault mode's failures (also in [`Outcome::report`]'s cases).
    pub failures: Vec<Failure>,
    /// The fault mode's rounds, if it ran.
    pub rounds: Option<fail_each_alloc::Rounds>,
}

/// A run of host suites.
pub struct Suites<'a> {
    /// The cargo project (its `Cargo.toml`).
    pub dir: &'a Path,
    /// Its target directory: the run's files go to `kernel-core/host/` there.
    pub target_dir: &'a Path,
    /// The harness.
    pub harness: Harness,
    /// More arguments for cargo (`--features x`).
    pub cargo_args: &'a [String],
    /// How many tests run at once (`None`: the harness's default).
    pub test_threads: Option<usize>,
    /// Whether the harness's output is shown as it comes (else only logged).
    pub echo: bool,
    /// Whether a judge of its own decides what its problems mean (a self-test of the
    /// verdict, whose cases fail on purpose).
    pub judged: bool,
    /// The fault mode, the leaks allowed.
    pub options: &'a Options,
}

impl Suites<'_> {
    /// Where the run's files go: `<target>/kernel-core/host/`.
    pub fn out(&self) -> PathBuf {
        self.target_dir.join("kernel-core").join(CELL)
    }
}

/// Runs a driver's host suites, as `cargo kernel-core test` does before its cells, and fails
/// with the problems of its cases.
pub fn host_tests(driver: &Driver, options: &Options) -> Result {
    let suites = Suites {
        dir: &driver.dir,
        target_dir: &driver.target_dir,
        harness: Harness::installed(),
        cargo_args: &[],
        test_threads: None,
        echo: true,
        judged: false,
        options,
    };
    let report = run(&suites)?.report;
    if !report.problems.is_empty() {
        bail!(
            "the host suites of {} failed: {} problem(s):\n  {}",
            driver.dir.display(),
            report.problems.len(),
            report.problems.join("\n  ")
        );
    }
    Ok(())
}

/// Sets `KERNEL_CORE_ALLOW_LEAKS` on `cmd` to `tests`, if any.
fn allow_leaks(cmd: &mut std::process::Command, tests: &[String]) {
    if !tests.is_empty() {
        cmd.env(ALLOW_LEAKS_VAR, tests.join(","));
    }
}

/// Removes `path` if it is there.
fn remove_if_there(path: &Path) -> Result {
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e).at(path),
        _ => Ok(()),
    }
}

/// Runs the host suites (and, with `--fail-each-alloc`, then each test that passed once per
/// allocation it made), judges each test as a cell's case, and emits the plan's result (the
/// terminal's line, the JUnit). The report's problems are those of the cases that failed
/// (each naming the detector whose report it carries, in the suites' run or in the fault
/// mode's) and of a harness that failed without a failed test (a crate that did not build).
pub fn run(suites: &Suites<'_>) -> Result<Outcome> {
    let out = suites.out();
    fs::create_dir_all(&out).at(&out)?;
    let log = out.join("host.log");
    let junit = out.join("nextest-junit.xml");
    let records_file = out.join("scopes.jsonl");
    for stale in [&log, &junit, &records_file] {
        remove_if_there(stale)?;
    }
    let mut cmd = command::cargo();
    cmd.current_dir(suites.dir).env(REPORT_VAR, &records_file);
    allow_leaks(&mut cmd, &suites.options.allow_leaks);
    match suites.harness {
        Harness::Nextest => {
            let config = out.join("nextest.toml");
            fs::write(&config, nextest_config(&junit)).at(&config)?;
            let mut tool = std::ffi::OsString::from("kernel-core:");
            tool.push(&config);
            cmd.args(["nextest", "run", "--no-fail-fast", "--no-tests=warn"])
                .arg("--tool-config-file")
                .arg(tool)
                .args(["--profile", PROFILE]);
            if let Some(threads) = suites.test_threads {
                cmd.arg("--test-threads").arg(threads.to_string());
            }
            cmd.args(suites.cargo_args)
                .args(suites.options.cargo_args());
        }
        Harness::CargoTest => {
            cmd.args(["test", "--no-fail-fast"])
                .args(suites.cargo_args)
                .args(suites.options.cargo_args());
            if let Some(threads) = suites.test_threads {
                cmd.arg("--").arg(format!("--test-threads={threads}"));
            }
        }
    }
    let what = suites.harness.name();
    let start = progress::step(&format!("host suites of {} ({what})", suites.dir.display()));
    crate::note!("    $ {}", process::show(&cmd));
    let logged = process::run_logged(
        &mut cmd,
        &log,
        what,
        Duration::MAX,
        Duration::MAX,
        &mut Echo(suites.echo),
    )?;
    let seconds = start.elapsed().as_secs_f64();
    let tests = match suites.harness {
        Harness::Nextest => match fs::read_to_string(&junit) {
            Ok(xml) => host::from_nextest_junit(&xml)
                .map_err(|e| anyhow::anyhow!("{}: {e}", junit.display()))?,
            // No test ran: the crate did not build, say.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(e).at(&junit),
        },
        Harness::CargoTest => {
            let text = fs::read_to_string(&log).at(&log)?;
            host::from_libtest(&text)
        }
    };
    let records = scope::read(&records_file)?;
    let (failures, rounds) = if suites.options.fail_each_alloc {
        let (failures, rounds) = fail_each_alloc::run(&records, &out, suites.options)?;
        (failures, Some(rounds))
    } else {
        (Vec::new(), None)
    };
    let report = judge(
        suites,
        &tests,
        &records,
        &failures,
        &logged.ending,
        &log,
        seconds,
    );
    for case in &report.cases {
        event::emit(&Event::CaseFinished {
            cell: CELL,
            plan: &report.name,
            case,
        })?;
    }
    let outside_cases = report.problems.len() - report.cases.iter().filter(|c| !c.ok()).count();
    event::emit(&Event::PlanFinished {
        cell: CELL,
        plan: &report,
        outside_cases,
        judged: suites.judged,
    })?;
    let done = match (report.problems.is_empty(), suites.judged) {
        (true, _) => "host suites passed",
        (false, false) => "host suites FAILED",
        (false, true) => "host suites ran (their judge decides)",
    };
    progress::done(done, start);
    Ok(Outcome {
        report,
        records,
        failures,
        rounds,
    })
}

/// The plan's report of `tests`, which the harness ran and ended as `ending` said, its output
/// in `log`; `records` are the tests' scopes' lines, which give a `#[kunit_tests]` case its
/// KUnit name (`suite::case`, as a cell's results name it).
fn judge(
    suites: &Suites<'_>,
    tests: &[HostTest],
    records: &[Record],
    failures: &[Failure],
    ending: &Ending,
    log: &Path,
    seconds: f64,
) -> PlanReport {
    let mut cases: Vec<_> = tests.iter().map(host::case).collect();
    for (case, test) in cases.iter_mut().zip(tests) {
        let kunit = records
            .iter()
            .find(|record| record.test == test.path)
            .and_then(|record| record.kunit.as_deref()?.split_once("::"));
        if let Some((suite, name)) = kunit {
            case.suite = suite.to_string();
            case.name = name.to_string();
        }
    }
    let mut problems = Vec::new();
    for failure in failures {
        match tests.iter().position(|t| t.path == failure.test) {
            Some(i) => fail_case(&mut cases[i], failure),
            // A test that the harness's results do not list (a doctest's scope, say).
            None => problems.push(format!(
                "{CELL}: {} (see {})",
                failure.line(),
                log.display()
            )),
        }
    }
    let succeeded = matches!(ending, Ending::Exited(status) if status.success());
    if !succeeded && cases.iter().all(|c| c.ok()) {
        // The harness failed without a failed test: the crate did not build, say.
        let text = fs::read_to_string(log).unwrap_or_default();
        let mut problem = format!(
            "{CELL}: `{}` in {} failed ({}) without a failed test (see {})",
            suites.harness.name(),
            suites.dir.display(),
            match ending {
                Ending::Exited(status) => status.to_string(),
                Ending::TimedOut => "timed out".to_string(),
                Ending::Stopped(why) => why.clone(),
            },
            log.display()
        );
        for line in build_log::first_errors(&text, 30) {
            problem.push_str("\n    | ");
            problem.push_str(&line);
        }
        problems.push(problem);
    }
    problems.extend(verdict::case_problems(&cases, CELL, log));
    PlanReport {
        name: suites.dir.file_name().map_or_else(
            || "suites".to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
        cases,
        problems,
        warnings: Vec::new(),
        dir: suites.out(),
        boot_seconds: Some(seconds),
    }
}

/// Fails `case`, which passed the suites' run, with `failure` of the fault mode: its report
/// names the detector as a cell's does; the first failure's output comes with it.
fn fail_case(case: &mut Case, failure: &Failure) {
    case.outcome = Some(crate::model::ktap::Outcome::Fail);
    if case.report_texts.is_empty() {
        case.report_texts.push(failure.text.clone());
    }
    case.reports.push(failure.report());
}

/// The runner's nextest tool configuration: a profile that runs every test however many fail
/// and writes the JUnit report to `junit`, with each failed test's output.
fn nextest_config(junit: &Path) -> String {
    // A TOML basic string: any path a hostile directory name makes.
    let mut path = String::new();
    for c in junit.to_string_lossy().chars() {
        match c {
            '\\' => path.push_str("\\\\"),
            '"' => path.push_str("\\\""),
            c if c.is_control() => path.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => path.push(c),
        }
    }
    format!(
        "# Written by cargo kernel-core: the host suites' run, judged from its JUnit.\n\
         [profile.{PROFILE}]\n\
         fail-fast = false\n\
         \n\
         [profile.{PROFILE}.junit]\n\
         path = \"{path}\"\n\
         store-failure-output = true\n"
    )
}

/// Shows the harness's lines as they come, if asked to.
struct Echo(bool);

impl Monitor for Echo {
    fn line(&mut self, line: &str) -> Control {
        if self.0 {
            progress::print_now(&format!("{line}\n"));
        }
        Control::Continue
    }

    fn quiet(&mut self, _since_last_line: Duration) -> Control {
        Control::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ktap::Outcome;

    fn test(path: &str, outcome: Outcome, output: &str) -> HostTest {
        HostTest {
            binary: "mydrv".into(),
            path: path.into(),
            outcome,
            output: output.into(),
        }
    }

    fn suites<'a>(dir: &'a Path) -> Suites<'a> {
        Suites {
            dir,
            target_dir: dir,
            harness: Harness::CargoTest,
            cargo_args: &[],
            test_threads: None,
            echo: false,
            judged: false,
            options: &NO_OPTIONS,
        }
    }

    static NO_OPTIONS: Options = Options {
        fail_each_alloc: false,
        allow_leaks: Vec::new(),
        model: false,
    };

    #[test]
    fn the_model_mode_builds_with_kernel_core_s_loom() {
        assert!(NO_OPTIONS.cargo_args().is_empty());
        let model = Options {
            model: true,
            ..Options::default()
        };
        assert_eq!(model.cargo_args(), ["--features", "kernel-core/loom"]);
    }

    #[test]
    fn a_failed_case_names_its_detector_as_a_cell_s_does() {
        let dir = Path::new("/d/mydrv");
        let tests = [
            test("planted::lock_order_a_then_b", Outcome::Pass, ""),
            test(
                "planted::lock_order_b_then_a",
                Outcome::Fail,
                &format!(
                    "\n{}\nWARNING: possible circular locking dependency detected\nmore\n",
                    "=".repeat(54)
                ),
            ),
        ];
        let failed = std::process::Command::new("false").status().unwrap();
        let report = judge(
            &suites(dir),
            &tests,
            &[],
            &[],
            &Ending::Exited(failed),
            Path::new("/d/host.log"),
            0.0,
        );
        assert_eq!(report.name, "mydrv");
        assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
        assert!(
            report.problems[0].starts_with(
                "host: planted::lock_order_b_then_a FAILED: lockdep: WARNING: possible circular locking dependency detected (see /d/host.log)"
            ),
            "{}",
            report.problems[0]
        );
        assert!(report.problems[0].contains("\n    | more"));
        assert_eq!(report.counts(), (1, 1, 0));
    }

    #[test]
    fn a_kunit_case_is_named_as_a_cell_names_it() {
        let dir = Path::new("/d/mydrv");
        let tests = [
            test("driver::tests::grows", Outcome::Pass, ""),
            test("driver::tests::shrinks", Outcome::Fail, "thread panicked"),
            test("plain::works", Outcome::Pass, ""),
        ];
        let record = |test: &str, kunit: Option<&str>| Record {
            test: test.into(),
            kunit: kunit.map(Into::into),
            exe: PathBuf::from("/d/target/debug/deps/mydrv"),
            cwd: PathBuf::from("/d"),
            allocations: 0,
            fail_nth: 0,
            injected: None,
            outcome: "ok".into(),
            message: None,
            verdict: "pass".into(),
            reports: Vec::new(),
        };
        let records = [
            record("driver::tests::grows", Some("mydrv_ring::grows")),
            record("driver::tests::shrinks", Some("mydrv_ring::shrinks")),
            record("plain::works", None),
        ];
        let failed = std::process::Command::new("false").status().unwrap();
        let report = judge(
            &suites(dir),
            &tests,
            &records,
            &[],
            &Ending::Exited(failed),
            Path::new("/d/host.log"),
            0.0,
        );
        let names: Vec<_> = report
            .cases
            .iter()
            .map(|case| format!("{}::{}", case.suite, case.name))
            .collect();
        assert_eq!(
            names,
            ["mydrv_ring::grows", "mydrv_ring::shrinks", "plain::works"]
        );
        assert!(
            report.problems[0].starts_with("host: mydrv_ring::shrinks FAILED"),
            "{}",
            report.problems[0]
        );
    }

    #[test]
    fn a_test_that_fails_in_the_fault_mode_fails_its_case_naming_the_detector() {
        let dir = Path::new("/d/mydrv");
        let tests = [test("ring::grows", Outcome::Pass, "")];
        let failure = |n| Failure {
            test: "ring::grows".into(),
            fail_nth: Some(n),
            detectors: vec!["fault injection".into()],
            title: "FAULT_INJECTION: forcing a failure.".into(),
            text: format!("FAULT_INJECTION: forcing a failure.\nallocation {n}"),
        };
        let gone = Failure {
            test: "gone::test".into(),
            ..failure(1)
        };
        let passed = std::process::Command::new("true").status().unwrap();
        let report = judge(
            &suites(dir),
            &tests,
            &[],
            &[failure(2), failure(3), gone],
            &Ending::Exited(passed),
            Path::new("/d/host.log"),
            0.0,
        );
        assert_eq!(report.counts(), (0, 1, 0));
        assert_eq!(report.problems.len(), 2, "{:?}", report.problems);
        assert!(
            report.problems[0].starts_with(
                "host: gone::test with its allocation 1 failed: fault injection: FAULT_INJECTION"
            ),
            "{}",
            report.problems[0]
        );
        assert!(
            report.problems[1].starts_with(
                "host: ring::grows FAILED: fault injection: FAULT_INJECTION: forcing a failure. (its allocation 2 failed) (see /d/host.log)"
            ),
            "{}",
            report.problems[1]
        );
        assert!(report.problems[1].contains("\n    | allocation 2"));
        assert!(!report.problems[1].contains("allocation 3\n"));
    }

    #[test]
    fn a_harness_that_failed_without_a_failed_test_is_a_problem() {
        let dir = Path::new("/d/mydrv");
        let failed = std::process::Command::new("false").status().unwrap();
        let report = judge(
            &suites(dir),
            &[],
            &[],
            &[],
            &Ending::Exited(failed),
            Path::new("/nonexistent/host.log"),
            0.0,
        );
        assert_eq!(report.problems.len(), 1);
        assert!(report.problems[0].starts_with("host: `cargo test` in /d/mydrv failed"));
        let passed = std::process::Command::new("true").status().unwrap();
        let report = judge(
            &suites(dir),
            &[],
            &[],
            &[],
            &Ending::Exited(passed),
            Path::new("/nonexistent/host.log"),
            0.0,
        );
        assert!(report.problems.is_empty());
    }

    #[test]
    fn the_tool_configuration_names_the_junit_file() {
        let text = nextest_config(Path::new("/t/a \"b\"\\\tc/nextest-junit.xml"));
        assert!(text.contains("[profile.kernel-core-host.junit]"));
        assert!(
            text.contains(r#"path = "/t/a \"b\"\\\u0009c/nextest-junit.xml""#),
            "{text}"
        );
    }
}
