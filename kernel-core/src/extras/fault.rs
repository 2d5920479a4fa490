// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Failed allocations on the host, as the kernel's fault injection makes them: a test asks that
//! its Nth allocation fail ([`fail_nth`]), as a task does by writing N to
//! `/proc/self/task/<tid>/fail-nth`.
//!
//! An addition of kernel-core, for the host alone (feature `std`); in the kernel the same
//! failures come from `CONFIG_FAULT_INJECTION` (`failslab`, `fail_page_alloc`, `fail-nth`).
//! The count is the one of the test's [scope](super::scope): every allocation and every
//! reallocation that grows, through `Kmalloc`, `Vmalloc` or `KVmalloc` (a `KBox::new`, a
//! `KVec::push` that grows the buffer, an `Arc::new`, a `KBox::pin_init`, ...), by the scope's
//! members. The failure is the same [`AllocError`](crate::alloc::AllocError) a real one is,
//! which everything above it passes on as in the kernel (`KBox::new` returns it, `KVec::push`
//! returns it and keeps its elements, `pin_init` into a box returns it without running the
//! initialiser, a driver's `?` makes it `ENOMEM`). Unless the request has `__GFP_NOWARN`, the
//! failure prints what the kernel prints (`lib/fault-inject.c`'s `fail_dump()`), with the
//! allocation's site instead of a stack:
//!
//! ```text
//! FAULT_INJECTION: forcing a failure.
//! name failslab, interval 1, probability 0, space 0, times 1
//! PID: 4242 Comm: ring::tests::grows
//! Call Trace:
//!  <TASK>
//!  kmalloc(64, GFP_KERNEL) at src/ring.rs:40:21
//!  </TASK>
//! ```
//!
//! `KERNEL_CORE_FAIL_NTH=n` in the environment makes every test's `n`th allocation fail, and
//! `cargo kernel-core test --fail-each-alloc` runs each test once per allocation it made,
//! failing each in turn. What a test must do then is in [`scope`](super::scope): return the
//! error (or handle it and pass), never panic on it, and leak nothing.
//!
//! The kernel's details that the host follows and where it differs are in
//! `env/host/detect/faults.rs`: the points are counted per scope (the kernel counts per task),
//! a `kvmalloc()` is one point, and every request may fail, as with `failslab`'s
//! `ignore-gfp-wait=N`.
//!
//! # Examples
//!
//! The documentation's systematic loop (`Documentation/fault-injection/fault-injection.rst`,
//! "Systematic faults using fail-nth"): fail the first allocation, then the second, and so on,
//! until the code under test runs without reaching the failure.
//!
//! ```
//! use kernel_core::extras::{fault, scope};
//! use kernel_core::prelude::*;
//!
//! /// Two allocations: a table and its index.
//! fn probe() -> Result<(KVec<u32>, KBox<[u8; 64]>)> {
//!     let mut table = KVec::new();
//!     table.push(7, GFP_KERNEL)?;
//!     let index = KBox::new([0; 64], GFP_KERNEL)?;
//!     Ok((table, index))
//! }
//!
//! let _scope = scope::enter();
//! for n in 1.. {
//!     fault::fail_nth(n);
//!     let result = probe();
//!     if fault::read_fail_nth() != 0 {
//!         // Not reached: `probe` made fewer than `n` allocations.
//!         fault::fail_nth(0);
//!         assert!(result.is_ok());
//!         assert_eq!(n, 3);
//!         break;
//!     }
//!     assert_eq!(result.err(), Some(ENOMEM));
//!     assert_eq!(fault::injected().unwrap().allocation(), fault::allocations());
//! }
//! # Ok::<(), Error>(())
//! ```

use core::panic::Location;
use core::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

use crate::env::scoped::faults;
use crate::env::scoped::scope::{self, State};

/// This thread's scope.
///
/// # Panics
///
/// Outside every scope.
#[track_caller]
fn scope_of(what: &str) -> Arc<State> {
    scope::current().unwrap_or_else(|| {
        panic!(
            "extras::fault::{what}() outside a test's scope: a #[kunit_tests] case runs in one, \
             another test opens one with extras::scope::enter()"
        )
    })
}

