// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The seams of the host's bug detectors: lockdep, sleeping in atomic context, `WARN()`.
//!
//! Every place where the host's `kernel::sync` takes or releases a lock, may sleep, or enters
//! or leaves atomic context calls one function of this module, with what the kernel's own
//! checks get at that point: the lock's address and class (the [`LockClassKey`]'s address and
//! the lock's name, as `lockdep_init_map()` records them) and the caller's `file:line`
//! (`#[track_caller]` runs from the driver's call through `Lock::lock()`, `try_lock()`,
//! `CondVar::wait*()` and `Completion::wait_for_completion()` down to here).
//!
//! With `std`, the detectors of `env/host/detect.rs` sit behind them (lock order and recursive
//! locking in `detect/lockdep.rs`, sleeping in atomic context in `detect/atomic_sleep.rs`),
//! unless `KERNEL_CORE_DETECTORS=off`, and [`lock_acquire`] and [`lock_release`] also keep the
//! locks a test's scope holds, for its check at the end (`detect/held.rs`: "still has locks
//! held!"); without `std` they do nothing but [`warn`], which prints nowhere. The locks
//! themselves need not know:
//!
//! | hook | called by | the kernel's counterpart |
//! |---|---|---|
//! | [`lock_acquire`] | `Mutex`, `SpinLock`, `SpinLockIrq`: `lock()` (before it blocks or spins), `try_lock()` (once it succeeded), the re-lock of a `CondVar` wait | `lock_acquire()` of `include/linux/lockdep.h` |
//! | [`lock_release`] | the same locks' unlock (a guard's drop, the unlock of a `CondVar` wait) | `lock_release()` |
//! | [`lock_assert_held`] | `Guard::new()` | `lockdep_assert_held()` |
//! | [`might_sleep`] | `Mutex::lock()`, `CondVar::wait*()`, `Completion::wait_for_completion()`, `fsleep()`, `read_poll_timeout()` | `might_sleep()` of `include/linux/kernel.h` |
//! | [`might_alloc`] | every allocation and reallocation of `Kmalloc`, `Vmalloc` and `KVmalloc` (`alloc/backend.rs`'s `admit`) | `might_alloc()` of `include/linux/sched/mm.h` |
//! | [`preempt_disable`], [`preempt_enable`] | `SpinLock` and `SpinLockIrq` held (atomic context) | `preempt_disable()`, `preempt_enable()` |
//! | [`local_interrupt_disable`], [`local_interrupt_enable`] | `SpinLockIrq` held (interrupts off) | `local_interrupt_disable()`, `local_interrupt_enable()` |
//! | [`key_register`], [`key_unregister`] | `LockClassKey::new_dynamic()` and its drop | `lockdep_register_key()`, `lockdep_unregister_key()` |
//! | [`warn`] | `Refcount`'s saturation | `WARN_ONCE()` |
//!
//! Which preemption model each check follows: with `PREEMPT_RT`, a `SpinLock` (and a
//! `SpinLockIrq`) is a sleeping lock (an `rt_mutex`) and holding one is not atomic context, but
//! an RCU read-side section; elsewhere (`PREEMPT_NONE`, `PREEMPT_VOLUNTARY`, `PREEMPT`,
//! `PREEMPT_LAZY`) it is atomic context. [`preempt_disable`] and [`local_interrupt_disable`]
//! are called for spinlocks alone, so the sleep detector counts them as `PREEMPT_RT` would when
//! `KERNEL_CORE_PREEMPT_RT=1` (see `detect/atomic_sleep.rs`).
//!
//! A hook that finds a bug does not return: it prints the kernel's report and unwinds the
//! thread (`detect.rs` says how). [`lock_acquire`] runs before the lock is taken, so the
//! thread unwinds without it; a spinlock's `preempt_disable()` (and `local_interrupt_disable()`)
//! before it are undone first, so that the locks the unwinding releases leave the thread's
//! counts as they were.
//!
//! [`LockClassKey`]: crate::sync::LockClassKey

use core::panic::Location;

use super::class::{lock_class_key, LockClass};
#[cfg(feature = "std")]
use crate::env::detect;
// `core`'s, not the platform's: `WarnOnce` is made in constant context, and is bookkeeping.
#[cfg(feature = "std")]
use core::sync::atomic::{AtomicBool, Ordering};

/// What kind of lock a hook is told about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LockKind {
    /// A `Mutex`: a sleeping lock.
    Mutex,
    /// A `SpinLock`: atomic context while held (but with `PREEMPT_RT`).
    SpinLock,
    /// A `SpinLockIrq`: atomic context, and local interrupts off, while held.
    SpinLockIrq,
}

