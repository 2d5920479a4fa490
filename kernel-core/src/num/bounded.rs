// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! [`Bounded`]: an integer whose value fits in its `N` least significant bits.
//!
//! Kernel counterpart: `rust/kernel/num/bounded.rs` (Linux 7.3), re-exported by
//! [`kernel_core::num`](crate::num) as it is by `kernel::num`.
//!
//! A register field, a queue index or a hardware priority level has fewer bits than any
//! primitive type. [`Bounded<T, N>`] keeps such a value in a `T` and guarantees that it fits in
//! `N` bits (as an `N`-bit two's-complement value for a signed `T`), so it can be shifted into
//! place without masking and converted into any type of `N` bits or more without a check.
//!
//! The guarantee is checked when a value is made, as early as possible:
//!
//! | made with | checked |
//! |---|---|
//! | [`Bounded::new::<VALUE>()`](Bounded::new), `From<u8>` and the other widening `From`s, [`extend`](Bounded::extend), [`cast`](Bounded::cast), [`shl`](Bounded::shl), [`shr`](Bounded::shr) | at build time ([`const_assert!`](crate::const_assert) or the trait bounds) |
//! | [`Bounded::from_expr`] | by the optimizer ([`build_assert!`](crate::build_assert::build_assert)) |
//! | [`Bounded::try_new`], [`try_shrink`](Bounded::try_shrink), [`shr_exact`](Bounded::shr_exact), [`TryIntoBounded`] | at run time, returning [`None`] |
//!
//! Every constructor also fails to build when `N` is `0` or more than `T::BITS`.
//!
//! # Examples
//!
//! ```
//! use kernel_core::num::Bounded;
//!
//! // A 3-bit interrupt priority and an 8-bit vector number.
//! let prio = Bounded::<u32, 3>::new::<5>();
//! let vector = Bounded::<u32, 8>::try_new(0x41).unwrap();
//!
//! // Shifted into place: no masking needed, the bounds guarantee the fields do not overlap.
//! let reg = prio.shl::<8, 11>() | vector.get();
//! assert_eq!(reg, 0x541);
//!
//! // Comparison and arithmetic work on the values, and give the backing type.
//! assert!(prio < vector);
//! assert_eq!(prio + vector, 0x46);
//! ```

use core::{cmp, fmt, hint, ops};

use crate::build_assert::{build_assert, const_assert};
use crate::num::{Integer, Unsigned};

/// Whether `value` is an `bits`-bit value of its type: the unsigned range `0..2^bits` for an
/// unsigned `T`, the two's-complement range `-2^(bits-1)..2^(bits-1)` for a signed one.
///
/// Shifting the value up by the unused bits and back keeps it unchanged exactly then: the bits
/// above `bits` are copies of bit `bits - 1` for a signed type (arithmetic shift) and zeroes for
/// an unsigned one. `bits` must be in `1..=T::BITS`.
#[inline(always)]
fn fits_in<T: Integer>(value: T, bits: u32) -> bool {
    let unused = T::BITS - bits;
    (value << unused) >> unused == value
}

