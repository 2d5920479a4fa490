// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Leaks on the host, as kmemleak reports them: the allocations of a test that are still live
//! when it ends fail it.
//!
//! An addition of kernel-core, for the host alone (feature `std`); in the kernel the same
//! reports come from `CONFIG_DEBUG_KMEMLEAK`. Every allocation a test's
//! [scope](super::scope) makes through kernel-core's allocators (`KBox`, `KVec`, `Arc`, ...)
//! is kept with its site; when the scope ends (a `#[kunit_tests]` case returns, an
//! [`enter`](super::scope::enter)ed scope is dropped or finished), those still live fail the
//! test with kmemleak's report, one entry per allocation site:
//!
//! ```text
//! unreferenced object 0x55d0c1a2b3c0 (size 64):
//!   comm "ring::tests::grows", pid 4242, jiffies 4294892300
//!   backtrace:
//!     src/ring.rs:40:21 (kmalloc)
//!   ... and 2 more object(s) with the same backtrace
//! kmemleak: 3 new suspected memory leaks
//! ```
//!
//! The host does not scan memory for pointers as kmemleak does: an allocation that outlives
//! its test is reported whether something still points to it or not. A `KBox::leak`, an `Arc`
//! whose count never drops to zero, a buffer handed to a static or to a thread still running
//! are leaks, unless the test says it keeps them, as the kernel's code tells kmemleak:
//!
//! - [`not_leak`]: one object (`kmemleak_not_leak()`);
//! - [`allow`]: all of the test's objects, for a test that means to keep what it allocates
//!   (it opts out by being the test that calls it);
//! - by name, without touching the test: `KERNEL_CORE_ALLOW_LEAKS` in the environment lists
//!   the tests whose leaks are not reported, separated by commas or spaces, each the test's
//!   name as `cargo test` lists it (`ring::tests::keeps_its_table`), its last parts
//!   (`tests::keeps_its_table`, `keeps_its_table`), or a prefix ending in `*` (`ring::*`);
//!   `cargo kernel-core test --allow-leaks NAME` sets it.
//!
//! After a panic, nothing is reported: the panic is the test's failure.
//!
//! # Examples
//!
//! ```
//! use kernel_core::extras::{leak, scope};
//! use kernel_core::prelude::*;
//!
//! let scope = scope::enter();
//! // Handed to the kernel for good, on purpose.
//! let table: &'static mut [u32; 8] = KBox::leak(KBox::new([0; 8], GFP_KERNEL)?);
//! assert!(leak::not_leak(table.as_ptr()));
//! scope.finish().unwrap();
//! # Ok::<(), Error>(())
//! ```

use core::sync::atomic::Ordering::Relaxed;

use crate::env::scoped::{leaks, scope};

/// The leaks of this thread's scope are not reported: the test keeps what it allocates on
/// purpose. Outside every scope, nothing to do.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::{leak, scope};
/// use kernel_core::prelude::*;
///
/// let scope = scope::enter();
/// leak::allow();
/// KBox::leak(KBox::new(1_u8, GFP_KERNEL)?);
/// scope.finish().unwrap();
/// # Ok::<(), Error>(())
/// ```
pub fn allow() {
    if let Some(state) = scope::current() {
        state.leaks_allowed.store(true, Relaxed);
    }
}

/// `kmemleak_not_leak(ptr)`: the object that holds `ptr` (its start, or any byte of it: the
/// value of an `Arc`, say) is not reported when its scope ends. Whether a scope kept such an
/// object (a zero-sized value's pointer, or memory from elsewhere, is not one).
///
/// # Examples
///
/// ```
/// use kernel_core::extras::{leak, scope};
/// use kernel_core::prelude::*;
/// use kernel_core::sync::Arc;
///
/// let scope = scope::enter();
/// let shared = Arc::new(5_u64, GFP_KERNEL)?;
/// assert!(leak::not_leak(Arc::as_ptr(&shared)));
/// core::mem::forget(shared);
/// assert!(!leak::not_leak(&0_u8));
/// scope.finish().unwrap();
/// # Ok::<(), Error>(())
/// ```
pub fn not_leak<T: ?Sized>(ptr: *const T) -> bool {
    leaks::not_leak(ptr.cast::<u8>())
}
