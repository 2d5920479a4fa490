// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The verdict of one boot: every declared case as KUnit reported it, with the kernel's
//! reports of trouble attached to the case that was running, the problems that fail the
//! cell, and what the kernel's own `kunit.py parse` says of each module's KTAP.

use crate::infra::error::Result;
use crate::model::console::{Assertion, Event, Kind, Log};
use crate::model::declared::{Declared, State};
use crate::model::ktap::Outcome;
use crate::model::report::{Case, Hang};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Every declared case, found in the modules' KTAP, with the reports of trouble and the
/// hang attached to the case that was running.
pub fn cases(log: &Log, declared: &[Declared], hang: Option<&Hang>) -> Vec<Case> {
    let mut found = Vec::new();
    for (module, suites) in declared {
        let load = log.loads.iter().find(|l| &l.module == module);
        for suite in suites {
            let reported = load
                .and_then(|l| l.ktap.as_ref())
                .and_then(|doc| doc.suites.iter().find(|s| s.name == suite.name));
            for (index, case) in suite.cases.iter().enumerate() {
                let here = |during: &crate::model::console::Position| {
                    during.module.as_deref() == Some(module.as_str())
                        && during.suite.as_deref() == Some(suite.name.as_str())
                        && during.case_index == index
                };
                let result = reported.and_then(|s| s.cases.iter().find(|c| c.name == case.name));
                found.push(Case {
                    module: module.clone(),
                    suite: suite.name.clone(),
                    name: case.name.clone(),
                    declared: case.state,
                    outcome: result.map(|r| r.outcome),
                    diagnostics: result
                        .map(|r| {
                            // Only a failed case has failed assertions to look for.
                            let assertions = load
                                .filter(|_| r.outcome == Outcome::Fail)
                                .map(|l| l.failed_assertions(&suite.name, &case.name))
                                .unwrap_or_default();
                            with_assertions(&r.diagnostics, assertions)
                        })
                        .unwrap_or_default(),
                    reports: log
                        .events
                        .iter()
                        .filter(|e| here(&e.during) && e.kind != Kind::Dropped)
                        .map(|e| e.summary())
                        .collect(),
                    report_texts: log
                        .events
                        .iter()
                        .filter(|e| here(&e.during) && e.kind != Kind::Dropped)
                        .map(|e| e.text())
                        .collect(),
                    hung: hang.filter(|h| here(&h.during)).map(|h| h.reason.clone()),
                });
            }
        }
    }
    found
}

/// KUnit's diagnostics for a case, each failed assertion's `FAILED at` line followed by the
/// assertion's lines the console showed after it (which are no `# ` diagnostics).
fn with_assertions(diagnostics: &[String], mut assertions: Vec<Assertion>) -> Vec<String> {
    let mut all = Vec::new();
    for diagnostic in diagnostics {
        all.push(diagnostic.clone());
        if let Some(i) = assertions.iter().position(|a| &a.at == diagnostic) {
            all.extend(assertions.remove(i).lines);
        }
    }
    all
}

/// The problems of `cases` in `cell`, each named.
pub fn case_problems(cases: &[Case], cell: &str, console: &Path) -> Vec<String> {
    cases
        .iter()
        .filter(|c| !c.ok())
        .zip(headlines(cases, cell, console))
        .map(|(c, problem)| problem + &quoted(&failure_details(c)) + &quoted(&c.report_texts))
        .collect()
}

/// What KUnit said of a case that failed by its result, besides the line its problem names:
/// the failed assertion's lines, the other diagnostics.
fn failure_details(case: &Case) -> Vec<String> {
    if case.hung.is_some() || case.outcome != Some(Outcome::Fail) {
        return Vec::new();
    }
    let telling = case.telling();
    case.diagnostics
        .iter()
        .filter(|d| Some(d.as_str()) != telling)
        .cloned()
        .collect()
}

