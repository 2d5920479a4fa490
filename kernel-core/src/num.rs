// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Integer properties as traits, integers limited to a number of bits, and lossless casts.
//!
//! Kernel counterpart: `rust/kernel/num.rs` (Linux 7.3), with its submodules `num/bounded.rs`
//! and `num/casts.rs`.
//!
//! - [`Integer`] is implemented by every primitive integer type and gives its number of bits,
//!   [`Integer::BITS`], and its signedness as a type, [`Signed`] or [`Unsigned`], so generic
//!   code can require "an unsigned integer" in a bound. It is sealed: no other type implements
//!   it.
//! - [`Bounded<T, N>`] is a `T` whose value fits in its `N` least significant bits (the signed
//!   range `-2^(N-1)..2^(N-1)` for signed `T`), checked when it is made: at build time with
//!   [`Bounded::new`] and [`Bounded::from_expr`], at run time with [`Bounded::try_new`]. It is
//!   what register fields are made of.
//! - [`casts`] converts between integer types without `as`, where the conversion cannot lose
//!   anything on any architecture the kernel supports (`usize` to `u64`, for instance), which
//!   [`From`] does not offer.
//!
//! # Examples
//!
//! ```
//! use kernel_core::num::{Bounded, Integer, Unsigned};
//!
//! // A 4-bit field, checked at build time.
//! let prio = Bounded::<u8, 4>::new::<12>();
//! assert_eq!(prio.get(), 12);
//! // Checked at run time.
//! assert!(Bounded::<u8, 4>::try_new(16).is_none());
//!
//! // Generic code over unsigned integers.
//! fn top_bit<T: Integer<Signedness = Unsigned>>(_: T) -> u32 {
//!     T::BITS - 1
//! }
//! assert_eq!(top_bit(0_u16), 15);
//! ```

use core::ops;

pub mod bounded;
pub mod casts;

pub use bounded::*;

/// The [`Integer::Signedness`] of unsigned integer types (`u8` to `u128`, `usize`).
///
/// A type with no values, used only in trait bounds.
///
/// # Examples
///
/// ```
/// use kernel_core::num::{Integer, Unsigned};
///
/// fn is_unsigned<T: Integer<Signedness = Unsigned>>(value: T) -> T {
///     value
/// }
/// assert_eq!(is_unsigned(7_u32), 7);
/// ```
pub enum Unsigned {}

/// The [`Integer::Signedness`] of signed integer types (`i8` to `i128`, `isize`).
///
/// A type with no values, used only in trait bounds.
///
/// # Examples
///
/// ```
/// use kernel_core::num::{Integer, Signed};
///
/// fn is_signed<T: Integer<Signedness = Signed>>(value: T) -> T {
///     value
/// }
/// assert_eq!(is_signed(-7_i64), -7);
/// ```
pub enum Signed {}

/// Seals [`Integer`]: the trait is public, the module is not, so no other crate implements it.
mod private {
    pub trait Sealed {}
}

/// A primitive integer type: its arithmetic and bitwise operators, its number of bits and its
/// signedness.
///
/// Implemented for `u8`, `u16`, `u32`, `u64`, `u128`, `usize` ([`Unsigned`]) and `i8`, `i16`,
/// `i32`, `i64`, `i128`, `isize` ([`Signed`]), and for nothing else (the trait is sealed).
///
/// # Examples
///
/// ```
/// use kernel_core::num::Integer;
///
/// fn low_half<T: Integer>(value: T) -> T {
///     let shift = T::BITS / 2;
///     (value << shift) >> shift
/// }
///
/// assert_eq!(<u32 as Integer>::BITS, 32);
/// assert_eq!(low_half(0x1234_5678_u32), 0x5678);
/// assert_eq!(low_half(0x00ff_u16), 0xff);
/// ```
pub trait Integer:
    private::Sealed
    + Sized
    + Copy
    + Clone
    + PartialEq
    + Eq
    + PartialOrd
    + Ord
    + ops::Add<Output = Self>
    + ops::AddAssign
    + ops::Sub<Output = Self>
    + ops::SubAssign
    + ops::Mul<Output = Self>
    + ops::MulAssign
    + ops::Div<Output = Self>
    + ops::DivAssign
    + ops::Rem<Output = Self>
    + ops::RemAssign
    + ops::BitAnd<Output = Self>
    + ops::BitAndAssign
    + ops::BitOr<Output = Self>
    + ops::BitOrAssign
    + ops::BitXor<Output = Self>
    + ops::BitXorAssign
    + ops::Shl<u32, Output = Self>
    + ops::ShlAssign<u32>
    + ops::Shr<u32, Output = Self>
    + ops::ShrAssign<u32>
    + ops::Not
{
    /// [`Signed`] or [`Unsigned`].
    type Signedness;

    /// The number of bits of the type, as its inherent `BITS` constant.
    const BITS: u32;
}

/// Implements [`Integer`] (and its seal) for each `type: signedness` pair.
macro_rules! integers {
    ($($ty:ty: $signedness:ty),* $(,)?) => {$(
        impl private::Sealed for $ty {}

        impl Integer for $ty {
            type Signedness = $signedness;
            const BITS: u32 = <$ty>::BITS;
        }
    )*};
}

integers!(
    u8: Unsigned,
    u16: Unsigned,
    u32: Unsigned,
    u64: Unsigned,
    u128: Unsigned,
    usize: Unsigned,
    i8: Signed,
    i16: Signed,
    i32: Signed,
    i64: Signed,
    i128: Signed,
    isize: Signed,
);
