// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The verdict of one cell: every case of every suite the sources declare, as KUnit reported
//! it, with the files a CI service reads (a KTAP log per module, which the kernel's
//! `kunit.py parse` must accept, and JUnit XML).

use crate::declared::{self, State};
use crate::ktap::{Load, Log, Outcome};
use crate::ui::Context as _;
use crate::ui::{Error, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One case, as the module declares it and KUnit reported it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    pub suite: String,
    pub name: String,
    /// What the compiled module says KUnit must report.
    pub declared: State,
    /// `None`: it did not run.
    pub outcome: Option<Outcome>,
    /// KUnit's diagnostic lines for it (`# ...` before its result), for a failure.
    pub diagnostics: Vec<String>,
}

/// Every declared case of `declared` (in the order of each suite's case array), found in
/// the modules' KTAP.
pub fn cases(log: &Log, declared: &[declared::Suite]) -> Vec<Case> {
    let mut found = Vec::new();
    for suite in declared {
        let reported = log.loads.iter().find_map(|load| {
            load.suites
                .iter()
                .find(|s| s.name == suite.name)
                .map(|s| (load, s))
        });
        for case in &suite.cases {
            let outcome = reported.and_then(|(_, s)| {
                s.cases
                    .iter()
                    .find(|(name, _)| *name == case.name)
                    .map(|(_, outcome)| *outcome)
            });
            let diagnostics = match reported {
                Some((load, _)) if outcome == Some(Outcome::Fail) => {
                    diagnostics(load, &suite.name, &case.name)
                }
                _ => Vec::new(),
            };
            found.push(Case {
                suite: suite.name.clone(),
                name: case.name.clone(),
                declared: case.state,
                outcome,
                diagnostics,
            });
        }
    }
    found
}

/// What KUnit printed for `case` of `suite` between the previous result and its own: the
/// assertion, its values, the test's messages.
fn diagnostics(load: &Load, suite: &str, case: &str) -> Vec<String> {
    let mut in_suite = false;
    let mut pending = Vec::new();
    for line in &load.ktap {
        let trimmed = line.trim();
        if let Some(name) = trimmed.strip_prefix("# Subtest: ") {
            in_suite = name.trim() == suite;
            pending.clear();
            continue;
        }
        if !in_suite {
            continue;
        }
        if let Some((_, name)) = result(trimmed) {
            if name == case {
                return pending;
            }
            pending.clear();
        } else if !trimmed.is_empty()
            && !trimmed.starts_with("KTAP version")
            && !trimmed.starts_with("1..")
            && !trimmed.starts_with("# module:")
        {
            pending.push(trimmed.trim_start_matches("# ").to_string());
        }
    }
    Vec::new()
}

/// `(ok, name)` of a KTAP result line, `ok 1 name # SKIP ...` or `not ok 2 name`.
fn result(line: &str) -> Option<(bool, &str)> {
    let (ok, rest) = match line.strip_prefix("not ok ") {
        Some(rest) => (false, rest),
        None => (true, line.strip_prefix("ok ")?),
    };
    let (number, name) = rest.split_once(' ')?;
    number.parse::<u32>().ok()?;
    Some((ok, name.split(" # ").next().unwrap_or(name).trim()))
}

/// The problems of `cases` in `cell`: a failed case, one that did not run, and one whose
/// `#[cfg]` is off or that is ignored but was not reported skipped, each named.
pub fn problems(cases: &[Case], cell: &str, console: &Path) -> Vec<String> {
    let console = console.display();
    cases
        .iter()
        .filter_map(|c| match (c.outcome, c.declared) {
            (Some(Outcome::Fail), _) => Some(format!(
                "{cell}: {}::{} FAILED{} (see {console})",
                c.suite,
                c.name,
                c.diagnostics
                    .iter()
                    .find(|d| d.contains("Expected") || d.contains("left") || d.contains("error"))
                    .map(|d| format!(": {d}"))
                    .unwrap_or_default(),
            )),
            (None, _) => Some(format!(
                "{cell}: {}::{} did not run (see {console})",
                c.suite, c.name
            )),
            (Some(Outcome::Pass), State::CfgOff | State::Ignored) => Some(format!(
                "{cell}: {}::{} passed, but it is {}: it must be reported skipped (see {console})",
                c.suite,
                c.name,
                if c.declared == State::CfgOff {
                    "compiled out by its #[cfg]"
                } else {
                    "#[ignore]d"
                }
            )),
            _ => None,
        })
        .collect()
}

/// Writes the KTAP of each module that printed one into `out/ktap-<module>.log`; returns the
/// files. `kunit.py parse` reads the first KTAP document of a file only, hence one per module.
pub fn write_ktap(log: &Log, out: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for load in log.loads.iter().filter(|l| !l.ktap.is_empty()) {
        let stem = load.module.trim_end_matches(".ko");
        let file = out.join(format!("ktap-{stem}.log"));
        fs::write(&file, load.ktap.join("\n") + "\n").at(&file)?;
        files.push(file);
    }
    Ok(files)
}

/// What `kunit.py parse` said of a KTAP file.
pub struct Parsed {
    /// Whether it exited with success: every case passed or was skipped.
    pub passed: bool,
    /// Its `Testing complete. Ran N tests: ...` line; empty if it never got there.
    pub verdict: String,
    /// All it printed.
    pub output: String,
}

/// Runs the kernel tree `source`'s `tools/testing/kunit/kunit.py parse` on `ktap`.
pub fn kunit_py_parse(source: &Path, ktap: &Path) -> Result<Parsed> {
    let out = Command::new("python3")
        .arg(source.join("tools/testing/kunit/kunit.py"))
        .arg("parse")
        .arg(ktap)
        .output()
        .map_err(|e| Error(format!("cannot run python3 for kunit.py: {e}")))?;
    let output =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let verdict = output
        .lines()
        .rev()
        .find(|l| l.contains("Testing complete"))
        .unwrap_or("")
        .trim()
        .to_string();
    Ok(Parsed {
        passed: out.status.success(),
        verdict,
        output,
    })
}

