// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A model checker for a test's threads: every interleaving of them, explored.
//!
//! An addition of kernel-core, for the host alone (feature `std`): the kernel has nothing
//! like it (KCSAN, its nearest, samples the races that real runs happen to hit). A test that
//! spawns threads runs them as the scheduler happens to interleave them, and a race such as a
//! lost update (two threads that read a counter, then each write it back plus one) hides in
//! the one interleaving in a million that loses it. With the feature `loom`, [`model`] runs
//! the test's closure once per interleaving that the [loom](https://docs.rs/loom/0.7) model
//! checker explores, and kernel-core's own `sync` sits on loom's primitives meanwhile, as
//! tokio's does under its `loom` facade: each operation on a lock, a condition variable, a
//! completion or an atomic is a point where loom may run another thread, and loom runs every
//! order of those that can differ. An interleaving in which the test panics (its assertion
//! saw the lost update; loom found every thread blocked, a deadlock) fails the test with the
//! model checker's report:
//!
//! ```text
//! BUG: model checker: interleaving 4 fails: assertion `left == right` failed: lost an update
//!   left: 1
//!  right: 2
//! ...
//! ```
//!
//! which [`extras::detectors`](super::detectors) knows as
//! [`Detector::ModelChecker`](super::detectors::Detector::ModelChecker) and
//! `cargo kernel-core test --model` names as the failed case's detector (`host:
//! counter::tests::two_threads FAILED: BUG: model checker: interleaving 4 fails: ...`).
//!
//! Without the feature, [`model`] runs the closure once and [`thread::spawn`] spawns a real
//! thread (attached to the test's [scope](super::scope)), so the same test runs either way:
//! `cargo test` as usual, and `cargo test --features kernel-core/loom` (or `cargo kernel-core
//! test --model`) to explore it. The feature changes nothing outside [`model`]: the rest of the
//! suite runs on real threads as before, in the same build.
//!
//! # What it models, and what it does not
//!
//! - **kernel-core's locks, exactly**: `Mutex`, `SpinLock`, `SpinLockIrq`, `CondVar`,
//!   `Completion` and the wait queues under them are made of atomics, parking and yielding
//!   that are loom's inside a model. Loom explores their interleavings with dynamic partial
//!   order reduction, and the loads of their atomics under the C11 memory model (a relaxed or
//!   acquire load may see an older store where C11 allows it), which is what Rust's atomics
//!   promise on the host.
//! - **the kernel's atomics, as sequentially consistent**: `Atomic<T>` (and `Refcount`, `Arc`'s
//!   count, `SetOnce`) keep their values in plain memory (they are `repr(transparent)` and
//!   have `from_ptr`, which loom's atomics cannot give); each operation is a point where loom
//!   may switch threads, so a lost update between a `load` and a `store` is found, but no
//!   reordering is: a bug that needs a relaxed access or a missing `smp_mb()` to be reordered
//!   is not found here.
//! - **not the kernel's memory model**: the LKMM (`tools/memory-model/`) is not C11. It
//!   orders through address, data and control dependencies, which C11 does not, and it has
//!   `smp_mb()`, `READ_ONCE()`, RCU and the barriers of `sync::barrier`, which loom knows
//!   nothing of. Check a lockless algorithm against the LKMM with herd7 and its litmus tests;
//!   what this finds are the interleavings, not the reorderings, of kernel-core's code.
//! - **not plain memory**: a data race on memory outside an atomic (a `u64` read and written
//!   under two different locks, say) is no error of its own, as it would be under loom's
//!   `UnsafeCell` or KCSAN; the test finds what it makes happen, with its assertions.
//! - **bounded**: loom explores the interleavings that its reduction keeps in which threads
//!   are preempted (switched from while they could go on) at most 3 times in all; most bugs
//!   need 1 or 2, and without a bound a model of two threads sharing a mutex and a condition variable
//!   takes minutes instead of milliseconds. `LOOM_MAX_PREEMPTIONS=n` sets another bound. An
//!   interleaving may take at most `LOOM_MAX_BRANCHES` (1,000) steps, and a model at most 3
//!   threads besides the closure's. Loom's other variables work too: `LOOM_LOG=trace
//!   LOOM_LOCATION=1` prints each step of the interleavings.
//! - **no time**: a timed wait (`CondVar::wait_interruptible_timeout`) that nobody woke before
//!   it began times out at once; `fsleep()` sleeps for real, and explores nothing.
//! - **what is made inside the closure**: the closure runs once per interleaving and must make
//!   what its threads share each time (a lock made outside the model keeps real atomics, and
//!   explores nothing; one made inside must not outlive the run, and a static's value must not
//!   carry from one run to the next), and its threads must be [`thread::spawn`]'s (a
//!   `std::thread` is outside the model, and cannot use what the model made). The closure must
//!   do the same in every run that loom replays: no randomness, no real clock.
//!
//! The detectors keep watching: lockdep's lock order and the atomic-sleep check run per
//! modelled thread (a lock order that closes a cycle fails the test with lockdep's report, as
//! it would without the model), the test's scope counts the modelled threads' allocations as
//! its own (kmemleak's report, the locks left held), and `--fail-each-alloc` injects no failure
//! into a model's allocations: loom replays each interleaving from the start and needs it to
//! run the same way.
//!
//! # Examples
//!
//! Two threads that increment a counter under a mutex: every interleaving ends at 2.
//!
//! ```
//! use kernel_core::extras::model::{model, thread};
//! use kernel_core::prelude::*;
//! use kernel_core::sync::{new_mutex, Arc, Mutex};
//!
//! fn increment(counter: &Mutex<u32>) {
//!     *counter.lock() += 1;
//! }
//!
//! model(|| -> Result {
//!     // Made in the closure: each interleaving starts from a new counter.
//!     let counter = Arc::pin_init(new_mutex!(0_u32, "counter"), GFP_KERNEL)?;
//!     let other = counter.clone();
//!     let worker = thread::spawn(move || increment(&other));
//!     increment(&counter);
//!     worker.join().unwrap();
//!     assert_eq!(*counter.lock(), 2);
//!     Ok(())
//! })?;
//! # Ok::<(), Error>(())
//! ```
//!
//! The lost update, found:
//!
//! ```
//! use kernel_core::extras::detectors::{self, Detector};
//! use kernel_core::extras::model::{self, model, thread};
//! use kernel_core::sync::atomic::{Atomic, Relaxed};
//! use kernel_core::sync::Arc;
//! use kernel_core::prelude::*;
//!
//! // Without the feature `loom`, one run on real threads would rarely lose the update (and
//! // then fail).
//! if !model::EXPLORES {
//!     return;
//! }
//! let found = detectors::catch(|| {
//!     model(|| {
//!         let counter = Arc::new(Atomic::new(0_u32), GFP_KERNEL).unwrap();
//!         let other = counter.clone();
//!         // The bug: a read, then a write, where one `fetch_add` would do.
//!         let worker = thread::spawn(move || other.store(other.load(Relaxed) + 1, Relaxed));
//!         counter.store(counter.load(Relaxed) + 1, Relaxed);
//!         worker.join().unwrap();
//!         assert_eq!(counter.load(Relaxed), 2, "lost an update");
//!     })
//! });
//! let report = found.unwrap_err();
//! assert_eq!(report.detector(), Detector::ModelChecker);
//! assert!(report.title().starts_with("BUG: model checker: interleaving "));
//! assert!(report.title().ends_with(" fails: assertion `left == right` failed: lost an update"));
//! ```

