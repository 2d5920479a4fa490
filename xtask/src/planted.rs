// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The planted bugs (`kbuild/fixtures/planted_bugs.rs`): the one list of the bugs, of what each
//! cell claims to catch, and the judge that holds every cell to its claims.
//!
//! A cell's claims come from what its kernel is: for the kernels built here, the
//! configuration fragments (which every build checks survived `olddefconfig`); for a
//! distribution's stock kernel, what its row declares below. The judge fails a cell where a
//! claimed detector missed its bug, where a bug failed a case that nothing should have caught,
//! or where the failure does not name the detector. The same claims make the table in
//! `cargo-kernel-core/README.md`, which a test keeps equal to them.
//!
//! The host is judged the same way ([`host`]): its twin fixture (`kbuild/fixtures/planted_host`)
//! plants the bugs that kernel-core's host detectors catch, under the kernel fixture's case
//! names (and two bugs that only the host catches: an unchecked allocation failure, a leaked
//! `KBox`), and runs through `cargo kernel-core test --fail-each-alloc --model`'s host step,
//! whose problems name the detector in the very words a cell's do (the unlocked counter, which
//! a cell's CPUs race on, is the model checker's there); the table's `host` column is
//! [`host_claims`].

use cargo_kernel_core::infra::error::Result;
use cargo_kernel_core::kernel::upstream;
use cargo_kernel_core::model::arch::{Arch, Kernel};
use cargo_kernel_core::model::report::PlanReport;
use cargo_kernel_core::pipeline::host::{self as host_suites, Harness, Options, Suites};
use std::path::Path;

/// What catches a planted bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detector {
    Kasan,
    Kfence,
    Lockdep,
    /// `DEBUG_ATOMIC_SLEEP`, or the scheduler's "scheduling while atomic" (preemption
    /// counting), or on `PREEMPT_RT` RCU's warning of a switch inside the read-side section a
    /// `spinlock_t` holds there.
    AtomicSleep,
    /// The case's own assertion, on two CPUs or more.
    Smp,
    /// The case's own assertion, on a big-endian CPU.
    BigEndian,
    /// The host's fault injection, in `--fail-each-alloc`'s rounds.
    FaultInjection,
    /// kmemleak: the host's, at the end of a test's scope.
    Kmemleak,
    /// The host's model checker (`kernel_core::extras::model`, `--model`): an interleaving of
    /// a test's threads that fails.
    ModelChecker,
}

impl Detector {
    /// Its name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Detector::Kasan => "KASAN",
            Detector::Kfence => "KFENCE",
            Detector::Lockdep => "lockdep",
            Detector::AtomicSleep => "atomic sleep",
            Detector::Smp => "SMP",
            Detector::BigEndian => "big-endian",
            Detector::FaultInjection => "fault injection",
            Detector::Kmemleak => "kmemleak",
            Detector::ModelChecker => "model checker",
        }
    }

    /// What the runner's failure of the case says when this detector caught it: the report's
    /// own words (see the runner's `model::console`), or the case's assertion.
    fn named_in(self, problem: &str) -> bool {
        match self {
            Detector::Kasan => problem.contains("BUG: KASAN: "),
            Detector::Kfence => problem.contains("BUG: KFENCE: "),
            Detector::Lockdep => {
                problem.contains("lockdep: WARNING: possible circular locking dependency")
            }
            // On PREEMPT_RT a `spinlock_t` sleeps but holds an RCU read-side section, so RCU
            // warns of a voluntary switch inside it.
            Detector::AtomicSleep => {
                problem.contains("atomic-sleep check: BUG: ")
                    || problem.contains(" at rcu_note_context_switch+")
            }
            Detector::Smp | Detector::BigEndian => problem.contains(" FAILED"),
            // Only in the round that failed the allocation.
            Detector::FaultInjection => {
                problem.contains("fault injection: FAULT_INJECTION: forcing a failure.")
                    && problem.contains("(its allocation ")
            }
            Detector::Kmemleak => problem.contains("kmemleak: unreferenced object 0x"),
            Detector::ModelChecker => {
                problem.contains(" FAILED: BUG: model checker: interleaving ")
            }
        }
    }
}

