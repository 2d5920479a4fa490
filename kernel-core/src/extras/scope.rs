// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A test's scope on the host: what it allocates, its fault injection, and the checks at its
//! end, which fail the test with the kernel's words.
//!
//! An addition of kernel-core, for the host alone (feature `std`). Every `#[kunit_tests]` case
//! runs in a scope of its own, opened and checked by the harness; other tests open one with
//! [`enter`]. While a scope is open, the allocations of its members (the thread that opened it,
//! and the threads that [attach](Handle::attach) to it) through kernel-core's allocators
//! (`KBox`, `KVec`, `Arc`, `pin_init` into a box, ...) belong to it:
//!
//! - [`fault`](super::fault): the Nth of them fails, as the kernel's `fail_nth` makes it fail;
//! - [`leak`](super::leak): those still live when the scope ends fail the test, reported as
//!   kmemleak reports them (`unreferenced object 0x... (size N):`, `backtrace:` with the
//!   allocation's `file:line`).
//!
//! And the locks of kernel-core's `sync` (`Mutex`, `SpinLock`, `SpinLockIrq`) that its members
//! take: one still held when the scope ends (its guard forgotten, or leaked with what held it)
//! fails the test as lockdep reports a task that exits with locks held
//! (`WARNING: <comm>/<pid> still has locks held!`, each lock with where it was taken).
//!
//! A thread that a test spawns is not a member until it attaches (`std::thread::spawn` gives
//! a scope no way to follow it): [`spawn`] spawns one attached, and [`Handle::attach`] attaches
//! any thread, as [`extras::log`](super::log)'s captures are joined. What a thread allocates
//! outside every scope is nobody's: not counted, not checked.
//!
//! When a `#[kunit_tests]` case ends, its scope decides:
//!
//! | the case's function | no failure injected | a failure injected |
//! |---|---|---|
//! | returned `Ok` (or `()`) | passes, unless a check reports | passes, unless a check reports |
//! | returned `Err(e)` | fails: "the test function returned an error: e" | passes, unless a check reports: the error path returned the error |
//! | panicked | fails with its panic | fails: `FAULT_INJECTION: forcing a failure.`, the allocation's site and the panic (an `unwrap()` of the failure, an assertion that assumed success, ...) |
//!
//! A check reports what it found with the kernel's title first (kmemleak's `unreferenced
//! object ...`, lockdep's `WARNING: ... still has locks held!`), and the test fails with a
//! panic whose message is the reports. After a panic the checks report nothing: the panic is
//! the failure.
//!
//! # The environment
//!
//! Read when the process's first scope opens:
//!
//! - `KERNEL_CORE_DETECTORS=off` (or `0`, `false`, `no`): scopes keep no books (nothing
//!   counted, injected or checked), to measure what the books cost; it turns the host's other
//!   detectors off too;
//! - `KERNEL_CORE_FAIL_NTH=n`: every scope starts as if [`fault::fail_nth(n)`](super::fault)
//!   had been called in it: the `n`th allocation of each test fails;
//! - `KERNEL_CORE_ALLOW_LEAKS=name,...`: the tests so named do not report their leaks (see
//!   [`leak`](super::leak));
//! - `KERNEL_CORE_SCOPE_REPORT=file`: every scope appends a line of JSON to `file` when it ends
//!   (its test, its count of allocations, the failure injected, how the test ended and what
//!   failed it), which `cargo kernel-core test --fail-each-alloc` reads.
//!
//! # Examples
//!
//! ```
//! use kernel_core::extras::{detectors::Detector, scope};
//! use kernel_core::prelude::*;
//!
//! let scope = scope::enter();
//! let queue = KVec::<u32>::with_capacity(4, GFP_KERNEL)?;
//! // A worker of the test: its allocations are the test's once it attaches.
//! let handle = scope.handle();
//! std::thread::spawn(move || {
//!     let _attached = handle.attach();
//!     KBox::new(1_u64, GFP_KERNEL).map(drop)
//! })
//! .join()
//! .unwrap()?;
//! drop(queue);
//! // Everything was freed: no report.
//! assert!(scope.finish().is_ok());
//! # Ok::<(), Error>(())
//! ```
//!
//! A leak, and the report that fails the test:
//!
//! ```
//! use kernel_core::extras::{detectors::Detector, scope};
//! use kernel_core::prelude::*;
//!
//! let scope = scope::enter_as("my_driver::tests::leaks_a_box");
//! let _forever: &mut [u8; 16] = KBox::leak(KBox::new([0; 16], GFP_KERNEL)?);
//! let failure = scope.finish().unwrap_err();
//! assert_eq!(failure.detectors(), [Detector::Kmemleak]);
//! let report = failure.to_string();
//! assert!(report.starts_with("unreferenced object 0x"));
//! assert!(report.lines().next().unwrap().ends_with("(size 16):"));
//! assert!(report.contains("  backtrace:\n"));
//! # Ok::<(), Error>(())
//! ```
//!
//! An error path that returns with a lock held:
//!
//! ```
//! use kernel_core::extras::{detectors::Detector, scope};
//! use kernel_core::new_mutex;
//! use kernel_core::prelude::*;
//! use kernel_core::sync::Mutex;
//!
//! fn reset(state: &Mutex<u32>, fail: bool) -> Result {
//!     let mut guard = state.lock();
//!     if fail {
//!         // The bug: the guard never drops, and the mutex stays locked.
//!         core::mem::forget(guard);
//!         return Err(EIO);
//!     }
//!     *guard = 0;
//!     Ok(())
//! }
//!
//! let state = KBox::pin_init(new_mutex!(7_u32, "state"), GFP_KERNEL)?;
//! let scope = scope::enter_as("dev::tests::reset");
//! assert_eq!(reset(&state, true), Err(EIO));
//! let failure = scope.finish().unwrap_err();
//! assert_eq!(failure.detectors(), [Detector::LocksHeld]);
//! let report = failure.to_string();
//! // The task is the thread: a test's thread is named after the test.
//! let comm = std::thread::current().name().unwrap().to_owned();
//! assert!(report.starts_with(&format!("WARNING: {comm}/")), "{report}");
//! assert!(report.lines().next().unwrap().ends_with(" still has locks held!"));
//! assert!(report.contains(" (state){+.+.}-{4:4}, at: "), "{report}");
//! # Ok::<(), Error>(())
//! ```

