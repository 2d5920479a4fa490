// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Atomic variables with the kernel's memory model: [`Atomic<T>`], [`AtomicFlag`], the
//! orderings, and the raw-pointer forms [`atomic_load`], [`atomic_store`], [`xchg`] and
//! [`cmpxchg`].
//!
//! Kernel counterpart: `rust/kernel/sync/atomic.rs` (Linux 7.3), over
//! [`include/linux/atomic.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/atomic.h).
//! Kernel Rust code uses these rather than `core::sync::atomic`, because they follow the Linux
//! kernel memory model ([LKMM]), the one model that C and Rust code in the kernel share: the
//! ordering is a type ([`Relaxed`], [`Acquire`], [`Release`], [`Full`]) that each operation
//! restricts to what it supports, and the names are the C side's (`xchg`, `cmpxchg`,
//! `fetch_add`). In the LKMM, atomic accesses of different sizes to the same memory do not
//! race, and with `CONFIG_KCSAN_ASSUME_PLAIN_WRITES_ATOMIC=y` a plain C write counts as atomic.
//!
//! On the host, each operation is `core`'s atomic of the same width, with the orderings mapped
//! as `env/host/sync/atomic.rs` lists (fully ordered: `SeqCst` between two `SeqCst` fences), so
//! Miri checks code that uses them for data races.
//!
//! Shared code: the operations themselves are the world's (`super::raw::atomic`).
//!
//! [LKMM]: https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/tools/memory-model/

#[path = "atomic/ordering.rs"]
pub mod ordering;
#[path = "atomic/predefine.rs"]
mod predefine;

pub use super::raw::atomic::AtomicImpl;
pub use ordering::{Acquire, Full, Relaxed, Release};

#[allow(unused_imports)] // The kernel's crate uses them; kernel-core itself does not.
pub(crate) use super::raw::atomic::{AtomicArithmeticOps, AtomicBasicOps, AtomicExchangeOps};

use super::raw::atomic::AtomicRepr;
use ordering::OrderingType;

/// A value of type `T` that threads (and CPUs, and interrupt handlers) read and change with
/// atomic operations.
///
/// It has `T`'s size, alignment and valid bit patterns, and, like an
/// [`UnsafeCell`](core::cell::UnsafeCell), no niche. Its operations are the kernel's atomics,
/// under the [LKMM]; with [`Atomic::from_ptr`] and [`Atomic::as_ptr`] the same memory can be
/// shared with C (`READ_ONCE()`, `smp_store_release()`, `atomic_t`).
///
/// # Invariants
///
/// `self.0` holds a valid `T`.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::atomic::{Atomic, Acquire, Relaxed, Release};
///
/// let state = Atomic::new(0_u32);
/// state.store(1, Release);
/// assert_eq!(state.load(Acquire), 1);
/// assert_eq!(state.fetch_add(2, Relaxed), 1);
/// assert_eq!(state.load(Relaxed), 3);
/// ```
///
/// [LKMM]: https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/tools/memory-model/
#[repr(transparent)]
pub struct Atomic<T: AtomicType>(AtomicRepr<T::Repr>);

// SAFETY: `AtomicType` requires that a `T` may move between execution contexts.
unsafe impl<T: AtomicType> Send for Atomic<T> {}

// SAFETY: Every access through a shared `Atomic<T>` is atomic, so sharing it races with nothing.
unsafe impl<T: AtomicType> Sync for Atomic<T> {}