#[cfg(feature = "loom")]
use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};
#[cfg(feature = "loom")]
use std::sync::{Arc, Mutex, PoisonError};

/// How many preemptions loom may make in one interleaving, unless `LOOM_MAX_PREEMPTIONS` says: 3, where most bugs show (tokio's CI explores 2); without a bound, a model of two
/// threads that share a mutex and a condition variable takes minutes instead of milliseconds.
#[cfg(feature = "loom")]
const PREEMPTIONS: usize = 3;

/// Whether [`model`] explores the interleavings (the feature `loom`), or runs its closure once
/// on real threads.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::model;
///
/// // How many runs a test may take: one without the model checker.
/// let runs = if model::EXPLORES { "every interleaving" } else { "one" };
/// assert!(!runs.is_empty());
/// ```
pub const EXPLORES: bool = cfg!(feature = "loom");

/// What the closure of a [`model`] returns: `()`, or `Result<(), E>` (such as the kernel's
/// `Result`), so that `?` works in it.
///
/// Sealed: no other type implements it.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::model::{model, Outcome};
/// use kernel_core::prelude::*;
///
/// fn explore<T: Outcome>(f: impl Fn() -> T + Send + Sync + 'static) -> T {
///     model(f)
/// }
/// assert_eq!(explore(|| -> Result { Err(EINVAL) }), Err(EINVAL));
/// explore(|| ());
/// ```
pub trait Outcome: Send + 'static + private::Sealed {
    /// Whether it is a failure (an `Err`), which [`model`] returns instead of later runs'
    /// outcomes.
    #[doc(hidden)]
    fn failed(&self) -> bool;
}

mod private {
    /// Only `()` and `Result<(), E>` are outcomes.
    pub trait Sealed {}
}

impl private::Sealed for () {}

impl Outcome for () {
    fn failed(&self) -> bool {
        false
    }
}

