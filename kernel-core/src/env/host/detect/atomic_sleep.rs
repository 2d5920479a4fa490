// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Sleeping in atomic context: the check of `might_sleep()` (`__might_resched()` of
//! `kernel/sched/core.c`, which `CONFIG_DEBUG_ATOMIC_SLEEP` turns on), with its report.
//!
//! Each thread counts what the kernel counts per task: the preemption count that a held
//! `SpinLock` or `SpinLockIrq` raises (`spin_lock()`'s `preempt_disable()`), the local
//! interrupts a `SpinLockIrq` disables (7.3's `local_interrupt_disable()`, which its
//! `HARDIRQ_DISABLE` part of the count nests), and where atomic context began. A call that may
//! sleep, in atomic context, fails the test with the kernel's report:
//!
//! ```text
//! BUG: sleeping function called from invalid context at tests/atomic_sleep.rs:31
//! in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: 4242, name: sleep_under_spinlock
//! preempt_count: 1, expected: 0
//! RCU nest depth: 0, expected: 0
//! locks held by sleep_under_spinlock/4242: 1:
//!  #0: 00007f3a2c000b70 (tests/atomic_sleep.rs:29){+.+.}-{3:3}, at: tests/atomic_sleep.rs:30:22
//! Preemption disabled at: tests/atomic_sleep.rs:30:22
//! PID: 4242 Comm: sleep_under_spinlock kernel-core 0.1.0 (host, PREEMPT) Not tainted
//! Call Trace:
//!  (set RUST_BACKTRACE=1 for the host's backtrace)
//! ```
//!
//! What may sleep, on the host: `Mutex::lock()` (before it blocks), `CondVar::wait*()` (once it
//! released its guard's lock: waiting with a `SpinLock`'s guard is no bug, as in the kernel,
//! whose `schedule()` comes after the unlock), `Completion::wait_for_completion()`, `fsleep()`
//! and `read_poll_timeout()`, and an allocation whose flags allow direct reclaim
//! (`gfpflags_allow_blocking()`: `GFP_KERNEL`, `GFP_KERNEL_ACCOUNT`; not `GFP_ATOMIC` or
//! `GFP_NOWAIT`), as the kernel's allocators check with `might_alloc()`. The kernel's `msleep()`
//! and `fsleep()` report through the scheduler instead (`BUG: scheduling while atomic`), when
//! they do sleep; the host checks at the call, in `might_sleep()`'s words, as the issue asks.
//!
//! # Preemption models
//!
//! Without `PREEMPT_RT` (`PREEMPT_NONE`, `PREEMPT_VOLUNTARY`, `PREEMPT`, `PREEMPT_LAZY`, with
//! `CONFIG_DEBUG_ATOMIC_SLEEP`, as the runner's kernels are configured), holding a `SpinLock`
//! is atomic context (`in_atomic(): 1`) and a `SpinLockIrq` also disables interrupts
//! (`irqs_disabled(): 1`): each sleep above under either fails. Under a `Mutex` none does.
//!
//! With `PREEMPT_RT` a `spinlock_t` is an `rt_mutex`: `spin_lock()` (and 7.3's
//! `spin_lock_irq_disable()`, which there disables no interrupts) may sleep, and holding one is
//! not atomic context. But it holds an RCU read-side critical section (`rt_spin_lock()` calls
//! `rcu_read_lock()`), which `might_sleep()` checks on a `PREEMPT_RCU` kernel: the same sleeps
//! are still bugs there, reported with `in_atomic(): 0, irqs_disabled(): 0` and `RCU nest
//! depth: 1, expected: 0` (and the kernel's `msleep()` itself warns through RCU: "Voluntary
//! context switch within RCU read-side critical section!"). What `PREEMPT_RT` allows that the
//! others do not is taking a spinlock in a preemptible section: nothing kernel-core's host
//! API can tell apart, since it has no raw spinlocks and no `preempt_disable()` of its own.
//!
//! `KERNEL_CORE_PREEMPT_RT=1` makes the host count as a `PREEMPT_RT` kernel does: the held
//! spinlocks count as RCU read-side nesting, not as preemption or interrupts off. Without it
//! the host counts as the other models do.

use core::fmt::Write as _;
use core::panic::Location;
use std::string::String;

use super::{backtrace, comm, lockdep, pid, place, preempt_rt, with_task, Report};