/// Escapes `text` for an XML attribute or text node.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// JUnit XML of one cell: a `<testsuite>` per KUnit suite, named `<cell>/<suite>`, and a case
/// `<cell>/boot` that fails with `problems`, those that belong to no case (a hang, an Oops, a
/// module that did not build or load).
pub fn junit(cell: &str, cases: &[Case], problems: &[String], seconds: f64) -> String {
    let mut suites: BTreeMap<&str, Vec<&Case>> = BTreeMap::new();
    for case in cases {
        suites.entry(&case.suite).or_default().push(case);
    }
    let failures = cases
        .iter()
        .filter(|c| c.outcome != Some(Outcome::Pass) && c.outcome != Some(Outcome::Skip))
        .count()
        + usize::from(!problems.is_empty());
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"{}\" tests=\"{}\" failures=\"{failures}\" time=\"{seconds:.3}\">",
        xml(cell),
        cases.len() + 1
    );
    for (suite, cases) in &suites {
        let failed = cases
            .iter()
            .filter(|c| c.outcome != Some(Outcome::Pass) && c.outcome != Some(Outcome::Skip))
            .count();
        let skipped = cases
            .iter()
            .filter(|c| c.outcome == Some(Outcome::Skip))
            .count();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}/{}\" tests=\"{}\" failures=\"{failed}\" skipped=\"{skipped}\">",
            xml(cell),
            xml(suite),
            cases.len()
        );
        for case in cases {
            let _ = write!(
                out,
                "    <testcase classname=\"{}.{}\" name=\"{}\"",
                xml(cell),
                xml(suite),
                xml(&case.name)
            );
            match case.outcome {
                Some(Outcome::Pass) => out.push_str("/>\n"),
                Some(Outcome::Skip) => out.push_str("><skipped/></testcase>\n"),
                Some(Outcome::Fail) => {
                    let _ = writeln!(
                        out,
                        "><failure message=\"KUnit reported the case failed\">{}</failure></testcase>",
                        xml(&case.diagnostics.join("\n"))
                    );
                }
                None => out.push_str("><failure message=\"the case did not run\"/></testcase>\n"),
            }
        }
        out.push_str("  </testsuite>\n");
    }
    let _ = writeln!(
        out,
        "  <testsuite name=\"{}/boot\" tests=\"1\" failures=\"{}\">",
        xml(cell),
        usize::from(!problems.is_empty())
    );
    let _ = write!(
        out,
        "    <testcase classname=\"{}\" name=\"boot\"",
        xml(cell)
    );
    if problems.is_empty() {
        out.push_str("/>\n");
    } else {
        let _ = writeln!(
            out,
            "><failure message=\"{}\">{}</failure></testcase>",
            xml(&problems[0]),
            xml(&problems.join("\n"))
        );
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ktap;

    const CONSOLE: &str = "\
kernel-core-init: begin mydrv.ko
KTAP version 1
1..1
    KTAP version 1
    # Subtest: mydrv_logic
    # module: mydrv
    1..3
    ok 1 adds
    # checks: ASSERTION FAILED at logic.rs:20
    # Expected a == b to be true, but is false
    not ok 2 checks
    ok 3 later # SKIP ignored
not ok 1 mydrv_logic
kernel-core-init: insmod mydrv.ko: ok
kernel-core-init: done
";

    fn expected() -> Vec<declared::Suite> {
        declared::parse(
            b"suite mydrv_logic\ncase mydrv_logic adds r\ncase mydrv_logic checks r\n\
              case mydrv_logic later i\ncase mydrv_logic missing r\n",
        )
        .unwrap()
    }

    #[test]
    fn every_case_is_found_with_its_outcome_and_diagnostics() {
        let log = ktap::parse(CONSOLE);
        let cases = cases(&log, &expected());
        let outcomes: Vec<_> = cases.iter().map(|c| (c.name.as_str(), c.outcome)).collect();
        assert_eq!(
            outcomes,
            [
                ("adds", Some(Outcome::Pass)),
                ("checks", Some(Outcome::Fail)),
                ("later", Some(Outcome::Skip)),
                ("missing", None),
            ]
        );
        assert_eq!(
            cases[1].diagnostics,
            [
                "checks: ASSERTION FAILED at logic.rs:20",
                "Expected a == b to be true, but is false"
            ]
        );
        let problems = problems(&cases, "7.3.4/x86_64", Path::new("console.log"));
        assert_eq!(problems.len(), 2);
        assert!(
            problems[0].starts_with("7.3.4/x86_64: mydrv_logic::checks FAILED: Expected a == b")
        );
        assert!(problems[1].contains("mydrv_logic::missing did not run"));
    }

    #[test]
    fn junit_counts_and_escapes() {
        let log = ktap::parse(CONSOLE);
        let cases = cases(&log, &expected());
        let xml = junit("7.3.4/x86_64", &cases, &["an <Oops> & more".into()], 1.5);
        assert!(xml.contains("<testsuites name=\"7.3.4/x86_64\" tests=\"5\" failures=\"3\""));
        assert!(xml.contains("failures=\"2\" skipped=\"1\""));
        assert!(xml.contains("name=\"checks\"><failure message=\"KUnit reported the case failed\">checks: ASSERTION FAILED"));
        assert!(xml.contains("an &lt;Oops&gt; &amp; more"));
        assert!(xml.contains("name=\"missing\"><failure message=\"the case did not run\"/>"));
    }
}
