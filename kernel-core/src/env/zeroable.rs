// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! kernel-core's own `Zeroable`, where the kernel's prelude has no trait with `zeroed()`: on
//! the host, and on Linux 6.12. Both `env/host/prelude.rs` and `env/kernel/prelude.rs`
//! re-export this one definition; on Linux 7.2 and 7.3 the kernel's prelude brings
//! `pin_init::Zeroable` instead.

/// A type whose value of all zero bits is valid: `T::zeroed()`.
///
/// Linux 7.3's prelude exports `pin_init::Zeroable`, which has more (`init_zeroed()`, a derive
/// macro) and more implementations; on the host and on Linux 6.12 (whose prelude has only a
/// derive macro of that name, and whose trait `kernel::init::Zeroable` has no `zeroed()`),
/// kernel-core has this subset: `zeroed()`, for the primitive integers, `bool` and the types of
/// [`bitfield!`](crate::bitfield!).
///
/// # Safety
///
/// All zero bits must be a valid value of the implementing type.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// assert_eq!(u64::zeroed(), 0);
/// assert!(!bool::zeroed());
/// ```
pub unsafe trait Zeroable {
    /// The value of all zero bits.
    #[inline]
    fn zeroed() -> Self
    where
        Self: Sized,
    {
        // SAFETY: The implementing type promises that all zero bits are a valid value.
        unsafe { core::mem::zeroed() }
    }
}

/// Implements [`Zeroable`] for each type, whose zero bits are a valid value.
macro_rules! zeroable {
    ($($ty:ty)*) => {$(
        // SAFETY: All zero bits are `0` or `false`.
        unsafe impl Zeroable for $ty {}
    )*};
}

zeroable!(u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize bool);