/// An integer of type `T` that fits in `N` bits: its `N` least significant bits for an unsigned
/// `T`, an `N`-bit two's-complement value for a signed one.
///
/// # Invariants
///
/// - `0 < N <= T::BITS`;
/// - the value fits in `N` bits as above.
///
/// # Examples
///
/// Constructors check the value at build time ([`new`](Self::new)), through the optimizer
/// ([`from_expr`](Self::from_expr)) or at run time ([`try_new`](Self::try_new)):
///
/// ```
/// use kernel_core::num::Bounded;
///
/// let v = Bounded::<u8, 4>::new::<15>();
/// assert_eq!(v.get(), 15);
/// let v = Bounded::<i8, 4>::new::<-8>();
/// assert_eq!(v.get(), -8);
///
/// // Neither builds: 9 bits do not fit in a `u8`, and 8 is not a 4-bit signed value.
/// // let _ = Bounded::<u8, 9>::new::<10>();
/// // let _ = Bounded::<i8, 4>::new::<8>();
///
/// assert!(Bounded::<u8, 4>::try_new(15).is_some());
/// assert!(Bounded::<u8, 4>::try_new(16).is_none());
///
/// # fn read_status() -> u32 { 0xffff_fff3 }
/// // Masked, the value provably fits: the optimizer removes the check.
/// let low = Bounded::<u32, 4>::from_expr(read_status() & 0xf);
/// assert_eq!(low.get(), 3);
/// ```
///
/// Comparisons and arithmetic take two [`Bounded`]s with the same backing type, whatever their
/// `N`, or a [`Bounded`] and its backing type, and give the backing type:
///
/// ```
/// use kernel_core::num::Bounded;
///
/// let a = Bounded::<u32, 8>::new::<4>();
/// let b = Bounded::<u32, 4>::new::<15>();
/// assert!(a != b && a < b);
/// assert_eq!(a + b, 19);
/// assert_eq!(b % a, 3);
/// assert!(b == 15 && b > 12);
/// assert_eq!(b / 3, 5);
/// ```
///
/// The backing type changes with [`cast`](Self::cast), the number of bits with
/// [`extend`](Self::extend) (checked at build time) and [`try_shrink`](Self::try_shrink) (at run
/// time); [`From`] converts from a primitive type or `bool` that always fits, and into one that
/// can hold any `N`-bit value; [`TryIntoBounded`] converts from any integer at run time:
///
/// ```
/// use kernel_core::num::{Bounded, TryIntoBounded};
///
/// let v = Bounded::<u32, 12>::new::<127>();
/// let _: Bounded<u16, 12> = v.cast();
/// let _: Bounded<u32, 15> = v.extend::<15>();
/// assert!(v.try_shrink::<8>().is_some());
/// assert!(v.try_shrink::<6>().is_none());
///
/// assert_eq!(Bounded::<u32, 8>::from(128_u8).get(), 128);
/// assert_eq!(Bounded::<u64, 1>::from(true).get(), 1);
/// assert_eq!(u8::from(Bounded::<u32, 6>::new::<63>()), 63);
/// assert_eq!(i8::from(Bounded::<i32, 8>::new::<-128>()), -128);
/// assert!(bool::from(Bounded::<u8, 1>::new::<1>()));
///
/// let v: Option<Bounded<u16, 8>> = 128_u32.try_into_bounded();
/// assert_eq!(v.map(Bounded::get), Some(128));
/// let v: Option<Bounded<u16, 6>> = 128_u32.try_into_bounded();
/// assert_eq!(v, None);
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, Hash)]
pub struct Bounded<T: Integer, const N: u32>(T);

/// [`Bounded::new`] for each primitive type but the 128-bit ones: a const generic parameter of
/// type `T` must name a concrete type.
macro_rules! const_new {
    ($($ty:ident)*) => {$(
        impl<const N: u32> Bounded<$ty, N> {
            /// Makes a [`Bounded`] of the constant `VALUE`, which must fit in `N` bits: otherwise
            /// the build fails.
            ///
            /// Prefer it to [`from_expr`](Self::from_expr) whenever the value is a constant.
            ///
            /// # Examples
            ///
            /// ```
            /// use kernel_core::num::Bounded;
            ///
            #[doc = concat!("let v = Bounded::<", stringify!($ty), ", 4>::new::<7>();")]
            /// assert_eq!(v.get(), 7);
            /// ```
            #[inline]
            pub const fn new<const VALUE: $ty>() -> Self {
                const_assert!(
                    N > 0 && N <= $ty::BITS && {
                        let unused = $ty::BITS - N;
                        (VALUE << unused) >> unused == VALUE
                    },
                    "the value does not fit in N bits"
                );
                // SAFETY: Just checked: `VALUE` fits in `N` bits.
                unsafe { Self::new_unchecked(VALUE) }
            }
        }
    )*};
}

const_new!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize);

impl<T: Integer, const N: u32> Bounded<T, N> {
    /// The one constructor: every [`Bounded`] is made here. Checks `N` at build time.
    ///
    /// # Safety
    ///
    /// `value` must fit in `N` bits.
    #[inline(always)]
    const unsafe fn new_unchecked(value: T) -> Self {
        const_assert!(N > 0, "a Bounded needs at least one bit");
        const_assert!(
            N <= T::BITS,
            "a Bounded cannot have more bits than its backing type"
        );
        // INVARIANT: `N` was just checked, and the caller promises that `value` fits.
        Self(value)
    }

