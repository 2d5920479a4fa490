// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host's threading primitives under the model checker (feature `loom`): what
//! `platform.rs` exports, as loom's inside a model and as `core`'s and `std`'s outside one.
//!
//! [`extras::model::model`](crate::extras::model::model) runs a test's closure once per
//! interleaving that loom explores, every modelled thread on the calling thread (loom's
//! threads are coroutines of it), and marks that thread as running a model ([`enter`]). While
//! it is marked, what the host's `sync` makes and does is loom's: an atomic made then is
//! loom's (so every lock, wait queue and completion made inside the closure is), and parking,
//! waking, yielding and the thread's identity are loom's (a thread that waits for another
//! lets loom run the other; a wake-up that never comes is loom's deadlock). Outside a model
//! they are exactly `platform.rs`'s own, so the feature changes nothing for the rest of a
//! test suite: a feature must not break the crates that share its build.
//!
//! The choice is made per atomic when it is made, so that an object keeps one kind for its
//! life: one made outside a model and used inside keeps `core`'s atomics (loom does not see
//! them, and explores nothing around them), and one made inside must not outlive the
//! closure's run (loom's objects belong to one of its executions).
//!
//! A model that fails unwinds the failing thread through its locks' destructors, where loom's
//! state may be gone (a deadlock that loom found left no thread to run: any access to its
//! state then panics again, which aborts the process). From the moment the thread panics, it
//! is out of the model ([`failed`]): its atomics are the shadows that mirror their latest
//! values, it parks, switches and checks nothing, and its locks give up waiting (the threads
//! that hold them never run again; loom leaves their stacks as they are).
//!
//! What loom does not model stays plain: the kernel's `Atomic<T>` keeps `core`'s value (see
//! `platform.rs`), and each of its operations is a [`schedule_point`], where loom may run
//! another thread; the detectors' bookkeeping is `std`'s and `core`'s (loom would explore it
//! too, for nothing), with the per-task state of lockdep and the atomic-sleep check kept per
//! modelled thread (`detect.rs`).

use core::cell::Cell;
use core::sync::atomic::Ordering;

use super::platform::imp;

std::thread_local! {
    /// Whether this thread runs a model: loom's threads are coroutines of it, and see this
    /// too.
    static IN_MODEL: Cell<bool> = const { Cell::new(false) };
}

/// Whether the calling thread runs a model (is one of its threads).
#[inline]
pub(crate) fn in_model() -> bool {
    IN_MODEL.try_with(Cell::get).unwrap_or(false)
}

/// Whether the calling thread unwinds out of a model that failed: nothing may reach loom, and
/// nothing may wait (see the module's documentation).
#[inline]
pub(crate) fn failed() -> bool {
    in_model() && std::thread::panicking()
}

/// Whether the calling thread runs a model that has not failed: loom's state is there.
#[inline]
fn live() -> bool {
    in_model() && !std::thread::panicking()
}

/// The calling thread runs a model until this is dropped.
pub(crate) struct Entered(());

impl Drop for Entered {
    fn drop(&mut self) {
        IN_MODEL.with(|in_model| in_model.set(false));
    }
}

/// Marks the calling thread as running a model; `None` if it runs one already (loom cannot
/// nest models).
pub(crate) fn enter() -> Option<Entered> {
    IN_MODEL.with(|in_model| (!in_model.replace(true)).then_some(Entered(())))
}

loom::lazy_static! {
    /// The word that every operation of a kernel `Atomic<T>` changes inside a model, so that
    /// loom sees each as a point where another thread may run, and every two as dependent.
    static ref POINT: loom::sync::atomic::AtomicUsize = loom::sync::atomic::AtomicUsize::new(0);
}

/// Inside a model, a point where loom may run another thread, dependent on every other such
/// point (a relaxed read-modify-write of one word, which orders nothing): the kernel's
/// `Atomic<T>` operations call it, so that loom interleaves them as sequentially consistent
/// operations. Outside a model, nothing.
#[inline]
pub(crate) fn schedule_point() {
    if live() {
        POINT.fetch_add(1, Ordering::Relaxed);
    }
}

