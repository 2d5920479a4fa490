// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `Zeroable`: types whose all-zero bit pattern is a valid value.
//!
//! Kernel counterpart: the `Zeroable` part of `rust/pin-init/src/lib.rs` (Linux 7.3). Linux
//! 6.12's `kernel::init::Zeroable` has no methods (its initialiser was the free function
//! `kernel::init::zeroed()`); 7.3's has [`Zeroable::zeroed`], which returns the value, and
//! [`Zeroable::init_zeroed`], the initialiser, and `pin_init!` ends a list of fields with
//! `..Zeroable::init_zeroed()` to zero the rest.

use core::{
    cell::UnsafeCell,
    marker::{PhantomData, PhantomPinned},
    mem::MaybeUninit,
    num::{NonZero, Wrapping},
    ptr::NonNull,
};

use crate::{init_from_closure, Init};

/// A type whose value of all zero bits is valid.
///
/// Derive it with `#[derive(Zeroable)]` (every field must be `Zeroable`).
///
/// # Safety
///
/// All zero bits, padding included, must be a valid value of the type.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use pin_init::Zeroable;
///
/// assert_eq!(u64::zeroed(), 0);
/// assert_eq!(<(u8, bool, Option<&u8>)>::zeroed(), (0, false, None));
/// assert!(<*const u8>::zeroed().is_null());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not `Zeroable`: all zero bytes may not be a valid value of it",
    label = "not `Zeroable`",
    note = "`#[derive(Zeroable)]` implements it for a struct or union whose fields are all \
            `Zeroable`"
)]
pub unsafe trait Zeroable {
    /// The initialiser that zeroes the memory it is given.
    ///
    /// # Examples
    ///
    /// ```
    /// # extern crate kernel_core_pin_init as pin_init;
    /// use pin_init::{init, Zeroable};
    ///
    /// #[derive(Zeroable)]
    /// struct Stats {
    ///     packets: [u64; 8],
    /// }
    ///
    /// struct Queue {
    ///     stats: Stats,
    ///     depth: u32,
    /// }
    ///
    /// let init = init!(Queue { stats <- Stats::init_zeroed(), depth: 16 });
    /// let mut slot = core::mem::MaybeUninit::<Queue>::uninit();
    /// // SAFETY: `slot` is valid for writes.
    /// unsafe { pin_init::raw_init(slot.as_mut_ptr(), init) };
    /// // SAFETY: initialised just above.
    /// let queue = unsafe { slot.assume_init() };
    /// assert_eq!((queue.stats.packets, queue.depth), ([0; 8], 16));
    /// ```
    #[inline]
    fn init_zeroed() -> impl Init<Self>
    where
        Self: Sized,
    {
        init_zeroed()
    }

    /// The value of all zero bits.
    ///
    /// # Examples
    ///
    /// ```
    /// # extern crate kernel_core_pin_init as pin_init;
    /// use pin_init::Zeroable;
    ///
    /// assert_eq!(<[Option<&u8>; 2]>::zeroed(), [None, None]);
    /// ```
    #[inline]
    fn zeroed() -> Self
    where
        Self: Sized,
    {
        zeroed()
    }
}

/// A type `T` for which `Option<T>`'s `None` is all zero bits: `Option<T>` is then
/// [`Zeroable`].
///
/// # Safety
///
/// `Option<Self>` must have the all-zero bit pattern as `None`.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use pin_init::Zeroable;
///
/// assert_eq!(Option::<core::num::NonZero<u32>>::zeroed(), None);
/// ```
pub unsafe trait ZeroableOption {}

// SAFETY: `ZeroableOption` promises that `None` is all zero bits.
unsafe impl<T: ZeroableOption> Zeroable for Option<T> {}

/// The initialiser that zeroes a `T`.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// let mut slot = core::mem::MaybeUninit::<[u32; 8]>::uninit();
/// // SAFETY: `slot` is valid for writes.
/// unsafe { pin_init::raw_init(slot.as_mut_ptr(), pin_init::init_zeroed()) };
/// // SAFETY: initialised just above.
/// assert_eq!(unsafe { slot.assume_init() }, [0; 8]);
/// ```
#[inline]
pub fn init_zeroed<T: Zeroable>() -> impl Init<T> {
    // SAFETY: Zeroing every byte of the slot makes a valid `T`, since `T: Zeroable`, and relies
    // on nothing being pinned.
    unsafe {
        init_from_closure(|slot: *mut T| {
            slot.write_bytes(0, 1);
            Ok(())
        })
    }
}

