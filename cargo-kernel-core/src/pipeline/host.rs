// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A driver's host suites, run before its cells: the same `#[kunit_tests]` suites as
//! ordinary tests, with cargo-nextest if it is installed; and, with `--fail-each-alloc`, each
//! test run again once per allocation it made, failing each in turn ([`fail_each_alloc`]).
//!
//! Every test of the suites runs in a scope of kernel-core's (with its `std` feature): its
//! allocations are counted, what it leaks and the locks it leaves held fail it, in the
//! kernel's words, and the scope writes a line of JSON when it ends
//! ([`crate::model::scope`]), to `target/kernel-core/host/scopes.jsonl`. The runner names the
//! failed cases with their detectors from those lines.

use crate::infra::command::{self, cargo};
use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::progress;
use crate::model::driver::Driver;
use crate::model::scope::{self, Record, ALLOW_LEAKS_VAR, REPORT_VAR};
use anyhow::bail;
use std::path::Path;

pub mod fail_each_alloc;

/// How the host suites run.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Run each test again once per allocation it made, failing each in turn.
    pub fail_each_alloc: bool,
    /// The tests whose leaks are not reported (`KERNEL_CORE_ALLOW_LEAKS`).
    pub allow_leaks: Vec<String>,
    /// More arguments for cargo's test command (`--features fixed`), before `--`.
    pub cargo_args: Vec<String>,
}

/// A failed host case: which, how, and what the detectors said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The test, as `cargo test` lists it.
    pub test: String,
    /// The allocation that `--fail-each-alloc` failed, if the case failed in that mode.
    pub fail_nth: Option<u64>,
    /// The detectors that failed it (`kmemleak`, `lockdep`, `fault_injection`, `panic`, ...),
    /// the first first.
    pub detectors: Vec<String>,
    /// The first line of the first report: the kernel's title.
    pub title: String,
    /// What the test printed, with the reports in full (in the fault mode).
    pub text: String,
}

impl Failure {
    /// One line: `ring::tests::grows: kmemleak: unreferenced object 0x... (size 16):`, with the
    /// allocation failed in the fault mode.
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
#[derive(Debug, Default)]
pub struct Outcome {
    /// Whether cargo's run of the suites passed.
    pub passed: bool,
    /// The lines of the scopes of that run.
    pub records: Vec<Record>,
    /// The cases that failed, in the run (from their scopes' lines) and in the fault mode.
    pub failures: Vec<Failure>,
    /// The fault mode's rounds, if it ran.
    pub rounds: Option<fail_each_alloc::Rounds>,
}

/// Runs the driver's host suites ([`run`]) and fails naming each case that failed, with its
/// detector.
pub fn host_tests(driver: &Driver, options: &Options) -> Result {
    let out = driver.target_dir.join("kernel-core").join("host");
    let outcome = run(&driver.dir, &out, options)?;
    if !outcome.passed || !outcome.failures.is_empty() {
        let mut lines: Vec<String> = outcome.failures.iter().map(Failure::line).collect();
        if !outcome.passed && lines.is_empty() {
            lines
                .push("a host test failed or did not build (see cargo's output above)".to_string());
        }
        bail!(
            "the host suites of {} failed:\n    {}",
            driver.dir.display(),
            lines.join("\n    ")
        );
    }
    Ok(())
}

/// Runs the host suites of the cargo package in `dir` (`cargo nextest run` if cargo-nextest is
/// installed, else `cargo test`, said so), their scopes' lines in `out`; with
/// `--fail-each-alloc`, then each test that passed once per allocation it made. Fails only if
/// the suites cannot run; what failed is in the [`Outcome`].
pub fn run(dir: &Path, out: &Path, options: &Options) -> Result<Outcome> {
    std::fs::create_dir_all(out).at(out)?;
    let records_file = out.join("scopes.jsonl");
    remove_if_there(&records_file)?;
    let has_nextest = cargo()
        .args(["nextest", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    let mut cmd = cargo();
    if has_nextest {
        cmd.args(["nextest", "run", "--no-tests=warn"]);
    } else {
        crate::note!("    cargo-nextest is not installed (`cargo install --locked cargo-nextest`): running `cargo test`");
        cmd.arg("test");
    }
    cmd.args(&options.cargo_args);
    cmd.current_dir(dir).env(REPORT_VAR, &records_file);
    allow_leaks(&mut cmd, &options.allow_leaks);
    let what = if has_nextest {
        "cargo nextest run"
    } else {
        "cargo test"
    };
    let start = progress::step(&format!("host suites of {} ({what})", dir.display()));
    // Like every command the runner waits for: stopped at once if the run is interrupted.
    let status = command::status(&mut cmd, "is cargo on PATH?")?;
    let records = scope::read(&records_file)?;
    let mut outcome = Outcome {
        passed: status.success(),
        failures: records
            .iter()
            .filter(|r| !r.passed())
            .map(|r| Failure {
                test: r.test.clone(),
                fail_nth: None,
                detectors: r.reports.iter().map(|f| f.detector.clone()).collect(),
                title: r
                    .reports
                    .first()
                    .map(|f| f.title.clone())
                    .unwrap_or_default(),
                text: String::new(),
            })
            .collect(),
        records,
        rounds: None,
    };
    if outcome.passed {
        progress::done("host suites passed", start);
    } else {
        crate::note!(
            "    `{what}` in {} failed ({status}): a host test failed or did not build (see its output above)",
            dir.display()
        );
        for failure in &outcome.failures {
            crate::note!("    FAILED {}", failure.line());
        }
    }
    if options.fail_each_alloc {
        let (failures, rounds) = fail_each_alloc::run(&outcome.records, out, options)?;
        outcome.failures.extend(failures);
        outcome.rounds = Some(rounds);
    }
    Ok(outcome)
}

/// Sets `KERNEL_CORE_ALLOW_LEAKS` on `cmd` to `tests`, if any.
fn allow_leaks(cmd: &mut std::process::Command, tests: &[String]) {
    if !tests.is_empty() {
        cmd.env(ALLOW_LEAKS_VAR, tests.join(","));
    }
}

/// Removes `path` if it is there.
fn remove_if_there(path: &Path) -> Result {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e).at(path),
        _ => Ok(()),
    }
}
