// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host's bug detectors, seen from a test: whether they run, and their reports.
//!
//! An addition of kernel-core, for the host alone (feature `std`): in the kernel, the
//! kernel's own lockdep and `CONFIG_DEBUG_ATOMIC_SLEEP` report into its log. On the host,
//! kernel-core's `sync` and `alloc` check what they check, in `cargo test`:
//!
//! | detector | report's title | finds |
//! |---|---|---|
//! | [`Detector::CircularLocking`] | `WARNING: possible circular locking dependency detected` | two lock classes taken in both orders, in any threads or tests of the run (an AB-BA), or any longer cycle |
//! | [`Detector::RecursiveLocking`] | `WARNING: possible recursive locking detected` | a lock taken (not by `try_lock()`) while its thread holds one of its class |
//! | [`Detector::SleepInAtomic`] | `BUG: sleeping function called from invalid context at <file>:<line>` | `Mutex::lock()`, `CondVar::wait*()`, a `Completion` wait, `fsleep()`, `read_poll_timeout()` or a `GFP_KERNEL` allocation while a `SpinLock` or `SpinLockIrq` is held |
//! | [`Detector::Kmemleak`] | `unreferenced object 0x... (size N):` | at the end of a test's scope ([`extras::scope`](crate::extras::scope)), an allocation of it still live |
//! | [`Detector::FaultInjection`] | `FAULT_INJECTION: forcing a failure.` | a test that panicked after an allocation that [`extras::fault`](crate::extras::fault) (or `KERNEL_CORE_FAIL_NTH`) failed on purpose |
//! | [`Detector::LocksHeld`] | `WARNING: <comm>/<pid> still has locks held!` | at the end of a test's scope, a lock that it still holds |
//! | [`Detector::ModelChecker`] | `BUG: model checker: interleaving N fails: <the panic>` | with the feature `loom`, an interleaving of a test's threads that [`extras::model`](crate::extras::model) explored, in which the test panicked (a lost update that its assertion saw, a deadlock) |
//!
//! A detector that finds a bug prints its report to the standard error, as the kernel's log
//! shows it, and fails the test: the thread unwinds with the report as its panic message (a
//! `String` that starts with the title). A test that plants a bug on purpose asserts that it
//! is found with [`catch`] (or `#[should_panic(expected = "possible circular locking
//! dependency")]`). `KERNEL_CORE_DETECTORS=off` turns them off ([`enabled`]), and
//! `KERNEL_CORE_PREEMPT_RT=1` checks as a `PREEMPT_RT` kernel would ([`preempt_rt`]); both are
//! read once per process.
//!
//! The lock order of a run is kept across its tests: in the process under `cargo test`, and
//! under `cargo nextest` (a process per test) in files of the run, in
//! `std::env::temp_dir()/kernel-core-lockdep/<NEXTEST_RUN_ID>/`. So an AB-BA split over two
//! tests, which never deadlocks, fails the test that takes the second order (under nextest,
//! whichever takes its order last, if they run at once). A class is a `new_mutex!` (or
//! `new_spinlock!`, `new_spinlock_irq!`, `static_lock_class!`) call site: a function that makes
//! its locks at one site gives all of them one class, as in the kernel, and taking two of them
//! at once is recursive locking there too.
//!
//! `cargo kernel-core test` reads these reports in a failed host test's output as it reads the
//! kernel's in a guest's console, and names the failure the same way (`host: suite::case
//! FAILED: lockdep: WARNING: possible circular locking dependency detected`).
//!
//! # Preemption models
//!
//! Which kernels report what the host reports:
//!
//! | the bug | `PREEMPT_NONE`, `PREEMPT_VOLUNTARY`, `PREEMPT`, `PREEMPT_LAZY` (the host's default) | `PREEMPT_RT` (`KERNEL_CORE_PREEMPT_RT=1`) |
//! |---|---|---|
//! | a lock order that closes a cycle, a class taken twice | lockdep (`PROVE_LOCKING`) | the same: a `SpinLock` is a sleeping lock there, which deadlocks the same way |
//! | a sleep (`fsleep()`, `Mutex::lock()`, a wait, a `GFP_KERNEL` allocation) under a `SpinLock` | `DEBUG_ATOMIC_SLEEP` (`in_atomic(): 1`), or the scheduler's `scheduling while atomic` when it does sleep | the lock is not atomic context but an RCU read-side section: `might_sleep()` reports it with `RCU nest depth: 1` (and RCU warns of a switch inside it) |
//! | the same under a `SpinLockIrq` | the same, with `irqs_disabled(): 1` | the same as under a `SpinLock`: the lock leaves interrupts on |
//! | a sleep under a `Mutex` | nothing: allowed | nothing: allowed |
//! | a `SpinLock` taken in atomic context (inside a raw spinlock, with preemption disabled by hand) | nothing: allowed | a bug (`spinlock_t` sleeps): not checked, since kernel-core has no raw spinlocks and no `preempt_disable()` to make such a context |
//!
//! `GFP_ATOMIC` and `GFP_NOWAIT` allocations never sleep, and `udelay()` busy-waits: they are
//! fine under either lock, in every model.
//!
//! # Examples
//!
//! ```
//! use kernel_core::extras::detectors::{self, Detector};
//! use kernel_core::{new_mutex, new_spinlock};
//! use pin_init::stack_pin_init;
//!
//! stack_pin_init!(let stats = new_spinlock!(0_u32, "stats"));
//! stack_pin_init!(let config = new_mutex!(1_u32, "config"));
//!
//! // The bug: a mutex (which may sleep) taken under a spinlock.
//! let found = detectors::catch(|| {
//!     let _stats = stats.lock();
//!     let _config = config.lock();
//! });
//! # if !detectors::enabled() { return; }
//! let report = found.unwrap_err();
//! assert_eq!(report.detector(), Detector::SleepInAtomic);
//! assert!(report.title().starts_with("BUG: sleeping function called from invalid context at "));
//! assert!(report.text().contains("Preemption disabled at: "));
//!
//! // Fine: the mutex first.
//! assert!(detectors::catch(|| {
//!     let _config = config.lock();
//!     let _stats = stats.lock();
//! })
//! .is_ok());
//! ```

