// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::sync` in the kernel.
//!
//! - **Linux 7.3**: the kernel's own module.
//! - **Linux 7.2**: the kernel's own, with 7.3's `SpinLockIrq` (a spinlock that disables local
//!   interrupts), which 7.2 lacks: a backend of 7.2's own `Lock` over `spin_lock_irqsave()`; and
//!   7.3's barriers, which take an ordering where 7.2's take none.
//! - **Linux 6.12**, whose `Lock::new` takes a value, a 6.12 `CStr` and an unpinned key, and which
//!   has no `try_lock`, `SpinLockIrq`, `global_lock!`, `Completion`, `SetOnce`, atomics or
//!   `Refcount`: kernel-core's shared code (`env/sync/`, the host's too: `Lock`, `Guard`,
//!   `CondVar`, `Completion`, ... with 7.3's signatures) over 6.12's own C primitives
//!   (`sync/raw.rs`): the kernel's mutexes, spinlocks, wait queues and completions, with
//!   lockdep's classes, so that every detector of the kernel sees them as the kernel's own.
//!   `Arc`, `ArcBorrow`, `UniqueArc` and `ARef` are 6.12's own.

#[cfg(kernel_core_linux_7_1)]
pub use kernel::sync::*;

#[cfg(all(kernel_core_linux_7_1, not(kernel_core_linux_7_3)))]
#[path = "sync/irq_7_2.rs"]
mod irq_7_2;
#[cfg(all(kernel_core_linux_7_1, not(kernel_core_linux_7_3)))]
pub use irq_7_2::{new_spinlock_irq, SpinLockIrq, SpinLockIrqBackend, SpinLockIrqGuard};

/// 7.3's barriers (`mb(Full)`, `smp_mb(Read)`, `dma_mb(Write)`, ...) on 7.2, whose
/// `smp_mb()`, `smp_rmb()` and `smp_wmb()` take no ordering: kernel-core's, through its C
/// helpers, as on 6.12. It shadows the kernel's module of that name.
#[cfg(all(kernel_core_linux_7_1, not(kernel_core_linux_7_3)))]
#[path = "sync/barrier.rs"]
pub mod barrier;

#[cfg(not(kernel_core_linux_7_1))]
#[path = "sync/own_6_12.rs"]
mod own_6_12;
#[cfg(not(kernel_core_linux_7_1))]
pub use own_6_12::*;