impl<E: Send + 'static> private::Sealed for Result<(), E> {}

impl<E: Send + 'static> Outcome for Result<(), E> {
    fn failed(&self) -> bool {
        self.is_err()
    }
}

/// Runs `f` once per interleaving of the threads it spawns with [`thread::spawn`] (with the
/// feature `loom`; once, on real threads, without), and returns its outcome: the first `Err`
/// that a run returned, else `Ok(())`.
///
/// A run that panics fails the test with the model checker's report ([`Detector::ModelChecker`]:
/// `BUG: model checker: interleaving N fails: ` and the panic's message), printed to the
/// standard error as the other detectors' are; a panic of another detector (lockdep's report)
/// goes on as it is. See [the module](self) for what is modelled.
///
/// # Panics
///
/// Inside another model: loom cannot nest them.
///
/// # Examples
///
/// A completion, waited for by the closure's thread and completed by another, in every order:
///
/// ```
/// use kernel_core::extras::model::{model, thread};
/// use kernel_core::prelude::*;
/// use kernel_core::sync::{Arc, Completion};
///
/// model(|| -> Result {
///     let done = Arc::pin_init(Completion::new(), GFP_KERNEL)?;
///     let worker = {
///         let done = done.clone();
///         thread::spawn(move || done.complete_all())
///     };
///     done.wait_for_completion();
///     worker.join().unwrap();
///     Ok(())
/// })?;
/// # Ok::<(), Error>(())
/// ```
///
/// [`Detector::ModelChecker`]: super::detectors::Detector::ModelChecker
pub fn model<F, T>(f: F) -> T
where
    F: Fn() -> T + Sync + Send + 'static,
    T: Outcome,
{
    #[cfg(feature = "loom")]
    {
        explore(f)
    }
    #[cfg(not(feature = "loom"))]
    {
        f()
    }
}

/// [`model`] with loom: the runs, their outcomes, and the report of a run that panicked.
#[cfg(feature = "loom")]
fn explore<F, T>(f: F) -> T
where
    F: Fn() -> T + Sync + Send + 'static,
    T: Outcome,
{
    // Checked before anything else: inside a model this runs on a modelled thread's stack.
    let Some(entered) = crate::env::sync::model::enter() else {
        panic!(
            "kernel_core::extras::model::model called inside a model: loom cannot nest them \
             (spawn the threads of the inner one in the outer one's closure)"
        );
    };
    let runs = Arc::new(AtomicUsize::new(0));
    let explored = check(f, &runs);
    drop(entered);
    match explored {
        Ok(outcome) => outcome,
        Err(payload) => fail(payload, runs.load(Relaxed)),
    }
}

/// The stack of each modelled thread (loom's threads are coroutines, whose own stacks are
/// 32 KiB: too small for a detector's report, or a panic's backtrace, in a debug build).
#[cfg(feature = "loom")]
const STACK: usize = 1 << 20;

/// Runs `f` in loom's model, counting its runs in `runs`; the first failed outcome (else the
/// last one), or the panic that ended the model.
#[cfg(feature = "loom")]
#[inline(never)]
fn check<F, T>(f: F, runs: &Arc<AtomicUsize>) -> std::thread::Result<T>
where
    F: Fn() -> T + Sync + Send + 'static,
    T: Outcome,
{
    let f = Arc::new(f);
    let outcome: Arc<Mutex<Option<T>>> = Arc::new(Mutex::new(None));
    let mut builder = loom::model::Builder::new();
    if builder.preemption_bound.is_none() {
        builder.preemption_bound = Some(PREEMPTIONS);
    }
    // `loom::model`'s log of the steps, which `LOOM_LOG` filters.
    let log = tracing_subscriber::fmt::Subscriber::builder()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("LOOM_LOG"))
        .with_test_writer()
        .without_time()
        .finish();
    let run = {
        let (runs, outcome) = (Arc::clone(runs), Arc::clone(&outcome));
        move || {
            runs.fetch_add(1, Relaxed);
            // On a modelled thread of a larger stack than that of loom's first.
            let f = Arc::clone(&f);
            let now = match thread::spawn(move || f()).0 {
                thread::Inner::Model(handle) => handle.join(),
                thread::Inner::Real(_) => unreachable!("a modelled thread, inside a model"),
            }
            .unwrap_or_else(|payload| std::panic::resume_unwind(payload));
            let mut kept = outcome.lock().unwrap_or_else(PoisonError::into_inner);
            if !kept.as_ref().is_some_and(Outcome::failed) {
                *kept = Some(now);
            }
        }
    };
    std::panic::catch_unwind(core::panic::AssertUnwindSafe(|| {
        tracing::subscriber::with_default(log, || builder.check(run));
    }))?;
    let outcome = outcome
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    Ok(outcome.expect("loom runs the closure at least once"))
}