use core::any::Any;
use core::fmt;
use std::string::String;

use crate::env::detect::{self, Title};

/// One of the host's detectors: those that watch every thread (lock order, sleeping in atomic
/// context) and those of a test's scope ([`extras::scope`](crate::extras::scope): leaks,
/// fault injection, locks left held).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Detector {
    /// lockdep: a lock order that closes a cycle.
    CircularLocking,
    /// lockdep: a class taken twice.
    RecursiveLocking,
    /// `might_sleep()`: a call that may sleep, in atomic context.
    SleepInAtomic,
    /// kmemleak: an allocation that outlived its test.
    Kmemleak,
    /// Fault injection: an allocation failed on purpose that the test did not handle.
    FaultInjection,
    /// lockdep's `debug_check_no_locks_held()`: a lock still held when the test ended.
    LocksHeld,
    /// The model checker ([`extras::model`](crate::extras::model), feature `loom`): an
    /// interleaving of the test's threads in which it failed. The kernel has no such detector
    /// (its nearest is KCSAN, which samples real races instead of exploring them all).
    ModelChecker,
}

impl Detector {
    /// The title of its reports, as the kernel prints it, or its fixed part: a sleep's
    /// continues with ` at <file>:<line>`, kmemleak's with the object's address and size
    /// (`unreferenced object 0x... (size N):`), and the locks held's is `WARNING: <comm>/<pid>
    /// still has locks held!`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::detectors::Detector;
    ///
    /// assert_eq!(
    ///     Detector::RecursiveLocking.title(),
    ///     "WARNING: possible recursive locking detected"
    /// );
    /// ```
    pub const fn title(self) -> &'static str {
        self.of().text()
    }

    /// Its name, as `cargo kernel-core test` names the detector of a failed case, in a cell
    /// and on the host alike: `lockdep` (a cycle, recursive locking, locks left held),
    /// `atomic-sleep check`, `kmemleak`, `fault injection`, and the host's `model checker`. The
    /// lines of `KERNEL_CORE_SCOPE_REPORT` name their detectors so.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::detectors::Detector;
    ///
    /// assert_eq!(Detector::LocksHeld.name(), "lockdep");
    /// assert_eq!(Detector::FaultInjection.name(), "fault injection");
    /// assert_eq!(Detector::ModelChecker.name(), "model checker");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Detector::CircularLocking | Detector::RecursiveLocking | Detector::LocksHeld => {
                "lockdep"
            }
            Detector::SleepInAtomic => "atomic-sleep check",
            Detector::Kmemleak => "kmemleak",
            Detector::FaultInjection => "fault injection",
            Detector::ModelChecker => "model checker",
        }
    }

    /// Its title, as the detectors know it.
    const fn of(self) -> Title {
        match self {
            Detector::CircularLocking => Title::Circular,
            Detector::RecursiveLocking => Title::Recursive,
            Detector::SleepInAtomic => Title::AtomicSleep,
            Detector::Kmemleak => Title::Kmemleak,
            Detector::FaultInjection => Title::FaultInjection,
            Detector::LocksHeld => Title::LocksHeld,
            Detector::ModelChecker => Title::ModelChecker,
        }
    }

    /// The detector whose title it is.
    const fn from_title(title: Title) -> Self {
        match title {
            Title::Circular => Detector::CircularLocking,
            Title::Recursive => Detector::RecursiveLocking,
            Title::AtomicSleep => Detector::SleepInAtomic,
            Title::Kmemleak => Detector::Kmemleak,
            Title::FaultInjection => Detector::FaultInjection,
            Title::LocksHeld => Detector::LocksHeld,
            Title::ModelChecker => Detector::ModelChecker,
        }
    }
}

