// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The planted bugs on the host (`kbuild/fixtures/planted_host/`): the one list of the bugs
//! that kernel-core's host detectors catch under `cargo test`, and the judge that holds the
//! host to it, as [`crate::planted`] holds each cell to its claims.
//!
//! `cargo xtask planted-host` runs the fixture's suite through the runner's host pipeline as
//! `cargo kernel-core test --host-only --fail-each-alloc` runs a driver's (its first run, then
//! each test again once per allocation it made, failing each in turn), twice: with the bugs,
//! where each case must fail named with its detector (and nothing else may fail), and built
//! with the feature `fixed`, where every case must pass in both. The same list makes the host
//! table of `cargo-kernel-core/README.md`, which a test keeps equal to it.

use anyhow::bail;
use cargo_kernel_core::infra::error::Result;
use cargo_kernel_core::pipeline::host::{self, Failure, Outcome};
use std::path::Path;

/// What catches a planted bug on the host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detector {
    /// Fault injection, in `--fail-each-alloc`'s rounds.
    FaultInjection,
    /// kmemleak, when the case ends.
    Kmemleak,
}

impl Detector {
    /// Its name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Detector::FaultInjection => "fault injection",
            Detector::Kmemleak => "kmemleak",
        }
    }

    /// Whether `failure` names it: the scope's detector and the kernel's title, in the mode it
    /// works in.
    fn named_in(self, failure: &Failure) -> bool {
        let first = failure.detectors.first().map(String::as_str);
        match self {
            Detector::FaultInjection => {
                first == Some("fault_injection")
                    && failure.title == "FAULT_INJECTION: forcing a failure."
                    && failure.fail_nth.is_some()
            }
            Detector::Kmemleak => {
                first == Some("kmemleak")
                    && failure.title.starts_with("unreferenced object 0x")
                    && failure.fail_nth.is_none()
            }
        }
    }
}

/// One planted bug of the host fixture.
pub struct Bug {
    /// Its case, in the suite's module `tests`.
    pub case: &'static str,
    /// The bug.
    pub bug: &'static str,
    /// What catches it on the host.
    pub caught_by: Option<Detector>,
}

/// Every planted host bug, in the fixture's order.
pub const BUGS: &[Bug] = &[
    Bug {
        case: "unchecked_allocation_failure",
        bug: "a `KVec::push` whose failure is ignored, then an index that assumed it succeeded",
        caught_by: Some(Detector::FaultInjection),
    },
    Bug {
        case: "leaked_kbox",
        bug: "a `KBox` that the driver's remove path never frees",
        caught_by: Some(Detector::Kmemleak),
    },
    Bug {
        case: "no_bug",
        bug: "none: allocations checked and freed",
        caught_by: None,
    },
];

/// The test's name of `case`, as `cargo test` lists it.
fn test_name(case: &str) -> String {
    format!("tests::{case}")
}

/// What is wrong with `outcome`, the fixture's run with its bugs (`fixed` false) or without.
pub fn judge(outcome: &Outcome, fixed: bool) -> Vec<String> {
    let run = if fixed { "fixed" } else { "planted" };
    let mut wrong = Vec::new();
    let mut explained = vec![false; outcome.failures.len()];
    for bug in BUGS {
        let name = test_name(bug.case);
        if !outcome.records.iter().any(|r| r.test == name) {
            wrong.push(format!(
                "{run}: {} ran in no scope of kernel-core's (no line in scopes.jsonl)",
                bug.case
            ));
        }
        let failed: Vec<usize> = (0..outcome.failures.len())
            .filter(|&i| outcome.failures[i].test == name)
            .collect();
        match (bug.caught_by.filter(|_| !fixed), failed.first()) {
            (Some(detector), Some(_)) => {
                for &i in &failed {
                    explained[i] = true;
                    if !detector.named_in(&outcome.failures[i]) {
                        wrong.push(format!(
                            "{run}: {} failed, but not by {} as claimed: {}",
                            bug.case,
                            detector.name(),
                            outcome.failures[i].line()
                        ));
                    }
                }
            }
            (Some(detector), None) => wrong.push(format!(
                "{run}: {} claims to catch {} ({}), but the case passed",
                detector.name(),
                bug.case,
                bug.bug
            )),
            (None, Some(_)) => {
                for &i in &failed {
                    explained[i] = true;
                    wrong.push(format!(
                        "{run}: {} failed where nothing should catch it: {}",
                        bug.case,
                        outcome.failures[i].line()
                    ));
                }
            }
            (None, None) => {}
        }
    }
    for (failure, explained) in outcome.failures.iter().zip(explained) {
        if !explained {
            wrong.push(format!("{run}: unexpected: {}", failure.line()));
        }
    }
    if fixed && !outcome.passed {
        wrong.push(format!(
            "{run}: cargo's run of the suite failed with every bug removed"
        ));
    }
    match &outcome.rounds {
        None => wrong.push(format!("{run}: --fail-each-alloc did not run")),
        Some(rounds) if rounds.rounds.is_empty() => {
            wrong.push(format!("{run}: --fail-each-alloc ran no round"))
        }
        Some(_) => {}
    }
    wrong
}

