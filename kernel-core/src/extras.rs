// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What kernel-core adds beyond the kernel crate's API.
//!
//! Everything under [`build_assert`](mod@crate::build_assert), [`sizes`](crate::sizes),
//! [`ptr`](crate::ptr), [`time`](crate::time), [`prelude`](crate::prelude) and
//! [`macros`](crate::macros) has the signatures and the behaviour of Linux 7.3's `kernel::`
//! items of the same path, so code written against them builds and behaves the same with the
//! kernel's own crate. The additions live here instead, where a reader sees that they are
//! kernel-core's: a driver that uses one keeps kernel-core for it when it switches back to
//! `kernel::` (see the [migration guide](crate::guide::migrating)).
//!
//! - [`bytes::FromBytes`] and [`bytes::IntoBytes`]: the bounds of `io`'s byte copies and casts,
//!   which Linux 7.3 takes from its vendored `zerocopy`; on 7.2 and 7.3 every type implementing
//!   the kernel's implements kernel-core's.
//! - [`detectors`]: on the host (feature `std`), the bug detectors of kernel-core's `sync` and
//!   `alloc` (lock order and recursive locking as lockdep checks them, sleeping in atomic
//!   context), their switches, and their reports, which a test can catch.
//! - [`fmt::Decimal`]: a `u64` or `i64` printed in decimal on 32-bit kernels too, where Rust's
//!   own `{}` of one calls a 64-bit division the kernel does not have.
//! - [`io::sys_mem`]: an I/O region backed by an array, for testing a driver's register code
//!   with `cargo` (and in KUnit) without `unsafe`.
//! - [`fault`]: on the host (feature `std`), failed allocations as the kernel's fault injection
//!   makes them: [`fault::fail_nth`] fails the Nth allocation of a test, as
//!   `/proc/self/task/<tid>/fail-nth` does.
//! - [`leak`]: on the host (feature `std`), kmemleak's reports of what a test left allocated,
//!   and how a test says it keeps an object ([`leak::not_leak`]) or all of them
//!   ([`leak::allow`]).
//! - [`log`]: on the host (feature `std`), the lines a test's `pr_info!` and its siblings
//!   printed, read back per test (and per thread it attaches), as `dmesg -r` shows them.
//! - [`model`]: on the host (feature `std`), a model checker for a test's threads: with the
//!   feature `loom`, [`model::model`] runs a test once per interleaving of its threads that
//!   [loom](https://docs.rs/loom/0.7) explores, with kernel-core's `sync` on loom's primitives,
//!   and fails it with the interleaving that breaks it (a lost update, a deadlock); without,
//!   once on real threads.
//! - [`module`]: on the host, what `module!` declares a module with ([`module::ModInfo`], what
//!   `modinfo` shows), and (feature `std`) [`module::load`] and [`module::load_with`], `insmod`
//!   and `rmmod` for tests: a module's `init` with its parameters, and a guard that unloads it.
//! - [`scope`]: on the host (feature `std`), a test's scope: its allocations, their fault
//!   injection and leak checks, and the threads that join it. Every `#[kunit_tests]` case runs
//!   in one; other tests open one with [`scope::enter`].
//! - [`sizes::SizeConstants64`]: the 64-bit sizes of `include/linux/sizes.h` (`SZ_4G` to
//!   `SZ_128T`) as `u64` constants.
//! - [`uaccess::UserMemory`]: on the host (feature `std`), a test thread's user memory, which
//!   the `UserSlice`s of [`uaccess`](crate::uaccess) read and write: an `ioctl`'s argument,
//!   set up and read back by the test.
//! - [`time::FakeClock`] and [`time::fake_clock!`]: clocks whose time a test sets, for testing
//!   timeouts without waiting. They are written against the mirrored `time` API alone, so the
//!   same file also builds on top of the kernel's own `kernel::time` (kernel-core's switch-back
//!   check builds it that way).
//! - [`virtual_time::VirtualTime`]: on the host (feature `std`, Linux), a test's virtual
//!   monotonic clock, under which `fsleep`, `udelay` and `io::poll` advance it instead of
//!   waiting: a driver's timeouts, tested deterministically in microseconds.
//!
//! # Examples
//!
//! ```
//! use kernel_core::extras::sizes::SizeConstants64;
//! use kernel_core::extras::time::FakeClock;
//! use kernel_core::time::{Delta, Instant};
//!
//! assert_eq!(u64::SZ_4G, 1 << 32);
//! let start = Instant::<FakeClock>::now();
//! FakeClock::advance(Delta::from_millis(3));
//! assert_eq!(start.elapsed().as_millis(), 3);
//! ```

pub mod bytes;
// The host's alone (feature `std`): in the kernel, the kernel's own detectors report.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod detectors;
// The host's alone (feature `std`): in the kernel, `CONFIG_FAULT_INJECTION`'s.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod fault;
pub mod fmt;
pub mod io;
// The host's alone (feature `std`): in the kernel, `CONFIG_DEBUG_KMEMLEAK`'s.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod leak;
// The host's alone (feature `std`): the kernel has no model checker.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod model;
// The host's alone: in the kernel, the kernel loads modules.
crate::env::module::host_only! {
    pub mod module;
}
// The host's alone (feature `std`): in the kernel the log is the kernel's.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod log;
// The host's alone (feature `std`): a test's scope, in which its detectors watch it.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod scope;
pub mod sizes;
pub mod time;

// The host's alone: the kernel's clock cannot be made virtual.
crate::env::delay::host_std_only! {
    pub mod virtual_time;
}

// The host's alone: in the kernel, user memory is the calling process's.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod uaccess;