/// What a cell's kernel (or the host, [`host_claims`]) can catch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Claims {
    pub kasan: bool,
    pub kfence: bool,
    pub lockdep: bool,
    pub atomic_sleep: bool,
    pub smp: bool,
    pub big_endian: bool,
    /// Fault injection of every allocation in turn (the host's `--fail-each-alloc`).
    pub fault_injection: bool,
    /// kmemleak's report of what a case left allocated (the host's, at a case's end).
    pub kmemleak: bool,
    /// Every interleaving of a case's threads, explored (the host's `--model`).
    pub model_checker: bool,
}

/// One planted bug: its case, and what catches it given a cell's claims.
pub struct Bug {
    pub suite: &'static str,
    pub case: &'static str,
    pub bug: &'static str,
    pub caught_by: fn(&Claims) -> Option<Detector>,
}

/// The heap bugs' detector: KASAN where it is, else KFENCE.
fn heap(claims: &Claims) -> Option<Detector> {
    if claims.kasan {
        Some(Detector::Kasan)
    } else if claims.kfence {
        Some(Detector::Kfence)
    } else {
        None
    }
}

/// The suites of the fixture.
const SUITE: &str = "kernel_core_planted_bugs";
const BYTE_ORDER: &str = "kernel_core_byte_order_bug";

/// Every planted bug, in the fixture's order (the host's alone last).
pub const BUGS: &[Bug] = &[
    Bug {
        suite: SUITE,
        case: "lock_order_a_then_b",
        bug: "two mutexes, A then B (the first half of an AB-BA)",
        caught_by: |_| None,
    },
    Bug {
        suite: SUITE,
        case: "lock_order_b_then_a",
        bug: "the same two mutexes, B then A",
        caught_by: |c| c.lockdep.then_some(Detector::Lockdep),
    },
    Bug {
        suite: SUITE,
        case: "unlocked_shared_counter",
        bug: "a counter updated without a lock from every CPU at once",
        // A cell's CPUs race on it; the host explores its threads' interleavings.
        caught_by: |c| {
            if c.smp {
                Some(Detector::Smp)
            } else {
                c.model_checker.then_some(Detector::ModelChecker)
            }
        },
    },
    Bug {
        suite: SUITE,
        case: "sleep_under_spinlock",
        bug: "`msleep()` with a spinlock held",
        caught_by: |c| c.atomic_sleep.then_some(Detector::AtomicSleep),
    },
    Bug {
        suite: SUITE,
        case: "heap_out_of_bounds_write",
        bug: "a write one byte past a 13-byte heap object",
        caught_by: heap,
    },
    Bug {
        suite: SUITE,
        case: "use_after_free",
        bug: "a read of a freed heap object",
        caught_by: heap,
    },
    Bug {
        suite: BYTE_ORDER,
        case: "a_little_endian_register_through_mmio",
        bug: "none: the register read through `Mmio`",
        caught_by: |_| None,
    },
    Bug {
        suite: BYTE_ORDER,
        case: "b_the_same_register_in_the_cpu_s_order",
        bug: "a little-endian device register read in the CPU's byte order",
        caught_by: |c| c.big_endian.then_some(Detector::BigEndian),
    },
    // The host fixture's alone: no kernel of the matrix catches them.
    Bug {
        suite: SUITE,
        case: "unchecked_allocation_failure",
        bug: "a `KVec::push` whose failure is ignored, then an index that assumed it succeeded",
        caught_by: |c| c.fault_injection.then_some(Detector::FaultInjection),
    },
    Bug {
        suite: SUITE,
        case: "leaked_kbox",
        bug: "a `KBox` that the driver's remove path never frees",
        caught_by: |c| c.kmemleak.then_some(Detector::Kmemleak),
    },
];

/// The architectures whose CPUs are big-endian and whose machines have a little-endian device
/// register to read: ppc32 (s390, big-endian too, has no memory-mapped device; its host runs
/// under qemu-user hold the same check over memory).
const BIG_ENDIAN: &[&str] = &["ppc32"];