/// How a lock was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Acquire {
    /// `lock()`: waits for the lock (the hook runs before the wait, as lockdep's does, so that a
    /// deadlock is reported instead of hanging).
    Wait,
    /// `try_lock()`, which succeeded (lockdep does not order trylocks).
    Try,
}

/// One lock, as the hooks see it.
#[derive(Clone, Copy)]
#[cfg_attr(not(feature = "std"), allow(dead_code))] // Read by the detectors.
pub(crate) struct LockRef<'a> {
    /// The lock's address: its state's.
    pub(crate) addr: *const (),
    /// Its class and name.
    pub(crate) class: &'a LockClass,
    /// Its kind.
    pub(crate) kind: LockKind,
}

/// The lock is about to be taken (`how` says whether it waits), by the code at `at`.
#[inline]
pub(crate) fn lock_acquire(lock: LockRef<'_>, how: Acquire, at: &'static Location<'static>) {
    record::event(record::Event::Acquire(lock.kind, how), at);
    #[cfg(feature = "std")]
    if detect::enabled() {
        if let Some(report) = detect::lockdep::acquire(lock, how, at) {
            // Not taken: what `spinlock_t::lock()` counted before this call is undone.
            if lock.kind != LockKind::Mutex {
                detect::atomic_sleep::preempt_enable();
            }
            if lock.kind == LockKind::SpinLockIrq {
                detect::atomic_sleep::local_interrupt_enable();
            }
            report.fail();
        }
    }
    // The scope's list of locks held, for its check at the end (`detect/held.rs`): after
    // lockdep's check, so that an acquisition it refused (the thread unwinds, the lock not
    // taken) leaves no entry.
    #[cfg(feature = "std")]
    crate::env::scoped::held::acquired(lock, at);
}

/// The lock is about to be released.
#[inline]
pub(crate) fn lock_release(lock: LockRef<'_>) {
    #[cfg(feature = "std")]
    if detect::enabled() {
        detect::lockdep::release(lock);
    }
    #[cfg(feature = "std")]
    crate::env::scoped::held::released(lock);
    let _ = lock;
}

/// The code at `at` asserts that it holds the lock; `held` is what the lock's own state says
/// (for a `Mutex`, whether this thread owns it; for a spinlock, whether anyone holds it).
#[inline]
pub(crate) fn lock_assert_held(lock: LockRef<'_>, held: bool, at: &'static Location<'static>) {
    let _ = (lock, held, at);
}

/// The code at `at` may sleep.
#[inline]
pub(crate) fn might_sleep(at: &'static Location<'static>) {
    record::might_sleep(at);
    #[cfg(feature = "std")]
    if detect::enabled() {
        detect::atomic_sleep::might_sleep(at);
    }
}

/// The code at `at` allocates with `flags`: it may sleep if they allow direct reclaim
/// (`gfpflags_allow_blocking()`), as `GFP_KERNEL`'s do.
#[inline]
pub(crate) fn might_alloc(flags: crate::alloc::Flags, at: &'static Location<'static>) {
    if gfpflags_allow_blocking(flags) {
        might_sleep(at);
    }
}

/// `gfpflags_allow_blocking()`: whether `flags` hold `__GFP_DIRECT_RECLAIM` (bit 10 of
/// `include/linux/gfp_types.h`).
#[inline]
fn gfpflags_allow_blocking(flags: crate::alloc::Flags) -> bool {
    const DIRECT_RECLAIM: u32 = 1 << 10;
    flags.as_raw() & DIRECT_RECLAIM != 0
}

/// Atomic context begins (a spinlock is being taken), at `at`; nests.
#[inline]
pub(crate) fn preempt_disable(at: &'static Location<'static>) {
    record::preempt(1);
    record::event(record::Event::PreemptDisable, at);
    #[cfg(feature = "std")]
    if detect::enabled() {
        detect::atomic_sleep::preempt_disable(at);
    }
}

/// One level of atomic context ends.
#[inline]
pub(crate) fn preempt_enable() {
    record::preempt(-1);
    #[cfg(feature = "std")]
    if detect::enabled() {
        detect::atomic_sleep::preempt_enable();
    }
}

/// Local interrupts are disabled (a `SpinLockIrq` is being taken), at `at`; nests, as 7.3's
/// `local_interrupt_disable()` counts.
#[inline]
pub(crate) fn local_interrupt_disable(at: &'static Location<'static>) {
    record::event(record::Event::IrqDisable, at);
    #[cfg(feature = "std")]
    if detect::enabled() {
        detect::atomic_sleep::local_interrupt_disable(at);
    }
}