    /// Makes a [`Bounded`] of `value` if it fits in `N` bits, and returns [`None`] otherwise.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::num::Bounded;
    ///
    /// assert_eq!(Bounded::<u8, 1>::try_new(1).map(Bounded::get), Some(1));
    /// assert_eq!(Bounded::<u32, 8>::try_new(0x1ff), None);
    ///
    /// // 4 signed bits hold -8..=7.
    /// assert_eq!(Bounded::<i8, 4>::try_new(-8).map(Bounded::get), Some(-8));
    /// assert_eq!(Bounded::<i8, 4>::try_new(-9), None);
    /// assert_eq!(Bounded::<i8, 4>::try_new(7).map(Bounded::get), Some(7));
    /// assert_eq!(Bounded::<i8, 4>::try_new(8), None);
    /// ```
    #[inline]
    pub fn try_new(value: T) -> Option<Self> {
        if fits_in(value, N) {
            // SAFETY: `value` fits in `N` bits.
            Some(unsafe { Self::new_unchecked(value) })
        } else {
            None
        }
    }

    /// Makes a [`Bounded`] of `expr`, which the optimizer must prove to fit in `N` bits: a
    /// [`build_assert!`](crate::build_assert::build_assert).
    ///
    /// Keep `expr` simple, such as a value masked with a constant. When the optimizer cannot
    /// prove the bound, the build fails (and with debug assertions, the call panics if the value
    /// does not fit); use [`try_new`](Self::try_new) then, and [`new`](Self::new) for constants.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::num::Bounded;
    /// # fn some_number() -> u32 { 0xffff_ffff }
    ///
    /// let v: u32 = some_number();
    /// // Would not build: nothing bounds `v`.
    /// // let _ = Bounded::<u32, 4>::from_expr(v);
    /// let low = Bounded::<u32, 4>::from_expr(v & 0xf);
    /// assert_eq!(low.get(), 0xf);
    /// assert_eq!(Bounded::<u16, 8>::from_expr(0xff).get(), 0xff);
    /// ```
    #[inline(always)]
    pub fn from_expr(expr: T) -> Self {
        build_assert!(
            fits_in(expr, N),
            "Requested value larger than maximal representable value."
        );
        // SAFETY: The assertion holds: `expr` fits in `N` bits.
        unsafe { Self::new_unchecked(expr) }
    }

    /// The value, in the backing type.
    ///
    /// Unlike dereferencing, it does not tell the optimizer that the value fits in `N` bits.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::num::Bounded;
    ///
    /// let v = Bounded::<u32, 4>::new::<7>();
    /// assert_eq!(v.get(), 7_u32);
    /// assert_eq!(*v, 7_u32);
    /// ```
    #[inline]
    pub const fn get(self) -> T {
        self.0
    }

    /// The same value with `M >= N` bits; `M < N` does not build.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::num::Bounded;
    ///
    /// let v = Bounded::<u32, 4>::new::<7>();
    /// let wider: Bounded<u32, 12> = v.extend::<12>();
    /// assert_eq!(wider, v);
    /// ```
    #[inline]
    pub const fn extend<const M: u32>(self) -> Bounded<T, M> {
        const_assert!(
            M >= N,
            "extend cannot reduce the number of bits: use try_shrink"
        );
        // SAFETY: A value that fits in `N` bits fits in `M >= N` bits.
        unsafe { Bounded::new_unchecked(self.0) }
    }

    /// The same value with `M` bits, or [`None`] if it does not fit in `M` bits.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::num::Bounded;
    ///
    /// let v = Bounded::<u32, 12>::new::<7>();
    /// assert_eq!(v.try_shrink::<3>().map(Bounded::get), Some(7));
    /// assert_eq!(v.try_shrink::<2>(), None);
    /// ```
    #[inline]
    pub fn try_shrink<const M: u32>(self) -> Option<Bounded<T, M>> {
        Bounded::try_new(self.0)
    }

