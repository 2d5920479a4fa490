// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A driver's host suites, as data: what the host's test harness said of each test (`cargo
//! test`'s output, or `cargo nextest run`'s JUnit), turned into the cases that a cell's verdict
//! judges ([`Case`]).
//!
//! A host test is a case: its suite is its test path without the function's name (the
//! `#[kunit_tests]` module: name that module after the suite, and `suite::case` reads the same
//! in both worlds), or the test binary's name for a test at a binary's root. What kernel-core's
//! host detectors print in a failed test's output (lockdep's `WARNING: possible circular
//! locking dependency detected`, `BUG: sleeping function called from invalid context at ...`,
//! and the others of `kernel_core::extras::detectors`) is read by the very reader of a guest's
//! console ([`console::parse`]): the case's reports then name the same detector, in the same
//! words, as a cell's. A passing test's output is not read: a report there was caught on
//! purpose (`kernel_core::extras::detectors::catch`).

use crate::model::console;
use crate::model::declared::State;
use crate::model::ktap::Outcome;
use crate::model::report::Case;

/// One test, as the host's harness reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostTest {
    /// The test binary: nextest's binary id (`mydrv`, `mydrv::integration`), or what `cargo
    /// test` ran (`unittests src/lib.rs`, `tests/ring.rs`, `Doc-tests mydrv`).
    pub binary: String,
    /// The test's path in its binary (`ring::tests::wraps`).
    pub path: String,
    /// How it ended: passed, failed, or skipped (`#[ignore]`d).
    pub outcome: Outcome,
    /// What it printed (a failed test's; a passing test's is not kept).
    pub output: String,
}

/// The tests of `cargo test`'s output (libtest's format: `test x ... ok`, and each failed
/// test's captured output under `---- x stdout ----`), each with the binary that `cargo`
/// said it was running.
///
/// `cargo`'s own lines (`Running ...`, `Doc-tests ...`) come on its standard error, the
/// tests' on their standard output: read from two pipes, a binary's last lines may come
/// after the next binary's header. So a failed test's output goes to the latest failed test
/// of its path that has none yet, whatever header came between.
pub fn from_libtest(log: &str) -> Vec<HostTest> {
    let mut tests: Vec<HostTest> = Vec::new();
    let mut binary = String::new();
    // The failed test whose output is being read, and that output.
    let mut section: Option<(String, String)> = None;
    let close = |tests: &mut Vec<HostTest>, section: Option<(String, String)>| {
        if let Some((path, output)) = section {
            if let Some(test) = tests
                .iter_mut()
                .rev()
                .find(|t| t.path == path && t.outcome == Outcome::Fail && t.output.is_empty())
            {
                test.output = output;
            }
        }
    };
    for line in log.lines() {
        if let Some(running) = line.strip_prefix("     Running ") {
            // `Running unittests src/lib.rs (target/debug/deps/mydrv-0123abcd)`.
            let running = running.trim();
            binary = running
                .rsplit_once(" (")
                .map_or(running, |(what, _)| what)
                .to_string();
            continue;
        }
        if let Some(crate_name) = line.strip_prefix("   Doc-tests ") {
            binary = format!("Doc-tests {}", crate_name.trim());
            continue;
        }
        if let Some(header) = line.strip_prefix("---- ").and_then(|l| {
            l.strip_suffix(" stdout ----")
                .or(l.strip_suffix(" stderr ----"))
        }) {
            close(&mut tests, section.take());
            section = Some((header.to_string(), String::new()));
            continue;
        }
        if section.is_some() && (line == "failures:" || line.starts_with("test result: ")) {
            close(&mut tests, section.take());
            continue;
        }
        if let Some((_, output)) = &mut section {
            output.push_str(line);
            output.push('\n');
            continue;
        }
        if let Some(test) = result_line(line) {
            tests.push(HostTest {
                binary: binary.clone(),
                path: test.0.to_string(),
                outcome: test.1,
                output: String::new(),
            });
        }
    }
    close(&mut tests, section);
    tests
}