/// A type with atomic loads and stores (and exchanges): it is one of the [`AtomicImpl`] types
/// in memory, its `Repr`.
///
/// `T` is *round-trip transmutable* to `U` when every valid `T` is a valid `U`, and a `T`
/// transmuted to `U` and back is the same `T`. (The other way need not hold: an enum whose
/// variants are some of an `i32`'s values can be atomic, although not every `i32` is one.)
///
/// # Safety
///
/// - `Self` has the size and alignment of `Self::Repr`.
/// - `Self` is round-trip transmutable to `Self::Repr`.
/// - A `Self` may move between execution contexts: true of every `Send` type, and also of raw
///   pointers, which are not `Send` but need `unsafe` code to be used anyway.
///
/// Every bit of `Self` must be initialised (no padding): `(u8, u16)` cannot be atomic.
///
/// # Examples
///
/// An enum without fields, stored as an `i32`:
///
/// ```
/// use kernel_core::sync::atomic::{Atomic, AtomicType, Relaxed};
///
/// #[derive(Clone, Copy, PartialEq, Eq, Debug)]
/// #[repr(i32)]
/// enum State {
///     Idle = 0,
///     Running = 1,
///     Stopped = 2,
/// }
///
/// // SAFETY: `State` is `repr(i32)`: an `i32`'s size and alignment, and each variant is an
/// // `i32` value, which reads back as the same variant.
/// unsafe impl AtomicType for State {
///     type Repr = i32;
/// }
///
/// let s = Atomic::new(State::Idle);
/// assert_eq!(s.xchg(State::Running, Relaxed), State::Idle);
/// assert_eq!(s.cmpxchg(State::Idle, State::Stopped, Relaxed), Err(State::Running));
/// ```
pub unsafe trait AtomicType: Sized + Copy {
    /// What it is in memory.
    type Repr: AtomicImpl;
}

/// An [`AtomicType`] that can have an `Rhs` added (and subtracted) atomically.
///
/// # Safety
///
/// Adding (wrapping) the delta of any `Rhs` ([`Self::rhs_into_delta()`]) to the `Repr` of any
/// valid `Self` gives the `Repr` of a valid `Self`.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::atomic::{Atomic, AtomicAdd, Full};
///
/// fn delta_of<T: AtomicAdd>(v: T) -> <T::Repr as kernel_core::sync::atomic::AtomicImpl>::Delta {
///     T::rhs_into_delta(v)
/// }
/// assert_eq!(delta_of(u32::MAX), -1_i32); // a `u32` is an `i32` in memory
/// let x = Atomic::new(10_u64);
/// assert_eq!(x.fetch_add(5, Full), 10);
/// ```
pub unsafe trait AtomicAdd<Rhs = Self>: AtomicType {
    /// `rhs` as the `Repr`'s delta.
    fn rhs_into_delta(rhs: Rhs) -> <Self::Repr as AtomicImpl>::Delta;
}

/// `v`'s representation.
#[inline(always)]
const fn into_repr<T: AtomicType>(v: T) -> T::Repr {
    // SAFETY: `AtomicType` promises the sizes match and every `T` is a valid `T::Repr`.
    unsafe { core::mem::transmute_copy(&v) }
}

/// The `T` whose representation `r` is.
///
/// # Safety
///
/// `r` is the representation of a valid `T`.
#[inline(always)]
const unsafe fn from_repr<T: AtomicType>(r: T::Repr) -> T {
    // SAFETY: The caller promises `r` is a valid `T`'s representation; the sizes match.
    unsafe { core::mem::transmute_copy(&r) }
}

impl<T: AtomicType> Atomic<T> {
    /// An atomic holding `v`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::atomic::{Atomic, Relaxed};
    ///
    /// static USERS: Atomic<usize> = Atomic::new(0);
    /// assert_eq!(USERS.load(Relaxed), 0);
    /// ```
    #[inline]
    pub const fn new(v: T) -> Self {
        // INVARIANT: `into_repr(v)` represents the valid `v`.
        Self(AtomicRepr::new(into_repr(v)))
    }

    /// The memory at `ptr`, as an atomic: for memory that C code (or other code) also
    /// accesses atomically.
    ///
    /// # Safety
    ///
    /// - `ptr` is aligned for `T`, and valid for reads and writes for `'a`;
    /// - during `'a`, no access to `*ptr` races (as the [LKMM] defines races) with the
    ///   atomic operations of the result: true if all of them are atomic.
    ///
    /// [LKMM]: https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/tools/memory-model/
    ///
    /// # Examples
    ///
    /// `READ_ONCE()` and `smp_store_release()` on a field of a C struct:
    ///
    /// ```
    /// use kernel_core::sync::atomic::{Atomic, Relaxed, Release};
    ///
    /// #[repr(C)]
    /// struct Foo {
    ///     a: i32,
    ///     b: i32,
    /// }
    ///
    /// let foo = core::cell::UnsafeCell::new(Foo { a: 1, b: 2 });
    /// // SAFETY: `foo` is valid, and `a` is in it.
    /// let a = unsafe { core::ptr::addr_of_mut!((*foo.get()).a) };
    ///
    /// // SAFETY: `a` is aligned and valid, and every access to it is atomic.
    /// assert_eq!(unsafe { Atomic::from_ptr(a) }.load(Relaxed), 1);
    /// // SAFETY: As above.
    /// unsafe { Atomic::from_ptr(a) }.store(2, Release);
    /// assert_eq!(foo.into_inner().a, 2);
    /// ```
    #[inline]
    pub unsafe fn from_ptr<'a>(ptr: *mut T) -> &'a Self {
        // SAFETY: `Atomic<T>` has `T`'s size, alignment and valid values; the caller promises
        // `ptr` is aligned and valid for `'a`, and that no access races with ours.
        unsafe { &*ptr.cast::<Self>() }
    }