/// Fails the test with the model checker's report of the `run`th interleaving, which panicked
/// with `payload`; a detector's report goes on unchanged.
#[cfg(feature = "loom")]
#[cold]
fn fail(payload: std::boxed::Box<dyn core::any::Any + Send>, run: usize) -> ! {
    use core::fmt::Write as _;

    if super::detectors::Report::from_panic(payload.as_ref()).is_some() {
        std::panic::resume_unwind(payload);
    }
    let message = crate::env::scoped::scope::panic_message(payload.as_ref());
    let mut lines = message.lines();
    let first = lines.next().unwrap_or("(a panic without a message)");
    let mut report = crate::env::detect::Report::plain(std::format!(
        "BUG: model checker: interleaving {run} fails: {first}"
    ));
    for line in lines {
        let _ = writeln!(report.body, "{line}");
    }
    let bound =
        std::env::var("LOOM_MAX_PREEMPTIONS").unwrap_or_else(|_| std::format!("{PREEMPTIONS}"));
    let _ = writeln!(
        report.body,
        "The model checker (loom) ran the test's threads in {run} interleavings, with at most \
         {bound} preemptions in each (LOOM_MAX_PREEMPTIONS); the last one panicked, where its \
         message above says."
    );
    let _ = writeln!(
        report.body,
        "Its steps: run the test again with LOOM_LOG=trace LOOM_LOCATION=1."
    );
    report.fail()
}

/// Threads of a [`model`]: loom's inside one (with the feature `loom`), real ones outside.
pub mod thread {
    /// Spawns a thread that runs `f`: inside a [`model`](super::model) with the feature
    /// `loom`, one of the model's threads, whose interleavings with the others loom explores;
    /// otherwise a real thread, a member of the calling thread's
    /// [scope](crate::extras::scope::spawn).
    ///
    /// A panic in a modelled thread fails the interleaving (its [`JoinHandle::join`] never
    /// sees it); a model may have at most 3 threads besides the closure's.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::model::{model, thread};
    ///
    /// model(|| {
    ///     let worker = thread::spawn(|| 6 * 7);
    ///     assert_eq!(worker.join().unwrap(), 42);
    /// });
    /// ```
    pub fn spawn<F, T>(f: F) -> JoinHandle<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        #[cfg(feature = "loom")]
        if crate::env::sync::platform::in_model() {
            let handle = loom::thread::Builder::new()
                .stack_size(super::STACK)
                .spawn(f)
                .expect("loom spawns its threads");
            return JoinHandle(Inner::Model(handle));
        }
        JoinHandle(Inner::Real(crate::extras::scope::spawn(f)))
    }

    /// Lets another thread run: inside a [`model`](super::model), a hint to loom that the
    /// calling thread waits for another (a spin loop must yield there, or loom runs it for
    /// ever); otherwise `std::thread::yield_now`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::model::{model, thread};
    /// use kernel_core::sync::atomic::{Acquire, Atomic, Release};
    /// use kernel_core::sync::Arc;
    /// use kernel_core::prelude::*;
    ///
    /// model(|| {
    ///     let ready = Arc::new(Atomic::new(false), GFP_KERNEL).unwrap();
    ///     let other = ready.clone();
    ///     let worker = thread::spawn(move || other.store(true, Release));
    ///     while !ready.load(Acquire) {
    ///         thread::yield_now();
    ///     }
    ///     worker.join().unwrap();
    /// });
    /// ```
    pub fn yield_now() {
        crate::env::sync::platform::yield_now();
    }

    /// A thread of [`spawn`], to wait for.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::model::thread::{self, JoinHandle};
    ///
    /// let worker: JoinHandle<u8> = thread::spawn(|| 1);
    /// assert_eq!(worker.join().unwrap(), 1);
    /// ```
    pub struct JoinHandle<T>(pub(super) Inner<T>);

    /// A modelled thread, or a real one.
    pub(super) enum Inner<T> {
        /// A real thread.
        Real(std::thread::JoinHandle<T>),
        /// A thread of the model.
        #[cfg(feature = "loom")]
        Model(loom::thread::JoinHandle<T>),
    }

    impl<T> JoinHandle<T> {
        /// Waits for the thread to finish; its result, or (for a real thread) its panic.
        ///
        /// # Examples
        ///
        /// ```
        /// use kernel_core::extras::model::thread;
        ///
        /// assert_eq!(thread::spawn(|| "done").join().unwrap(), "done");
        /// ```
        pub fn join(self) -> std::thread::Result<T> {
            match self.0 {
                Inner::Real(handle) => handle.join(),
                #[cfg(feature = "loom")]
                Inner::Model(handle) => handle.join(),
            }
        }
    }
}
