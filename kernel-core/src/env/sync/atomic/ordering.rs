// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The memory orderings of atomic operations, as types: [`Relaxed`], [`Acquire`], [`Release`]
//! and [`Full`], passed by value (`x.load(Acquire)`).
//!
//! Kernel counterpart: `rust/kernel/sync/atomic/ordering.rs` (Linux 7.3). They mean what the
//! Linux kernel memory model ([LKMM]) says:
//!
//! - [`Relaxed`]: no ordering, but for dependencies;
//! - [`Acquire`]: the operation's load comes before every later memory access (its store, if
//!   it has one, is relaxed);
//! - [`Release`]: every earlier memory access comes before the operation's store (its load, if
//!   it has one, is relaxed);
//! - [`Full`]: as a full barrier (`smp_mb()`) on both sides of the operation.
//!
//! An operation's signature says which it accepts: loads take [`AcquireOrRelaxed`], stores
//! [`ReleaseOrRelaxed`], read-modify-writes any [`Ordering`].
//!
//! # Examples
//!
//! ```
//! use kernel_core::sync::atomic::{ordering::Ordering, Acquire, Atomic, Full, Relaxed, Release};
//!
//! fn swap_with<O: Ordering>(x: &Atomic<u32>, v: u32, o: O) -> u32 {
//!     x.xchg(v, o)
//! }
//! let x = Atomic::new(1_u32);
//! assert_eq!(swap_with(&x, 2, Full), 1);
//! assert_eq!(swap_with(&x, 3, Relaxed), 2);
//! x.store(4, Release);
//! assert_eq!(x.load(Acquire), 4);
//! ```
//!
//! [LKMM]: https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/tools/memory-model/

/// Relaxed ordering: atomicity alone. See the [module documentation](self).
///
/// # Examples
///
/// ```
/// use kernel_core::sync::atomic::{Atomic, Relaxed};
///
/// let hits = Atomic::new(0_u64);
/// hits.add(1, Relaxed);
/// assert_eq!(hits.load(Relaxed), 1);
/// ```
pub struct Relaxed;

/// Acquire ordering: later accesses stay after the load. See the
/// [module documentation](self).
///
/// # Examples
///
/// ```
/// use kernel_core::sync::atomic::{Acquire, Atomic};
///
/// let ready = Atomic::new(true);
/// assert!(ready.load(Acquire));
/// ```
pub struct Acquire;

/// Release ordering: earlier accesses stay before the store. See the
/// [module documentation](self).
///
/// # Examples
///
/// ```
/// use kernel_core::sync::atomic::{Atomic, Release};
///
/// let ready = Atomic::new(false);
/// ready.store(true, Release);
/// ```
pub struct Release;

/// Full ordering: as a full memory barrier on both sides. See the
/// [module documentation](self).
///
/// # Examples
///
/// ```
/// use kernel_core::sync::atomic::{Atomic, Full};
///
/// let owner = Atomic::new(0_i32);
/// assert_eq!(owner.cmpxchg(0, 7, Full), Ok(0));
/// ```
pub struct Full;

/// Which ordering a type stands for; what generic code matches on.
#[doc(hidden)]
pub enum OrderingType {
    /// [`Relaxed`].
    Relaxed,
    /// [`Acquire`].
    Acquire,
    /// [`Release`].
    Release,
    /// [`Full`].
    Full,
}

mod internal {
    /// Only the four orderings of this module are orderings.
    pub trait Sealed {}

    impl Sealed for super::Relaxed {}
    impl Sealed for super::Acquire {}
    impl Sealed for super::Release {}
    impl Sealed for super::Full {}
}

/// Any of the four orderings. Sealed.
///
/// # Examples
///
/// See the [module documentation](self).
pub trait Ordering: internal::Sealed {
    /// The ordering this type stands for.
    const TYPE: OrderingType;
}

impl Ordering for Relaxed {
    const TYPE: OrderingType = OrderingType::Relaxed;
}

impl Ordering for Acquire {
    const TYPE: OrderingType = OrderingType::Acquire;
}

impl Ordering for Release {
    const TYPE: OrderingType = OrderingType::Release;
}

impl Ordering for Full {
    const TYPE: OrderingType = OrderingType::Full;
}

/// The orderings of a load: [`Acquire`] or [`Relaxed`].
///
/// # Examples
///
/// ```
/// use kernel_core::sync::atomic::{ordering::AcquireOrRelaxed, Atomic};
///
/// fn read<O: AcquireOrRelaxed>(x: &Atomic<i16>, o: O) -> i16 {
///     x.load(o)
/// }
/// assert_eq!(read(&Atomic::new(-3), kernel_core::sync::atomic::Acquire), -3);
/// ```
pub trait AcquireOrRelaxed: Ordering {}

impl AcquireOrRelaxed for Acquire {}
impl AcquireOrRelaxed for Relaxed {}

/// The orderings of a store: [`Release`] or [`Relaxed`].
///
/// # Examples
///
/// ```
/// use kernel_core::sync::atomic::{ordering::ReleaseOrRelaxed, Atomic, Relaxed};
///
/// fn write<O: ReleaseOrRelaxed>(x: &Atomic<i8>, v: i8, o: O) {
///     x.store(v, o)
/// }
/// let x = Atomic::new(0);
/// write(&x, 5, kernel_core::sync::atomic::Release);
/// assert_eq!(x.load(Relaxed), 5);
/// ```
pub trait ReleaseOrRelaxed: Ordering {}

impl ReleaseOrRelaxed for Release {}
impl ReleaseOrRelaxed for Relaxed {}