    /// A pointer to the value, valid and aligned for `T` while `self` lives; accesses through
    /// it must not race (as the LKMM says) with the atomic operations.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::atomic::{atomic_load, Atomic, Relaxed};
    ///
    /// let x = Atomic::new(9_i64);
    /// // SAFETY: `x` is alive, and only accessed atomically.
    /// assert_eq!(unsafe { atomic_load(x.as_ptr(), Relaxed) }, 9);
    /// ```
    #[inline]
    pub const fn as_ptr(&self) -> *mut T {
        // `T` has the size and alignment of `T::Repr`, so the representation's pointer is a
        // `T`'s.
        self.0.as_ptr().cast()
    }

    /// The value, mutably: `&mut self` excludes every other access, atomic or not.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::atomic::{Atomic, Relaxed};
    ///
    /// let mut x = Atomic::new(0_u32);
    /// *x.get_mut() = 101;
    /// assert_eq!(x.load(Relaxed), 101);
    /// ```
    #[inline]
    pub fn get_mut(&mut self) -> &mut T {
        // SAFETY: The representation holds a valid `T` (type invariants) with `T`'s size and
        // alignment, and `&mut self` makes this the only access while the borrow lasts.
        unsafe { &mut *self.0.as_ptr().cast() }
    }
}

impl<T: AtomicType> Atomic<T>
where
    T::Repr: AtomicBasicOps,
{
    /// Reads the value (`atomic_read()`, `atomic_read_acquire()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::atomic::{Atomic, Acquire, Relaxed};
    ///
    /// let x = Atomic::new(-5_i8);
    /// assert_eq!(x.load(Relaxed), -5);
    /// assert_eq!(x.load(Acquire), -5);
    /// ```
    #[doc(alias("atomic_read", "atomic64_read"))]
    #[inline(always)]
    pub fn load<Ordering: ordering::AcquireOrRelaxed>(&self, _: Ordering) -> T {
        let v = match Ordering::TYPE {
            OrderingType::Relaxed => T::Repr::atomic_read(&self.0),
            OrderingType::Acquire => T::Repr::atomic_read_acquire(&self.0),
            _ => crate::build_error!("not an ordering of a load"),
        };
        // SAFETY: Read from `self.0`, which holds a valid `T` (type invariants).
        unsafe { from_repr(v) }
    }

    /// Writes `v` (`atomic_set()`, `atomic_set_release()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::atomic::{Atomic, Relaxed, Release};
    ///
    /// let x = Atomic::new(false);
    /// x.store(true, Release);
    /// assert!(x.load(Relaxed));
    /// ```
    #[doc(alias("atomic_set", "atomic64_set"))]
    #[inline(always)]
    pub fn store<Ordering: ordering::ReleaseOrRelaxed>(&self, v: T, _: Ordering) {
        let v = into_repr(v);
        // INVARIANT: `v` represents a valid `T`.
        match Ordering::TYPE {
            OrderingType::Relaxed => T::Repr::atomic_set(&self.0, v),
            OrderingType::Release => T::Repr::atomic_set_release(&self.0, v),
            _ => crate::build_error!("not an ordering of a store"),
        }
    }
}

/// The value, read relaxed.
impl<T: AtomicType + core::fmt::Debug> core::fmt::Debug for Atomic<T>
where
    T::Repr: AtomicBasicOps,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Debug::fmt(&self.load(Relaxed), f)
    }
}