/// Runs the fixture with its bugs and without, each with `--fail-each-alloc`, and fails
/// naming what the judge found wrong.
pub fn check(repo: &Path) -> Result {
    let dir = repo.join("kbuild/fixtures/planted_host");
    let target = repo.join("target/planted-host");
    let mut wrong = Vec::new();
    for fixed in [false, true] {
        let mut cargo_args = vec!["--target-dir".to_string(), target.display().to_string()];
        if fixed {
            cargo_args.extend(["--features".to_string(), "fixed".to_string()]);
        }
        let options = host::Options {
            fail_each_alloc: true,
            allow_leaks: Vec::new(),
            cargo_args,
        };
        let out = target.join(if fixed { "fixed" } else { "planted" });
        let outcome = host::run(&dir, &out, &options)?;
        wrong.extend(judge(&outcome, fixed));
    }
    if !wrong.is_empty() {
        bail!(
            "the host's planted bugs were not caught as claimed:\n  {}",
            wrong.join("\n  ")
        );
    }
    let caught: Vec<String> = BUGS
        .iter()
        .filter_map(|b| b.caught_by.map(|d| format!("{} by {}", b.case, d.name())))
        .collect();
    cargo_kernel_core::note!(
        "    planted bugs caught on the host as claimed: {}; all pass with the bugs removed",
        caught.join(", ")
    );
    Ok(())
}

/// The table of the host's planted bugs, as the README shows it.
#[cfg(test)]
pub fn table() -> String {
    let mut table = cargo_kernel_core::infra::table::Table::new(&[
        "host case",
        "bug",
        "caught on the host by",
        "in the cells",
    ]);
    for bug in BUGS.iter().filter(|b| b.caught_by.is_some()) {
        let detector = bug.caught_by.map_or("-", Detector::name);
        let how = match bug.caught_by {
            Some(Detector::FaultInjection) => format!("{detector} (`--fail-each-alloc`)"),
            _ => detector.to_string(),
        };
        table.row(&[
            format!("`{}`", bug.case),
            bug.bug.to_string(),
            how,
            "-".to_string(),
        ]);
    }
    table.text().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cargo_kernel_core::model::scope::Record;
    use cargo_kernel_core::pipeline::host::fail_each_alloc::{Round, Rounds};

    fn record(case: &str) -> Record {
        Record {
            test: test_name(case),
            exe: "/t".into(),
            cwd: "/".into(),
            allocations: 1,
            fail_nth: 0,
            injected: None,
            outcome: "ok".into(),
            message: None,
            verdict: "pass".into(),
            reports: Vec::new(),
        }
    }

    fn failure(case: &str, detector: &str, title: &str, fail_nth: Option<u64>) -> Failure {
        Failure {
            test: test_name(case),
            fail_nth,
            detectors: vec![detector.into()],
            title: title.into(),
            text: String::new(),
        }
    }

    fn outcome(passed: bool, failures: Vec<Failure>) -> Outcome {
        Outcome {
            passed,
            records: BUGS.iter().map(|b| record(b.case)).collect(),
            failures,
            rounds: Some(Rounds {
                rounds: vec![Round {
                    n: 1,
                    tests: 2,
                    took: std::time::Duration::from_millis(5),
                }],
                scoped: 3,
                tests: 2,
                allocations: 2,
                took: std::time::Duration::from_millis(5),
                jobs: 1,
            }),
        }
    }

    const FAULT: &str = "FAULT_INJECTION: forcing a failure.";
    const LEAK: &str = "unreferenced object 0x5555 (size 64):";

    #[test]
    fn the_judge_wants_each_bug_caught_by_its_detector_and_nothing_else() {
        let caught = vec![
            failure(
                "unchecked_allocation_failure",
                "fault_injection",
                FAULT,
                Some(1),
            ),
            failure(
                "unchecked_allocation_failure",
                "fault_injection",
                FAULT,
                Some(2),
            ),
            failure("leaked_kbox", "kmemleak", LEAK, None),
        ];
        assert_eq!(
            judge(&outcome(false, caught.clone()), false),
            Vec::<String>::new()
        );
        // Missed.
        let wrong = judge(&outcome(false, caught[2..].to_vec()), false);
        assert!(
            wrong[0].contains("fault injection claims to catch unchecked_allocation_failure"),
            "{wrong:?}"
        );
        // Caught by another.
        let mut other = caught.clone();
        other[2] = failure("leaked_kbox", "panic", "boom", None);
        let wrong = judge(&outcome(false, other), false);
        assert!(
            wrong[0].contains("leaked_kbox failed, but not by kmemleak"),
            "{wrong:?}"
        );
        // A case without a bug failed.
        let mut more = caught.clone();
        more.push(failure("no_bug", "kmemleak", LEAK, None));
        let wrong = judge(&outcome(false, more), false);
        assert!(
            wrong[0].contains("no_bug failed where nothing should catch it"),
            "{wrong:?}"
        );
        // Fixed: nothing may fail.
        assert_eq!(
            judge(&outcome(true, Vec::new()), true),
            Vec::<String>::new()
        );
        let wrong = judge(&outcome(true, caught[2..].to_vec()), true);
        assert!(
            wrong[0].contains("fixed: leaked_kbox failed where nothing should catch it"),
            "{wrong:?}"
        );
        let wrong = judge(&outcome(false, Vec::new()), true);
        assert!(
            wrong[0].contains("failed with every bug removed"),
            "{wrong:?}"
        );
        // No fault mode.
        let mut none = outcome(true, Vec::new());
        none.rounds = None;
        assert!(judge(&none, true)[0].contains("--fail-each-alloc did not run"));
    }

    #[test]
    fn the_fixture_has_each_case() {
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../kbuild/fixtures/planted_host/src/lib.rs");
        let text = std::fs::read_to_string(&fixture).unwrap();
        for bug in BUGS {
            assert!(
                text.contains(&format!("    fn {}() -> Result {{", bug.case)),
                "{}",
                bug.case
            );
        }
    }

    #[test]
    fn the_readme_shows_the_host_cases() {
        let readme =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../cargo-kernel-core/README.md");
        let text = std::fs::read_to_string(&readme).unwrap();
        assert!(
            text.contains(&table()),
            "{} lacks the host's planted bugs' table; it is:\n{}",
            readme.display(),
            table()
        );
    }
}