use core::fmt;
use core::marker::PhantomData;
use std::string::{String, ToString};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::vec::Vec;

use crate::env::scoped::scope::{
    self, join_reports, Cause, Outcome, Owner, Report, State, Verdict,
};
use crate::extras::detectors::Detector;

/// Opens a scope on this thread, named after the thread (a test's thread is named after the
/// test, as `cargo test` lists it). It ends when the [`Scope`] is dropped or
/// [finished](Scope::finish).
///
/// A scope opened inside another one on the same thread takes the thread's allocations until it
/// ends.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::{detectors::Detector, scope};
/// use kernel_core::prelude::*;
///
/// let scope = scope::enter();
/// assert_eq!(Some(scope.name()), std::thread::current().name());
/// KVec::from_elem(0_u8, 3, GFP_KERNEL)?;
/// drop(scope);
/// # Ok::<(), Error>(())
/// ```
#[must_use = "the scope ends when dropped"]
pub fn enter() -> Scope {
    enter_as(std::thread::current().name().unwrap_or("<unnamed>"))
}

/// Opens a scope on this thread named `name`: give the test's name as `cargo test` lists it
/// (`module::test`), which the reports and `cargo kernel-core test --fail-each-alloc`
/// use to run it again.
///
/// # Examples
///
/// ```
/// let scope = kernel_core::extras::scope::enter_as("ring::tests::wraps");
/// assert_eq!(scope.name(), "ring::tests::wraps");
/// ```
#[must_use = "the scope ends when dropped"]
pub fn enter_as(name: &str) -> Scope {
    Scope {
        owner: Some(Owner::open(name.to_string(), None)),
    }
}

/// This thread's innermost scope, to attach other threads to it.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::{detectors::Detector, scope};
///
/// assert!(scope::current().is_none());
/// let scope = scope::enter_as("outer");
/// assert_eq!(scope::current().unwrap().name(), "outer");
/// # drop(scope);
/// ```
pub fn current() -> Option<Handle> {
    scope::current().map(|state| Handle { state })
}