/// `preempt_disable()` of a spinlock taken at `at`: the preemption count goes up, or with
/// `PREEMPT_RT` the RCU read-side nesting of `rt_spin_lock()`.
#[inline]
pub(crate) fn preempt_disable(at: &'static Location<'static>) {
    let rt = preempt_rt();
    with_task(|task| {
        if rt {
            task.rcu += 1;
            return;
        }
        if task.preempt == 0 && task.irqs_off == 0 {
            task.atomic_at = Some(at);
        }
        task.preempt += 1;
    });
}

/// `preempt_enable()` (`rcu_read_unlock()` with `PREEMPT_RT`).
#[inline]
pub(crate) fn preempt_enable() {
    let rt = preempt_rt();
    with_task(|task| {
        if rt {
            task.rcu = task.rcu.saturating_sub(1);
            return;
        }
        task.preempt = task.preempt.saturating_sub(1);
        if task.preempt == 0 && task.irqs_off == 0 {
            task.atomic_at = None;
        }
    });
}

/// `local_interrupt_disable()` of a `SpinLockIrq` taken at `at` (nothing with `PREEMPT_RT`,
/// whose `spin_lock_irq_disable()` is `rt_spin_lock()`).
#[inline]
pub(crate) fn local_interrupt_disable(at: &'static Location<'static>) {
    if preempt_rt() {
        return;
    }
    with_task(|task| {
        if task.preempt == 0 && task.irqs_off == 0 {
            task.atomic_at = Some(at);
        }
        task.irqs_off += 1;
        if task.irqs_off == 1 {
            task.irq_events += 1;
            task.irqs_off_at = Some((at, task.irq_events));
        }
    });
}

/// `local_interrupt_enable()`.
#[inline]
pub(crate) fn local_interrupt_enable() {
    if preempt_rt() {
        return;
    }
    with_task(|task| {
        task.irqs_off = task.irqs_off.saturating_sub(1);
        if task.irqs_off == 0 {
            task.irq_events += 1;
            if task.preempt == 0 {
                task.atomic_at = None;
            }
        }
    });
}

/// `might_sleep()` at `at`: fails the test if the thread is in atomic context (or, with
/// `PREEMPT_RT`, in the RCU read-side section of a spinlock).
#[inline]
pub(crate) fn might_sleep(at: &'static Location<'static>) {
    let report = with_task(|task| {
        if task.preempt == 0 && task.irqs_off == 0 && task.rcu == 0 {
            return None;
        }
        if std::thread::panicking() {
            return None;
        }
        Some(Invalid {
            preempt: task.preempt,
            irqs_off: task.irqs_off,
            rcu: task.rcu,
            atomic_at: task.atomic_at,
            irqs_off_at: task.irqs_off_at,
            irq_events: task.irq_events,
            held: task.held.clone(),
        })
    })
    .flatten();
    if let Some(invalid) = report {
        invalid.report(at).fail();
    }
}

/// What the report of a sleep in atomic context shows of the thread.
struct Invalid {
    preempt: u32,
    irqs_off: u32,
    rcu: u32,
    atomic_at: Option<&'static Location<'static>>,
    irqs_off_at: Option<(&'static Location<'static>, u32)>,
    irq_events: u32,
    held: std::vec::Vec<super::Held>,
}

impl Invalid {
    /// `__might_resched()`'s report for a sleep at `at`.
    #[cold]
    fn report(&self, at: &'static Location<'static>) -> Report {
        let mut report = Report::plain(std::format!(
            "{} at {}:{}",
            super::Title::AtomicSleep.text(),
            at.file(),
            at.line()
        ));
        let out: &mut String = &mut report.body;
        // 7.3's `preempt_count()`: the `HARDIRQ_DISABLE` count from bit 16.
        let count = self.preempt + (self.irqs_off << 16);
        let _ = writeln!(
            out,
            "in_atomic(): {}, irqs_disabled(): {}, non_block: 0, pid: {}, name: {}",
            u8::from(count != 0),
            u8::from(self.irqs_off != 0),
            pid(),
            comm()
        );
        let _ = writeln!(out, "preempt_count: {count:x}, expected: 0");
        let _ = writeln!(out, "RCU nest depth: {}, expected: 0", self.rcu);
        lockdep::held_locks(out, &self.held);
        if let Some((disabled, event)) = self.irqs_off_at.filter(|_| self.irqs_off != 0) {
            let _ = writeln!(out, "irq event stamp: {}", self.irq_events);
            let _ = writeln!(
                out,
                "hardirqs last disabled at ({event}): {}",
                place(disabled)
            );
        }
        if let Some(atomic_at) = self.atomic_at.filter(|_| count != 0) {
            let _ = writeln!(out, "Preemption disabled at: {}", place(atomic_at));
        }
        backtrace(out, None);
        report
    }
}