/// Makes the `n`th allocation from now of this thread's scope fail; 0 cancels a failure not
/// injected yet. As writing `n` to `/proc/self/task/<tid>/fail-nth`.
///
/// With `KERNEL_CORE_DETECTORS=off` the scope counts nothing, and nothing fails: the request
/// is dropped, so that [`read_fail_nth`] reads 0, as after an injected failure, and a test can
/// tell.
///
/// # Panics
///
/// Outside every [scope](super::scope).
///
/// # Examples
///
/// ```
/// use kernel_core::alloc::AllocError;
/// use kernel_core::extras::{fault, scope};
/// use kernel_core::prelude::*;
///
/// let _scope = scope::enter();
/// fault::fail_nth(2);
/// let first = KBox::new(1_u8, GFP_KERNEL)?;
/// assert_eq!(KBox::new(2_u8, GFP_KERNEL).err(), Some(AllocError));
/// let third = KBox::new(3_u8, GFP_KERNEL)?;
/// assert_eq!((*first, *third), (1, 3));
/// # Ok::<(), Error>(())
/// ```
#[track_caller]
pub fn fail_nth(n: u32) {
    let scope = scope_of("fail_nth");
    if crate::env::detect::enabled() {
        faults::fail_nth(&scope, u64::from(n));
    }
}

/// What reading `/proc/self/task/<tid>/fail-nth` gives: how many allocations of this thread's
/// scope until the failure asked for, 0 once it was injected (or if none was asked for).
///
/// # Panics
///
/// Outside every [scope](super::scope).
///
/// # Examples
///
/// ```
/// use kernel_core::extras::{fault, scope};
/// use kernel_core::prelude::*;
///
/// let _scope = scope::enter();
/// fault::fail_nth(3);
/// let _a = KVec::<u8>::with_capacity(1, GFP_KERNEL)?;
/// assert_eq!(fault::read_fail_nth(), 2);
/// # Ok::<(), Error>(())
/// ```
#[track_caller]
pub fn read_fail_nth() -> u32 {
    let left = faults::read_fail_nth(&scope_of("read_fail_nth"));
    u32::try_from(left).unwrap_or(u32::MAX)
}

/// How many allocations this thread's scope has counted (its fault-injection points: every
/// allocation, and every reallocation that grows), the failed one included.
///
/// # Panics
///
/// Outside every [scope](super::scope).
///
/// # Examples
///
/// ```
/// use kernel_core::extras::{fault, scope};
/// use kernel_core::prelude::*;
///
/// let _scope = scope::enter();
/// let mut v = KVVec::with_capacity(4, GFP_KERNEL)?; // allocates
/// v.push(1_u64, GFP_KERNEL)?; // fits: no allocation
/// v.reserve(100, GFP_KERNEL)?; // grows
/// v.shrink_to(0, GFP_KERNEL)?; // shrinks: no new memory, no point
/// assert_eq!(fault::allocations(), 2);
/// # Ok::<(), Error>(())
/// ```
#[track_caller]
pub fn allocations() -> u64 {
    scope_of("allocations").allocations.load(Relaxed)
}

/// The failure injected in this thread's scope since the last [`fail_nth`], if any.
///
/// # Panics
///
/// Outside every [scope](super::scope).
#[track_caller]
pub fn injected() -> Option<Injected> {
    let state = scope_of("injected");
    let injected = state.injected();
    injected.as_ref().map(|injection| Injected {
        allocation: injection.number,
        location: injection.site,
        allocator: injection.allocator,
        size: injection.size,
    })
}

/// An injected failure: which allocation, where, of what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Injected {
    allocation: u64,
    location: &'static Location<'static>,
    allocator: &'static str,
    size: usize,
}

impl Injected {
    /// Which allocation of the scope failed, from 1 (as [`allocations`] counts them).
    pub fn allocation(&self) -> u64 {
        self.allocation
    }

    /// Where the driver asked for it: the first caller outside kernel-core.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::{fault, scope};
    /// use kernel_core::prelude::*;
    ///
    /// let _scope = scope::enter();
    /// fault::fail_nth(1);
    /// assert!(KBox::new(0_u32, GFP_KERNEL).is_err());
    /// assert_eq!(fault::injected().unwrap().location().line(), line!() - 1);
    /// ```
    pub fn location(&self) -> &'static Location<'static> {
        self.location
    }

    /// The allocator: `kmalloc`, `vmalloc` or `kvmalloc`.
    pub fn allocator(&self) -> &'static str {
        self.allocator
    }

    /// The size asked for, in bytes.
    pub fn size(&self) -> usize {
        self.size
    }
}