/// One level of disabled local interrupts ends.
#[inline]
pub(crate) fn local_interrupt_enable() {
    #[cfg(feature = "std")]
    if detect::enabled() {
        detect::atomic_sleep::local_interrupt_enable();
    }
}

/// A dynamic lock class key starts to exist.
#[inline]
pub(crate) fn key_register(key: &lock_class_key) {
    #[cfg(feature = "std")]
    if detect::enabled() {
        detect::lockdep::key_register(key);
    }
    let _ = key;
}

/// The dynamic lock class key is going away: no lock of its class may be used again.
#[inline]
pub(crate) fn key_unregister(key: &lock_class_key) {
    #[cfg(feature = "std")]
    if detect::enabled() {
        detect::lockdep::key_unregister(key);
    }
    let _ = key;
}

/// `WARN_ONCE(1, message)` at `at`: the kernel prints a warning with a backtrace and goes on.
///
/// With `std` the host prints the kernel's lines to the standard error (once per call site,
/// as `WARN_ONCE()` does, for each message); without `std` there is nowhere to print.
#[cfg_attr(not(feature = "std"), allow(unused_variables))]
#[cold]
pub(crate) fn warn(message: &str, at: &'static Location<'static>, once: &WarnOnce) {
    #[cfg(feature = "std")]
    if !once.0.swap(true, Ordering::Relaxed) {
        std::eprintln!("------------[ cut here ]------------");
        std::eprintln!("{message}");
        std::eprintln!("WARNING: at {}:{}", at.file(), at.line());
    }
    record::event(record::Event::Warn, at);
}

/// The "once" of a [`warn`] call site.
pub(crate) struct WarnOnce(#[cfg(feature = "std")] AtomicBool);

impl WarnOnce {
    /// Not yet warned.
    pub(crate) const fn new() -> Self {
        Self(
            #[cfg(feature = "std")]
            AtomicBool::new(false),
        )
    }
}

/// What kernel-core's own unit tests see of the hooks: the events of the current thread and
/// the locations they got, to check that `#[track_caller]` reaches them.
#[cfg(all(test, feature = "std"))]
pub(crate) mod record {
    extern crate std;

    use core::cell::RefCell;
    use core::panic::Location;
    use std::vec::Vec;

    use super::{Acquire, LockKind};

    /// One hook call.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(crate) enum Event {
        Acquire(LockKind, Acquire),
        /// `might_sleep`, and whether the thread was in atomic context then.
        MightSleep {
            atomic: bool,
        },
        PreemptDisable,
        IrqDisable,
        Warn,
    }

    std::thread_local! {
        static EVENTS: RefCell<Vec<(Event, &'static Location<'static>)>> = const { RefCell::new(Vec::new()) };
        static PREEMPT_COUNT: core::cell::Cell<isize> = const { core::cell::Cell::new(0) };
    }

    /// `preempt_count` of this thread goes up or down.
    pub(crate) fn preempt(by: isize) {
        PREEMPT_COUNT.with(|count| count.set(count.get() + by));
    }

    pub(crate) fn might_sleep(at: &'static Location<'static>) {
        let atomic = PREEMPT_COUNT.with(|count| count.get() != 0);
        event(Event::MightSleep { atomic }, at);
    }

    pub(crate) fn event(event: Event, at: &'static Location<'static>) {
        EVENTS.with(|events| events.borrow_mut().push((event, at)));
    }

    /// The events of this thread so far, with the location each got; clears them.
    pub(crate) fn take() -> Vec<(Event, &'static Location<'static>)> {
        EVENTS.with(|events| core::mem::take(&mut *events.borrow_mut()))
    }
}

#[cfg(not(all(test, feature = "std")))]
mod record {
    /// One hook call: nothing outside kernel-core's unit tests records them.
    #[allow(dead_code)]
    pub(super) enum Event {
        Acquire(super::LockKind, super::Acquire),
        PreemptDisable,
        IrqDisable,
        Warn,
    }

    #[inline(always)]
    pub(super) fn event(event: Event, at: &'static core::panic::Location<'static>) {
        let _ = (event, at);
    }

    #[inline(always)]
    pub(super) fn might_sleep(at: &'static core::panic::Location<'static>) {
        let _ = at;
    }

    #[inline(always)]
    pub(super) fn preempt(by: isize) {
        let _ = by;
    }
}