    /// The same value and number of bits, in the backing type `U` of the same signedness.
    ///
    /// A `U` with fewer than `N` bits does not build.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::num::Bounded;
    ///
    /// let v = Bounded::<u32, 12>::new::<127>();
    /// let narrow: Bounded<u16, 12> = v.cast();
    /// assert_eq!(narrow.get(), 127);
    /// // Does not build: a `u8` has fewer than 12 bits.
    /// // let _: Bounded<u8, 12> = v.cast();
    ///
    /// let v = Bounded::<i64, 8>::new::<-100>();
    /// assert_eq!(v.cast::<i8>().get(), -100);
    /// ```
    #[inline]
    pub fn cast<U>(self) -> Bounded<U, N>
    where
        U: TryFrom<T> + Integer,
        T: Integer,
        U: Integer<Signedness = T::Signedness>,
    {
        let value = match U::try_from(self.0) {
            Ok(value) => value,
            // SAFETY: `self` fits in `N` bits, `U` has at least `N` bits (or the constructor
            // below does not build) and the same signedness, so `U` holds the value.
            Err(_) => unsafe { hint::unreachable_unchecked() },
        };
        // SAFETY: The value is unchanged: it still fits in `N` bits.
        unsafe { Bounded::new_unchecked(value) }
    }

    /// `self >> SHIFT` with `RES` bits, where `RES >= N - SHIFT`; otherwise, or with
    /// `SHIFT >= T::BITS`, it does not build.
    ///
    /// Signed values shift arithmetically (towards minus infinity).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::num::Bounded;
    ///
    /// let v = Bounded::<u32, 16>::new::<0xff00>();
    /// let high: Bounded<u32, 8> = v.shr::<8, 8>();
    /// assert_eq!(high.get(), 0xff);
    /// ```
    #[inline]
    pub fn shr<const SHIFT: u32, const RES: u32>(self) -> Bounded<T, RES> {
        const_assert!(
            SHIFT < T::BITS,
            "the shift must be less than the backing type's bits"
        );
        const_assert!(RES + SHIFT >= N, "RES must be at least N - SHIFT");
        // SAFETY: Shifting right by `SHIFT` leaves a value of `N - SHIFT` bits (or one bit),
        // which fits in `RES` bits.
        unsafe { Bounded::new_unchecked(self.0 >> SHIFT) }
    }

    /// `self >> SHIFT` with `RES` bits, as [`shr`](Self::shr), or [`None`] if that would drop a
    /// set bit (if the `SHIFT` low bits are not all zero).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::num::Bounded;
    ///
    /// let v = Bounded::<u32, 16>::new::<0xff00>();
    /// assert_eq!(v.shr_exact::<8, 8>().map(Bounded::get), Some(0xff));
    ///
    /// let v = Bounded::<u32, 16>::new::<0xff01>();
    /// assert_eq!(v.shr_exact::<8, 8>(), None);
    /// ```
    #[inline]
    pub fn shr_exact<const SHIFT: u32, const RES: u32>(self) -> Option<Bounded<T, RES>> {
        let shifted = self.shr::<SHIFT, RES>();
        (shifted.0 << SHIFT == self.0).then_some(shifted)
    }

    /// `self << SHIFT` with `RES` bits, where `RES >= N + SHIFT`; otherwise it does not build.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::num::Bounded;
    ///
    /// let v = Bounded::<u32, 8>::new::<0xff>();
    /// let placed: Bounded<u32, 16> = v.shl::<8, 16>();
    /// assert_eq!(placed.get(), 0xff00);
    /// ```
    #[inline]
    pub fn shl<const SHIFT: u32, const RES: u32>(self) -> Bounded<T, RES> {
        const_assert!(RES >= N + SHIFT, "RES must be at least N + SHIFT");
        // SAFETY: Shifting left by `SHIFT` gives a value of `N + SHIFT` bits, which fit in
        // `RES`, and `RES <= T::BITS` (checked by the constructor) so nothing is shifted out.
        unsafe { Bounded::new_unchecked(self.0 << SHIFT) }
    }
}

/// Dereferencing also tells the optimizer that the value fits in `N` bits.
///
/// # Examples
///
/// ```
/// use kernel_core::num::Bounded;
///
/// let v = Bounded::<u16, 9>::new::<300>();
/// assert_eq!(*v, 300);
/// assert_eq!(Some(v).as_deref().copied(), Some(300));
/// ```
impl<T: Integer, const N: u32> ops::Deref for Bounded<T, N> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        if !fits_in(self.0, N) {
            // SAFETY: By the type invariant, the value fits in `N` bits.
            unsafe { hint::unreachable_unchecked() }
        }
        &self.0
    }
}

