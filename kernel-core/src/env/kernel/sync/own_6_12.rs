// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Linux 7.3's `kernel::sync` on Linux 6.12: kernel-core's shared code (`env/sync/`) over 6.12's
//! own C primitives ([`raw`]), with 6.12's `Arc`, `ArcBorrow`, `UniqueArc` and `ARef`.
//!
//! The shared code reaches this world by the names its host twin (`env/host/sync.rs`) gives:
//! `LockClassKey`, `bindings::lock_class_key`, `opaque::Opaque` and `raw`.

/// The C primitives the shared code uses: 6.12's, through its bindings and kernel-core's helpers.
#[path = "raw.rs"]
pub(crate) mod raw;

/// The C types that the shared code's signatures name.
pub(crate) mod bindings {
    pub(crate) use kernel::bindings::lock_class_key;
}

#[path = "class.rs"]
mod class;

#[path = "../../sync/opaque.rs"]
mod opaque;

#[path = "../../sync/lock.rs"]
pub mod lock;

#[path = "../../sync/condvar.rs"]
mod condvar;

#[path = "../../sync/completion.rs"]
pub mod completion;

#[path = "../../sync/locked_by.rs"]
mod locked_by;

#[path = "../../sync/set_once.rs"]
mod set_once;

#[path = "../../sync/atomic_ops.rs"]
mod atomic_ops;

#[path = "../../sync/atomic.rs"]
pub mod atomic;

#[path = "barrier.rs"]
pub mod barrier;

#[path = "refcount.rs"]
mod refcount;

/// `ARef` and `AlwaysRefCounted`, at 7.3's path: 6.12's own, from `kernel::types`.
pub mod aref {
    pub use kernel::types::{ARef, AlwaysRefCounted};
}

pub use class::{static_lock_class, LockClassKey};
pub use completion::Completion;
pub use condvar::{new_condvar, CondVar, CondVarTimeoutResult};
pub use kernel::sync::{Arc, ArcBorrow, UniqueArc};
pub use lock::global::{global_lock, GlobalGuard, GlobalLock, GlobalLockBackend, GlobalLockedBy};
pub use lock::mutex::{new_mutex, Mutex, MutexGuard};
pub use lock::spinlock::{
    new_spinlock, new_spinlock_irq, SpinLock, SpinLockGuard, SpinLockIrq, SpinLockIrqGuard,
};
pub use locked_by::LockedBy;
pub use refcount::Refcount;
pub use set_once::SetOnce;

/// Linux 7.3's `Arc::as_ptr`, which 6.12's `Arc` lacks; `kernel_core::prelude` imports it.
#[doc(hidden)]
pub trait ArcExt<T: ?Sized> {
    /// A pointer to the `Arc`'s value, valid while an `Arc` to it lives.
    fn as_ptr(this: &Self) -> *const T;
}

impl<T: ?Sized> ArcExt<T> for Arc<T> {
    #[inline]
    fn as_ptr(this: &Self) -> *const T {
        core::ptr::from_ref::<T>(this)
    }
}
