// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The dual-build corpus (`corpus/`): the same suite files under `cargo test` on the host and
//! as `kernel_core_corpus.ko` under KUnit, with the same verdict for every case.
//!
//! The verdict a case must get is the start of its name: `pass_`, `fail_` or `skip_`. The host
//! run is checked against the names here; each kernel run against the host's verdicts, case by
//! case, in [`check_kernel`].

use crate::ktap::{self, Outcome};
use crate::ui::{self, Error, Result};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// The corpus's module in the kernel runs.
pub const MODULE: &str = "kernel_core_corpus.ko";

/// The verdict of every case of every suite: suite name, then case name.
pub type Verdicts = BTreeMap<String, BTreeMap<String, Outcome>>;

/// The verdict a case's name asks for.
fn intended(case: &str) -> Option<Outcome> {
    [
        ("pass_", Outcome::Pass),
        ("fail_", Outcome::Fail),
        ("skip_", Outcome::Skip),
    ]
    .into_iter()
    .find(|(prefix, _)| case.starts_with(prefix))
    .map(|(_, outcome)| outcome)
}

/// Parses libtest's `test <path> ... ok|FAILED|ignored` lines.
fn parse_libtest(output: &str) -> BTreeMap<String, Outcome> {
    output
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("test ")?;
            let (path, result) = rest.split_once(" ... ")?;
            let outcome = match result.split(',').next()?.trim() {
                "ok" => Outcome::Pass,
                "FAILED" => Outcome::Fail,
                "ignored" => Outcome::Skip,
                _ => return None,
            };
            Some((path.to_string(), outcome))
        })
        .collect()
}

/// Runs the corpus on the host with `cargo test` (threads, as a driver author runs it), checks
/// each verdict against the case's name, and returns the verdicts by suite.
pub fn host(repo: &Path) -> Result<Verdicts> {
    let start = ui::step("the corpus on the host (cargo test)");
    let manifest = repo.join("corpus/Cargo.toml");
    let output = Command::new("cargo")
        .args(["+stable", "test", "--manifest-path"])
        .arg(&manifest)
        .args(["--test", "suites", "--", "--test-threads=4"])
        .env("CARGO_TARGET_DIR", repo.join("target/corpus"))
        .output()
        .map_err(|e| {
            Error(format!(
                "cannot run cargo test for {}: {e}",
                manifest.display()
            ))
        })?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !stdout.contains("test result:") {
        crate::bail!(
            "the corpus did not build on the host ({}):\n{}",
            manifest.display(),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let seen = parse_libtest(&stdout);

    let mut verdicts = Verdicts::new();
    let mut problems = Vec::new();
    for file in ktap::suite_files(&repo.join("corpus/suites"))? {
        let stem = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let suites = ktap::expected_suites(&[&file])
            .map_err(|e| Error(format!("cannot read {}: {e}", file.display())))?;
        for (suite, cases) in suites {
            let mut by_case = BTreeMap::new();
            for case in cases {
                let Some(want) = intended(&case) else {
                    problems.push(format!(
                        "{}: case {case} does not start with pass_, fail_ or skip_",
                        file.display()
                    ));
                    continue;
                };
                let found: Vec<Outcome> = seen
                    .iter()
                    .filter(|(path, _)| {
                        path.starts_with(&format!("{stem}::"))
                            && path.ends_with(&format!("::{case}"))
                    })
                    .map(|(_, outcome)| *outcome)
                    .collect();
                match found[..] {
                    [outcome] if outcome == want => {
                        by_case.insert(case, outcome);
                    }
                    [outcome] => problems.push(format!(
                        "host: {suite}.{case} ({}) is {outcome:?}, its name says {want:?}",
                        file.display()
                    )),
                    [] => problems.push(format!("host: {suite}.{case} did not run")),
                    _ => problems.push(format!("host: {suite}.{case} ran more than once")),
                }
            }
            verdicts.insert(suite, by_case);
        }
    }
    if !problems.is_empty() {
        crate::bail!("the corpus on the host:\n  {}", problems.join("\n  "));
    }
    let cases: usize = verdicts.values().map(BTreeMap::len).sum();
    ui::done(
        &format!(
            "{cases} cases in {} suites, each with the verdict its name asks for",
            verdicts.len()
        ),
        start,
    );
    Ok(verdicts)
}

/// Compares a kernel run's KTAP with the host's verdicts; returns the problems.
pub fn check_kernel(log: &ktap::Log, host: &Verdicts, console: &Path) -> Vec<String> {
    let Some(load) = log.loads.iter().find(|l| l.module == MODULE) else {
        return vec![format!("no output from {MODULE}")];
    };
    let mut problems = Vec::new();
    let mut agreed = 0;
    for (suite_name, cases) in host {
        let Some(suite) = load.suites.iter().find(|s| &s.name == suite_name) else {
            problems.push(format!("corpus suite {suite_name} did not run"));
            continue;
        };
        for (case, want) in cases {
            match suite.cases.iter().find(|(name, _)| name == case) {
                Some((_, seen)) if seen == want => agreed += 1,
                seen => problems.push(format!(
                    "corpus {suite_name}.{case}: the host says {want:?}, KUnit {:?} (see {})",
                    seen.map(|s| s.1),
                    console.display()
                )),
            }
        }
        if let Some((extra, _)) = suite
            .cases
            .iter()
            .find(|(name, _)| !cases.contains_key(name))
        {
            problems.push(format!(
                "corpus {suite_name}.{extra} ran in the kernel, not on the host"
            ));
        }
    }
    if problems.is_empty() {
        println!("    corpus: {agreed} cases, the same verdict as on the host");
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libtest_lines() {
        let seen = parse_libtest(
            "running 3 tests\n\
             test forms::tests::pass_a ... ok\n\
             test forms::tests::fail_b ... FAILED\n\
             test forms::tests::skip_c ... ignored, its #[cfg] is off\n\
             test result: FAILED. 1 passed; 1 failed; 1 ignored\n",
        );
        assert_eq!(seen.len(), 3);
        assert_eq!(seen["forms::tests::pass_a"], Outcome::Pass);
        assert_eq!(seen["forms::tests::fail_b"], Outcome::Fail);
        assert_eq!(seen["forms::tests::skip_c"], Outcome::Skip);
    }

    #[test]
    fn names_give_verdicts() {
        assert_eq!(intended("pass_x"), Some(Outcome::Pass));
        assert_eq!(intended("fail_x"), Some(Outcome::Fail));
        assert_eq!(intended("skip_x"), Some(Outcome::Skip));
        assert_eq!(intended("x"), None);
    }
}
