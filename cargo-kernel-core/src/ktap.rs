// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Reading a guest's console log: KUnit's KTAP results per module load, and signs of trouble.

use std::path::{Path, PathBuf};

/// The outcome of one KUnit case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Fail,
    Skip,
}

/// One suite as KTAP reported it.
#[derive(Debug, Default)]
pub struct Suite {
    pub name: String,
    pub cases: Vec<(String, Outcome)>,
    /// The suite's own result line, if it was printed.
    pub ok: Option<bool>,
}

/// What the log of one module load (between two `kernel-core-init: begin` lines) holds.
#[derive(Debug, Default)]
pub struct Load {
    pub module: String,
    pub lines: Vec<String>,
    pub suites: Vec<Suite>,
    /// The KTAP document alone, from its `KTAP version 1` header, for `kunit.py parse`.
    pub ktap: Vec<String>,
    pub insmod_ok: bool,
}

/// The whole log.
#[derive(Debug, Default)]
pub struct Log {
    pub loads: Vec<Load>,
    /// Lines that show an Oops, BUG, WARNING or panic.
    pub trouble: Vec<String>,
    /// Whether the guest's init reached its end.
    pub done: bool,
}

/// Strips a `[    1.234567] ` printk timestamp.
fn strip_time(line: &str) -> &str {
    let trimmed = line.trim_end_matches('\r');
    if let Some(rest) = trimmed.strip_prefix('[') {
        if let Some((stamp, rest)) = rest.split_once("] ") {
            if stamp.trim().chars().all(|c| c.is_ascii_digit() || c == '.') {
                return rest;
            }
        }
    }
    trimmed
}

/// Markers of a kernel in trouble.
const TROUBLE: &[&str] = &[
    "Oops",
    "BUG:",
    "kernel BUG at",
    "WARNING:",
    "Kernel panic",
    "Call Trace:",
    "general protection fault",
    "Unable to handle kernel",
    "rcu_sched detected stalls",
];

/// Parses a console log.
pub fn parse(text: &str) -> Log {
    let mut log = Log::default();
    for raw in text.lines() {
        let line = strip_time(raw);
        if TROUBLE.iter().any(|t| line.contains(t)) {
            log.trouble.push(line.to_string());
        }
        if let Some(module) = line.strip_prefix("kernel-core-init: begin ") {
            log.loads.push(Load {
                module: module.trim().to_string(),
                ..Load::default()
            });
            continue;
        }
        if line.starts_with("kernel-core-init: done") {
            log.done = true;
        }
        if let Some(load) = log.loads.last_mut() {
            if line.starts_with(&format!("kernel-core-init: insmod {}: ok", load.module)) {
                load.insmod_ok = true;
            }
            if !line.starts_with("kernel-core-init:") {
                load.lines.push(line.to_string());
            }
        }
    }
    for load in &mut log.loads {
        parse_ktap(load);
    }
    log
}

/// Fills a load's suites and KTAP document from its lines.
fn parse_ktap(load: &mut Load) {
    let mut in_doc = false;
    for line in &load.lines {
        if line == "KTAP version 1" {
            in_doc = true;
        }
        if !in_doc {
            continue;
        }
        load.ktap.push(line.clone());
        if let Some(name) = line.strip_prefix("    # Subtest: ") {
            load.suites.push(Suite {
                name: name.trim().to_string(),
                ..Suite::default()
            });
        } else if let Some(rest) = line.strip_prefix("    ") {
            if let (Some(suite), Some((ok, name))) = (load.suites.last_mut(), result(rest)) {
                let outcome = if rest.contains("# SKIP") {
                    Outcome::Skip
                } else if ok {
                    Outcome::Pass
                } else {
                    Outcome::Fail
                };
                suite.cases.push((name, outcome));
            }
        } else if let Some((ok, name)) = result(line) {
            if let Some(suite) = load.suites.iter_mut().rev().find(|s| s.name == name) {
                suite.ok = Some(ok);
            }
        }
    }
}

/// Parses `ok 3 name` / `not ok 3 name # SKIP ...` into (ok, name).
fn result(line: &str) -> Option<(bool, String)> {
    let (ok, rest) = if let Some(rest) = line.strip_prefix("not ok ") {
        (false, rest)
    } else if let Some(rest) = line.strip_prefix("ok ") {
        (true, rest)
    } else {
        return None;
    };
    let (number, name) = rest.split_once(' ')?;
    number.parse::<u32>().ok()?;
    let name = name.split(" # ").next().unwrap_or(name).trim();
    Some((ok, name.to_string()))
}

/// The `.rs` files of a directory of suite files, sorted: such a directory is the one list of
/// its suites, which cargo (`build.rs`) and Kbuild read too.
pub fn suite_files(dir: &Path) -> crate::ui::Result<Vec<PathBuf>> {
    use crate::ui::Context as _;
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).at(dir)? {
        let path = entry.at(dir)?.path();
        if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "\
[    0.5] booting
kernel-core-init: begin kernel_core_tests.ko
KTAP version 1
1..2
    KTAP version 1
    # Subtest: suite_a
    # module: kernel_core_tests
    1..3
    ok 1 first
    not ok 2 second
    ok 3 third # SKIP disabled
not ok 1 suite_a
    KTAP version 1
    # Subtest: suite_b
    1..1
    ok 1 only
ok 2 suite_b
kernel-core-init: insmod kernel_core_tests.ko: ok
kernel-core-init: begin kernel_core_sample.ko
kernel-core sample: done
kernel-core-init: insmod kernel_core_sample.ko: ok
kernel-core-init: done
";

    #[test]
    fn reads_suites_and_cases() {
        let log = parse(LOG);
        assert!(log.done);
        assert!(log.trouble.is_empty());
        assert_eq!(log.loads.len(), 2);
        let tests = &log.loads[0];
        assert!(tests.insmod_ok);
        assert_eq!(tests.suites.len(), 2);
        assert_eq!(tests.suites[0].name, "suite_a");
        assert_eq!(
            tests.suites[0].cases,
            vec![
                ("first".to_string(), Outcome::Pass),
                ("second".to_string(), Outcome::Fail),
                ("third".to_string(), Outcome::Skip),
            ]
        );
        assert_eq!(tests.suites[0].ok, Some(false));
        assert_eq!(tests.suites[1].ok, Some(true));
        assert_eq!(
            tests.ktap.first().map(String::as_str),
            Some("KTAP version 1")
        );
        assert!(log.loads[1].suites.is_empty());
    }

    #[test]
    fn spots_trouble() {
        let log = parse("[    1.0] WARNING: CPU: 0 PID: 1 at foo\nok\n");
        assert_eq!(
            log.trouble,
            vec!["WARNING: CPU: 0 PID: 1 at foo".to_string()]
        );
        assert!(!log.done);
    }
}
