// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The KUnit suites and cases a module declares, as the compiler built them.
//!
//! What a cell must report is what was compiled: a case whose `#[cfg]` is off, a test outside
//! any suite, a suite in a file the module never includes, a case deleted since the last run.
//! Scanning the sources gets each of these wrong somewhere, so the runner reads the table that
//! kernel-core's `#[kunit_tests]` writes into each object instead: a section
//! `.note.kernel_core.kunit_cases` (not allocated, so the module loader never loads it), holding a line `suite NAME`
//! per suite and a line `case SUITE NAME STATE` per case, in the order of the suite's case
//! array, where STATE is `r` (runs), `c` (its `#[cfg]` is off) or `i` (ignored). The kernel's
//! own `#[kunit_tests]` writes no such table: suites built by it are not declared here.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use object::{Object, ObjectSection};
use std::fs;
use std::path::{Path, PathBuf};

/// The section `#[kunit_tests]` writes its table into.
pub const SECTION: &str = ".note.kernel_core.kunit_cases";

/// What KUnit must report for a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// It runs: it passes or fails.
    Runs,
    /// Its `#[cfg]` is off: it is reported skipped.
    CfgOff,
    /// It is `#[ignore]`d: it is reported skipped.
    Ignored,
}

/// A declared case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub name: String,
    pub state: State,
}

/// A declared suite, its cases in the order KUnit runs them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suite {
    pub name: String,
    pub cases: Vec<Case>,
}

/// A module's declared suites: the module file (`mydrv.ko`) and what its object declares.
pub type Declared = (String, Vec<Suite>);

/// Parses the bytes of one or more tables (an object that links several crates holds their
/// tables one after the other).
pub fn parse(bytes: &[u8]) -> std::result::Result<Vec<Suite>, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8: {e}"))?;
    let mut suites: Vec<Suite> = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let fields: Vec<&str> = line.split(' ').collect();
        match fields.as_slice() {
            ["suite", name] => suites.push(Suite {
                name: (*name).to_string(),
                cases: Vec::new(),
            }),
            ["case", suite, name, state] => {
                let state = match *state {
                    "r" => State::Runs,
                    "c" => State::CfgOff,
                    "i" => State::Ignored,
                    other => return Err(format!("unknown case state `{other}` in `{line}`")),
                };
                let Some(owner) = suites.iter_mut().rev().find(|s| s.name == *suite) else {
                    return Err(format!("case before its suite: `{line}`"));
                };
                owner.cases.push(Case {
                    name: (*name).to_string(),
                    state,
                });
            }
            _ => return Err(format!("unreadable line `{line}`")),
        }
    }
    Ok(suites)
}

/// The suites `object` (a `.o` or a `.ko`) declares; none if it has no table.
pub fn read(object: &Path) -> Result<Vec<Suite>> {
    let data = fs::read(object).at(object)?;
    let file = object::File::parse(&*data)
        .map_err(|e| anyhow::anyhow!("{}: not an object file: {e}", object.display()))?;
    let Some(section) = file.section_by_name(SECTION) else {
        return Ok(Vec::new());
    };
    let bytes = section
        .data()
        .map_err(|e| anyhow::anyhow!("{}: section {SECTION}: {e}", object.display()))?;
    parse(bytes).map_err(|e| anyhow::anyhow!("{}: section {SECTION}: {e}", object.display()))
}

/// The suites the module `ko` declares. Two suites of one name in one module are an error
/// that names the objects (the crates) that hold them, from Kbuild's list of the module's
/// objects (`<module>.mod`): in one crate `#[kunit_tests]` already refuses them at compile
/// time, but two crates of one module each compile alone.
pub fn module(ko: &Path) -> Result<Vec<Suite>> {
    let suites = read(ko)?;
    for (i, suite) in suites.iter().enumerate() {
        if suites[..i].iter().any(|s| s.name == suite.name) {
            let holders = objects_declaring(ko, &suite.name);
            bail_twice(ko, &suite.name, &holders)?;
        }
    }
    Ok(suites)
}

/// The objects of `ko` (listed in `<module>.mod` next to it) whose tables declare `suite`.
fn objects_declaring(ko: &Path, suite: &str) -> Vec<PathBuf> {
    let list = ko.with_extension("mod");
    let dir = ko.parent().unwrap_or(Path::new("."));
    let Ok(text) = fs::read_to_string(&list) else {
        return Vec::new();
    };
    text.split_whitespace()
        .map(|o| {
            let path = Path::new(o);
            if path.is_absolute() {
                path.to_path_buf()
            } else {
                dir.join(path)
            }
        })
        .filter(|o| read(o).is_ok_and(|s| s.iter().any(|s| s.name == suite)))
        .collect()
}

fn bail_twice(ko: &Path, suite: &str, holders: &[PathBuf]) -> Result {
    let places = if holders.is_empty() {
        String::new()
    } else {
        format!(
            ": in {}",
            holders
                .iter()
                .map(|h| h.file_name().map_or_else(
                    || h.display().to_string(),
                    |n| n.to_string_lossy().into_owned()
                ))
                .collect::<Vec<_>>()
                .join(" and ")
        )
    };
    Err(anyhow::anyhow!(
        "{}: two KUnit suites are named `{suite}`{places}. KUnit tells suites apart by name \
         only: rename one",
        ko.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_parse_in_order_with_their_states() {
        let bytes =
            b"suite a\ncase a first r\ncase a second c\ncase a third i\nsuite b\ncase b only r\n";
        let suites = parse(bytes).unwrap();
        assert_eq!(suites.len(), 2);
        assert_eq!(suites[0].name, "a");
        assert_eq!(
            suites[0]
                .cases
                .iter()
                .map(|c| (c.name.as_str(), c.state))
                .collect::<Vec<_>>(),
            [
                ("first", State::Runs),
                ("second", State::CfgOff),
                ("third", State::Ignored)
            ]
        );
        assert_eq!(suites[1].cases[0].name, "only");
        assert_eq!(parse(b"").unwrap(), Vec::new());
        assert!(parse(b"case a x r\n")
            .unwrap_err()
            .contains("before its suite"));
        assert!(parse(b"suite a\ncase a x z\n")
            .unwrap_err()
            .contains("unknown case state"));
        assert!(parse(b"suite\n").unwrap_err().contains("unreadable"));
    }

    #[test]
    fn an_object_without_a_table_declares_nothing() {
        // The test binary itself is an object without the section.
        let me = std::env::current_exe().unwrap();
        assert_eq!(read(&me).unwrap(), Vec::new());
        let e = read(Path::new("/nonexistent.ko")).unwrap_err().to_string();
        assert!(e.starts_with("/nonexistent.ko: "), "{e}");
    }
}