/// What the cell of `kernel` on `arch` claims to catch.
pub fn claims(kernel: &Kernel, arch: &Arch) -> Claims {
    let big_endian = BIG_ENDIAN.contains(&arch.name);
    if kernel.stock.is_some() {
        // Debian's kernels (checked against their .config, 7.3.4): KFENCE built in, which the
        // runner turns on (`kfence.sample_interval=100`); preemption counting, so the
        // scheduler reports scheduling while atomic (on PREEMPT_RT, where a spinlock sleeps,
        // RCU reports the switch inside the lock's read-side section); SMP, booted on two
        // CPUs; no KASAN, no lockdep, no DEBUG_ATOMIC_SLEEP.
        return Claims {
            kasan: false,
            kfence: true,
            lockdep: false,
            atomic_sleep: true,
            smp: true,
            big_endian,
            fault_injection: false,
            kmemleak: false,
            model_checker: false,
        };
    }
    let config: String = upstream::fragments(kernel, arch)
        .iter()
        .map(|f| f.text.as_str())
        .collect();
    let has = |option: &str| config.lines().any(|l| l == format!("{option}=y"));
    Claims {
        kasan: has("CONFIG_KASAN"),
        kfence: has("CONFIG_KFENCE"),
        lockdep: has("CONFIG_PROVE_LOCKING"),
        atomic_sleep: has("CONFIG_DEBUG_ATOMIC_SLEEP"),
        smp: has("CONFIG_SMP"),
        big_endian,
        // No kernel of the matrix injects faults into every allocation in turn, nor scans
        // for leaks after each case, nor explores interleavings.
        fault_injection: false,
        kmemleak: false,
        model_checker: false,
    }
}

/// What kernel-core's host detectors catch, in `cargo test` and `cargo nextest run`: lock
/// order (lockdep's cycle, across tests and nextest's processes), sleeping in atomic context,
/// an allocation failure not handled (under `--fail-each-alloc`), a leak, and a race that
/// loses an update (under `--model`: kernel-core's model checker explores the interleavings of
/// the case's threads); the heap, SMP and byte-order bugs are the cells' alone.
pub fn host_claims() -> Claims {
    Claims {
        lockdep: true,
        atomic_sleep: true,
        fault_injection: true,
        kmemleak: true,
        model_checker: true,
        ..Claims::default()
    }
}

/// The host's fixture: a driver's library whose suite plants the bugs of [`host_claims`].
const HOST_FIXTURE: &str = "kbuild/fixtures/planted_host";

/// The planted bugs on the host, judged as a cell's: the fixture's suite run by each harness
/// (nextest, each test in a process of its own; `cargo test`, the tests on threads of one
/// process), one test at a time, as KUnit runs a suite, with kernel-core's model checker
/// (`--model`), then each test again once per allocation it made, failing each in turn
/// (`--fail-each-alloc`): each bug must be caught by
/// the detector [`host_claims`] names, in its words (the unchecked allocation failure in the
/// fault mode's rounds), and nothing else may fail; with the feature `fixed` (the bugs
/// removed), every case must pass, in every round.
pub fn host(repo: &Path) -> Result {
    let dir = repo.join(HOST_FIXTURE);
    let target = repo.join("target/planted-host");
    let claims = host_claims();
    let options = Options {
        fail_each_alloc: true,
        allow_leaks: Vec::new(),
        model: true,
    };
    let mut wrong = Vec::new();
    for harness in [Harness::Nextest, Harness::CargoTest] {
        for fixed in [false, true] {
            let mut args = vec!["--target-dir".to_string(), target.display().to_string()];
            if fixed {
                args.extend(["--features".to_string(), "fixed".to_string()]);
            }
            let outcome = host_suites::run(&Suites {
                dir: &dir,
                target_dir: &target,
                harness,
                cargo_args: &args,
                test_threads: Some(1),
                echo: false,
                judged: !fixed,
                options: &options,
            })?;
            let report = &outcome.report;
            let run = format!(
                "{} ({}{})",
                report.name,
                harness.name(),
                if fixed { ", bugs removed" } else { "" }
            );
            if report.cases.is_empty() {
                wrong.push(format!(
                    "{run}: no case ran: {}",
                    report.problems.join(" | ")
                ));
            } else if fixed {
                wrong.extend(
                    report
                        .problems
                        .iter()
                        .map(|p| format!("{run}: failed without its bug: {p}")),
                );
            } else {
                wrong.extend(
                    judge(&claims, report)
                        .into_iter()
                        .map(|p| format!("{run}: {p}")),
                );
            }
            match &outcome.rounds {
                Some(rounds) if !rounds.rounds.is_empty() => {}
                _ => wrong.push(format!("{run}: --fail-each-alloc ran no round")),
            }
        }
    }
    if !wrong.is_empty() {
        anyhow::bail!(
            "the planted bugs on the host: {} problem(s):\n  {}",
            wrong.len(),
            wrong.join("\n  ")
        );
    }
    Ok(())
}

