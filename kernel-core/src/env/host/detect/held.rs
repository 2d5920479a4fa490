// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Locks left held: the locks of kernel-core's `sync` that a test's scope took and had not
//! released when it ended, reported as lockdep's `debug_check_no_locks_held()` reports a task
//! that exits holding locks:
//!
//! ```text
//! ====================================
//! WARNING: ring::tests::grows/4242 still has locks held!
//! ------------------------------------
//! 1 lock held by ring::tests::grows/4242:
//!  #0: 000055d0c1a2b3c0 (ring_lock){+.+.}-{3:3}, at: src/ring.rs:52:30
//! ```
//!
//! An error path that returns with a lock held (a guard `forget`-ten, or kept in what the
//! path leaked) leaves it held for ever: in the kernel, the next `lock()` deadlocks. With
//! guards, the lock is released when the guard goes out of scope, so what this finds is a
//! guard that never dropped.
//!
//! Each thread keeps the locks it took while it was a member of a scope (sync's hooks
//! `lock_acquire` and `lock_release` call [`acquired`] and [`released`]), with the scope's
//! number; a thread that leaves a scope (an attached thread's `Attached` dropped) hands the
//! locks it still holds of it to the scope, and the scope's end reports them with the owner's.
//! A lock taken outside every scope is not kept: nothing is done per lock while no scope is
//! open but a look at one counter.
//!
//! lockdep (`detect/lockdep.rs`) keeps the held locks of every thread for its own checks; this
//! list is the scope's, for the check at its end.

use core::cell::RefCell;
use core::fmt::Write as _;
use core::panic::Location;
use core::sync::atomic::Ordering::Relaxed;
use std::string::String;
use std::sync::{Arc, PoisonError};
use std::vec::Vec;

use super::faults::site;
use super::scope::{self, Ending, Report, State};
use crate::env::sync::class::LockClass;
use crate::env::sync::hooks::{LockKind, LockRef};
use crate::extras::detectors::Detector;

/// A lock that a scope's member holds.
pub(crate) struct HeldLock {
    /// The number of the scope it was taken in.
    scope: u64,
    /// The lock's address (its state's): what a release is matched by.
    addr: usize,
    /// Its class (its name, for the report).
    class: LockClass,
    /// Its kind.
    kind: LockKind,
    /// Where it was taken.
    at: &'static Location<'static>,
    /// The name of the thread that took it.
    comm: Arc<str>,
}

std::thread_local! {
    /// The locks this thread took in a scope and holds, oldest first.
    static HELD: RefCell<Vec<HeldLock>> = const { RefCell::new(Vec::new()) };
}

/// Sync's `lock_acquire`: the lock is taken (or about to be, for a `lock()`) at `at`. Kept if
/// this thread is a member of a scope that keeps books.
#[inline]
pub(crate) fn acquired(lock: LockRef<'_>, at: &'static Location<'static>) {
    if !scope::any_open() {
        return;
    }
    let Some((id, comm)) = scope::with_current(|state, comm| {
        (state.books && !state.ended.load(Relaxed)).then(|| (state.id, Arc::clone(comm)))
    })
    .flatten() else {
        return;
    };
    let held = HeldLock {
        scope: id,
        addr: lock.addr.addr(),
        class: *lock.class,
        kind: lock.kind,
        at,
        comm,
    };
    let _ = HELD.try_with(|list| {
        if let Ok(mut list) = list.try_borrow_mut() {
            list.push(held);
        }
    });
}

/// Sync's `lock_release`: the lock is about to be released; forgotten if this thread kept it.
#[inline]
pub(crate) fn released(lock: LockRef<'_>) {
    let addr = lock.addr.addr();
    let _ = HELD.try_with(|list| {
        if let Ok(mut list) = list.try_borrow_mut() {
            if let Some(at) = list.iter().rposition(|held| held.addr == addr) {
                list.remove(at);
            }
        }
    });
}

/// Takes this thread's locks of the scope `id` out of its list.
fn take(id: u64) -> Vec<HeldLock> {
    HELD.try_with(|list| {
        list.try_borrow_mut()
            .map(|mut list| {
                let (taken, kept) = core::mem::take(&mut *list)
                    .into_iter()
                    .partition(|held| held.scope == id);
                *list = kept;
                taken
            })
            .unwrap_or_default()
    })
    .unwrap_or_default()
}

/// This thread leaves the scope `state`: what it still holds of it is the scope's, for its end.
pub(crate) fn leave(state: &State) {
    let left = take(state.id);
    if !left.is_empty() {
        state
            .left_held
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend(left);
    }
}

/// The end-of-scope check (on the owner's thread): lockdep's report of the locks the scope's
/// members still hold, unless the test did not return (its unwinding released its guards; what
/// it did not is no news after the panic).
pub(crate) fn check(ending: &Ending<'_>) -> Option<Report> {
    let state = ending.state;
    let mut held = core::mem::take(
        &mut *state
            .left_held
            .lock()
            .unwrap_or_else(PoisonError::into_inner),
    );
    held.extend(take(state.id));
    if !ending.returned || held.is_empty() {
        return None;
    }
    Some(Report::of(Detector::LocksHeld, report(&held)))
}

/// lockdep's marks after a class's name (`{+.+.}-{4:4}`), as a lock of `kind` taken in process
/// context gets them.
fn marks(kind: LockKind) -> &'static str {
    match kind {
        LockKind::Mutex => "{+.+.}-{4:4}",
        LockKind::SpinLock => "{+.+.}-{3:3}",
        LockKind::SpinLockIrq => "{..+.}-{3:3}",
    }
}

/// The report: one block per thread, as `debug_check_no_locks_held()` prints one per task.
fn report(held: &[HeldLock]) -> String {
    let pid = std::process::id();
    let mut comms: Vec<&str> = Vec::new();
    for lock in held {
        if !comms.contains(&&*lock.comm) {
            comms.push(&lock.comm);
        }
    }
    let mut text = String::new();
    for comm in comms {
        let title = std::format!("WARNING: {comm}/{pid} still has locks held!");
        let rule = title.len();
        let locks: Vec<&HeldLock> = held.iter().filter(|l| &*l.comm == comm).collect();
        if !text.is_empty() {
            text.push('\n');
        }
        let _ = writeln!(text, "{title}");
        let _ = writeln!(text, "{}", "-".repeat(rule));
        let _ = writeln!(
            text,
            "{} lock{} held by {comm}/{pid}:",
            locks.len(),
            if locks.len() == 1 { "" } else { "s" }
        );
        for (i, lock) in locks.iter().enumerate() {
            let _ = writeln!(
                text,
                " #{i}: {:016x} ({}){}, at: {}",
                lock.addr,
                lock.class.name().to_string_lossy(),
                marks(lock.kind),
                site(lock.at)
            );
        }
    }
    text
}
