// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The dual-build corpus (`corpus/`): the same suite files under `cargo test` on the host and
//! as `kernel_core_corpus.ko` under KUnit, with the same verdict for every case.
//!
//! The verdict a case must get is the start of its name: `pass_`, `fail_` or `skip_`. The host
//! run is checked against the names here; each kernel run against the host's verdicts, case by
//! case, in [`check_kernel`], over the cases the module's object declares.

use cargo_kernel_core::infra::error::Result;
use cargo_kernel_core::infra::progress;
use cargo_kernel_core::model::declared::Suite;
use cargo_kernel_core::model::ktap::Outcome;
use std::collections::BTreeMap;
use std::path::Path;

/// The corpus's module in the kernel runs.
pub const MODULE: &str = "kernel_core_corpus.ko";

/// The host's verdict of every case, by case name.
pub type Verdicts = BTreeMap<String, Outcome>;

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
/// each verdict against the case's name, and returns the verdicts by case name (the corpus's
/// case names are unique).
pub fn host(repo: &Path) -> Result<Verdicts> {
    let start = progress::step("the corpus on the host (cargo test)");
    let manifest = repo.join("corpus/Cargo.toml");
    let output = cargo_kernel_core::infra::command::cargo()
        .args(["+stable", "test", "--manifest-path"])
        .arg(&manifest)
        .args(["--test", "suites", "--", "--test-threads=4"])
        .env("CARGO_TARGET_DIR", repo.join("target/corpus"))
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run cargo test for {}: {e}", manifest.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !stdout.contains("test result:") {
        anyhow::bail!(
            "the corpus did not build on the host ({}):\n{}",
            manifest.display(),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let mut verdicts = Verdicts::new();
    let mut problems = Vec::new();
    for (path, outcome) in parse_libtest(&stdout) {
        let case = path.rsplit("::").next().unwrap_or(&path).to_string();
        match intended(&case) {
            None => problems.push(format!(
                "host: {path} does not start with pass_, fail_ or skip_"
            )),
            Some(want) if want != outcome => problems.push(format!(
                "host: {path} is {outcome:?}, its name says {want:?}"
            )),
            Some(_) => {}
        }
        if verdicts.insert(case, outcome).is_some() {
            problems.push(format!("host: a second case is named like {path}"));
        }
    }
    if !problems.is_empty() {
        anyhow::bail!("the corpus on the host:\n  {}", problems.join("\n  "));
    }
    progress::done(
        &format!(
            "{} cases, each with the verdict its name asks for",
            verdicts.len()
        ),
        start,
    );
    Ok(verdicts)
}

/// Compares a kernel run of the corpus module with the host's verdicts, case by case: the
/// module declares (in its object) exactly the cases the host ran, and KUnit gave each the
/// host's verdict. Returns the problems.
pub fn check_kernel(
    log: &cargo_kernel_core::model::console::Log,
    declared: &[Suite],
    host: &Verdicts,
    console: &Path,
) -> Vec<String> {
    let Some(load) = log.loads.iter().find(|l| l.module == MODULE) else {
        return vec![format!("no output from {MODULE}")];
    };
    let mut problems = Vec::new();
    let mut agreed = 0;
    let mut seen = Vec::new();
    for declared_suite in declared {
        let Some(suite) = load
            .ktap
            .as_ref()
            .and_then(|doc| doc.suites.iter().find(|s| s.name == declared_suite.name))
        else {
            problems.push(format!("corpus suite {} did not run", declared_suite.name));
            continue;
        };
        for case in &declared_suite.cases {
            seen.push(case.name.as_str());
            let kernel = suite
                .cases
                .iter()
                .find(|c| c.name == case.name)
                .map(|c| c.outcome);
            match (host.get(&case.name), kernel) {
                (Some(want), Some(got)) if *want == got => agreed += 1,
                (None, _) => problems.push(format!(
                    "corpus {}.{} is in the kernel module, not on the host",
                    suite.name, case.name
                )),
                (Some(want), got) => problems.push(format!(
                    "corpus {}.{}: the host says {want:?}, KUnit {got:?} (see {})",
                    suite.name,
                    case.name,
                    console.display()
                )),
            }
        }
    }
    for case in host.keys().filter(|c| !seen.contains(&c.as_str())) {
        problems.push(format!(
            "corpus case {case} ran on the host, but the kernel module does not declare it"
        ));
    }
    if problems.is_empty() {
        cargo_kernel_core::note!("    corpus: {agreed} cases, the same verdict as on the host");
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