impl<T: AtomicType> Atomic<T>
where
    T::Repr: AtomicExchangeOps,
{
    /// Replaces the value with `v` and returns the old one (`atomic_xchg*()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::atomic::{Atomic, Acquire, Relaxed};
    ///
    /// let x = Atomic::new(42);
    /// assert_eq!(x.xchg(52, Acquire), 42);
    /// assert_eq!(x.load(Relaxed), 52);
    /// ```
    #[doc(alias("atomic_xchg", "atomic64_xchg", "swap"))]
    #[inline(always)]
    pub fn xchg<Ordering: ordering::Ordering>(&self, v: T, _: Ordering) -> T {
        let v = into_repr(v);
        // INVARIANT: `v` represents a valid `T`.
        let old = match Ordering::TYPE {
            OrderingType::Full => T::Repr::atomic_xchg(&self.0, v),
            OrderingType::Acquire => T::Repr::atomic_xchg_acquire(&self.0, v),
            OrderingType::Release => T::Repr::atomic_xchg_release(&self.0, v),
            OrderingType::Relaxed => T::Repr::atomic_xchg_relaxed(&self.0, v),
        };
        // SAFETY: Read from `self.0`, which held a valid `T`.
        unsafe { from_repr(old) }
    }

    /// Replaces the value with `new` if it is `old`, comparing their bytes: `Ok(old)` if it
    /// did, `Err(current)` with the value it found if not (`atomic_try_cmpxchg*()`).
    ///
    /// The ordering applies when it succeeds; a failure orders nothing (its read is
    /// [`Relaxed`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::atomic::{Atomic, Full, Relaxed};
    ///
    /// let x = Atomic::new(42);
    /// assert_eq!(x.cmpxchg(52, 64, Relaxed), Err(42));
    /// // The latest value either way, as C's `atomic_cmpxchg()` returns it.
    /// let latest = x.cmpxchg(42, 64, Full).unwrap_or_else(|old| old);
    /// assert_eq!(latest, 42);
    /// assert_eq!(x.load(Relaxed), 64);
    /// ```
    #[doc(alias(
        "atomic_cmpxchg",
        "atomic64_cmpxchg",
        "atomic_try_cmpxchg",
        "atomic64_try_cmpxchg",
        "compare_exchange"
    ))]
    #[inline(always)]
    pub fn cmpxchg<Ordering: ordering::Ordering>(
        &self,
        mut old: T,
        new: T,
        o: Ordering,
    ) -> Result<T, T> {
        if self.try_cmpxchg(&mut old, new, o) {
            Ok(old)
        } else {
            Err(old)
        }
    }

    /// [`Atomic::cmpxchg`] with the `bool` of `atomic_try_cmpxchg()`: on failure, `*old` gets
    /// the value found.
    #[inline(always)]
    fn try_cmpxchg<Ordering: ordering::Ordering>(&self, old: &mut T, new: T, _: Ordering) -> bool {
        let mut expected = into_repr(*old);
        let new = into_repr(new);
        // INVARIANT: `new` represents a valid `T`.
        let done = match Ordering::TYPE {
            OrderingType::Full => T::Repr::atomic_try_cmpxchg(&self.0, &mut expected, new),
            OrderingType::Acquire => {
                T::Repr::atomic_try_cmpxchg_acquire(&self.0, &mut expected, new)
            }
            OrderingType::Release => {
                T::Repr::atomic_try_cmpxchg_release(&self.0, &mut expected, new)
            }
            OrderingType::Relaxed => {
                T::Repr::atomic_try_cmpxchg_relaxed(&self.0, &mut expected, new)
            }
        };
        // SAFETY: `expected` is `*old`'s representation, or was read from `self.0`; both are
        // valid `T`s.
        *old = unsafe { from_repr(expected) };
        done
    }
}

