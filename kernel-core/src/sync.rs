// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Synchronisation: locks ([`Mutex`], [`SpinLock`], [`SpinLockIrq`], [`global_lock!`]),
//! [`CondVar`], [`Completion`], [`SetOnce`], [`LockedBy`], reference counting ([`Arc`],
//! [`aref::ARef`], [`Refcount`]), atomics with the kernel's memory model ([`atomic`]) and
//! [`barrier`]s.
//!
//! Kernel counterpart: `rust/kernel/sync.rs` and `rust/kernel/sync/` (Linux 7.3); C headers:
//! [`include/linux/mutex.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/mutex.h),
//! [`include/linux/spinlock.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/spinlock.h),
//! [`include/linux/wait.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/wait.h),
//! [`include/linux/completion.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/completion.h),
//! [`include/linux/lockdep_types.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/lockdep_types.h),
//! [`include/linux/refcount.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/refcount.h),
//! [`include/linux/atomic.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/atomic.h).
//!
//! Why: a driver's logic is mostly state behind locks, shared through `Arc`s and handed over
//! with condition variables and completions. With this module it is the same code on every
//! kernel and under `cargo test`, where its races, lock misuse and lifetimes can be tested on
//! real threads (and under Miri) before a kernel boots.
//!
//! # Examples
//!
//! A mailbox: a message behind a mutex, and a condition variable to wait for one; shared
//! through an `Arc`, here with a real thread on the host:
//!
//! ```
//! use kernel_core::prelude::*;
//! use kernel_core::sync::{new_condvar, new_mutex, Arc, CondVar, Mutex};
//!
//! #[pin_data]
//! struct Mailbox {
//!     #[pin]
//!     message: Mutex<Option<u32>>,
//!     #[pin]
//!     arrived: CondVar,
//! }
//!
//! impl Mailbox {
//!     fn new() -> Result<Arc<Self>> {
//!         Arc::pin_init(
//!             pin_init!(Self {
//!                 message <- new_mutex!(None),
//!                 arrived <- new_condvar!(),
//!             }),
//!             GFP_KERNEL,
//!         )
//!     }
//!
//!     fn send(&self, m: u32) {
//!         *self.message.lock() = Some(m);
//!         self.arrived.notify_all();
//!     }
//!
//!     fn receive(&self) -> u32 {
//!         let mut message = self.message.lock();
//!         loop {
//!             if let Some(m) = message.take() {
//!                 return m;
//!             }
//!             self.arrived.wait(&mut message);
//!         }
//!     }
//! }
//!
//! let mailbox = Mailbox::new()?;
//! let sender = mailbox.clone();
//! let thread = std::thread::spawn(move || sender.send(42));
//! assert_eq!(mailbox.receive(), 42);
//! thread.join().unwrap();
//! # Ok::<(), Error>(())
//! ```
//!
//! # The worlds
//!
//! - **Linux 7.3 and 7.2**: these are the kernel's own items.
//! - **Linux 6.12**: what 6.12 lacks or has in an older form (`Lock::new` taking an initialiser
//!   and a pinned key, `try_lock`, `SpinLockIrq`, `global_lock!`, `Completion`, `SetOnce`,
//!   `Refcount`, `atomic`, `barrier`, `aref`) is bridged, with kernel-core's own locks over the
//!   kernel's `struct mutex` and `spinlock_t` where needed.
//! - **The host**: kernel-core's own, on threads. With feature `std` a contended [`Mutex`]
//!   sleeps (the thread is parked in a queue of waiters), a [`CondVar`] or [`Completion`] waiter
//!   sleeps until woken, and timeouts run on the real monotonic clock. **Without `std`** the
//!   same types exist and behave the same, but nothing can sleep: a contended lock, a
//!   condition-variable wait and a completion wait spin until the holder or waker on another
//!   thread lets them go, and a timed wait that nobody woke times out at once (there is no
//!   clock).
//!
//! # The host and the kernel's preemption models
//!
//! | | `PREEMPT_NONE`, `PREEMPT_VOLUNTARY`, `PREEMPT`, `PREEMPT_LAZY` | `PREEMPT_RT` | the host |
//! |---|---|---|---|
//! | contended `Mutex` | sleeps | sleeps | sleeps (`std`) or spins |
//! | contended `SpinLock` | spins, preemption off | sleeps (an `rt_mutex`), preemptible | spins, then yields the CPU each round; the holder can be preempted |
//! | `SpinLock` held | atomic context: no sleeping | not atomic: may sleep | atomic context, as without `PREEMPT_RT`, for the bug detectors |
//! | `SpinLockIrq` held | local interrupts off | interrupts on (threaded handlers) | no interrupts exist; "interrupts off" for the detectors |
//! | `CondVar::wait*` | sleeps; spurious wake-ups possible | the same | sleeps; no spurious wake-up, but code must allow them |
//! | signals (`wait_interruptible*`) | end the wait | the same | never: a host thread has no signal pending |
//! | freezer (`wait_interruptible_freezable`) | may freeze | the same | none |
//! | `wait_interruptible_timeout` jiffies | `CONFIG_HZ` | the same | `HZ` = 250 (4 ms); with virtual time, an un-notified wait times out at once |
//! | `Refcount` saturation | `WARN_ONCE()` in the log | the same | the same lines on the standard error (`std`) |
//!
//! The host's lock acquisitions, sleeps and atomic sections go through one module of seams
//! (`env/host/sync/hooks.rs`), where the host's lockdep and sleeping-in-atomic checks go.
//!
//! Not here: `sync::poll`, `sync::rcu`, `sync::srcu` and `Srcu` (they wrap the kernel's poll
//! tables, RCU and SRCU), `SpinLockIrq::lock_with` and `try_lock_with` (they take a
//! `kernel::interrupt::LocalInterruptDisabled`, which the host does not have), and
//! `ForeignOwnable` for `Arc` and `ARef` (it comes with `kernel_core::types`).

pub use crate::env::sync::*;
