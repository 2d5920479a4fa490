// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `--fail-each-alloc`: each host test run again once per allocation it made, failing each in
//! turn, as the kernel's documentation loops over `fail-nth` ("Systematic faults using
//! fail-nth", `Documentation/fault-injection/fault-injection.rst`).
//!
//! The suites' first run counted the allocations of each test's scope (its lines in
//! `scopes.jsonl`). Round `n` then runs, in each test binary, the tests that made `n`
//! allocations or more, once, with `KERNEL_CORE_FAIL_NTH=n`: every scope fails its `n`th
//! allocation (`FAULT_INJECTION: forcing a failure.`), and the test must take its error path
//! and come out of it clean. It fails if it panics (an `unwrap()` of the failure, an
//! assertion that assumed success: kernel-core's report names the allocation and the panic),
//! if what it allocated outlives it (kmemleak's report), or if it leaves a lock held
//! (lockdep's); returning the error, or handling it, passes.
//!
//! A test of `N` allocations runs `N` times more, each run as long as its own: the mode's time
//! grows with the number of allocations, which the runner prints, per round and as a rate.
//! Tests run in their binary's threads, many at once, so a round costs one start of each test
//! binary and the time of its longest test.

use super::{allow_leaks, remove_if_there, Failure, Options};
use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::{process, progress};
use crate::model::scope::{self, Record, TestResult, FAIL_NTH_VAR, REPORT_VAR};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// One round: the allocation failed, how many tests ran, how long it took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Round {
    /// `KERNEL_CORE_FAIL_NTH`.
    pub n: u64,
    /// The tests run again.
    pub tests: usize,
    /// Its time, test binaries' starts included.
    pub took: Duration,
}

/// The mode's rounds, and what they add up to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rounds {
    /// Every round, in order.
    pub rounds: Vec<Round>,
    /// The tests that ran in a scope.
    pub scoped: usize,
    /// The tests that passed and allocated: those run again.
    pub tests: usize,
    /// The allocations of all of them: the runs of the mode.
    pub allocations: u64,
    /// The whole mode's time.
    pub took: Duration,
    /// How many rounds ran at once.
    pub jobs: usize,
}

impl Rounds {
    /// The rounds' time as `fixed + per_run × tests`, by least squares over the rounds: what a
    /// round costs whatever it runs (the test binaries' starts), and what each run of a test
    /// adds. With rounds that all ran as many tests, the time is all per run.
    pub fn rate(&self) -> (Duration, Duration) {
        let points: Vec<(f64, f64)> = self
            .rounds
            .iter()
            .map(|r| (r.tests as f64, r.took.as_secs_f64()))
            .collect();
        let count = points.len() as f64;
        let runs: f64 = points.iter().map(|p| p.0).sum();
        let time: f64 = points.iter().map(|p| p.1).sum();
        if points.is_empty() || runs == 0.0 {
            return (Duration::ZERO, Duration::ZERO);
        }
        let (mean_x, mean_y) = (runs / count, time / count);
        let var: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
        let (fixed, per_run) = if var == 0.0 {
            (0.0, time / runs)
        } else {
            let cov: f64 = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
            let slope = (cov / var).max(0.0);
            ((mean_y - slope * mean_x).max(0.0), slope)
        };
        (
            Duration::from_secs_f64(fixed),
            Duration::from_secs_f64(per_run),
        )
    }

    /// The lines the runner prints: the totals, the rounds (the middle ones left out past a
    /// dozen), and the rate.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "fail-each-alloc: {} test(s) ran in a scope; {} of them passed and allocated, {} allocation(s) in all: {} run(s) again, one per allocation, in {} round(s): {}",
            self.scoped,
            self.tests,
            self.allocations,
            self.allocations,
            self.rounds.len(),
            progress::elapsed(self.took)
        )];
        if self.rounds.is_empty() {
            return lines;
        }
        lines.push("  allocation failed | tests run | time".to_string());
        let shown: Vec<Option<&Round>> = if self.rounds.len() <= 12 {
            self.rounds.iter().map(Some).collect()
        } else {
            let (head, tail) = (&self.rounds[..8], &self.rounds[self.rounds.len() - 3..]);
            head.iter()
                .map(Some)
                .chain([None])
                .chain(tail.iter().map(Some))
                .collect()
        };
        for round in shown {
            lines.push(match round {
                Some(r) => format!(
                    "  {:>17} | {:>9} | {:.3} s",
                    r.n,
                    r.tests,
                    r.took.as_secs_f64()
                ),
                None => format!("  {:>17} | {:>9} |", "...", "..."),
            });
        }
        let (fixed, per_run) = self.rate();
        lines.push(format!(
            "  time: a round takes {:.1} ms (its test binaries' starts) + {:.2} ms per test it runs, {} round(s) at once: {:.2} ms per allocation in all; the mode grows linearly with the allocations, by a round per allocation of the test that makes the most ({} here)",
            fixed.as_secs_f64() * 1e3,
            per_run.as_secs_f64() * 1e3,
            self.jobs,
            self.took.as_secs_f64() * 1e3 / self.allocations.max(1) as f64,
            self.rounds.len()
        ));
        lines
    }
}

