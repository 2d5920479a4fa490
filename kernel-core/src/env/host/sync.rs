// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::sync` on the host: kernel-core's own, on real threads.
//!
//! Two kinds of code make it up:
//!
//! - **shared code** in `env/sync/` (the generic [`Lock`](lock::Lock), [`Guard`](lock::Guard)
//!   and [`Backend`](lock::Backend), the `Mutex` and `SpinLock` aliases and macros, global
//!   locks, [`CondVar`], [`Completion`], [`LockedBy`], [`SetOnce`], the [`atomic`] front), which a
//!   kernel whose `kernel::sync` lacks 7.3's forms can build with its own primitives. It reaches
//!   them through this module's children, by these names: [`LockClassKey`],
//!   `bindings::lock_class_key`, `opaque::Opaque` (shared too), and in `raw` the backends
//!   (`MutexBackend`, `SpinLockBackend`, `SpinLockIrqBackend`), the wait-queue functions that
//!   `CondVar` sleeps with (`wait_queue_head`, `init_waitqueue_head`, `wait`, `wake_up`,
//!   `wake_up_sync`, `signal_pending`, `TASK_*`, `MAX_SCHEDULE_TIMEOUT`), the completion
//!   functions (`completion`, `init_completion`, `complete_all`, `wait_for_completion`) and
//!   `atomic` (`AtomicImpl`, `AtomicRepr` and the operation traits);
//! - **the host's primitives** in `env/host/sync/`: the lock class keys, the mutex, spinlocks,
//!   wait queue and completion, the atomics over `core`'s, `Refcount`, barriers, `ARef` and
//!   `Arc`. They block and spin only through `platform.rs`, and tell the bug detectors what
//!   they do only through `hooks.rs`.

/// The host's threading primitives (atomics, parking, thread identity): the one module the
/// model checker (feature `loom`) replaces.
#[path = "sync/platform.rs"]
pub(crate) mod platform;

/// The host's threading primitives under the model checker: loom's inside a model.
#[cfg(feature = "loom")]
#[path = "sync/model.rs"]
pub(crate) mod model;

/// The seams of the host's lockdep and sleeping-in-atomic detectors.
#[path = "sync/hooks.rs"]
pub(crate) mod hooks;

/// The queue of sleeping threads under mutexes, condition variables and completions.
#[path = "sync/wait_queue.rs"]
mod wait_queue;

/// Lock class keys, `static_lock_class!` and `optional_name!`.
#[path = "sync/class.rs"]
pub(crate) mod class;

/// The host's `struct mutex`.
#[path = "sync/mutex.rs"]
mod mutex;

/// The host's `spinlock_t`.
#[path = "sync/spinlock.rs"]
mod spinlock;

/// The host's `struct wait_queue_head` and its sleeping and waking.
#[path = "sync/wait.rs"]
mod wait;

/// The host's `struct completion`.
#[path = "sync/completion.rs"]
mod completion_raw;

/// The host's atomic operations.
#[path = "../sync/atomic_ops.rs"]
mod atomic_raw;

/// What the shared code of `env/sync/` uses of this world.
pub(crate) mod raw {
    pub use super::mutex::MutexBackend;
    pub use super::spinlock::{SpinLockBackend, SpinLockIrqBackend};

    pub(crate) use super::completion_raw::{
        complete_all, completion, init_completion, wait_for_completion,
    };
    pub(crate) use super::wait::{
        init_waitqueue_head, signal_pending, wait, wait_queue_head, wake_up, wake_up_sync,
        MAX_SCHEDULE_TIMEOUT, TASK_FREEZABLE, TASK_INTERRUPTIBLE, TASK_UNINTERRUPTIBLE,
    };

    /// The atomic operations.
    pub(crate) mod atomic {
        pub use super::super::atomic_raw::AtomicImpl;
        pub(crate) use super::super::atomic_raw::{
            AtomicArithmeticOps, AtomicBasicOps, AtomicExchangeOps, AtomicRepr,
        };
    }
}

/// The C types that the shared code's signatures name (`kernel::bindings` in the kernel).
pub(crate) mod bindings {
    pub(crate) use super::class::lock_class_key;
}

#[path = "../sync/opaque.rs"]
mod opaque;

#[path = "../sync/lock.rs"]
pub mod lock;

#[path = "../sync/condvar.rs"]
mod condvar;

#[path = "../sync/completion.rs"]
pub mod completion;

#[path = "../sync/locked_by.rs"]
mod locked_by;

#[path = "../sync/set_once.rs"]
mod set_once;

#[path = "../sync/atomic.rs"]
pub mod atomic;

#[path = "sync/arc.rs"]
mod arc;

#[path = "sync/aref.rs"]
pub mod aref;

#[path = "sync/barrier.rs"]
pub mod barrier;

#[path = "sync/refcount.rs"]
mod refcount;

pub use arc::{Arc, ArcBorrow, UniqueArc};
pub use class::{static_lock_class, LockClassKey};
pub use completion::Completion;
pub use condvar::{new_condvar, CondVar, CondVarTimeoutResult};
pub use lock::global::{global_lock, GlobalGuard, GlobalLock, GlobalLockBackend, GlobalLockedBy};
pub use lock::mutex::{new_mutex, Mutex, MutexGuard};
pub use lock::spinlock::{
    new_spinlock, new_spinlock_irq, SpinLock, SpinLockGuard, SpinLockIrq, SpinLockIrqGuard,
};
pub use locked_by::LockedBy;
pub use refcount::Refcount;
pub use set_once::SetOnce;

#[cfg(all(test, feature = "std"))]
#[path = "sync/tests.rs"]
mod tests;
