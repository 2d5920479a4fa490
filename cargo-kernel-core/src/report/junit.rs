// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! JUnit XML, which CI services read: a `junit.xml` per plan, written when the plan is judged
//! (or stops with an error before: a plan that fails before its boot still says why).

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::model::cell;
use crate::model::event::{Event, Lane, Reporter};
use crate::model::ktap::Outcome;
use crate::model::report::Case;
use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};
use std::fs;
use std::path::Path;

/// The JUnit reporter.
#[derive(Debug, Default)]
pub struct Junit;

impl Reporter for Junit {
    fn report(&self, _: Option<&Lane>, event: &Event<'_>) -> Result {
        match event {
            Event::PlanFinished {
                cell,
                plan,
                outside_cases,
                ..
            } => write(
                &plan.dir,
                &junit(
                    cell,
                    &plan.name,
                    &plan.cases,
                    &plan.problems[..*outside_cases],
                    plan.boot_seconds.unwrap_or(0.0),
                )?,
            ),
            Event::PlanFailed {
                cell,
                plan,
                dir,
                error,
            } => write(dir, &junit(cell, plan, &[], &[error.to_string()], 0.0)?),
            _ => Ok(()),
        }
    }
}

/// Writes `xml` as the JUnit file of the plan directory `dir`.
fn write(dir: &Path, xml: &str) -> Result {
    let file = dir.join(cell::JUNIT);
    fs::create_dir_all(dir).at(dir)?;
    fs::write(&file, xml).at(&file)
}

/// JUnit XML of one boot (or of a cell that never booted): a `<testsuite>` per KUnit suite,
/// named `<cell>/<suite>`, and a suite `<cell>/<name>` whose one case carries the problems
/// that belong to no case (a module that did not build or load, a WARN during an init) as an
/// `<error>`.
pub fn junit(
    cell: &str,
    name: &str,
    cases: &[Case],
    problems: &[String],
    seconds: f64,
) -> Result<String> {
    let mut report = quick_junit::Report::new(cell);
    report.set_time(std::time::Duration::from_secs_f64(seconds.max(0.0)));
    let mut suites: Vec<TestSuite> = Vec::new();
    for case in cases {
        let suite_name = format!("{cell}/{}", case.suite);
        if suites.last().is_none_or(|s| s.name.as_str() != suite_name) {
            suites.push(TestSuite::new(suite_name));
        }
        let status = if case.ok() && case.outcome == Some(Outcome::Skip) {
            TestCaseStatus::skipped()
        } else if case.ok() {
            TestCaseStatus::success()
        } else {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status.set_message(if let Some(why) = &case.hung {
                format!("the case hung: {why}")
            } else if case.outcome.is_none() {
                "the case did not run".to_string()
            } else {
                case.telling()
                    .unwrap_or("KUnit reported the case failed")
                    .to_string()
            });
            // The kernel's reports whole (their stacks too), then KUnit's diagnostics.
            let mut description = case.report_texts.clone();
            description.extend(case.diagnostics.iter().cloned());
            status.set_description(description.join("\n"));
            status
        };
        let mut test_case = TestCase::new(case.name.clone(), status);
        test_case.set_classname(format!("{cell}.{}", case.suite));
        suites
            .last_mut()
            .expect("pushed above")
            .add_test_case(test_case);
    }
    let mut boot = TestSuite::new(format!("{cell}/{name}"));
    let status = match problems.first() {
        None => TestCaseStatus::success(),
        Some(first) => {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
            status.set_message(first.clone());
            status.set_description(problems.join("\n"));
            status
        }
    };
    let mut test_case = TestCase::new(name, status);
    test_case.set_classname(cell);
    boot.add_test_case(test_case);
    suites.push(boot);
    report.add_test_suites(suites);
    report
        .to_string()
        .map_err(|e| anyhow::anyhow!("writing JUnit XML: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::declared::State;

    fn case(name: &str, outcome: Option<Outcome>) -> Case {
        Case {
            module: "mydrv.ko".into(),
            suite: "mydrv_logic".into(),
            name: name.into(),
            declared: State::Runs,
            outcome,
            diagnostics: vec!["Expected a == b to be true, but is false".into()],
            reports: Vec::new(),
            report_texts: Vec::new(),
            hung: None,
        }
    }

    #[test]
    fn junit_counts_and_escapes() {
        let cases = [
            case("adds", Some(Outcome::Pass)),
            case("checks", Some(Outcome::Fail)),
            case("later", Some(Outcome::Skip)),
            case("warns", Some(Outcome::Pass)),
            case("missing", None),
        ];
        let xml = junit(
            "7.3.4/x86_64",
            "boot",
            &cases,
            &["an <Oops> & more".into()],
            1.5,
        )
        .unwrap();
        assert!(
            xml.contains("name=\"7.3.4/x86_64/mydrv_logic\" tests=\"5\""),
            "{xml}"
        );
        assert!(xml.contains("failures=\"2\""), "{xml}");
        assert!(xml.contains("an &lt;Oops&gt; &amp; more"), "{xml}");
        assert!(xml.contains("the case did not run"), "{xml}");
        assert!(xml.contains("Expected a == b"), "{xml}");
        assert!(xml.contains("<error"), "{xml}");
    }
}