impl<T: AtomicType> Atomic<T>
where
    T::Repr: AtomicArithmeticOps,
{
    /// Adds `v`, wrapping, and returns nothing (`atomic_add()`); relaxed only.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::atomic::{Atomic, Relaxed};
    ///
    /// let x = Atomic::new(u32::MAX);
    /// x.add(2, Relaxed);
    /// assert_eq!(x.load(Relaxed), 1);
    /// ```
    #[inline(always)]
    pub fn add<Rhs>(&self, v: Rhs, _: ordering::Relaxed)
    where
        T: AtomicAdd<Rhs>,
    {
        let v = T::rhs_into_delta(v);
        // INVARIANT: `AtomicAdd` promises the sum represents a valid `T`.
        T::Repr::atomic_add(&self.0, v);
    }

    /// Adds `v`, wrapping, and returns the old value (`atomic_fetch_add*()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::atomic::{Atomic, Acquire, Full, Relaxed};
    ///
    /// let x = Atomic::new(42_i32);
    /// assert_eq!(x.fetch_add(12, Acquire), 42);
    /// assert_eq!(x.fetch_add(-4, Full), 54);
    /// assert_eq!(x.load(Relaxed), 50);
    /// ```
    #[inline(always)]
    pub fn fetch_add<Rhs, Ordering: ordering::Ordering>(&self, v: Rhs, _: Ordering) -> T
    where
        T: AtomicAdd<Rhs>,
    {
        let v = T::rhs_into_delta(v);
        // INVARIANT: `AtomicAdd` promises the sum represents a valid `T`.
        let old = match Ordering::TYPE {
            OrderingType::Full => T::Repr::atomic_fetch_add(&self.0, v),
            OrderingType::Acquire => T::Repr::atomic_fetch_add_acquire(&self.0, v),
            OrderingType::Release => T::Repr::atomic_fetch_add_release(&self.0, v),
            OrderingType::Relaxed => T::Repr::atomic_fetch_add_relaxed(&self.0, v),
        };
        // SAFETY: Read from `self.0`, which held a valid `T`.
        unsafe { from_repr(old) }
    }

    /// Subtracts `v`, wrapping, and returns the old value (`atomic_fetch_sub*()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::atomic::{Atomic, Release, Relaxed};
    ///
    /// let x = Atomic::new(0_usize);
    /// assert_eq!(x.fetch_sub(1, Release), 0);
    /// assert_eq!(x.load(Relaxed), usize::MAX);
    /// ```
    #[inline(always)]
    pub fn fetch_sub<Rhs, Ordering: ordering::Ordering>(&self, v: Rhs, _: Ordering) -> T
    where
        // What can be added can be subtracted.
        T: AtomicAdd<Rhs>,
    {
        let v = T::rhs_into_delta(v);
        // INVARIANT: `AtomicAdd` promises the difference represents a valid `T`.
        let old = match Ordering::TYPE {
            OrderingType::Full => T::Repr::atomic_fetch_sub(&self.0, v),
            OrderingType::Acquire => T::Repr::atomic_fetch_sub_acquire(&self.0, v),
            OrderingType::Release => T::Repr::atomic_fetch_sub_release(&self.0, v),
            OrderingType::Relaxed => T::Repr::atomic_fetch_sub_relaxed(&self.0, v),
        };
        // SAFETY: Read from `self.0`, which held a valid `T`.
        unsafe { from_repr(old) }
    }
}

/// The representation of [`AtomicFlag`]: a `bool` where the architecture has fast byte-wide
/// atomics (x86-64 and the Arm architectures, as the kernel picks), else a 32-bit word.
#[cfg(any(target_arch = "x86_64", target_arch = "arm", target_arch = "aarch64"))]
#[repr(C)]
#[derive(Clone, Copy)]
struct Flag {
    bool_field: bool,
}

/// The representation of [`AtomicFlag`] elsewhere: the `bool` in a 32-bit word, at the byte
/// the word's low bits are in.
///
/// # Invariants
///
/// `padding` is all zero.
#[cfg(not(any(target_arch = "x86_64", target_arch = "arm", target_arch = "aarch64")))]
#[repr(C, align(4))]
#[derive(Clone, Copy)]
struct Flag {
    #[cfg(target_endian = "big")]
    padding: [u8; 3],
    bool_field: bool,
    #[cfg(target_endian = "little")]
    padding: [u8; 3],
}

impl Flag {
    #[inline(always)]
    const fn new(b: bool) -> Self {
        // INVARIANT: Zero padding.
        Self {
            bool_field: b,
            #[cfg(not(any(
                target_arch = "x86_64",
                target_arch = "arm",
                target_arch = "aarch64"
            )))]
            padding: [0; 3],
        }
    }
}

// SAFETY: `Flag` is an `i8` (a `bool`) or an `i32` (a `bool` and three zero bytes) in size and
// alignment, and each of its values is one of its `Repr`'s that reads back as itself.
unsafe impl AtomicType for Flag {
    #[cfg(any(target_arch = "x86_64", target_arch = "arm", target_arch = "aarch64"))]
    type Repr = i8;
    #[cfg(not(any(target_arch = "x86_64", target_arch = "arm", target_arch = "aarch64")))]
    type Repr = i32;
}