/// What is wrong with `report`, the planted-bugs plan of a cell with `claims`: every bug
/// caught exactly by its detector, named in the failure, and nothing else failed.
pub fn judge(claims: &Claims, report: &PlanReport) -> Vec<String> {
    let mut wrong = Vec::new();
    let mut explained = vec![false; report.problems.len()];
    for bug in BUGS {
        let id = format!("{}::{} ", bug.suite, bug.case);
        let problem = report.problems.iter().position(|p| p.contains(&id));
        match ((bug.caught_by)(claims), problem) {
            (Some(detector), Some(i)) => {
                explained[i] = true;
                if !detector.named_in(&report.problems[i]) {
                    wrong.push(format!(
                        "{}: {} failed, but not by {} as claimed: {}",
                        report.name,
                        bug.case,
                        detector.name(),
                        report.problems[i]
                    ));
                }
            }
            (Some(detector), None) => wrong.push(format!(
                "{}: {} claims {} catches {} ({}), but the case passed",
                report.name,
                cell_of(report),
                detector.name(),
                bug.case,
                bug.bug
            )),
            (None, Some(i)) => {
                explained[i] = true;
                wrong.push(format!(
                    "{}: {} failed where nothing claims to catch it: {}",
                    report.name, bug.case, report.problems[i]
                ));
            }
            (None, None) => {}
        }
    }
    for (problem, explained) in report.problems.iter().zip(explained) {
        if !explained {
            wrong.push(format!("{}: unexpected: {problem}", report.name));
        }
    }
    if wrong.is_empty() {
        let caught: Vec<String> = BUGS
            .iter()
            .filter_map(|b| (b.caught_by)(claims).map(|d| format!("{} by {}", b.case, d.name())))
            .collect();
        cargo_kernel_core::note!(
            "    planted bugs caught as claimed: {}",
            if caught.is_empty() {
                "none claimed".to_string()
            } else {
                caught.join(", ")
            }
        );
    }
    wrong
}

/// The cell a plan report is of, from its first problem or its directory.
fn cell_of(report: &PlanReport) -> String {
    report
        .problems
        .first()
        .and_then(|p| p.split(": ").next())
        .map_or_else(|| report.dir.display().to_string(), str::to_string)
}