/// A detector's report: the panic message of the test that it failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    detector: Detector,
    text: String,
}

impl Report {
    /// The report that a panic's payload is, if it is one of a detector.
    ///
    /// # Examples
    ///
    /// A bug in another thread:
    ///
    /// ```
    /// use kernel_core::extras::detectors::{self, Detector, Report};
    /// use kernel_core::new_spinlock;
    /// use pin_init::stack_pin_init;
    ///
    /// # if !detectors::enabled() { return; } // Without them, the bug spins for ever.
    /// stack_pin_init!(let lock = new_spinlock!(()));
    /// let result = std::thread::scope(|s| {
    ///     s.spawn(|| {
    ///         let _a = lock.lock();
    ///         let _b = lock.lock(); // the bug: it would spin for ever
    ///     })
    ///     .join()
    /// });
    /// let report = Report::from_panic(result.unwrap_err().as_ref()).expect("a report");
    /// assert_eq!(report.detector(), Detector::RecursiveLocking);
    /// ```
    pub fn from_panic(payload: &(dyn Any + Send)) -> Option<Report> {
        let text = payload.downcast_ref::<String>()?;
        let detector = Detector::from_title(Title::of(text)?);
        Some(Report {
            detector,
            text: text.clone(),
        })
    }

    /// The detector.
    pub fn detector(&self) -> Detector {
        self.detector
    }

    /// The first line: the kernel's title (with the sleep's location).
    pub fn title(&self) -> &str {
        self.text.lines().next().unwrap_or_default()
    }

    /// The whole report, title first.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Runs `f`; `Err` with the report if a detector failed it (in the calling thread). Any
/// other panic goes on unwinding.
///
/// The report is also printed to the standard error (which `cargo test` shows for failing
/// tests only).
///
/// # Examples
///
/// ```
/// use kernel_core::extras::detectors::{self, Detector};
/// use kernel_core::new_mutex;
/// use pin_init::stack_pin_init;
///
/// stack_pin_init!(let a = new_mutex!((), "a"));
/// stack_pin_init!(let b = new_mutex!((), "b"));
/// let a_then_b = detectors::catch(|| {
///     let _a = a.lock();
///     let _b = b.lock();
/// });
/// assert!(a_then_b.is_ok());
/// let b_then_a = detectors::catch(|| {
///     let _b = b.lock();
///     let _a = a.lock();
/// });
/// # if !detectors::enabled() { return; }
/// let report = b_then_a.unwrap_err();
/// assert_eq!(report.detector(), Detector::CircularLocking);
/// assert!(report.text().contains("-> #1 (b)"));
/// ```
pub fn catch<R>(f: impl FnOnce() -> R) -> Result<R, Report> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(value) => Ok(value),
        Err(payload) => match Report::from_panic(payload.as_ref()) {
            Some(report) => Err(report),
            None => std::panic::resume_unwind(payload),
        },
    }
}

/// Whether the detectors run in this process: unless `KERNEL_CORE_DETECTORS` is `off` (or
/// `0`, `false`, `no`).
pub fn enabled() -> bool {
    detect::enabled()
}

/// Whether they check as a `PREEMPT_RT` kernel would: `KERNEL_CORE_PREEMPT_RT` is `1` (or
/// `on`, `true`, `yes`). A `SpinLock` or `SpinLockIrq` held is then an RCU read-side section,
/// not atomic context: a sleep under one is still reported, with `in_atomic(): 0` and `RCU nest
/// depth: 1`.
pub fn preempt_rt() -> bool {
    detect::preempt_rt()
}
