// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Parsing integers from byte strings, with an optional sign and radix prefix: [`ParseInt`].
//!
//! Kernel counterpart: `rust/kernel/str/parse_int.rs` (Linux 7.3), which accepts what the
//! kernel's `kstrtol()` and `kstrtoul()` accept. Pure Rust there as here.
//!
//! # Examples
//!
//! ```
//! use kernel_core::b_str;
//! use kernel_core::str::parse_int::ParseInt;
//!
//! assert_eq!(u32::from_str(b_str!("0x1f")), Ok(31));
//! assert_eq!(i8::from_str(b_str!("-0b1000_0000")).is_err(), true);
//! assert_eq!(i8::from_str(b_str!("-0b10000000")), Ok(-128));
//! ```

use core::ops::Deref;

use crate::error::{code::EINVAL, Result};
use crate::str::BStr;

/// `FromStrRadix` is public, for the bound of [`ParseInt`], but has a private path: no other
/// crate can implement it, so `ParseInt` is sealed.
mod private {
    use crate::error::Result;
    use crate::str::BStr;

    /// Parsing a [`BStr`] into an integer in a radix.
    pub trait FromStrRadix: Sized {
        /// Parses `src` (digits only) in `radix`.
        fn from_str_radix(src: &BStr, radix: u32) -> Result<Self>;

        /// `-value`, if it is a `Self`.
        fn from_u64_negated(value: u64) -> Result<Self>;
    }
}

/// The radix of an integer's text and its digits: `0x`/`0X` is 16, `0o`/`0O` 8, `0b`/`0B` 2,
/// another leading `0` 8 (that `0` kept, so that `0` alone parses), anything else 10.
fn strip_radix(src: &BStr) -> (u32, &BStr) {
    match src.deref() {
        [b'0', b'x' | b'X', rest @ ..] => (16, rest.as_ref()),
        [b'0', b'o' | b'O', rest @ ..] => (8, rest.as_ref()),
        [b'0', b'b' | b'B', rest @ ..] => (2, rest.as_ref()),
        [b'0', ..] => (8, src),
        _ => (10, src),
    }
}

/// Integers that parse from their text: decimal, or hexadecimal, octal or binary after a
/// `0x`, `0o` or `0b` prefix (any letter case), octal after another leading `0`, with an
/// optional `-` or `+` sign.
///
/// As in Linux 7.3, a `+` takes decimal digits only (it reaches Rust's `from_str_radix`
/// before any prefix is looked for): `+0x10` is refused and `+017` is 17, where the kernel's C
/// `kstrtol()` reads 16 and 15; Linux 7.3 documents that every string `kstrtol()` and
/// `kstrtoul()` accept parses, which holds without a `+`.
///
/// Implemented for `i8`..`i64`, `u8`..`u64`, `isize` and `usize`; sealed.
///
/// # Examples
///
/// ```
/// use kernel_core::b_str;
/// use kernel_core::str::parse_int::ParseInt;
///
/// assert_eq!(u8::from_str(b_str!("0")), Ok(0));
/// assert_eq!(u8::from_str(b_str!("0xa2")), Ok(0xa2));
/// assert_eq!(i32::from_str(b_str!("-0xa2")), Ok(-0xa2));
/// assert_eq!(i8::from_str(b_str!("-0o57")), Ok(-0o57));
/// assert_eq!(i8::from_str(b_str!("057")), Ok(0o57));
/// assert_eq!(i16::from_str(b_str!("0b1001")), Ok(0b1001));
/// assert_eq!(i8::from_str(b_str!("127")), Ok(127));
/// assert!(i8::from_str(b_str!("128")).is_err());
/// assert_eq!(i8::from_str(b_str!("-128")), Ok(-128));
/// assert!(i8::from_str(b_str!("-129")).is_err());
/// assert!(u8::from_str(b_str!("256")).is_err());
/// assert!(u8::from_str(b_str!("")).is_err());
/// assert_eq!(u8::from_str(b_str!("+017")), Ok(17)); // decimal after `+`, as in 7.3
/// assert!(u8::from_str(b_str!("+0x10")).is_err());
/// ```
pub trait ParseInt: private::FromStrRadix + TryFrom<u64> {
    /// Parses `src` as described for the [trait](ParseInt); [`EINVAL`] if it is no integer of
    /// this type.
    fn from_str(src: &BStr) -> Result<Self> {
        match src.deref() {
            [b'-', rest @ ..] => {
                // The magnitude, in a type wide enough for every negative value of `Self`.
                let (radix, digits) = strip_radix(rest.as_ref());
                let digits = core::str::from_utf8(digits).map_err(|_| EINVAL)?;
                let magnitude = u64::from_str_radix(digits, radix).map_err(|_| EINVAL)?;
                Self::from_u64_negated(magnitude)
            }
            _ => {
                let (radix, digits) = strip_radix(src);
                Self::from_str_radix(digits, radix).map_err(|_| EINVAL)
            }
        }
    }
}

/// Implements [`ParseInt`] for each integer type.
macro_rules! parse_int {
    ($($ty:ty),*) => {$(
        impl private::FromStrRadix for $ty {
            fn from_str_radix(src: &BStr, radix: u32) -> Result<Self> {
                let digits = core::str::from_utf8(src).map_err(|_| EINVAL)?;
                <$ty>::from_str_radix(digits, radix).map_err(|_| EINVAL)
            }

            fn from_u64_negated(value: u64) -> Result<Self> {
                // The magnitude of `Self::MIN`: 0 for unsigned types.
                #[allow(unused_comparisons)]
                const ABS_MIN: u64 = if <$ty>::MIN < 0 { 1_u64 << (<$ty>::BITS - 1) } else { 0 };
                if value > ABS_MIN {
                    return Err(EINVAL);
                }
                if value == ABS_MIN {
                    return Ok(<$ty>::MIN);
                }
                // `value < ABS_MIN`, so `Self` is signed and `value` fits in it.
                let value = <$ty>::try_from(value).map_err(|_| EINVAL)?;
                Ok(value.wrapping_neg())
            }
        }

        impl ParseInt for $ty {}
    )*};
}

parse_int!(i8, u8, i16, u16, i32, u32, i64, u64, isize, usize);