/// A test binary and the tests of it to run again, with their allocations.
struct Binary {
    exe: PathBuf,
    cwd: PathBuf,
    tests: BTreeMap<String, u64>,
}

/// The binaries of `records`' tests that passed and allocated, and what is left out (tests
/// of binaries that are gone, as rustdoc's are).
fn binaries(records: &[Record]) -> (Vec<Binary>, usize) {
    let mut by_exe: BTreeMap<(PathBuf, PathBuf), BTreeMap<String, u64>> = BTreeMap::new();
    let mut failed: Vec<&str> = records
        .iter()
        .filter(|r| !r.passed())
        .map(|r| r.test.as_str())
        .collect();
    failed.sort_unstable();
    let mut gone = 0;
    for record in records {
        if record.allocations == 0 || failed.binary_search(&record.test.as_str()).is_ok() {
            continue;
        }
        if !record.exe.is_file() {
            gone += 1;
            continue;
        }
        let tests = by_exe
            .entry((record.exe.clone(), record.cwd.clone()))
            .or_default();
        // A test with more than one scope: the most any of them made.
        let most = tests.entry(record.test.clone()).or_default();
        *most = (*most).max(record.allocations);
    }
    let binaries = by_exe
        .into_iter()
        .map(|((exe, cwd), tests)| Binary { exe, cwd, tests })
        .collect();
    (binaries, gone)
}

/// How many lines of a failed test's output are shown.
const SHOWN_LINES: usize = 40;

/// Runs the rounds over the tests of `records` that passed and allocated, as many at once as
/// there are cores; the scopes' lines and the output of round `n` in
/// `out/fail-nth-<n>-<binary>.{jsonl,log}`. Returns the failures and the rounds, which it
/// prints.
pub fn run(records: &[Record], out: &Path, options: &Options) -> Result<(Vec<Failure>, Rounds)> {
    let start = progress::step(
        "fail-each-alloc: each host test again, failing each of its allocations in turn",
    );
    let (binaries, gone) = binaries(records);
    if records.is_empty() {
        crate::note!("    no host test ran in a scope of kernel-core's: nothing to fail (the host tests need kernel-core's `std` feature, as a dev-dependency if need be)");
    }
    if gone > 0 {
        crate::note!("    {gone} scope(s) of test binaries that are gone (doctests) left out");
    }
    let tests: usize = binaries.iter().map(|b| b.tests.len()).sum();
    let allocations: u64 = binaries.iter().flat_map(|b| b.tests.values()).sum();
    let most = binaries
        .iter()
        .flat_map(|b| b.tests.values())
        .copied()
        .max()
        .unwrap_or(0);
    // Rounds are independent: `jobs` of them run at once (a round's tests already run in its
    // binaries' threads, but a round of one test leaves the other cores idle).
    let jobs = crate::pipeline::lanes::default_jobs().min(most.max(1) as usize);
    let next = AtomicU64::new(1);
    let done: Mutex<(Vec<Round>, Vec<Failure>, Option<anyhow::Error>)> =
        Mutex::new((Vec::new(), Vec::new(), None));
    std::thread::scope(|threads| {
        for _ in 0..jobs {
            threads.spawn(|| loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n > most
                    || done
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .2
                        .is_some()
                {
                    return;
                }
                let result = round(&binaries, n, out, options);
                let mut done = done.lock().unwrap_or_else(PoisonError::into_inner);
                match result {
                    Ok((round, failed)) => {
                        done.0.push(round);
                        done.1.extend(failed);
                    }
                    Err(e) => {
                        done.2.get_or_insert(e);
                    }
                }
            });
        }
    });
    let (mut rounds, mut failures, error) =
        done.into_inner().unwrap_or_else(PoisonError::into_inner);
    if let Some(e) = error {
        return Err(e);
    }
    rounds.sort_by_key(|r| r.n);
    failures.sort_by(|a, b| (&a.test, a.fail_nth).cmp(&(&b.test, b.fail_nth)));
    let mut scoped: Vec<&str> = records.iter().map(|r| r.test.as_str()).collect();
    scoped.sort_unstable();
    scoped.dedup();
    let rounds = Rounds {
        rounds,
        scoped: scoped.len(),
        jobs,
        tests,
        allocations,
        took: start.elapsed(),
    };
    for line in rounds.lines() {
        crate::note!("    {line}");
    }
    print_failures(&failures);
    if failures.is_empty() {
        progress::done(
            "fail-each-alloc: every error path returned its error, leaked nothing and left no lock held",
            start,
        );
    }
    Ok((failures, rounds))
}