/// Spawns a thread that is a member of this thread's innermost scope (if it has one) while it
/// runs `f`: `std::thread::spawn`, attached.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::{detectors::Detector, scope};
/// use kernel_core::prelude::*;
///
/// let scope = scope::enter();
/// let leaked: &'static mut u32 = scope::spawn(|| KBox::leak(KBox::new(5_u32, GFP_KERNEL).unwrap()))
///     .join()
///     .unwrap();
/// // The worker's allocation is the test's: its leak is reported.
/// assert_eq!(scope.finish().unwrap_err().detectors(), [Detector::Kmemleak]);
/// # // SAFETY: The box's pointer, from `KBox::leak`.
/// # drop(unsafe { KBox::from_raw(leaked as *mut u32) });
/// ```
pub fn spawn<F, T>(f: F) -> JoinHandle<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let handle = current();
    std::thread::spawn(move || {
        let _attached = handle.as_ref().map(Handle::attach);
        f()
    })
}

/// A scope, held by the thread that opened it ([`enter`]).
///
/// When dropped, it runs the checks, and panics with their reports if they report anything
/// (unless the thread is panicking already). [`Scope::finish`] returns them instead.
pub struct Scope {
    /// `None` once finished.
    owner: Option<Owner>,
}

impl Scope {
    /// The scope's name.
    pub fn name(&self) -> &str {
        self.state().name.as_str()
    }

    /// A handle to the scope for other threads: `Send`, `Sync` and `Clone`.
    pub fn handle(&self) -> Handle {
        Handle {
            state: Arc::clone(self.state()),
        }
    }

    /// Ends the scope as a test that returned ends it: runs the checks, and returns their
    /// reports (kmemleak's, ...) as an error if they report anything.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::{detectors::Detector, scope};
    /// use kernel_core::prelude::*;
    ///
    /// let scope = scope::enter();
    /// let b = KBox::new(1_u8, GFP_KERNEL)?;
    /// drop(b);
    /// scope.finish().unwrap();
    /// # Ok::<(), Error>(())
    /// ```
    pub fn finish(mut self) -> Result<(), Failure> {
        let owner = self.owner.take().expect("a scope is finished once");
        match owner.close(&Outcome::Ok) {
            Verdict::Fail(reports) => Err(Failure { reports }),
            Verdict::Pass | Verdict::Unwind => Ok(()),
        }
    }

    fn state(&self) -> &Arc<State> {
        self.owner
            .as_ref()
            .expect("a finished scope is gone")
            .state()
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let Some(owner) = self.owner.take() else {
            return;
        };
        if std::thread::panicking() {
            // The panic is the test's failure; the owner's drop ends the scope quietly.
            drop(owner);
            return;
        }
        if let Verdict::Fail(reports) = owner.close(&Outcome::Ok) {
            panic!("{}", join_reports(&reports));
        }
    }
}

impl fmt::Debug for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scope")
            .field("name", &self.name())
            .finish_non_exhaustive()
    }
}

/// A [`Scope`] as other threads reach it.
#[derive(Clone)]
pub struct Handle {
    state: Arc<State>,
}

impl Handle {
    /// Makes this thread a member of the scope, until the returned [`Attached`] is dropped:
    /// its allocations are the scope's, its fault injection applies to them.
    pub fn attach(&self) -> Attached {
        scope::join(&self.state);
        Attached {
            state: Arc::clone(&self.state),
            _thread: PhantomData,
        }
    }

    /// The scope's name.
    pub fn name(&self) -> &str {
        self.state.name.as_str()
    }
}

impl fmt::Debug for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Handle")
            .field("name", &self.name())
            .finish_non_exhaustive()
    }
}

/// A thread's membership of a scope, from [`Handle::attach`]; it ends when dropped.
#[must_use = "the thread is a member only while this lives"]
pub struct Attached {
    state: Arc<State>,
    _thread: PhantomData<*const ()>,
}

impl Drop for Attached {
    fn drop(&mut self) {
        scope::part(&self.state);
    }
}

impl fmt::Debug for Attached {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Attached").finish_non_exhaustive()
    }
}

/// What the checks at a scope's end reported: displayed as the reports, each with the kernel's
/// title first.
pub struct Failure {
    reports: Vec<Report>,
}

impl Failure {
    /// The detectors that reported, in order: [`Detector::Kmemleak`], ...
    pub fn detectors(&self) -> Vec<Detector> {
        self.reports
            .iter()
            .filter_map(|r| match r.cause {
                Cause::Detector(detector) => Some(detector),
                Cause::Error | Cause::Panic => None,
            })
            .collect()
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&join_reports(&self.reports))
    }
}

/// As [`Display`](fmt::Display): the reports, as the kernel words them.
impl fmt::Debug for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: String = join_reports(&self.reports);
        write!(f, "\n{text}")
    }
}

impl std::error::Error for Failure {}
