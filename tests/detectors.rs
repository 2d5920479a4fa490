// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: the bug detectors behind kernel-core's `sync` and `alloc`
//! ([`kernel_core::extras::detectors`]), each with the bug planted (the report is expected,
//! in the kernel's words, with the places it must name) and with the bug removed (nothing is
//! reported):
//!
//! - lock order, as lockdep checks it: an AB-BA in one thread, across threads, across two
//!   tests of this binary (`cargo test` runs them on threads of one process; `cargo nextest`
//!   in processes of their own, whose edges meet in the run's directory), and across two
//!   processes of one run that this test starts itself, so that the cross-process graph is
//!   proven whichever runner runs it; a longer cycle; recursive locking;
//! - sleeping in atomic context: `fsleep()`, `Mutex::lock()`, `CondVar::wait*()`, a
//!   `Completion` wait, `read_poll_timeout()` and a `GFP_KERNEL` allocation under a `SpinLock`
//!   (or a `SpinLockIrq`), and the same checks as a `PREEMPT_RT` kernel makes them; what may
//!   not sleep (`udelay()`, `read_poll_timeout_atomic()`, `GFP_ATOMIC`, `GFP_NOWAIT`) is fine
//!   there.
//!
//! Every lock of a test here is made in that test (`new_mutex!` and friends give a class per
//! call site): a cycle that one test closes on purpose stays in the run's graph, and must not
//! reach another test's classes.
//!
//! Without the detectors (`KERNEL_CORE_DETECTORS=off`) the planted bugs are not reported, and
//! those that would deadlock are not run.

use std::path::PathBuf;
#[cfg(not(miri))] // Miri starts no process.
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use kernel_core::alloc::flags::{GFP_ATOMIC, GFP_KERNEL, GFP_NOWAIT};
use kernel_core::extras::detectors::{self, Detector, Report};
use kernel_core::prelude::*;
use kernel_core::sync::{
    new_condvar, new_mutex, new_spinlock, new_spinlock_irq, Completion, Mutex, SpinLock,
};
use kernel_core::time::{delay::fsleep, Delta};
use pin_init::stack_pin_init;

/// `file:line` of this file, as the reports name the places in it (followed by `:column`
/// where they name where a lock was taken).
fn here(line: u32) -> String {
    format!("{}:{line}", file!())
}

/// The report `f` must fail with, from `detector`; `None` without the detectors (and then `f`
/// must have passed).
fn expect(detector: Detector, f: impl FnOnce()) -> Option<Report> {
    let found = detectors::catch(f);
    if !detectors::enabled() {
        assert!(found.is_ok(), "no report without the detectors");
        return None;
    }
    let report = found.expect_err("the planted bug must be reported");
    assert_eq!(report.detector(), detector, "{report}");
    assert!(report.text().starts_with(detector.title()), "{report}");
    Some(report)
}

/// Asserts that `report` names each of `places` (`file:line`) as where a lock was taken
/// (`file:line:column`).
fn names(report: &Report, places: &[String]) {
    for place in places {
        // Followed by the column: `file:7` is no prefix of `file:75`.
        assert!(
            report.text().contains(&format!("{place}:")),
            "the report lacks {place}:\n{report}"
        );
    }
}

// Lock order.

#[test]
fn ab_ba_in_one_thread_is_a_circular_dependency_naming_every_acquisition() {
    stack_pin_init!(let a = new_mutex!(0_u32, "order_one_thread_a"));
    stack_pin_init!(let b = new_mutex!(0_u32, "order_one_thread_b"));
    let (a_first, b_second) = {
        let _a = a.lock();
        let a_line = line!() - 1;
        let _b = b.lock();
        (a_line, line!() - 1)
    };
    let mut lines = (0, 0);
    let report = expect(Detector::CircularLocking, || {
        let _b = b.lock();
        lines.0 = line!() - 1;
        lines.1 = line!() + 1;
        let _a = a.lock();
    });
    let Some(report) = report else { return };
    // The new acquisition, the lock held, and the chain's edge: both its acquisitions.
    names(
        &report,
        &[here(a_first), here(b_second), here(lines.0), here(lines.1)],
    );
    let text = report.text();
    assert!(text.contains("is trying to acquire lock:"), "{text}");
    assert!(text.contains("(order_one_thread_a)"), "{text}");
    assert!(text.contains("but task is already holding lock:"), "{text}");
    assert!(
        text.contains("which lock already depends on the new lock."),
        "{text}"
    );
    assert!(text.contains("-> #1 (order_one_thread_b)"), "{text}");
    assert!(text.contains("-> #0 (order_one_thread_a)"), "{text}");
    assert!(text.contains(" *** DEADLOCK ***"), "{text}");
    // The thread goes on, and holds nothing: the same order again is reported again.
    assert!(detectors::catch(|| {
        let _b = b.lock();
        let _a = a.lock();
    })
    .is_err());
    // The right order still passes.
    let _a = a.lock();
    let _b = b.lock();
}