/// An atomic `bool`, stored in whatever width the architecture's atomics are fastest at.
///
/// Prefer it to [`Atomic<bool>`] for read-modify-writes ([`AtomicFlag::xchg`],
/// [`AtomicFlag::cmpxchg`]), which some architectures can only do on whole words, or when the
/// padding around a `bool` would take the space anyway. For loads and stores alone,
/// [`Atomic<bool>`] is as good.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::atomic::{AtomicFlag, Relaxed};
///
/// let flag = AtomicFlag::new(false);
/// assert!(!flag.load(Relaxed));
/// flag.store(true, Relaxed);
/// assert!(flag.load(Relaxed));
/// ```
pub struct AtomicFlag(Atomic<Flag>);

impl AtomicFlag {
    /// A flag holding `b`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::atomic::{AtomicFlag, Relaxed};
    ///
    /// static STOP: AtomicFlag = AtomicFlag::new(false);
    /// assert!(!STOP.load(Relaxed));
    /// ```
    #[inline(always)]
    pub const fn new(b: bool) -> Self {
        Self(Atomic::new(Flag::new(b)))
    }

    /// The flag, mutably: `&mut self` excludes every other access.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::atomic::{AtomicFlag, Relaxed};
    ///
    /// let mut flag = AtomicFlag::new(false);
    /// *flag.get_mut() = true;
    /// assert!(flag.load(Relaxed));
    /// ```
    #[inline(always)]
    pub fn get_mut(&mut self) -> &mut bool {
        &mut self.0.get_mut().bool_field
    }

    /// Reads the flag.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::atomic::{Acquire, AtomicFlag};
    ///
    /// assert!(AtomicFlag::new(true).load(Acquire));
    /// ```
    #[inline(always)]
    pub fn load<Ordering: ordering::AcquireOrRelaxed>(&self, o: Ordering) -> bool {
        self.0.load(o).bool_field
    }

    /// Writes the flag.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::atomic::{AtomicFlag, Relaxed, Release};
    ///
    /// let flag = AtomicFlag::new(true);
    /// flag.store(false, Release);
    /// assert!(!flag.load(Relaxed));
    /// ```
    #[inline(always)]
    pub fn store<Ordering: ordering::ReleaseOrRelaxed>(&self, v: bool, o: Ordering) {
        self.0.store(Flag::new(v), o);
    }

    /// Writes `new` and returns the old flag.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::atomic::{AtomicFlag, Full};
    ///
    /// let busy = AtomicFlag::new(false);
    /// assert!(!busy.xchg(true, Full)); // this caller set it
    /// assert!(busy.xchg(true, Full)); // already set
    /// ```
    #[inline(always)]
    pub fn xchg<Ordering: ordering::Ordering>(&self, new: bool, o: Ordering) -> bool {
        self.0.xchg(Flag::new(new), o).bool_field
    }

    /// Writes `new` if the flag is `old`: `Ok(old)` if it did, `Err(current)` if not.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::atomic::{AtomicFlag, Acquire};
    ///
    /// let claimed = AtomicFlag::new(false);
    /// assert_eq!(claimed.cmpxchg(false, true, Acquire), Ok(false));
    /// assert_eq!(claimed.cmpxchg(false, true, Acquire), Err(true));
    /// ```
    #[inline(always)]
    pub fn cmpxchg<Ordering: ordering::Ordering>(
        &self,
        old: bool,
        new: bool,
        o: Ordering,
    ) -> Result<bool, bool> {
        match self.0.cmpxchg(Flag::new(old), Flag::new(new), o) {
            Ok(_) => Ok(old),
            Err(f) => Err(f.bool_field),
        }
    }
}

