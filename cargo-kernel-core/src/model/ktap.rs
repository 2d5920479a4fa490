// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! KTAP, KUnit's output format (`Documentation/dev-tools/ktap.rst`): the one parser of its
//! lines that the runner has.
//!
//! A module's suites print as one document: `KTAP version 1`, `1..N`, then per suite an
//! indented subtest (`# Subtest: name`, `1..n`, `ok i case` / `not ok i case [# SKIP why]`,
//! KUnit's `# ...` diagnostics before a failed result) closed by `ok k name` at column 0.

/// The outcome of one KUnit case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    Pass,
    Fail,
    Skip,
}

/// A result line: `ok 3 name`, `not ok 2 name # SKIP why`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultLine<'a> {
    pub outcome: Outcome,
    pub number: u32,
    pub name: &'a str,
    /// What follows ` # `: `SKIP ...`, KUnit's timing.
    pub directive: Option<&'a str>,
}

/// Parses a result line (without its indentation); `None` for any other line.
pub fn result(line: &str) -> Option<ResultLine<'_>> {
    let (ok, rest) = match line.strip_prefix("not ok ") {
        Some(rest) => (false, rest),
        None => (true, line.strip_prefix("ok ")?),
    };
    let (number, rest) = rest.split_once(' ').unwrap_or((rest, ""));
    let number = number.parse::<u32>().ok()?;
    let (name, directive) = match rest.split_once(" # ") {
        Some((name, directive)) => (name, Some(directive.trim())),
        None => (rest, rest.strip_prefix("# ").map(str::trim)),
    };
    let skipped = directive.is_some_and(|d| d.starts_with("SKIP"));
    Some(ResultLine {
        outcome: match (ok, skipped) {
            (_, true) => Outcome::Skip,
            (true, false) => Outcome::Pass,
            (false, false) => Outcome::Fail,
        },
        number,
        name: name.trim(),
        directive,
    })
}

/// One suite as a KTAP document reported it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Suite {
    pub name: String,
    /// Its cases in the order they were reported, with KUnit's diagnostic lines for each
    /// (the `# ...` lines between the previous result and its own).
    pub cases: Vec<Case>,
    /// The suite's own result line, if it was printed.
    pub ok: Option<bool>,
}

/// One reported case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub name: String,
    pub outcome: Outcome,
    pub diagnostics: Vec<String>,
}

/// A KTAP document: from its `KTAP version 1` header to the end of `lines`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Document {
    /// The document's lines, for `kunit.py parse`.
    pub lines: Vec<String>,
    pub suites: Vec<Suite>,
}

/// The KTAP document in `lines` (the console lines of one module load), if there is one.
pub fn document(lines: &[String]) -> Option<Document> {
    let start = lines.iter().position(|l| l == "KTAP version 1")?;
    let mut doc = Document::default();
    let mut pending = Vec::new();
    for line in &lines[start..] {
        doc.lines.push(line.clone());
        if let Some(name) = line.strip_prefix("    # Subtest: ") {
            doc.suites.push(Suite {
                name: name.trim().to_string(),
                ..Suite::default()
            });
            pending.clear();
        } else if let Some(rest) = line.strip_prefix("    ") {
            let trimmed = rest.trim();
            if let (Some(suite), Some(result)) = (doc.suites.last_mut(), result(trimmed)) {
                suite.cases.push(Case {
                    name: result.name.to_string(),
                    outcome: result.outcome,
                    diagnostics: std::mem::take(&mut pending),
                });
            } else if let Some(diagnostic) = trimmed.strip_prefix("# ") {
                if !diagnostic.starts_with("module:") && !diagnostic.starts_with("Subtest:") {
                    pending.push(diagnostic.to_string());
                }
            }
        } else if let Some(result) = result(line) {
            if let Some(suite) = doc.suites.iter_mut().rev().find(|s| s.name == result.name) {
                suite.ok = Some(result.outcome != Outcome::Fail);
            }
        }
    }
    Some(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_lines() {
        let r = result("ok 1 first").unwrap();
        assert_eq!((r.outcome, r.number, r.name), (Outcome::Pass, 1, "first"));
        let r = result("not ok 2 second").unwrap();
        assert_eq!((r.outcome, r.name), (Outcome::Fail, "second"));
        let r = result("ok 3 third # SKIP its #[cfg] is off").unwrap();
        assert_eq!(r.outcome, Outcome::Skip);
        assert_eq!(r.directive, Some("SKIP its #[cfg] is off"));
        assert_eq!(result("ok x y"), None);
        assert_eq!(result("okay 1 z"), None);
        assert_eq!(result("# Subtest: a"), None);
    }

    #[test]
    fn a_document_with_diagnostics() {
        let lines: Vec<String> = "\
boot noise
KTAP version 1
1..2
    KTAP version 1
    # Subtest: suite_a
    # module: m
    1..3
    ok 1 first
    # second: ASSERTION FAILED at lib.rs:20
    # Expected 1 == 2 to be true, but is false
    not ok 2 second
    ok 3 third # SKIP disabled
not ok 1 suite_a
    KTAP version 1
    # Subtest: suite_b
    1..1
    ok 1 only
ok 2 suite_b"
            .lines()
            .map(String::from)
            .collect();
        let doc = document(&lines).unwrap();
        assert_eq!(
            doc.lines.first().map(String::as_str),
            Some("KTAP version 1")
        );
        assert_eq!(doc.suites.len(), 2);
        let a = &doc.suites[0];
        assert_eq!(a.ok, Some(false));
        assert_eq!(
            a.cases
                .iter()
                .map(|c| (c.name.as_str(), c.outcome))
                .collect::<Vec<_>>(),
            [
                ("first", Outcome::Pass),
                ("second", Outcome::Fail),
                ("third", Outcome::Skip)
            ]
        );
        assert_eq!(
            a.cases[1].diagnostics,
            [
                "second: ASSERTION FAILED at lib.rs:20",
                "Expected 1 == 2 to be true, but is false"
            ]
        );
        assert_eq!(doc.suites[1].ok, Some(true));
        assert_eq!(document(&["no ktap".to_string()]), None);
    }
}