/// A libtest result line, `test ring::tests::wraps ... ok`: the test's path and outcome.
fn result_line(line: &str) -> Option<(&str, Outcome)> {
    let rest = line.strip_prefix("test ")?;
    let (path, result) = rest.rsplit_once(" ... ")?;
    let outcome = if result == "ok" {
        Outcome::Pass
    } else if result == "FAILED" {
        Outcome::Fail
    } else if result == "ignored" || result.starts_with("ignored, ") {
        Outcome::Skip
    } else {
        return None;
    };
    Some((path, outcome))
}

/// The tests of nextest's JUnit report: a `<testsuite>` per binary, a `<testcase>` per test,
/// a failed one's output in its `<system-out>` and `<system-err>`.
pub fn from_nextest_junit(xml: &str) -> Result<Vec<HostTest>, String> {
    let report = quick_junit::Report::deserialize_from_str(xml).map_err(|e| e.to_string())?;
    let mut tests = Vec::new();
    for suite in &report.test_suites {
        for case in &suite.test_cases {
            let outcome = match &case.status {
                quick_junit::TestCaseStatus::Success { .. } => Outcome::Pass,
                quick_junit::TestCaseStatus::NonSuccess { .. } => Outcome::Fail,
                quick_junit::TestCaseStatus::Skipped { .. } => Outcome::Skip,
            };
            let mut output = String::new();
            if outcome == Outcome::Fail {
                if let quick_junit::TestCaseStatus::NonSuccess {
                    description: Some(description),
                    ..
                } = &case.status
                {
                    output.push_str(description.as_str());
                    output.push('\n');
                }
                for stream in [&case.system_out, &case.system_err].into_iter().flatten() {
                    output.push_str(stream.as_str());
                    output.push('\n');
                }
            }
            tests.push(HostTest {
                binary: suite.name.as_str().to_string(),
                path: case.name.as_str().to_string(),
                outcome,
                output,
            });
        }
    }
    Ok(tests)
}

/// The suite of a test at `path` in `binary`: the path without its last part, or for a test
/// at the binary's root (or a doc test) the binary's own name.
fn suite_and_name<'a>(binary: &str, path: &'a str) -> (String, &'a str) {
    // A doc test: `src/lib.rs - ring::Ring::new (line 12)`.
    if path.contains(" - ") {
        return (binary_name(binary), path);
    }
    match path.rsplit_once("::") {
        Some((suite, name)) => (suite.to_string(), name),
        None => (binary_name(binary), path),
    }
}

/// A binary's name as a suite's: nextest's `mydrv::ring` is `ring`; `cargo test`'s
/// `tests/ring.rs` too, and `unittests src/lib.rs` `lib`; `Doc-tests mydrv` is `doctests`.
fn binary_name(binary: &str) -> String {
    if binary.starts_with("Doc-tests ") {
        return "doctests".to_string();
    }
    let last = binary
        .rsplit(['/', ' '])
        .next()
        .unwrap_or(binary)
        .rsplit("::")
        .next()
        .unwrap_or(binary);
    last.trim_end_matches(".rs").to_string()
}

/// The case of `test`: its outcome, its failure's panic message as diagnostics, and the
/// reports of kernel-core's detectors in its output.
pub fn case(test: &HostTest) -> Case {
    let (suite, name) = suite_and_name(&test.binary, &test.path);
    let events: Vec<console::Event> = if test.outcome == Outcome::Fail {
        console::parse(&test.output)
            .events
            .into_iter()
            .filter(|e| e.kind != console::Kind::Dropped)
            .collect()
    } else {
        Vec::new()
    };
    Case {
        module: test.binary.clone(),
        suite,
        name: name.to_string(),
        declared: if test.outcome == Outcome::Skip {
            State::Ignored
        } else {
            State::Runs
        },
        outcome: Some(test.outcome),
        diagnostics: if test.outcome == Outcome::Fail {
            panics(&test.output)
        } else {
            Vec::new()
        },
        reports: events.iter().map(console::Event::summary).collect(),
        report_texts: events.iter().map(console::Event::text).collect(),
        hung: None,
    }
}

/// The most lines of a panic's message that a case's diagnostics keep.
const MAX_PANIC_LINES: usize = 12;