/// The kernel's reports whole, each line quoted under the problem that names them.
fn quoted(texts: &[String]) -> String {
    texts
        .iter()
        .flat_map(|t| t.lines())
        .map(|l| format!("\n    | {l}"))
        .collect()
}

/// The one-line problem of each case that is not as it must be.
fn headlines<'a>(
    cases: &'a [Case],
    cell: &'a str,
    console: &'a Path,
) -> impl Iterator<Item = String> + 'a {
    let console = console.display();
    let hung = cases.iter().find(|c| c.hung.is_some());
    cases
        .iter()
        .filter(|c| !c.ok())
        .map(move |c| {
            let id = c.id();
            if let Some(why) = &c.hung {
                return format!("{cell}: {id} HUNG: {why} (see {console})");
            }
            match (c.outcome, c.declared) {
                // No result, but the kernel reported trouble while it ran: it took the kernel
                // down with it (a panic on UML, where `BUG()` panics the kernel).
                (None, _) if !c.reports.is_empty() => format!(
                    "{cell}: {id} FAILED: the kernel stopped while it ran: {} (see {console})",
                    c.reports.join("; ")
                ),
                (None, _) => match hung {
                    Some(h) => format!(
                        "{cell}: {id} did not run: the run stopped when {} hung (see {console})",
                        h.id()
                    ),
                    None => format!("{cell}: {id} did not run (see {console})"),
                },
                (Some(Outcome::Pass), State::CfgOff | State::Ignored) => format!(
                    "{cell}: {id} passed, but it is {}: it must be reported skipped (see {console})",
                    if c.declared == State::CfgOff {
                        "compiled out by its #[cfg]"
                    } else {
                        "#[ignore]d"
                    }
                ),
                (Some(Outcome::Pass), State::Runs) => format!(
                    "{cell}: {id} passed, but the kernel reported trouble while it ran: {} (see {console})",
                    c.reports.join("; ")
                ),
                _ => format!(
                    "{cell}: {id} FAILED{} (see {console})",
                    c.telling().map(|d| format!(": {d}")).unwrap_or_default()
                ),
            }
        })
}

/// The kernel's reports that belong to no declared case (a module's init, the boot, a C
/// suite), each a problem; lost log lines too.
pub fn event_problems(log: &Log, cases: &[Case], cell: &str, console: &Path) -> Vec<String> {
    let console = console.display();
    let belongs = |event: &Event| {
        event.kind != Kind::Dropped
            && cases.iter().any(|c| {
                event.during.module.as_deref() == Some(c.module.as_str())
                    && event.during.suite.as_deref() == Some(c.suite.as_str())
            })
    };
    log.events
        .iter()
        .filter(|e| !belongs(e))
        .map(|e| {
            let place = match (&e.during.module, &e.during.suite) {
                (Some(m), Some(s)) => format!("in {m}'s suite {s}"),
                (Some(m), None) => format!("while {m} loaded or unloaded"),
                (None, _) => "during the boot".to_string(),
            };
            if e.kind == Kind::Dropped {
                format!(
                    "{cell}: the kernel lost log lines {place} (`{}`): results may be missing (see {console})",
                    e.headline
                )
            } else {
                format!(
                    "{cell}: kernel {}{} {place}: {} (see {console}){}",
                    e.kind.name(),
                    e.location
                        .as_ref()
                        .map(|l| format!(" at {l}"))
                        .unwrap_or_default(),
                    e.summary(),
                    quoted(&[e.text()])
                )
            }
        })
        .collect()
}

