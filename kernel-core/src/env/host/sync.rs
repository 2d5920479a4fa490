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

/// The host's atomic operations.
#[path = "sync/atomic.rs"]
mod atomic_raw;

/// What the shared code of `env/sync/` uses of this world.
pub(crate) mod raw {
    /// The atomic operations.
    pub(crate) mod atomic {
        pub use super::super::atomic_raw::AtomicImpl;
        pub(crate) use super::super::atomic_raw::{
            AtomicArithmeticOps, AtomicBasicOps, AtomicExchangeOps, AtomicRepr,
        };
    }
}

#[path = "../sync/atomic.rs"]
pub mod atomic;

#[path = "../sync/set_once.rs"]
mod set_once;

#[path = "sync/aref.rs"]
pub mod aref;

#[path = "sync/barrier.rs"]
pub mod barrier;

pub use set_once::SetOnce;