#[test]
fn a_consistent_order_passes_in_any_thread() {
    stack_pin_init!(let a = new_mutex!(0_u32, "consistent_a"));
    stack_pin_init!(let b = new_spinlock!(0_u32, "consistent_b"));
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..50 {
                    let mut a = a.lock();
                    let mut b = b.lock();
                    *a += 1;
                    *b += 1;
                }
            });
        }
    });
    assert_eq!(*a.lock(), 200);
    // Each alone, in the other order: no nesting, no edge.
    drop(b.lock());
    drop(a.lock());
}

#[test]
fn ab_ba_across_threads_fails_the_thread_that_closes_the_cycle() {
    stack_pin_init!(let a = new_spinlock!((), "threads_a"));
    stack_pin_init!(let b = new_spinlock!((), "threads_b"));
    std::thread::scope(|s| {
        s.spawn(|| {
            let _a = a.lock();
            let _b = b.lock();
        })
        .join()
        .expect("the first order is fine");
        let second = s
            .spawn(|| {
                let _b = b.lock();
                let _a = a.lock();
            })
            .join();
        if !detectors::enabled() {
            assert!(second.is_ok());
            return;
        }
        let payload = second.expect_err("the second order closes the cycle");
        let report = Report::from_panic(payload.as_ref()).expect("a detector's report");
        assert_eq!(report.detector(), Detector::CircularLocking);
        // The edge of the other thread is named with its task.
        assert!(report.text().contains("by "), "{report}");
    });
}

#[test]
fn a_longer_cycle_is_shown_as_a_chain() {
    stack_pin_init!(let a = new_mutex!((), "chain_a"));
    stack_pin_init!(let b = new_mutex!((), "chain_b"));
    stack_pin_init!(let c = new_mutex!((), "chain_c"));
    {
        let _a = a.lock();
        let _b = b.lock();
    }
    {
        let _b = b.lock();
        let _c = c.lock();
    }
    let report = expect(Detector::CircularLocking, || {
        let _c = c.lock();
        let _a = a.lock();
    });
    let Some(report) = report else { return };
    let text = report.text();
    assert!(text.contains("Chain exists of:"), "{text}");
    assert!(text.contains("chain_a --> chain_b --> chain_c"), "{text}");
    assert!(text.contains("-> #2 (chain_c)"), "{text}");
}

/// Two mutexes of one class: made at one call site.
fn same_class() -> impl PinInit<Mutex<u32>> {
    new_mutex!(0_u32, "one_class")
}

#[test]
fn taking_a_class_twice_is_recursive_locking() {
    stack_pin_init!(let first = same_class());
    stack_pin_init!(let second = same_class());
    // One at a time, in any order, is fine.
    drop(first.lock());
    drop(second.lock());
    drop(first.lock());
    let mut lines = (0, 0);
    let report = expect(Detector::RecursiveLocking, || {
        let _first = first.lock();
        lines.0 = line!() - 1;
        lines.1 = line!() + 1;
        let _second = second.lock();
    });
    let Some(report) = report else { return };
    names(&report, &[here(lines.0), here(lines.1)]);
    let text = report.text();
    assert!(text.contains("but task is already holding lock:"), "{text}");
    assert!(
        text.contains("lock(one_class);\n  lock(one_class);"),
        "{text}"
    );
    assert!(
        text.contains("May be due to missing lock nesting notation"),
        "{text}"
    );
}

#[test]
fn try_lock_of_a_held_class_is_no_recursive_locking() {
    stack_pin_init!(let first = same_class());
    stack_pin_init!(let second = same_class());
    let _first = first.lock();
    // A trylock never waits: lockdep checks nothing for it.
    let second = second.try_lock().expect("free");
    drop(second);
}

