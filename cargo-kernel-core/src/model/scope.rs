// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What a driver's host tests say of themselves: the line of JSON each test's scope writes
//! when it ends (kernel-core's `KERNEL_CORE_SCOPE_REPORT`, see `kernel_core::extras::scope`),
//! and the lines of libtest's output that name each test's result.
//!
//! A scope's line holds the test's name as `cargo test` lists it, the test binary that ran
//! it and its working directory, how many allocations it made (its fault-injection points),
//! the failure injected into it, how it ended and what failed it, each with its detector
//! (`kmemleak`, `lockdep`, `fault injection`: as `kernel_core::extras::detectors::Detector`
//! and a cell's verdict name them) and the first line of the report, the kernel's title.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The environment variable through which the runner asks every scope for its line.
pub const REPORT_VAR: &str = "KERNEL_CORE_SCOPE_REPORT";
/// The environment variable that makes every scope fail its Nth allocation.
pub const FAIL_NTH_VAR: &str = "KERNEL_CORE_FAIL_NTH";
/// The environment variable that lists the tests whose leaks are not reported.
pub const ALLOW_LEAKS_VAR: &str = "KERNEL_CORE_ALLOW_LEAKS";

/// One scope's line.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct Record {
    /// The test, as `cargo test` lists it (`ring::tests::grows`).
    pub test: String,
    /// Its KUnit name, `suite::case`, when a `#[kunit_tests]` suite ran it (`ring::grows` for
    /// the suite `ring`): the name a cell's results give the same case.
    #[serde(default)]
    pub kunit: Option<String>,
    /// The test binary.
    pub exe: PathBuf,
    /// Its working directory.
    pub cwd: PathBuf,
    /// The allocations the scope counted.
    pub allocations: u64,
    /// The `KERNEL_CORE_FAIL_NTH` it started with (0: none).
    #[serde(default)]
    pub fail_nth: u64,
    /// The failure injected, if any.
    #[serde(default)]
    pub injected: Option<Injected>,
    /// How the test's function ended: `ok`, `err` or `panic`.
    pub outcome: String,
    /// The error it returned, or its panic's message.
    #[serde(default)]
    pub message: Option<String>,
    /// `pass` or `fail`.
    pub verdict: String,
    /// What failed it.
    #[serde(default)]
    pub reports: Vec<Found>,
}

impl Record {
    /// Whether the scope's checks passed the test.
    pub fn passed(&self) -> bool {
        self.verdict == "pass"
    }
}

/// The failure injected into a scope.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct Injected {
    /// Which allocation of the test, from 1.
    pub allocation: u64,
    /// Where the driver asked for it: `file:line:column`.
    pub site: String,
    /// `kmalloc`, `vmalloc` or `kvmalloc`.
    pub allocator: String,
    /// The size asked for.
    pub size: u64,
    /// The flags, as the kernel names them.
    pub gfp: String,
}

/// What failed a test: the detector, and its report's first line.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct Found {
    /// `kmemleak`, `lockdep`, `fault injection`, `error` (an error returned with no failure
    /// injected) or `panic` (a panic with none injected).
    pub detector: String,
    /// The report's title.
    pub title: String,
}

/// Reads the lines of `path`; no file is no line. A line that is not a scope's (a test
/// binary of another kernel-core) is an error naming the file and the line.
pub fn read(path: &Path) -> Result<Vec<Record>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).at(path),
    };
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|e| {
                anyhow::anyhow!(
                    "{}:{}: not a test scope's report line ({e}): {line}",
                    path.display(),
                    i + 1
                )
            })
        })
        .collect()
}

/// A test's result, as libtest prints it (`test ring::tests::grows ... ok`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestResult {
    Ok,
    Failed,
    Ignored,
}

/// The tests libtest's output names with their results, in order.
pub fn results(output: &str) -> Vec<(String, TestResult)> {
    output
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("test ")?;
            let (name, result) = rest.rsplit_once(" ... ")?;
            let result = match result.trim() {
                "ok" => TestResult::Ok,
                "FAILED" => TestResult::Failed,
                r if r.starts_with("ignored") => TestResult::Ignored,
                _ => return None,
            };
            Some((name.to_string(), result))
        })
        .collect()
}

/// What libtest captured of the failed test `name` (its `---- name stdout ----` section), if
/// the output has it.
pub fn failure_section(output: &str, name: &str) -> Option<String> {
    let header = format!("---- {name} stdout ----");
    let start = output.find(&header)? + header.len();
    let rest = &output[start..];
    // Up to the next test's section, or the list of failures.
    let end = [rest.find("\n---- "), rest.find("\nfailures:\n")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(rest.len());
    Some(rest[..end].trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_s_line_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("scopes.jsonl");
        std::fs::write(
            &path,
            concat!(
                r#"{"test":"ring::tests::push","exe":"/t/deps/mydrv-0123","cwd":"/d","allocations":5,"fail_nth":3,"#,
                r#""injected":{"allocation":3,"site":"src/ring.rs:40:21","allocator":"kmalloc","size":64,"gfp":"GFP_KERNEL"},"#,
                r#""outcome":"panic","message":"called `Result::unwrap()` on an `Err` value: AllocError","#,
                r#""verdict":"fail","reports":[{"detector":"fault injection","title":"FAULT_INJECTION: forcing a failure."}]}"#,
                "\n",
                r#"{"test":"a","exe":"/e","cwd":"/d","allocations":0,"fail_nth":0,"injected":null,"outcome":"ok","message":null,"verdict":"pass","reports":[]}"#,
                "\n"
            ),
        )
        .unwrap();
        let records = read(&path).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].test, "ring::tests::push");
        assert_eq!(
            records[0].injected.as_ref().unwrap().site,
            "src/ring.rs:40:21"
        );
        assert_eq!(records[0].reports[0].detector, "fault injection");
        assert!(!records[0].passed() && records[1].passed());
        assert!(read(&dir.path().join("none")).unwrap().is_empty());
        std::fs::write(&path, "{\"test\":1}\n").unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(
            e.contains("scopes.jsonl:1: not a test scope's report line"),
            "{e}"
        );
    }

    #[test]
    fn libtest_s_results_and_failures_are_read() {
        let output = "\nrunning 3 tests\ntest a::b ... ok\ntest a::c ... FAILED\ntest a::d ... ignored, slow\n\nfailures:\n\n---- a::c stdout ----\nFAULT_INJECTION: forcing a failure.\nmore\n\n\nfailures:\n    a::c\n\ntest result: FAILED. 1 passed; 1 failed; 1 ignored\n";
        assert_eq!(
            results(output),
            [
                ("a::b".to_string(), TestResult::Ok),
                ("a::c".to_string(), TestResult::Failed),
                ("a::d".to_string(), TestResult::Ignored)
            ]
        );
        assert_eq!(
            failure_section(output, "a::c").unwrap(),
            "FAULT_INJECTION: forcing a failure.\nmore"
        );
        assert_eq!(failure_section(output, "a::b"), None);
    }
}