/// Conversion of any integer into a [`Bounded`], checked at run time: a [`TryInto`] for
/// [`Bounded`], whose own [`TryFrom`] implementations would conflict with the widening [`From`]s.
///
/// # Examples
///
/// ```
/// use kernel_core::num::{Bounded, TryIntoBounded};
///
/// let v: Option<Bounded<u16, 8>> = 128_u32.try_into_bounded();
/// assert_eq!(v.map(Bounded::get), Some(128));
/// // Does not fit in 6 bits.
/// let v: Option<Bounded<u16, 6>> = 128_u32.try_into_bounded();
/// assert_eq!(v, None);
/// // Does not fit in a `u16`.
/// let v: Option<Bounded<u16, 16>> = 0x1_0000_u32.try_into_bounded();
/// assert_eq!(v, None);
/// ```
pub trait TryIntoBounded<T: Integer, const N: u32> {
    /// `self` as a [`Bounded<T, N>`], or [`None`] if it does not fit in a `T` or in `N` bits.
    fn try_into_bounded(self) -> Option<Bounded<T, N>>;
}

impl<T, U, const N: u32> TryIntoBounded<T, N> for U
where
    T: Integer,
    U: TryInto<T>,
{
    #[inline]
    fn try_into_bounded(self) -> Option<Bounded<T, N>> {
        Bounded::try_new(self.try_into().ok()?)
    }
}

impl<T, U, const N: u32, const M: u32> PartialEq<Bounded<U, M>> for Bounded<T, N>
where
    T: Integer,
    U: Integer,
    T: PartialEq<U>,
{
    #[inline]
    fn eq(&self, other: &Bounded<U, M>) -> bool {
        self.0 == other.0
    }
}

impl<T: Integer, const N: u32> Eq for Bounded<T, N> {}

impl<T, U, const N: u32, const M: u32> PartialOrd<Bounded<U, M>> for Bounded<T, N>
where
    T: Integer,
    U: Integer,
    T: PartialOrd<U>,
{
    #[inline]
    fn partial_cmp(&self, other: &Bounded<U, M>) -> Option<cmp::Ordering> {
        self.0.partial_cmp(&other.0)
    }
}

impl<T, const N: u32> Ord for Bounded<T, N>
where
    T: Integer,
    T: Ord,
{
    #[inline]
    fn cmp(&self, other: &Self) -> cmp::Ordering {
        self.0.cmp(&other.0)
    }
}

impl<T, const N: u32> PartialEq<T> for Bounded<T, N>
where
    T: Integer,
    T: PartialEq,
{
    #[inline]
    fn eq(&self, other: &T) -> bool {
        self.0 == *other
    }
}

impl<T, const N: u32> PartialOrd<T> for Bounded<T, N>
where
    T: Integer,
    T: PartialOrd,
{
    #[inline]
    fn partial_cmp(&self, other: &T) -> Option<cmp::Ordering> {
        self.0.partial_cmp(other)
    }
}

/// The binary operators, `Bounded op Bounded` (same backing type, any number of bits) and
/// `Bounded op T`, each giving a `T`.
macro_rules! binary_operators {
    ($($trait:ident $method:ident $op:tt),* $(,)?) => {$(
        impl<T, const N: u32, const M: u32> ops::$trait<Bounded<T, M>> for Bounded<T, N>
        where
            T: Integer,
            T: ops::$trait<Output = T>,
        {
            type Output = T;

            #[inline]
            fn $method(self, rhs: Bounded<T, M>) -> T {
                self.0 $op rhs.0
            }
        }

        impl<T, const N: u32> ops::$trait<T> for Bounded<T, N>
        where
            T: Integer,
            T: ops::$trait<Output = T>,
        {
            type Output = T;

            #[inline]
            fn $method(self, rhs: T) -> T {
                self.0 $op rhs
            }
        }
    )*};
}

binary_operators!(
    Add add +,
    BitAnd bitand &,
    BitOr bitor |,
    BitXor bitxor ^,
    Div div /,
    Mul mul *,
    Rem rem %,
    Sub sub -,
);

impl<T, const N: u32> ops::Neg for Bounded<T, N>
where
    T: Integer,
    T: ops::Neg<Output = T>,
{
    type Output = T;

    #[inline]
    fn neg(self) -> T {
        -self.0
    }
}