#[test]
fn the_same_spinlock_twice_is_reported_instead_of_spinning_for_ever() {
    stack_pin_init!(let lock = new_spinlock!(0_u32, "self_deadlock"));
    if !detectors::enabled() {
        return; // It would spin for ever.
    }
    expect(Detector::RecursiveLocking, || {
        let _a = lock.lock();
        let _b = lock.lock();
    });
    // Released by the unwinding.
    assert!(lock.try_lock().is_some());
}

// The two halves of an AB-BA in two tests of this binary, which never deadlocks: the second
// half fails. Under `cargo test` both run on threads of this process; under `cargo nextest`,
// each in its own process of the run, and their edges meet in the run's directory. The second
// half waits for the first (a flag, or under nextest a file of the run) so that the order of
// the halves is known whatever the runner's parallelism.

/// The classes of the split AB-BA: one call site each, shared by the two halves.
fn split_a() -> impl PinInit<Mutex<()>> {
    new_mutex!((), "split_a")
}

/// See [`split_a`].
fn split_b() -> impl PinInit<Mutex<()>> {
    new_mutex!((), "split_b")
}

/// The first half is done, in this process.
static FIRST_HALF_DONE: AtomicBool = AtomicBool::new(false);

/// Under nextest, the file that says the first half is done in this run.
fn first_half_marker() -> Option<PathBuf> {
    let run = std::env::var("NEXTEST_RUN_ID").ok()?;
    Some(std::env::temp_dir().join(format!("kernel-core-tests-split-ab-ba-{run}")))
}

#[test]
fn split_ab_ba_1_first_half_takes_a_then_b() {
    stack_pin_init!(let a = split_a());
    stack_pin_init!(let b = split_b());
    {
        let _a = a.lock();
        let _b = b.lock();
    }
    FIRST_HALF_DONE.store(true, Ordering::SeqCst);
    if let Some(marker) = first_half_marker() {
        std::fs::write(&marker, b"done").unwrap_or_else(|e| panic!("{}: {e}", marker.display()));
    }
}