/// The table of what catches each planted bug, as the README shows it: a row per bug (the
/// cases no cell or host catches, which only set a bug up, left out), a column for the host
/// and one per required cell.
#[cfg(test)]
pub fn table() -> String {
    let cells = cargo_kernel_core::model::arch::required();
    let mut columns: Vec<(String, Claims)> = vec![("host".to_string(), host_claims())];
    columns.extend(
        cells
            .iter()
            .map(|(k, a)| (format!("{}/{}", k.name, a.name), claims(k, a))),
    );
    let header: Vec<String> = std::iter::once("planted bug".to_string())
        .chain(columns.iter().map(|(name, _)| name.clone()))
        .collect();
    let mut table = cargo_kernel_core::infra::table::Table::new(&header);
    for bug in BUGS {
        let caught: Vec<String> = columns
            .iter()
            .map(|(_, claims)| {
                (bug.caught_by)(claims).map_or("-".to_string(), |d| d.name().to_string())
            })
            .collect();
        if caught.iter().all(|c| c == "-") {
            continue;
        }
        let row: Vec<String> = std::iter::once(format!("`{}`", bug.case))
            .chain(caught)
            .collect();
        table.row(&row);
    }
    table.text().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cargo_kernel_core::model::arch::{arch, kernel};

    #[test]
    fn the_cells_claim_what_their_kernels_have() {
        let x86 = claims(&kernel("7.3").unwrap(), &arch("x86_64").unwrap());
        assert!(x86.kasan && x86.kfence && x86.lockdep && x86.atomic_sleep && x86.smp);
        let um = claims(&kernel("6.12").unwrap(), &arch("um").unwrap());
        assert!(!um.kasan && !um.lockdep && !um.smp && um.atomic_sleep);
        let rt = claims(&kernel("debian-7.3-rt").unwrap(), &arch("x86_64").unwrap());
        assert!(rt.kfence && rt.atomic_sleep && rt.smp && !rt.lockdep);
        assert!(claims(&kernel("7.3").unwrap(), &arch("ppc32").unwrap()).big_endian);
        let host = host_claims();
        assert!(host.lockdep && host.atomic_sleep && host.fault_injection && host.kmemleak);
        assert!(host.model_checker);
        assert!(!host.kasan && !host.kfence && !host.smp && !host.big_endian);
        assert!(!x86.fault_injection && !x86.kmemleak && !rt.kmemleak);
        assert!(!x86.model_checker && !um.model_checker);
    }

    #[test]
    fn the_host_s_failures_name_their_detectors_as_a_cell_s_do() {
        let problem = |case: &str, what: &str| {
            format!("host: kernel_core_planted_bugs::{case} FAILED: {what} (see host.log)")
        };
        let report = PlanReport {
            name: "planted_host".into(),
            cases: Vec::new(),
            problems: vec![
                problem(
                    "lock_order_b_then_a",
                    "lockdep: WARNING: possible circular locking dependency detected",
                ),
                problem(
                    "sleep_under_spinlock",
                    "atomic-sleep check: BUG: sleeping function called from invalid context at src/lib.rs:9",
                ),
                problem(
                    "unchecked_allocation_failure",
                    "fault injection: FAULT_INJECTION: forcing a failure. (its allocation 2 failed)",
                ),
                problem(
                    "leaked_kbox",
                    "kmemleak: unreferenced object 0x5555 (size 64):",
                ),
                problem(
                    "unlocked_shared_counter",
                    "BUG: model checker: interleaving 2 fails: assertion `left == right` failed: a packet was not counted",
                ),
            ],
            warnings: Vec::new(),
            dir: "/t".into(),
            boot_seconds: Some(1.0),
        };
        assert_eq!(judge(&host_claims(), &report), Vec::<String>::new());
        // A bug the host claims that passed, and one that failed in the wrong case.
        let report = PlanReport {
            problems: vec![problem(
                "lock_order_a_then_b",
                "lockdep: WARNING: possible circular locking dependency detected",
            )],
            ..report
        };
        let wrong = judge(&host_claims(), &report);
        assert_eq!(wrong.len(), 6, "{wrong:?}");
        // The allocation failure caught outside the fault mode's rounds is not as claimed.
        let report = PlanReport {
            problems: vec![problem(
                "unchecked_allocation_failure",
                "fault injection: FAULT_INJECTION: forcing a failure.",
            )],
            ..report
        };
        let wrong = judge(&host_claims(), &report);
        assert!(
            wrong.iter().any(|w| w.contains(
                "unchecked_allocation_failure failed, but not by fault injection as claimed"
            )),
            "{wrong:?}"
        );
    }

    #[test]
    fn the_host_fixture_has_each_case_the_host_claims() {
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(HOST_FIXTURE)
            .join("src/lib.rs");
        let text = std::fs::read_to_string(&fixture).unwrap();
        assert!(text.contains(&format!("kunit_tests({SUITE})")));
        let host = host_claims();
        for bug in BUGS.iter().filter(|b| (b.caught_by)(&host).is_some()) {
            assert!(
                text.contains(&format!("    fn {}() -> Result {{", bug.case)),
                "{} lacks {}",
                fixture.display(),
                bug.case
            );
        }
    }

    #[test]
    fn the_readme_shows_the_claims() {
        let readme =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../cargo-kernel-core/README.md");
        let text = std::fs::read_to_string(&readme).unwrap();
        assert!(
            text.contains(&table()),
            "{} lacks the planted bugs' table; it is:\n{}",
            readme.display(),
            table()
        );
    }
}