/// The problems of the modules' loads: a module that did not load (with the errno and what
/// the kernel said) and a guest that never reached its end.
pub fn load_problems(log: &Log, kos: &[PathBuf], cell: &str, console: &Path) -> Vec<String> {
    let console = console.display();
    let mut problems = Vec::new();
    for ko in kos {
        let name = ko.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        match log.loads.iter().find(|l| l.module == name) {
            Some(load) if load.insmod == Some(Ok(())) => {}
            Some(load) => {
                let said: Vec<&str> = load
                    .lines
                    .iter()
                    .map(String::as_str)
                    .filter(|l| !l.trim().is_empty() && !l.starts_with("KTAP"))
                    .rev()
                    .take(3)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                let why = match load.insmod {
                    Some(Err(errno)) => format!(
                        "insmod failed with error {errno} ({})",
                        // Linux's errno numbers are the same on the host and on every guest
                        // architecture of the matrix (asm-generic/errno*.h).
                        std::io::Error::from_raw_os_error(errno as i32)
                            .to_string()
                            .split(" (os error")
                            .next()
                            .unwrap_or_default()
                    ),
                    _ => "its init never returned".to_string(),
                };
                problems.push(format!(
                    "{cell}: {name} did not load: {why}{} (see {console})",
                    if said.is_empty() {
                        String::new()
                    } else {
                        format!("; the kernel said: {}", said.join(" | "))
                    }
                ));
            }
            None => problems.push(format!(
                "{cell}: {name} was never loaded: the guest stopped before it (see {console})"
            )),
        }
    }
    problems
}

/// What `kunit.py parse` said of a KTAP document.
pub struct Parsed {
    /// Whether it exited with success: every case passed or was skipped.
    pub passed: bool,
    /// Its `Testing complete. Ran N tests: ...` line; empty if it never got there.
    pub verdict: String,
    /// All it printed.
    pub output: String,
}

/// The Python that `python3` on `PATH` starts, asked once per process: where `python3` is a
/// version manager's shim (pyenv, asdf), each start through it runs a shell script and the
/// manager first, 60 ms of CPU here, for each of a run's cells. `python3` itself if it cannot
/// say.
fn python() -> String {
    crate::infra::command::output_once(
        Command::new("python3").args(["-c", "import sys; print(sys.executable)"]),
    )
    .map(|path| path.trim().to_string())
    .filter(|path| !path.is_empty())
    .unwrap_or_else(|| "python3".to_string())
}