/// Round `n`: every test of `binaries` that made `n` allocations or more, once, with its
/// `n`th failed.
fn round(
    binaries: &[Binary],
    n: u64,
    out: &Path,
    options: &Options,
) -> Result<(Round, Vec<Failure>)> {
    let start = Instant::now();
    let mut ran = 0;
    let mut failures = Vec::new();
    for (i, binary) in binaries.iter().enumerate() {
        let names: Vec<&String> = binary
            .tests
            .iter()
            .filter(|(_, &made)| made >= n)
            .map(|(name, _)| name)
            .collect();
        if names.is_empty() {
            continue;
        }
        ran += names.len();
        // Each binary's own files: two binaries may have tests of the same name.
        let file = out.join(format!("fail-nth-{n}-{i}.jsonl"));
        let log = file.with_extension("log");
        remove_if_there(&file)?;
        failures.extend(run_binary(binary, &names, n, &file, &log, options)?);
    }
    let round = Round {
        n,
        tests: ran,
        took: start.elapsed(),
    };
    Ok((round, failures))
}

/// Runs `names` of `binary` with their `n`th allocation failed; the failures.
fn run_binary(
    binary: &Binary,
    names: &[&String],
    n: u64,
    file: &Path,
    log: &Path,
    options: &Options,
) -> Result<Vec<Failure>> {
    let output = std::fs::File::create(log).at(log)?;
    let errors = output.try_clone().at(log)?;
    let mut cmd = Command::new(&binary.exe);
    cmd.arg("--exact")
        .args(names)
        .current_dir(&binary.cwd)
        // As cargo runs a test binary.
        .env("CARGO_MANIFEST_DIR", &binary.cwd)
        .env(FAIL_NTH_VAR, n.to_string())
        .env(REPORT_VAR, file)
        // The reports name the sites; a backtrace per failed run would bury them (and take
        // a tenth of a second each). The reproduce line runs one with the user's settings.
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(output)
        .stderr(errors);
    allow_leaks(&mut cmd, &options.allow_leaks);
    let mut group = process::spawn(&mut cmd)?;
    let status = group
        .wait_unless_interrupted()?
        .map_err(|e| anyhow::anyhow!("cannot wait for `{}`: {e}", process::show(&cmd)))?;
    let text = std::fs::read_to_string(log).at(log)?;
    let records = scope::read(file)?;
    let results: BTreeMap<String, TestResult> = scope::results(&text).into_iter().collect();
    let mut failures = Vec::new();
    for name in names {
        let result = results.get(name.as_str()).copied();
        if matches!(result, Some(TestResult::Ok | TestResult::Ignored))
            // A scope named after no test of the binary (`extras::scope::enter_as("...")`):
            // nothing ran it.
            || (result.is_none() && status.success())
        {
            continue;
        }
        let record = records
            .iter()
            .find(|r| &&r.test == name && !r.passed())
            .or_else(|| records.iter().find(|r| &&r.test == name));
        let (detectors, title) = match record.filter(|r| !r.passed()) {
            Some(r) => (
                r.reports.iter().map(|f| f.detector.clone()).collect(),
                r.reports
                    .first()
                    .map(|f| f.title.clone())
                    .unwrap_or_default(),
            ),
            None if result.is_none() => (
                vec!["crash".to_string()],
                format!(
                    "the test binary ended ({status}) before the test's result: see {}",
                    log.display()
                ),
            ),
            None => (vec!["panic".to_string()], "the test failed".to_string()),
        };
        let section = scope::failure_section(&text, name).unwrap_or_else(|| {
            text.lines()
                .rev()
                .take(SHOWN_LINES)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect::<Vec<_>>()
                .join("\n")
        });
        failures.push(Failure {
            test: name.to_string(),
            fail_nth: Some(n),
            detectors,
            title,
            text: section,
        });
    }
    Ok(failures)
}