/// The value of all zero bits of a `T`.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// const NOTHING: (u32, [u8; 3]) = pin_init::zeroed();
/// assert_eq!(NOTHING, (0, [0; 3]));
/// ```
#[inline]
pub const fn zeroed<T: Zeroable>() -> T {
    // SAFETY: All zero bits are a valid `T`, since `T: Zeroable`.
    unsafe { core::mem::zeroed() }
}

/// `unsafe impl Zeroable` for each type, with optional generics in braces.
macro_rules! zeroable {
    ($($({$($generics:tt)*})? $t:ty,)*) => {
        // SAFETY: Each type's reason is given where it is listed.
        $(unsafe impl$($($generics)*)? Zeroable for $t {})*
    };
}

zeroable! {
    // Zero is a value of every primitive number, `false` and `'\0'`.
    bool, char,
    u8, u16, u32, u64, u128, usize,
    i8, i16, i32, i64, i128, isize,
    f32, f64,
    // Zero-sized and inhabited: nothing to zero. (Never an uninhabited type: a value of one is
    // undefined behaviour.)
    {<T: ?Sized>} PhantomData<T>, PhantomPinned, (),
    // Any bits are valid.
    {<T>} MaybeUninit<T>,
    // `repr(transparent)` over a `Zeroable` type, or an array or `Wrapping` of one.
    {<T: ?Sized + Zeroable>} UnsafeCell<T>,
    {<const N: usize, T: Zeroable>} [T; N], {<T: Zeroable>} Wrapping<T>,
    // Null is a valid raw pointer; the length of a slice or `str` pointer may be zero (a trait
    // object's vtable pointer may not, hence sized `T` only).
    {<T>} *mut T, {<T>} *const T,
    {<T>} *mut [T], {<T>} *const [T], *mut str, *const str,
}

/// `unsafe impl Zeroable` for tuples of `Zeroable` types, up to ten.
macro_rules! zeroable_tuples {
    ($first:ident $(, $rest:ident)*) => {
        // SAFETY: Every element is `Zeroable`, and zeroed padding is valid padding.
        unsafe impl<$first: Zeroable $(, $rest: Zeroable)*> Zeroable for ($first, $($rest,)*) {}
        zeroable_tuples!($($rest),*);
    };
    () => {};
}

zeroable_tuples!(A, B, C, D, E, F, G, H, I, J);

/// `unsafe impl ZeroableOption` for each type, with optional generics in braces.
macro_rules! zeroable_option {
    ($($({$($generics:tt)*})? $t:ty,)*) => {
        // SAFETY: Each is a type of Rust's guaranteed `Option` layout optimisation
        // (<https://doc.rust-lang.org/stable/std/option/index.html#representation>): `None`
        // is all zero bits.
        $(unsafe impl$($($generics)*)? ZeroableOption for $t {})*
    };
}

zeroable_option! {
    {<T: ?Sized>} &T, {<T: ?Sized>} &mut T, {<T: ?Sized>} NonNull<T>,
    NonZero<u8>, NonZero<u16>, NonZero<u32>, NonZero<u64>, NonZero<u128>, NonZero<usize>,
    NonZero<i8>, NonZero<i16>, NonZero<i32>, NonZero<i64>, NonZero<i128>, NonZero<isize>,
}

/// `unsafe impl ZeroableOption` for function pointers of the `Rust` and `C` ABIs, safe and
/// `unsafe`, of twenty arguments down to none.
macro_rules! zeroable_option_fns {
    ($ret:ident $(, $arg:ident)*) => {
        // SAFETY: Function pointers are of Rust's guaranteed `Option` layout optimisation.
        unsafe impl<$ret $(, $arg)*> ZeroableOption for fn($($arg),*) -> $ret {}
        // SAFETY: As above.
        unsafe impl<$ret $(, $arg)*> ZeroableOption for unsafe fn($($arg),*) -> $ret {}
        // SAFETY: As above.
        unsafe impl<$ret $(, $arg)*> ZeroableOption for extern "C" fn($($arg),*) -> $ret {}
        // SAFETY: As above.
        unsafe impl<$ret $(, $arg)*> ZeroableOption for unsafe extern "C" fn($($arg),*) -> $ret {}
        zeroable_option_fns!(@fewer $ret $(, $arg)*);
    };
    // One argument fewer (the first: the names do not matter), down to none.
    (@fewer $ret:ident, $first:ident $(, $rest:ident)*) => {
        zeroable_option_fns!($ret $(, $rest)*);
    };
    (@fewer $ret:ident) => {};
}

zeroable_option_fns!(R, A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, S, T, U);