/// The panics in a test's output, each as one line (`thread 'x' panicked at src/a.rs:3:5: the
/// message`) followed by the rest of its message.
fn panics(output: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut lines = output.lines().peekable();
    while let Some(line) = lines.next() {
        if !(line.starts_with("thread '") && line.contains("' panicked at ")) {
            continue;
        }
        let mut first = line.trim_end().to_string();
        let mut rest = Vec::new();
        while let Some(next) = lines.peek() {
            if next.trim().is_empty()
                || next.starts_with("note: ")
                || next.starts_with("stack backtrace:")
                || next.starts_with("thread '")
            {
                break;
            }
            if rest.len() < MAX_PANIC_LINES {
                rest.push(next.trim_end().to_string());
            }
            lines.next();
        }
        if let Some(message) = rest.first() {
            first = format!("{first} {message}");
            rest.remove(0);
        }
        found.push(first);
        found.extend(rest);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cargo test`'s output of a binary with a lockdep report, an assertion, an ignored test,
    /// and a doc test.
    const LIBTEST: &str = "\
   Compiling mydrv v0.1.0 (/d)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 1.00s
     Running unittests src/lib.rs (target/debug/deps/mydrv-0123abcd)

running 4 tests
test kernel_core_planted_bugs::lock_order_a_then_b ... ok
test ring::tests::later ... ignored, needs the device
test kernel_core_planted_bugs::lock_order_b_then_a ... FAILED
test ring::tests::wraps ... FAILED

failures:

---- kernel_core_planted_bugs::lock_order_b_then_a stdout ----

======================================================
WARNING: possible circular locking dependency detected
kernel-core 0.1.0 (host, PREEMPT) Not tainted
------------------------------------------------------
kernel_core_planted_bugs::lock_order_b_then_a/42 is trying to acquire lock:
00007f0000000010 (planted_lock_a){+.+.}-{4:4}, at: src/lib.rs:66:27

---- ring::tests::wraps stdout ----

thread 'ring::tests::wraps' panicked at src/ring.rs:40:9:
assertion `left == right` failed
  left: 1
 right: 2
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    kernel_core_planted_bugs::lock_order_b_then_a
    ring::tests::wraps

test result: FAILED. 1 passed; 2 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s

     Running tests/ring.rs (target/debug/deps/ring-89abcdef)

running 1 test
test at_the_root ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

   Doc-tests mydrv

running 1 test
test src/lib.rs - ring::Ring::new (line 12) ... ok
";

    #[test]
    fn libtest_output_gives_each_test_its_binary_outcome_and_output() {
        let tests = from_libtest(LIBTEST);
        let seen: Vec<(&str, &str, Outcome)> = tests
            .iter()
            .map(|t| (t.binary.as_str(), t.path.as_str(), t.outcome))
            .collect();
        assert_eq!(
            seen,
            [
                (
                    "unittests src/lib.rs",
                    "kernel_core_planted_bugs::lock_order_a_then_b",
                    Outcome::Pass
                ),
                ("unittests src/lib.rs", "ring::tests::later", Outcome::Skip),
                (
                    "unittests src/lib.rs",
                    "kernel_core_planted_bugs::lock_order_b_then_a",
                    Outcome::Fail
                ),
                ("unittests src/lib.rs", "ring::tests::wraps", Outcome::Fail),
                ("tests/ring.rs", "at_the_root", Outcome::Pass),
                (
                    "Doc-tests mydrv",
                    "src/lib.rs - ring::Ring::new (line 12)",
                    Outcome::Pass
                ),
            ]
        );
        assert!(tests[2]
            .output
            .contains("WARNING: possible circular locking"));
        assert!(!tests[2].output.contains("panicked"));
        assert!(tests[3].output.contains("panicked at src/ring.rs:40:9"));
        assert!(!tests[3].output.contains("failures:"));
    }

    #[test]
    fn a_binary_s_last_lines_may_come_after_the_next_header() {
        // The failures' section of `unittests src/lib.rs`, read after cargo's `Doc-tests`.
        let log = LIBTEST.replace("   Doc-tests mydrv\n", "").replace(
            "---- ring::tests::wraps stdout ----",
            "   Doc-tests mydrv\n---- ring::tests::wraps stdout ----",
        );
        let tests = from_libtest(&log);
        assert!(tests[3].output.contains("panicked at src/ring.rs:40:9"));
        assert!(tests[2]
            .output
            .contains("WARNING: possible circular locking"));
    }

    #[test]
    fn a_detector_s_report_names_its_detector_as_a_cell_s_does() {
        let tests = from_libtest(LIBTEST);
        let lockdep = case(&tests[2]);
        assert_eq!(lockdep.suite, "kernel_core_planted_bugs");
        assert_eq!(lockdep.name, "lock_order_b_then_a");
        assert_eq!(
            lockdep.id(),
            "kernel_core_planted_bugs::lock_order_b_then_a"
        );
        assert_eq!(
            lockdep.reports,
            ["lockdep: WARNING: possible circular locking dependency detected"]
        );
        assert!(lockdep.report_texts[0].contains("(planted_lock_a)"));
        assert!(!lockdep.ok());

        let assertion = case(&tests[3]);
        assert!(assertion.reports.is_empty());
        assert_eq!(
            assertion.diagnostics[0],
            "thread 'ring::tests::wraps' panicked at src/ring.rs:40:9: assertion `left == right` failed"
        );
        assert_eq!(assertion.diagnostics[1..], ["  left: 1", " right: 2"]);

        let ignored = case(&tests[1]);
        assert!(ignored.ok());
        assert_eq!(ignored.declared, State::Ignored);
        assert_eq!(case(&tests[4]).suite, "ring");
        assert_eq!(case(&tests[5]).suite, "doctests");
        assert!(case(&tests[0]).ok());
    }

    #[test]
    fn nextest_junit_gives_each_test_its_outcome_and_output() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="nextest-run" tests="3" skipped="0" failures="2" errors="0">
    <testsuite name="mydrv" tests="3" skipped="0" errors="0" failures="2">
        <testcase name="planted::lock_order_a_then_b" classname="mydrv" time="0.032"/>
        <testcase name="planted::sleep_under_spinlock" classname="mydrv" time="0.041">
            <failure type="test failure with exit code 101"/>
            <system-out>running 1 test</system-out>
            <system-err>BUG: sleeping function called from invalid context at src/lib.rs:94
in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: 7, name: planted::sleep_under_spinlock
</system-err>
        </testcase>
    </testsuite>
    <testsuite name="mydrv::ring" tests="1" skipped="0" errors="0" failures="1">
        <testcase name="at_the_root" classname="mydrv::ring" time="0.01">
            <failure type="test failure with exit code 101"/>
            <system-err>thread 'at_the_root' panicked at tests/ring.rs:3:5:
the ring &lt;overflowed&gt;
</system-err>
        </testcase>
    </testsuite>
</testsuites>
"#;
        let tests = from_nextest_junit(xml).unwrap();
        assert_eq!(tests.len(), 3);
        assert_eq!(tests[0].outcome, Outcome::Pass);
        let sleep = case(&tests[1]);
        assert_eq!(sleep.id(), "planted::sleep_under_spinlock");
        assert_eq!(
            sleep.reports,
            ["atomic-sleep check: BUG: sleeping function called from invalid context at src/lib.rs:94"]
        );
        let root = case(&tests[2]);
        assert_eq!(root.id(), "ring::at_the_root");
        assert_eq!(root.module, "mydrv::ring");
        assert_eq!(
            root.diagnostics,
            ["thread 'at_the_root' panicked at tests/ring.rs:3:5: the ring <overflowed>"]
        );
        assert!(from_nextest_junit("<not junit").is_err());
    }

    #[test]
    fn a_passing_test_s_reports_were_caught_on_purpose() {
        let test = HostTest {
            binary: "mydrv".into(),
            path: "t::catches".into(),
            outcome: Outcome::Pass,
            output: "BUG: sleeping function called from invalid context at src/a.rs:1\n".into(),
        };
        assert!(case(&test).ok());
    }
}