/// Prints the failures: each test's first in full (its output's first lines), the other
/// allocations it failed with on one line, and how to reproduce it.
fn print_failures(failures: &[Failure]) {
    let mut by_test: BTreeMap<&str, Vec<&Failure>> = BTreeMap::new();
    for failure in failures {
        by_test.entry(&failure.test).or_default().push(failure);
    }
    for (test, failed) in by_test {
        let first = failed[0];
        crate::note!("    FAILED {}", first.line());
        for line in first.text.lines().take(SHOWN_LINES) {
            crate::note!("      {line}");
        }
        if first.text.lines().count() > SHOWN_LINES {
            crate::note!("      ...");
        }
        if failed.len() > 1 {
            let others: Vec<String> = failed[1..]
                .iter()
                .filter_map(|f| f.fail_nth.map(|n| n.to_string()))
                .collect();
            crate::note!(
                "      it fails too with its allocation {} failed",
                others.join(", ")
            );
        }
        // kernel-core's own report says it for an unhandled failure.
        if let Some(n) = first
            .fail_nth
            .filter(|_| !first.text.contains("reproduce: "))
        {
            crate::note!("      reproduce: {FAIL_NTH_VAR}={n} cargo test -- --exact {test}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(n: u64, tests: usize, millis: u64) -> Round {
        Round {
            n,
            tests,
            took: Duration::from_millis(millis),
        }
    }

    #[test]
    fn the_rate_splits_a_round_s_start_from_each_run() {
        let rounds = Rounds {
            rounds: vec![round(1, 10, 70), round(2, 5, 45), round(3, 1, 25)],
            scoped: 12,
            tests: 10,
            allocations: 16,
            took: Duration::from_millis(140),
            jobs: 1,
        };
        let (fixed, per_run) = rounds.rate();
        assert!((fixed.as_secs_f64() - 0.020).abs() < 1e-9, "{fixed:?}");
        assert!((per_run.as_secs_f64() - 0.005).abs() < 1e-9, "{per_run:?}");
        let lines = rounds.lines();
        assert!(
            lines[0].starts_with(
                "fail-each-alloc: 12 test(s) ran in a scope; 10 of them passed and allocated, 16 allocation(s) in all: 16 run(s) again"
            ),
            "{}",
            lines[0]
        );
        assert_eq!(lines.len(), 2 + 3 + 1);
        assert!(
            lines[5].contains("a round takes 20.0 ms")
                && lines[5].contains("+ 5.00 ms per test it runs"),
            "{}",
            lines[5]
        );
        // All rounds alike: the time is all per run.
        let flat = Rounds {
            rounds: vec![round(1, 2, 10), round(2, 2, 10)],
            scoped: 2,
            tests: 2,
            allocations: 4,
            took: Duration::from_millis(20),
            jobs: 1,
        };
        assert_eq!(flat.rate(), (Duration::ZERO, Duration::from_millis(5)));
        assert_eq!(Rounds::default().rate(), (Duration::ZERO, Duration::ZERO));
    }

    #[test]
    fn many_rounds_are_shown_with_the_middle_left_out() {
        let rounds = Rounds {
            rounds: (1..=30).map(|n| round(n, 1, 5)).collect(),
            scoped: 1,
            tests: 1,
            allocations: 30,
            took: Duration::from_millis(150),
            jobs: 2,
        };
        let lines = rounds.lines();
        assert_eq!(lines.len(), 2 + 8 + 1 + 3 + 1);
        assert!(lines[10].contains("..."));
        assert!(lines[13].trim_start().starts_with("30 |"));
    }

    #[test]
    fn tests_that_failed_or_made_no_allocation_are_not_run_again() {
        let exe = std::env::current_exe().unwrap();
        let record = |test: &str, allocations: u64, verdict: &str| Record {
            test: test.into(),
            kunit: None,
            exe: exe.clone(),
            cwd: PathBuf::from("/"),
            allocations,
            fail_nth: 0,
            injected: None,
            outcome: "ok".into(),
            message: None,
            verdict: verdict.into(),
            reports: Vec::new(),
        };
        let mut gone = record("doc", 3, "pass");
        gone.exe = PathBuf::from("/nonexistent/rustdoctest");
        let records = [
            record("a", 3, "pass"),
            record("a", 5, "pass"),
            record("b", 0, "pass"),
            record("c", 2, "fail"),
            gone,
        ];
        let (binaries, gone) = binaries(&records);
        assert_eq!(gone, 1);
        assert_eq!(binaries.len(), 1);
        assert_eq!(
            binaries[0].tests.iter().collect::<Vec<_>>(),
            [(&"a".to_string(), &5)]
        );
    }
}
