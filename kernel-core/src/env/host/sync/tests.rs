// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Unit tests of the host's `kernel::sync` that look inside: the hooks see the caller's
//! location and the right events.

extern crate std;

use core::panic::Location;
use core::pin::Pin;
use std::vec::Vec;

use pin_init::stack_pin_init;

use super::hooks::record::{take, Event};
use super::hooks::{Acquire, LockKind};
use crate::sync::{Completion, CondVar};

/// The events since the last call, each with the line it was reported at; every one must have
/// been reported at this file's line `line` (the caller's, through `#[track_caller]`).
fn events_at(line: u32) -> Vec<Event> {
    take()
        .into_iter()
        .map(|(event, at)| {
            assert!(
                at.file().ends_with("sync/tests.rs") && at.line() == line,
                "{event:?} reported at {at}, not at line {line} of this file"
            );
            event
        })
        .collect()
}

#[test]
fn a_mutex_reports_the_caller_and_may_sleep() {
    stack_pin_init!(let m = crate::new_mutex!(0_u32));
    take();

    let line = Location::caller().line() + 1;
    let guard = m.lock();
    assert_eq!(
        events_at(line),
        [
            Event::MightSleep { atomic: false },
            Event::Acquire(LockKind::Mutex, Acquire::Wait)
        ]
    );
    drop(guard);

    let line = Location::caller().line() + 1;
    let guard = m.try_lock();
    assert!(guard.is_some());
    assert_eq!(
        events_at(line),
        [Event::Acquire(LockKind::Mutex, Acquire::Try)]
    );
    // A failed `try_lock` takes nothing.
    assert!(m.try_lock().is_none());
    assert_eq!(events_at(0), []);
}

#[test]
fn spinlocks_report_atomic_context_and_irqs_off() {
    stack_pin_init!(let s = crate::new_spinlock!(()));
    stack_pin_init!(let i = crate::new_spinlock_irq!(()));
    take();

    let line = Location::caller().line() + 1;
    let guard = s.lock();
    assert_eq!(
        events_at(line),
        [
            Event::PreemptDisable,
            Event::Acquire(LockKind::SpinLock, Acquire::Wait)
        ]
    );
    assert!(s.try_lock().is_none());
    drop(guard);
    let _ = take();

    let line = Location::caller().line() + 1;
    let guard = i.try_lock();
    assert!(guard.is_some());
    assert_eq!(
        events_at(line),
        [
            Event::IrqDisable,
            Event::PreemptDisable,
            Event::Acquire(LockKind::SpinLockIrq, Acquire::Try)
        ]
    );
}

#[test]
fn a_condvar_wait_reports_the_caller_for_its_sleep_and_its_relock() {
    stack_pin_init!(let m = crate::new_mutex!(0_u32));
    stack_pin_init!(let c = crate::new_condvar!());
    let c: &CondVar = &c;
    let mut guard = m.lock();
    take();

    let line = Location::caller().line() + 1;
    let result = c.wait_interruptible_timeout(&mut guard, 1);
    assert!(matches!(result, crate::sync::CondVarTimeoutResult::Timeout));
    assert_eq!(
        events_at(line),
        [
            Event::MightSleep { atomic: false },
            Event::MightSleep { atomic: false },
            Event::Acquire(LockKind::Mutex, Acquire::Wait)
        ]
    );
}

#[test]
fn a_condvar_wait_under_a_spinlock_sleeps_outside_atomic_context() {
    stack_pin_init!(let s = crate::new_spinlock!(0_u32));
    stack_pin_init!(let c = crate::new_condvar!());
    let c: &CondVar = &c;
    let mut guard = s.lock();
    take();

    let line = Location::caller().line() + 1;
    let result = c.wait_interruptible_timeout(&mut guard, 1);
    assert!(matches!(result, crate::sync::CondVarTimeoutResult::Timeout));
    assert_eq!(
        events_at(line),
        [
            Event::MightSleep { atomic: false },
            Event::PreemptDisable,
            Event::Acquire(LockKind::SpinLock, Acquire::Wait)
        ]
    );
    drop(guard);
}

#[test]
fn a_mutex_lock_under_a_spinlock_is_reported_in_atomic_context() {
    stack_pin_init!(let s = crate::new_spinlock!(()));
    stack_pin_init!(let m = crate::new_mutex!(()));
    let outer = s.lock();
    take();

    let line = Location::caller().line() + 1;
    let found = crate::extras::detectors::catch(|| drop(m.lock()));
    if crate::extras::detectors::enabled() {
        // The detector fails the lock before it is taken.
        let report = found.unwrap_err();
        assert!(report
            .title()
            .ends_with(&std::format!("sync/tests.rs:{line}")));
        assert_eq!(events_at(line), [Event::MightSleep { atomic: true }]);
    } else {
        assert!(found.is_ok());
        assert_eq!(
            events_at(line),
            [
                Event::MightSleep { atomic: true },
                Event::Acquire(LockKind::Mutex, Acquire::Wait)
            ]
        );
    }
    drop(outer);
}

#[test]
fn a_completion_wait_may_sleep() {
    stack_pin_init!(let done = Completion::new());
    done.complete_all();
    take();

    let line = Location::caller().line() + 1;
    done.wait_for_completion();
    assert_eq!(events_at(line), [Event::MightSleep { atomic: false }]);
}

#[test]
fn a_global_lock_reports_the_caller() {
    crate::sync::global_lock! {
        // SAFETY: Initialised below, before its first use.
        unsafe(uninit) static COUNTER: SpinLock<u32> = 0;
    }
    // SAFETY: Called once, before any other use.
    unsafe { COUNTER.init() };
    take();

    let line = Location::caller().line() + 1;
    *COUNTER.lock() += 1;
    assert_eq!(
        events_at(line),
        [
            Event::PreemptDisable,
            Event::Acquire(LockKind::SpinLock, Acquire::Wait)
        ]
    );
}

#[cfg(target_os = "linux")]
#[test]
fn fsleep_may_sleep() {
    take();
    let line = Location::caller().line() + 1;
    crate::time::delay::fsleep(crate::time::Delta::from_micros(1));
    assert_eq!(events_at(line), [Event::MightSleep { atomic: false }]);
}