impl<T, const N: u32> ops::Not for Bounded<T, N>
where
    T: Integer,
    T: ops::Not<Output = T>,
{
    type Output = T;

    #[inline]
    fn not(self) -> T {
        !self.0
    }
}

/// The formatting traits, as the backing type's (flags and width included).
macro_rules! formatting {
    ($($trait:ident)*) => {$(
        impl<T, const N: u32> fmt::$trait for Bounded<T, N>
        where
            T: Integer,
            T: fmt::$trait,
        {
            #[inline]
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::$trait::fmt(&self.0, f)
            }
        }
    )*};
}

formatting!(Display Binary LowerExp LowerHex Octal UpperExp UpperHex);

/// Implemented by `Bounded<T, N>` for every `N` of at least the bits of the primitive type
/// `Source`, up to 64: the bound of the widening `From<primitive>` conversions.
///
/// Linux 7.3 bounds them by a trait of the width (`AtLeastXBits<{ BITS }>`); a trait of the
/// source type says the same, and keeps rustc 1.95 from crashing while it reports
/// `Bounded::<u16, 12>::from(x_u16)` (its `From` diagnostics expect a type there). Its
/// diagnostic is what a driver author sees when a setter of a `bitfield!` field or
/// `Bounded::from` is given a type wider than the field, so it names the checked alternatives.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot hold every `{Source}`",
    label = "a `{Source}` has more bits than the field or `Bounded` holds",
    note = "a bitfield setter `with_<field>(value)` and `Bounded::from` take only types that always fit",
    note = "check at run time with `try_with_<field>(value)` or `Bounded::try_new(value)` (`EOVERFLOW` or `None` when it does not fit), or at build time with `with_const_<field>::<VALUE>()` or `Bounded::new::<VALUE>()`"
)]
trait AtLeastBits<Source> {}

/// Implemented by `Bounded<T, N>` for every `N` from 1 to `BITS`: the bound of the `From`
/// conversions into a primitive type of `BITS` bits.
trait AtMostBits<const BITS: usize> {}

/// `impl $trait<$bits> for Bounded<T, $n>` for each `$n` (or for two source types).
macro_rules! bits_rule {
    ($trait:ident<$bits:literal>: $($n:literal)*) => {$(
        impl<T: Integer> $trait<$bits> for Bounded<T, $n> {}
    )*};
    ($trait:ident<$unsigned:ty, $signed:ty>: $($n:literal)*) => {$(
        impl<T: Integer> $trait<$unsigned> for Bounded<T, $n> {}
        impl<T: Integer> $trait<$signed> for Bounded<T, $n> {}
    )*};
}

