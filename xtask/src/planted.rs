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

use cargo_kernel_core::kernel::upstream;
use cargo_kernel_core::model::arch::{Arch, Kernel};
use cargo_kernel_core::model::report::PlanReport;

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
        }
    }
}

/// What a cell's kernel can catch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Claims {
    pub kasan: bool,
    pub kfence: bool,
    pub lockdep: bool,
    pub atomic_sleep: bool,
    pub smp: bool,
    pub big_endian: bool,
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

/// Every planted bug, in the fixture's order.
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
        caught_by: |c| c.smp.then_some(Detector::Smp),
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
    }
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

/// The table of what each required cell catches, as the README shows it: a row per cell, a
/// column per planted bug (the cases no cell catches, which only set a bug up, left out).
#[cfg(test)]
pub fn table() -> String {
    let cells = cargo_kernel_core::model::arch::required();
    let bugs: Vec<&Bug> = BUGS
        .iter()
        .filter(|b| {
            cells
                .iter()
                .any(|(k, a)| (b.caught_by)(&claims(k, a)).is_some())
        })
        .collect();
    let header: Vec<String> = std::iter::once("cell".to_string())
        .chain(bugs.iter().map(|b| format!("`{}`", b.case)))
        .collect();
    let mut table = cargo_kernel_core::infra::table::Table::new(&header);
    for (kernel, arch) in &cells {
        let claims = claims(kernel, arch);
        let row: Vec<String> =
            std::iter::once(format!("{}/{}", kernel.name, arch.name))
                .chain(bugs.iter().map(|b| {
                    (b.caught_by)(&claims).map_or("-".to_string(), |d| d.name().to_string())
                }))
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