/// An atomic of `platform.rs`'s: loom's if made inside a model, `core`'s otherwise.
macro_rules! atomic {
    ($name:ident, $value:ty) => {
        #[doc = concat!("`", stringify!($name), "`: loom's if made inside a model, `core`'s otherwise.")]
        pub(crate) enum $name {
            /// Made outside a model.
            Real(core::sync::atomic::$name),
            /// Made inside a model: loom's, and a shadow of its latest value (in the order of
            /// its changes), which takes its place once the model [`failed`].
            Model(loom::sync::atomic::$name, core::sync::atomic::$name),
        }

        // Each atomic's users call a few of these.
        #[allow(dead_code)]
        impl $name {
            /// An atomic holding `v`.
            #[inline]
            pub(crate) fn new(v: $value) -> Self {
                if live() {
                    Self::Model(
                        loom::sync::atomic::$name::new(v),
                        core::sync::atomic::$name::new(v),
                    )
                } else {
                    Self::Real(core::sync::atomic::$name::new(v))
                }
            }

            /// `load`.
            #[inline]
            pub(crate) fn load(&self, order: Ordering) -> $value {
                match self {
                    Self::Real(a) => a.load(order),
                    Self::Model(_, shadow) if failed() => shadow.load(order),
                    Self::Model(a, _) => a.load(order),
                }
            }

            /// `store`.
            #[inline]
            pub(crate) fn store(&self, v: $value, order: Ordering) {
                match self {
                    Self::Real(a) => a.store(v, order),
                    Self::Model(a, shadow) => {
                        if !failed() {
                            a.store(v, order);
                        }
                        shadow.store(v, order);
                    }
                }
            }

            /// `swap`.
            #[inline]
            pub(crate) fn swap(&self, v: $value, order: Ordering) -> $value {
                match self {
                    Self::Real(a) => a.swap(v, order),
                    Self::Model(_, shadow) if failed() => shadow.swap(v, order),
                    Self::Model(a, shadow) => {
                        let old = a.swap(v, order);
                        shadow.store(v, Ordering::Relaxed);
                        old
                    }
                }
            }

            /// `compare_exchange`.
            #[inline]
            pub(crate) fn compare_exchange(
                &self,
                current: $value,
                new: $value,
                success: Ordering,
                failure: Ordering,
            ) -> Result<$value, $value> {
                match self {
                    Self::Real(a) => a.compare_exchange(current, new, success, failure),
                    Self::Model(_, shadow) if failed() => {
                        shadow.compare_exchange(current, new, success, failure)
                    }
                    Self::Model(a, shadow) => {
                        let result = a.compare_exchange(current, new, success, failure);
                        if result.is_ok() {
                            shadow.store(new, Ordering::Relaxed);
                        }
                        result
                    }
                }
            }

            /// `compare_exchange_weak`.
            #[inline]
            pub(crate) fn compare_exchange_weak(
                &self,
                current: $value,
                new: $value,
                success: Ordering,
                failure: Ordering,
            ) -> Result<$value, $value> {
                match self {
                    Self::Real(a) => a.compare_exchange_weak(current, new, success, failure),
                    Self::Model(_, shadow) if failed() => {
                        shadow.compare_exchange_weak(current, new, success, failure)
                    }
                    Self::Model(a, shadow) => {
                        let result = a.compare_exchange_weak(current, new, success, failure);
                        if result.is_ok() {
                            shadow.store(new, Ordering::Relaxed);
                        }
                        result
                    }
                }
            }
        }
    };
}

atomic!(AtomicBool, bool);
atomic!(AtomicU32, u32);
atomic!(AtomicUsize, usize);

/// A handle to a thread, which another thread can wake from [`park`]: a modelled thread's
/// inside a model.
#[derive(Clone)]
pub(crate) enum Thread {
    /// A thread of the process.
    Real(imp::Thread),
    /// A thread of the model.
    Model(loom::thread::Thread),
}

impl Thread {
    /// Wakes the thread from [`park`], or makes its next `park` return at once.
    #[inline]
    pub(crate) fn unpark(&self) {
        match self {
            Self::Real(thread) => thread.unpark(),
            Self::Model(_) if failed() => {}
            Self::Model(thread) => thread.unpark(),
        }
    }
}

/// The calling thread.
#[inline]
pub(crate) fn current() -> Thread {
    if live() {
        Thread::Model(loom::thread::current())
    } else {
        Thread::Real(imp::current())
    }
}

/// Sleeps until [`Thread::unpark`], or spuriously: callers loop on their own condition (and
/// give up once the model [`failed`]).
#[inline]
pub(crate) fn park() {
    if in_model() {
        if !failed() {
            loom::thread::park();
        }
    } else {
        imp::park();
    }
}

/// [`park`], for at most `timeout`; inside a model, which has no time, a yield (a spurious
/// wake-up: timed waits do not get here inside a model, see `wait.rs`).
#[inline]
pub(crate) fn park_timeout(timeout: core::time::Duration) {
    if in_model() {
        yield_now();
    } else {
        imp::park_timeout(timeout);
    }
}

/// Gives the processor to another thread.
#[inline]
pub(crate) fn yield_now() {
    if in_model() {
        if !failed() {
            loom::thread::yield_now();
        }
    } else {
        imp::yield_now();
    }
}

/// A number that no other live thread has (of the model, inside one).
#[inline]
pub(crate) fn thread_id() -> usize {
    if live() {
        loom::thread_local! {
            static ME: Cell<u8> = Cell::new(0);
        }
        // The address of a modelled thread's local: distinct between its live threads (loom
        // boxes each), never 0.
        ME.with(|me| core::ptr::from_ref(me).addr())
    } else {
        imp::thread_id()
    }
}