bits_rule!(AtLeastBits<u8, i8>:
    8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36
    37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
bits_rule!(AtLeastBits<u16, i16>:
    16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36
    37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
bits_rule!(AtLeastBits<u32, i32>:
    32 33 34 35 36
    37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
bits_rule!(AtLeastBits<u64, i64>: 64);
#[cfg(target_pointer_width = "32")]
bits_rule!(AtLeastBits<usize, isize>:
    32 33 34 35 36
    37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
#[cfg(target_pointer_width = "64")]
bits_rule!(AtLeastBits<usize, isize>: 64);

bits_rule!(AtMostBits<8>: 1 2 3 4 5 6 7 8);
bits_rule!(AtMostBits<16>: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
bits_rule!(AtMostBits<32>:
    1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
bits_rule!(AtMostBits<64>:
    1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
    33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
    64);

/// The widening conversions, primitive into [`Bounded`] and [`Bounded`] into primitive, for each
/// primitive type but the 128-bit ones.
macro_rules! primitive_conversions {
    ($($ty:ident)*) => {$(
        #[doc = concat!(
            "Any [`", stringify!($ty), "`] into a [`Bounded`] of the same signedness with at \
             least as many bits (and at most 64).\n\n",
            "# Examples\n\n",
            "```\n",
            "use kernel_core::num::Bounded;\n\n",
            "let v = Bounded::<", stringify!($ty), ", { ", stringify!($ty), "::BITS }>::from(",
            stringify!($ty), "::MAX);\n",
            "assert_eq!(v.get(), ", stringify!($ty), "::MAX);\n",
            "```"
        )]
        impl<T, const N: u32> From<$ty> for Bounded<T, N>
        where
            $ty: Integer,
            T: Integer<Signedness = <$ty as Integer>::Signedness> + From<$ty>,
            Self: AtLeastBits<$ty>,
        {
            #[inline]
            fn from(value: $ty) -> Self {
                // SAFETY: `N` is at least the bits of `$ty` (the `AtLeastBits` bound) and the
                // signedness is the same, so any `$ty` fits in `N` bits.
                unsafe { Self::new_unchecked(T::from(value)) }
            }
        }

        #[doc = concat!(
            "A [`Bounded`] of the same signedness with at most as many bits as a [`",
            stringify!($ty), "`] into a [`", stringify!($ty), "`], whatever its backing type.\n\n",
            "# Examples\n\n",
            "```\n",
            "use kernel_core::num::Bounded;\n\n",
            "let v = Bounded::<", stringify!($ty), ", 7>::new::<63>();\n",
            "assert_eq!(", stringify!($ty), "::from(v), 63);\n",
            "```"
        )]
        impl<T, const N: u32> From<Bounded<T, N>> for $ty
        where
            $ty: Integer + TryFrom<T>,
            T: Integer<Signedness = <$ty as Integer>::Signedness>,
            Bounded<T, N>: AtMostBits<{ <$ty as Integer>::BITS as usize }>,
        {
            #[inline]
            fn from(value: Bounded<T, N>) -> $ty {
                match <$ty>::try_from(value.0) {
                    Ok(value) => value,
                    // SAFETY: The value fits in `N` bits, which `$ty` has (the `AtMostBits`
                    // bound), with the same signedness, so the conversion cannot fail.
                    Err(_) => unsafe { hint::unreachable_unchecked() },
                }
            }
        }
    )*};
}

primitive_conversions!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize);

/// The unsigned integer types: the bound of the `bool` conversions of single-bit [`Bounded`]s,
/// where Linux 7.3 has `Zeroable`, which the same types implement.
mod unsigned {
    /// Implemented by `u8` to `u128` and `usize` only.
    pub trait Zero: Copy + PartialEq {
        /// `0`.
        const ZERO: Self;
    }

    macro_rules! zero {
        ($($ty:ty)*) => {$(
            impl Zero for $ty {
                const ZERO: Self = 0;
            }
        )*};
    }

    zero!(u8 u16 u32 u64 u128 usize);
}

/// A single-bit unsigned [`Bounded`] into a `bool`: `1` is `true`.
///
/// # Examples
///
/// ```
/// use kernel_core::num::Bounded;
///
/// assert!(bool::from(Bounded::<u8, 1>::new::<1>()));
/// assert!(!bool::from(Bounded::<u64, 1>::new::<0>()));
/// ```
impl<T> From<Bounded<T, 1>> for bool
where
    T: Integer<Signedness = Unsigned> + unsigned::Zero,
{
    #[inline]
    fn from(value: Bounded<T, 1>) -> Self {
        value.0 != T::ZERO
    }
}

/// A `bool` into an unsigned [`Bounded`]: `true` is `1`.
///
/// # Examples
///
/// ```
/// use kernel_core::num::Bounded;
///
/// assert_eq!(Bounded::<u64, 1>::from(false).get(), 0);
/// assert_eq!(Bounded::<u8, 3>::from(true).get(), 1);
/// ```
impl<T, const N: u32> From<bool> for Bounded<T, N>
where
    T: Integer<Signedness = Unsigned> + From<bool>,
{
    #[inline]
    fn from(value: bool) -> Self {
        // SAFETY: `0` and `1` fit in any number of unsigned bits.
        unsafe { Self::new_unchecked(T::from(value)) }
    }
}

impl<T> Bounded<T, 1>
where
    T: Integer<Signedness = Unsigned> + unsigned::Zero,
{
    /// `bool::from(self)`: `1` is `true`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::num::Bounded;
    ///
    /// assert!(!Bounded::<u8, 1>::new::<0>().into_bool());
    /// assert!(Bounded::<u8, 1>::new::<1>().into_bool());
    /// ```
    #[inline]
    pub fn into_bool(self) -> bool {
        self.into()
    }
}