/// Reads the `T` at `ptr` atomically: `Atomic::from_ptr(ptr).load(o)`, C's `READ_ONCE()`
/// (with [`Relaxed`], between threads) or `smp_load_acquire()` (with [`Acquire`]).
///
/// # Safety
///
/// - `ptr` is valid for reads of a `T` and aligned for it;
/// - a store to it at the same time (from C or Rust) is atomic.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::atomic::{atomic_load, Acquire};
///
/// let mut ready = true;
/// // SAFETY: `ready` is valid, aligned, and nothing else accesses it.
/// assert!(unsafe { atomic_load(&mut ready, Acquire) });
/// ```
#[doc(alias("READ_ONCE", "smp_load_acquire"))]
#[inline(always)]
pub unsafe fn atomic_load<T: AtomicType, Ordering: ordering::AcquireOrRelaxed>(
    ptr: *mut T,
    o: Ordering,
) -> T
where
    T::Repr: AtomicBasicOps,
{
    // SAFETY: The caller promises `ptr` is valid and aligned, and that concurrent stores are
    // atomic, so this load races with none.
    unsafe { Atomic::from_ptr(ptr) }.load(o)
}

/// Writes `v` to the `T` at `ptr` atomically: `Atomic::from_ptr(ptr).store(v, o)`, C's
/// `WRITE_ONCE()` (with [`Relaxed`], between threads) or `smp_store_release()` (with
/// [`Release`]).
///
/// # Safety
///
/// - `ptr` is valid for writes of a `T` and aligned for it;
/// - an access to it at the same time (from C or Rust) is atomic.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::atomic::{atomic_store, Release};
///
/// let mut head = 0_u32;
/// // SAFETY: `head` is valid, aligned, and nothing else accesses it.
/// unsafe { atomic_store(&mut head, 4, Release) };
/// assert_eq!(head, 4);
/// ```
#[doc(alias("WRITE_ONCE", "smp_store_release"))]
#[inline(always)]
pub unsafe fn atomic_store<T: AtomicType, Ordering: ordering::ReleaseOrRelaxed>(
    ptr: *mut T,
    v: T,
    o: Ordering,
) where
    T::Repr: AtomicBasicOps,
{
    // SAFETY: The caller promises `ptr` is valid and aligned, and that concurrent accesses are
    // atomic, so this store races with none.
    unsafe { Atomic::from_ptr(ptr) }.store(v, o);
}

/// Replaces the `T` at `ptr` with `new` atomically and returns the old one:
/// `Atomic::from_ptr(ptr).xchg(new, o)`.
///
/// # Safety
///
/// - `ptr` is valid for reads and writes of a `T` and aligned for it;
/// - an access to it at the same time (from C or Rust) is atomic.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::atomic::{xchg, Full};
///
/// let mut owner = 1_i32;
/// // SAFETY: `owner` is valid, aligned, and nothing else accesses it.
/// assert_eq!(unsafe { xchg(&mut owner, 2, Full) }, 1);
/// assert_eq!(owner, 2);
/// ```
#[inline(always)]
pub unsafe fn xchg<T: AtomicType, Ordering: ordering::Ordering>(
    ptr: *mut T,
    new: T,
    o: Ordering,
) -> T
where
    T::Repr: AtomicExchangeOps,
{
    // SAFETY: The caller promises `ptr` is valid and aligned, and that concurrent accesses are
    // atomic, so this exchange races with none.
    unsafe { Atomic::from_ptr(ptr) }.xchg(new, o)
}

/// Replaces the `T` at `ptr` with `new` if it is `old`, atomically:
/// `Atomic::from_ptr(ptr).cmpxchg(old, new, o)`.
///
/// # Safety
///
/// - `ptr` is valid for reads and writes of a `T` and aligned for it;
/// - an access to it at the same time (from C or Rust) is atomic.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::atomic::{cmpxchg, Relaxed};
///
/// let mut state = 0_u64;
/// // SAFETY: `state` is valid, aligned, and nothing else accesses it.
/// assert_eq!(unsafe { cmpxchg(&mut state, 0, 3, Relaxed) }, Ok(0));
/// // SAFETY: As above.
/// assert_eq!(unsafe { cmpxchg(&mut state, 0, 5, Relaxed) }, Err(3));
/// ```
#[doc(alias("try_cmpxchg"))]
#[inline(always)]
pub unsafe fn cmpxchg<T: AtomicType, Ordering: ordering::Ordering>(
    ptr: *mut T,
    old: T,
    new: T,
    o: Ordering,
) -> Result<T, T>
where
    T::Repr: AtomicExchangeOps,
{
    // SAFETY: The caller promises `ptr` is valid and aligned, and that concurrent accesses are
    // atomic, so this compare-and-exchange races with none.
    unsafe { Atomic::from_ptr(ptr) }.cmpxchg(old, new, o)
}