#[test]
fn split_ab_ba_2_second_half_takes_b_then_a() {
    stack_pin_init!(let a = split_a());
    stack_pin_init!(let b = split_b());
    // Run alone (a filter that left the first half out), there is nothing to find.
    let deadline = Instant::now() + Duration::from_secs(20);
    let marker = first_half_marker();
    while !FIRST_HALF_DONE.load(Ordering::SeqCst) && !marker.as_ref().is_some_and(|m| m.exists()) {
        if Instant::now() > deadline {
            eprintln!("the first half did not run (filtered out?): nothing to check");
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    if let Some(marker) = &marker {
        let _ = std::fs::remove_file(marker);
    }
    let report = expect(Detector::CircularLocking, || {
        let _b = b.lock();
        let _a = a.lock();
    });
    let Some(report) = report else { return };
    // The other half's edge, with its places: `split_a` held at its `a.lock()`.
    assert!(report.text().contains("-> #1 (split_b)"), "{report}");
    assert!(
        report.text().contains("split_ab_ba_1_first_half"),
        "{report}"
    );
}

// The same across two processes of one run, started here: what `cargo nextest` does, proven
// whichever runner runs this test.

/// The environment variable that lets the helpers below do their part: they are `#[ignore]`d
/// and do nothing in a plain `--ignored` run.
const HELPER: &str = "KERNEL_CORE_TESTS_DETECTOR_HELPER";

/// Whether this process runs a helper for a test that started it.
fn helping() -> bool {
    std::env::var_os(HELPER).is_some()
}

/// The classes of the cross-process AB-BA.
fn process_a() -> impl PinInit<SpinLock<()>> {
    new_spinlock!((), "process_a")
}

/// See [`process_a`].
fn process_b() -> impl PinInit<SpinLock<()>> {
    new_spinlock!((), "process_b")
}

#[test]
#[ignore = "a helper: run by the test that starts it, in a process of its own"]
fn helper_process_a_then_b() {
    if !helping() {
        return;
    }
    stack_pin_init!(let a = process_a());
    stack_pin_init!(let b = process_b());
    let _a = a.lock();
    let _b = b.lock();
}

#[test]
#[ignore = "a helper: run by the test that starts it, in a process of its own"]
fn helper_process_b_then_a() {
    if !helping() {
        return;
    }
    stack_pin_init!(let a = process_a());
    stack_pin_init!(let b = process_b());
    let _b = b.lock();
    let _a = a.lock();
}

#[test]
#[ignore = "a helper: run by the test that starts it, in a process of its own"]
fn helper_fsleep_under_a_spinlock() {
    if !helping() {
        return;
    }
    stack_pin_init!(let lock = new_spinlock!((), "helper_spinlock"));
    let _guard = lock.lock();
    fsleep(Delta::from_micros(1));
}

#[test]
#[ignore = "a helper: run by the test that starts it, in a process of its own"]
fn helper_fail_nth() {
    if !helping() {
        return;
    }
    let _scope = kernel_core::extras::scope::enter();
    kernel_core::extras::fault::fail_nth(1);
    let left = kernel_core::extras::fault::read_fail_nth();
    // With the detectors: 1, and the allocation fails. Without: nothing fails, and the
    // request reads 0, so that a test that asked for a failure can tell.
    println!("read_fail_nth: {left}");
    let allocated = KBox::new(1_u8, GFP_KERNEL);
    assert_eq!(allocated.is_err(), left == 1);
}

/// How a helper's process ended, and what it printed.
#[cfg(not(miri))]
struct Helped {
    passed: bool,
    output: String,
}

/// Runs the helper test `name` in a process of its own, as one of the run `run`; `None`
/// (said so) where this binary cannot start itself again: under a user-mode emulator (the
/// emulated hosts' runs under qemu-user), without the host's `binfmt_misc`.
#[cfg(not(miri))]
fn helper(name: &str, run: &str, env: &[(&str, &str)]) -> Option<Helped> {
    let exe = std::env::current_exe().expect("the test binary");
    let mut cmd = Command::new(exe);
    cmd.args([
        "--exact",
        name,
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ])
    .env(HELPER, "1")
    .env("NEXTEST_RUN_ID", run)
    .env_remove("KERNEL_CORE_PREEMPT_RT");
    for (key, value) in env {
        cmd.env(key, value);
    }
    let output = match cmd.output() {
        Ok(output) => output,
        Err(e) => {
            eprintln!("this test binary cannot start itself ({e}): nothing to check here");
            return None;
        }
    };
    let helped = Helped {
        passed: output.status.success(),
        output: format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    };
    if !helped.output.contains("running 1 test") {
        eprintln!(
            "this test binary did not run as one when started again (an emulator?): nothing to \
             check here:\n{}",
            helped.output
        );
        return None;
    }
    Some(helped)
}

/// A run id of its own, and its directory removed when dropped.
#[cfg(not(miri))]
struct Run(String);

#[cfg(not(miri))]
impl Run {
    fn new(what: &str) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        Self(format!(
            "kernel-core-tests-{what}-{}-{nanos}",
            std::process::id()
        ))
    }
}

#[cfg(not(miri))]
impl Drop for Run {
    fn drop(&mut self) {
        let dir = std::env::temp_dir()
            .join("kernel-core-lockdep")
            .join(&self.0);
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
#[cfg(not(miri))] // Miri starts no process.
fn ab_ba_in_two_processes_of_one_run_is_reported() {
    if !detectors::enabled() {
        return;
    }
    let run = Run::new("ab-ba");
    let Some(first) = helper("helper_process_a_then_b", &run.0, &[]) else {
        return;
    };
    assert!(first.passed, "{}", first.output);
    let second = helper("helper_process_b_then_a", &run.0, &[]).expect("started before");
    assert!(!second.passed, "the second process closes the cycle");
    let output = &second.output;
    assert!(
        output.contains("WARNING: possible circular locking dependency detected"),
        "{output}"
    );
    // The first process's edge, with its places and its task (another pid).
    assert!(output.contains("-> #1 (process_b)"), "{output}");
    assert!(output.contains("by helper_process_a_then_b/"), "{output}");
    assert!(output.contains(&format!("{}:", file!())), "{output}");
}

#[test]
#[cfg(not(miri))]
fn the_order_of_another_run_does_not_count() {
    if !detectors::enabled() {
        return;
    }
    let (one, other) = (Run::new("one"), Run::new("other"));
    let Some(first) = helper("helper_process_a_then_b", &one.0, &[]) else {
        return;
    };
    assert!(first.passed, "{}", first.output);
    let second = helper("helper_process_b_then_a", &other.0, &[]).expect("started before");
    assert!(second.passed, "{}", second.output);
    // And one order twice in one run is fine.
    let again = helper("helper_process_a_then_b", &one.0, &[]).expect("started before");
    assert!(again.passed, "{}", again.output);
}

#[test]
#[cfg(not(miri))]
fn without_the_detectors_nothing_is_reported() {
    let run = Run::new("off");
    let off = [("KERNEL_CORE_DETECTORS", "off")];
    let Some(first) = helper("helper_process_a_then_b", &run.0, &off) else {
        return;
    };
    assert!(first.passed, "{}", first.output);
    let second = helper("helper_process_b_then_a", &run.0, &off).expect("started before");
    assert!(second.passed, "{}", second.output);
    let sleep = helper("helper_fsleep_under_a_spinlock", &run.0, &off).expect("started before");
    assert!(sleep.passed, "{}", sleep.output);
    let fault = helper("helper_fail_nth", &run.0, &off).expect("started before");
    assert!(fault.passed, "{}", fault.output);
    assert!(
        fault.output.contains("read_fail_nth: 0"),
        "{}",
        fault.output
    );
}

// Sleeping in atomic context.

/// Asserts that `report` is a sleep at `line` in atomic context that began at `line_taken`.
fn sleep_report(report: &Report, line: u32, line_taken: u32) {
    assert_eq!(
        report.title(),
        format!(
            "BUG: sleeping function called from invalid context at {}",
            here(line)
        )
    );
    let text = report.text();
    assert!(
        text.contains(&format!("Preemption disabled at: {}:", here(line_taken))),
        "{text}"
    );
    assert!(text.contains("in_atomic(): 1"), "{text}");
    assert!(text.contains("locks held by "), "{text}");
}

#[test]
fn fsleep_under_a_spinlock() {
    stack_pin_init!(let lock = new_spinlock!(0_u32, "fsleep_spinlock"));
    let mut lines = (0, 0);
    let report = expect(Detector::SleepInAtomic, || {
        let _guard = lock.lock();
        lines.0 = line!() - 1;
        lines.1 = line!() + 1;
        fsleep(Delta::from_millis(1));
    });
    if let Some(report) = report {
        sleep_report(&report, lines.1, lines.0);
        assert!(report.text().contains("irqs_disabled(): 0"), "{report}");
    }
    // Fine once it is released.
    drop(lock.lock());
    fsleep(Delta::from_micros(1));
}

#[test]
fn fsleep_with_interrupts_off() {
    stack_pin_init!(let lock = new_spinlock_irq!(0_u32, "fsleep_spinlock_irq"));
    let mut lines = (0, 0);
    let report = expect(Detector::SleepInAtomic, || {
        let _guard = lock.lock();
        lines.0 = line!() - 1;
        lines.1 = line!() + 1;
        fsleep(Delta::from_micros(1));
    });
    if let Some(report) = report {
        sleep_report(&report, lines.1, lines.0);
        let text = report.text();
        assert!(text.contains("irqs_disabled(): 1"), "{text}");
        assert!(text.contains("hardirqs last disabled at "), "{text}");
    }
}

#[test]
fn udelay_under_a_spinlock_is_fine() {
    stack_pin_init!(let lock = new_spinlock!(0_u32, "udelay_spinlock"));
    let _guard = lock.lock();
    kernel_core::time::delay::udelay(Delta::from_micros(1));
}

#[test]
fn a_mutex_under_a_spinlock() {
    stack_pin_init!(let spin = new_spinlock!(0_u32, "outer_spinlock"));
    stack_pin_init!(let mutex = new_mutex!(0_u32, "inner_mutex"));
    let mut lines = (0, 0);
    let report = expect(Detector::SleepInAtomic, || {
        let _spin = spin.lock();
        lines.0 = line!() - 1;
        lines.1 = line!() + 1;
        let _mutex = mutex.lock();
    });
    if let Some(report) = report {
        sleep_report(&report, lines.1, lines.0);
        assert!(report.text().contains("(outer_spinlock)"), "{report}");
    }
    // The other way round is fine: a spinlock under a mutex.
    let _mutex = mutex.lock();
    let _spin = spin.lock();
}

#[test]
fn a_condvar_wait_under_another_spinlock() {
    stack_pin_init!(let outer = new_spinlock!((), "condvar_outer"));
    stack_pin_init!(let inner = new_spinlock!(false, "condvar_inner"));
    stack_pin_init!(let changed = new_condvar!("condvar_changed"));
    let mut lines = (0, 0);
    let report = expect(Detector::SleepInAtomic, || {
        let _outer = outer.lock();
        lines.0 = line!() - 1;
        let mut guard = inner.lock();
        lines.1 = line!() + 1;
        let _ = changed.wait_interruptible_timeout(&mut guard, 1);
    });
    if let Some(report) = report {
        sleep_report(&report, lines.1, lines.0);
    }
    // Waiting with the spinlock's own guard is fine: the wait releases it before it sleeps.
    let mut guard = inner.lock();
    let _ = changed.wait_interruptible_timeout(&mut guard, 1);
    assert!(!*guard);
}

#[test]
fn a_completion_wait_under_a_spinlock() {
    stack_pin_init!(let lock = new_spinlock!((), "completion_spinlock"));
    stack_pin_init!(let done = Completion::new());
    done.complete_all();
    let mut lines = (0, 0);
    let report = expect(Detector::SleepInAtomic, || {
        let _guard = lock.lock();
        lines.0 = line!() - 1;
        lines.1 = line!() + 1;
        done.wait_for_completion();
    });
    if let Some(report) = report {
        sleep_report(&report, lines.1, lines.0);
    }
    done.wait_for_completion();
}

#[test]
fn a_gfp_kernel_allocation_under_a_spinlock() {
    stack_pin_init!(let lock = new_spinlock!((), "alloc_spinlock"));
    let mut lines = (0, 0);
    let report = expect(Detector::SleepInAtomic, || {
        let _guard = lock.lock();
        lines.0 = line!() - 1;
        lines.1 = line!() + 1;
        let _ = KBox::new(7_u64, GFP_KERNEL);
    });
    if let Some(report) = report {
        sleep_report(&report, lines.1, lines.0);
    }
    // What may not sleep is fine there: GFP_ATOMIC, GFP_NOWAIT; and growing a vector too.
    let _guard = lock.lock();
    let boxed = KBox::new(7_u64, GFP_ATOMIC).expect("memory");
    let mut vec = KVec::new();
    vec.push(*boxed, GFP_NOWAIT).expect("memory");
    assert_eq!(vec[0], 7);
}

#[test]
fn a_gfp_kernel_vector_growth_under_a_spinlock() {
    stack_pin_init!(let lock = new_spinlock!((), "grow_spinlock"));
    let mut vec = KVec::<u8>::new();
    let mut line = 0;
    let report = expect(Detector::SleepInAtomic, || {
        let _guard = lock.lock();
        line = line!() + 1;
        let _ = vec.push(1, GFP_KERNEL);
    });
    if let Some(report) = report {
        assert!(report.title().ends_with(&here(line)), "{report}");
    }
}

#[test]
fn read_poll_timeout_under_a_spinlock() {
    use kernel_core::io::poll::{read_poll_timeout, read_poll_timeout_atomic};
    stack_pin_init!(let lock = new_spinlock!(1_u32, "poll_spinlock"));
    let mut lines = (0, 0);
    let report = expect(Detector::SleepInAtomic, || {
        let guard = lock.lock();
        lines.0 = line!() - 1;
        lines.1 = line!() + 1;
        let _ = read_poll_timeout(
            || Ok(*guard),
            |v| *v == 1,
            Delta::from_micros(10),
            Delta::from_millis(1),
        );
    });
    if let Some(report) = report {
        sleep_report(&report, lines.1, lines.0);
    }
    // The atomic variant busy-waits: fine there.
    let guard = lock.lock();
    let polled = read_poll_timeout_atomic(|| Ok(*guard), |v| *v == 1, Delta::from_micros(1), 100);
    assert_eq!(polled, Ok(1));
}

#[test]
#[cfg(not(miri))]
fn preempt_rt_still_reports_a_sleep_under_a_spinlock_in_rcu_s_words() {
    if !detectors::enabled() {
        return;
    }
    let run = Run::new("rt");
    let Some(rt) = helper(
        "helper_fsleep_under_a_spinlock",
        &run.0,
        &[("KERNEL_CORE_PREEMPT_RT", "1")],
    ) else {
        return;
    };
    assert!(!rt.passed, "{}", rt.output);
    let output = &rt.output;
    assert!(
        output.contains("BUG: sleeping function called from invalid context at "),
        "{output}"
    );
    // A spinlock is an rt_mutex there: no atomic context, but an RCU read-side section.
    assert!(
        output.contains("in_atomic(): 0, irqs_disabled(): 0"),
        "{output}"
    );
    assert!(
        output.contains("RCU nest depth: 1, expected: 0"),
        "{output}"
    );
    assert!(output.contains("PREEMPT_RT"), "{output}");
}
