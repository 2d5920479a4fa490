// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A driver's host suites, run before its cells: the same `#[kunit_tests]` suites as
//! ordinary tests, with cargo-nextest if it is installed, judged as a cell's cases are.
//!
//! Each test is a case ([`crate::model::host`]), and the reports that kernel-core's host
//! detectors print in a failed test's output, in the kernel's words, are read by the guest
//! console's reader: a host case fails with the problem a cell's case would have, naming the
//! same detector (`host: planted::lock_order_b_then_a FAILED: lockdep: WARNING: possible
//! circular locking dependency detected`), in the terminal, in the JUnit of
//! `<target>/kernel-core/host/junit.xml`, and in the events of `--events` (`case-finished`
//! for each test, `plan-finished`).
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
use crate::model::report::PlanReport;
use crate::pipeline::verdict;
use anyhow::bail;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

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
}

impl Suites<'_> {
    /// Where the run's files go: `<target>/kernel-core/host/`.
    pub fn out(&self) -> PathBuf {
        self.target_dir.join("kernel-core").join(CELL)
    }
}

/// Runs a driver's host suites, as `cargo kernel-core test` does before its cells, and fails
/// with the problems of its cases.
pub fn host_tests(driver: &Driver) -> Result {
    let suites = Suites {
        dir: &driver.dir,
        target_dir: &driver.target_dir,
        harness: Harness::installed(),
        cargo_args: &[],
        test_threads: None,
        echo: true,
        judged: false,
    };
    let report = run(&suites)?;
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

/// Runs the host suites, judges each test as a cell's case, and emits the plan's result
/// (the terminal's line, the JUnit). The report's problems are those of the cases that failed
/// (each naming the detector whose report it carries) and of a harness that failed without a
/// failed test (a crate that did not build).
pub fn run(suites: &Suites<'_>) -> Result<PlanReport> {
    let out = suites.out();
    fs::create_dir_all(&out).at(&out)?;
    let log = out.join("host.log");
    let junit = out.join("nextest-junit.xml");
    for stale in [&log, &junit] {
        match fs::remove_file(stale) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).at(stale);
            }
            _ => {}
        }
    }
    let mut cmd = command::cargo();
    cmd.current_dir(suites.dir);
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
            cmd.args(suites.cargo_args);
        }
        Harness::CargoTest => {
            cmd.args(["test", "--no-fail-fast"]).args(suites.cargo_args);
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
    let report = judge(suites, &tests, &logged.ending, &log, seconds);
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
    Ok(report)
}

/// The plan's report of `tests`, which the harness ran and ended as `ending` said, its output
/// in `log`.
fn judge(
    suites: &Suites<'_>,
    tests: &[HostTest],
    ending: &Ending,
    log: &Path,
    seconds: f64,
) -> PlanReport {
    let cases: Vec<_> = tests.iter().map(host::case).collect();
    let mut problems = Vec::new();
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
        }
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
    fn a_harness_that_failed_without_a_failed_test_is_a_problem() {
        let dir = Path::new("/d/mydrv");
        let failed = std::process::Command::new("false").status().unwrap();
        let report = judge(
            &suites(dir),
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