/// Runs the kernel tree `source`'s `tools/testing/kunit/kunit.py parse` on the KTAP document
/// `ktap` (its lines, given on its standard input).
pub fn kunit_py_parse(source: &Path, ktap: &[String]) -> Result<Parsed> {
    crate::kernel::source::verify_executed(source)?;
    let mut child = Command::new(python())
        .arg(source.join("tools/testing/kunit/kunit.py"))
        .arg("parse")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| anyhow::anyhow!("cannot run python3 for kunit.py: {e}"))?;
    // Fed from a thread of its own: a document larger than a pipe cannot block its output.
    let mut input = child.stdin.take().expect("piped");
    let text = ktap.join("\n") + "\n";
    let feeder = std::thread::spawn(move || input.write_all(text.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| anyhow::anyhow!("cannot run python3 for kunit.py: {e}"))?;
    let _ = feeder.join();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::console;

    const CONSOLE: &str = "\
kernel-core-init: begin mydrv.ko
KTAP version 1
1..1
    KTAP version 1
    # Subtest: mydrv_logic
    # module: mydrv
    1..4
    ok 1 adds
    # checks: ASSERTION FAILED at logic.rs:20
    Expected a == b to be true, but is false

left: 1, right: 2
    not ok 2 checks
    ok 3 later # SKIP ignored
    ok 4 warns
not ok 1 mydrv_logic
kernel-core-init: insmod mydrv.ko: ok
kernel-core-init: done
";

    fn declared() -> Vec<Declared> {
        vec![(
            "mydrv.ko".to_string(),
            crate::model::declared::parse(
                b"suite mydrv_logic\ncase mydrv_logic adds r\ncase mydrv_logic checks r\n\
                  case mydrv_logic later i\ncase mydrv_logic warns r\ncase mydrv_logic missing r\n",
            )
            .unwrap(),
        )]
    }

    #[test]
    fn every_case_is_found_with_its_outcome_and_diagnostics() {
        let log = console::parse(CONSOLE);
        let cases = cases(&log, &declared(), None);
        let outcomes: Vec<_> = cases.iter().map(|c| (c.name.as_str(), c.outcome)).collect();
        assert_eq!(
            outcomes,
            [
                ("adds", Some(Outcome::Pass)),
                ("checks", Some(Outcome::Fail)),
                ("later", Some(Outcome::Skip)),
                ("warns", Some(Outcome::Pass)),
                ("missing", None),
            ]
        );
        assert_eq!(
            cases[1].diagnostics,
            [
                "checks: ASSERTION FAILED at logic.rs:20",
                "Expected a == b to be true, but is false",
                "left: 1, right: 2"
            ]
        );
        let problems = case_problems(&cases, "7.3.4/x86_64", Path::new("console.log"));
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert_eq!(
            problems[0],
            "7.3.4/x86_64: mydrv_logic::checks FAILED: checks: ASSERTION FAILED at logic.rs:20 \
             (see console.log)\n    | Expected a == b to be true, but is false\n    \
             | left: 1, right: 2"
        );
        assert!(problems[1].contains("mydrv_logic::missing did not run"));
    }

    #[test]
    fn a_warn_fails_the_case_it_happened_in() {
        let text = CONSOLE.replace(
            "    ok 4 warns\n",
            "WARNING: src/lib.rs:9 at mydrv::f+0x1/0x2, CPU#0: kunit_try_catch/9\n\
             ---[ end trace 0000000000000000 ]---\n    ok 4 warns\n",
        );
        let log = console::parse(&text);
        let cases = cases(&log, &declared(), None);
        assert!(!cases[3].ok());
        let problems = case_problems(&cases, "c", Path::new("console.log"));
        assert!(
            problems
                .iter()
                .any(|p| p.contains("warns passed, but the kernel reported")
                    && p.contains("src/lib.rs:9")),
            "{problems:?}"
        );
        assert!(event_problems(&log, &cases, "c", Path::new("x")).is_empty());
    }

    #[test]
    fn a_case_that_takes_the_kernel_down_failed() {
        // UML: a Rust panic is `BUG()`, which panics the whole kernel, so no KTAP result
        // follows the case that panicked.
        let text = CONSOLE.replace(
            "    ok 4 warns\nnot ok 1 mydrv_logic\nkernel-core-init: insmod mydrv.ko: ok\nkernel-core-init: done\n",
            "rust_kernel: panicked at src/lib.rs:31:52:\ncalled `Option::unwrap()` on a `None` value\n\
             BUG: failure at rust/helpers/bug.c:7/rust_helper_BUG()!\nKernel panic - not syncing: BUG!\n",
        );
        let log = console::parse(&text);
        let cases = cases(&log, &declared(), None);
        assert_eq!(cases[3].outcome, None);
        let problems = case_problems(&cases, "7.3.4/um", Path::new("console.log"));
        assert!(
            problems.iter().any(|p| p
                .starts_with("7.3.4/um: mydrv_logic::warns FAILED: the kernel stopped")
                && p.contains("panicked at src/lib.rs:31:52")),
            "{problems:?}"
        );
        assert!(problems
            .iter()
            .any(|p| p.contains("mydrv_logic::missing did not run")));
    }

    #[test]
    fn loads_that_failed_name_the_errno_and_what_the_kernel_said() {
        let log = console::parse(
            "kernel-core-init: begin m.ko\nm: Unknown symbol foo (err -2)\n\
             kernel-core-init: insmod m.ko: error 2\nkernel-core-init: done\n",
        );
        let problems = load_problems(&log, &[PathBuf::from("m.ko")], "c", Path::new("x"));
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].contains("error 2 (No such file or directory)")
                && problems[0].contains("Unknown symbol foo"),
            "{}",
            problems[0]
        );
    }
}
