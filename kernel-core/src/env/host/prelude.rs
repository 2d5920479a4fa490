// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What `kernel_core::prelude` re-exports on the host, besides kernel-core's own items:
//! [`Zeroable`] only.
//!
//! Its kernel twin, `env/kernel/prelude.rs`, re-exports the kernel's whole prelude, so that
//! `use kernel_core::prelude::*;` is the only prelude line a driver needs. On the host there is
//! no kernel crate, and `kernel_core::prelude` is kernel-core's own items alone.
//!
//! The one exception is [`Zeroable`], which Linux 7.3's prelude exports from its `pin_init`
//! crate and which [`bitfield!`](crate::bitfield!) types implement: on the host it is
//! kernel-core's own trait, with `Zeroable::zeroed()` alone.

/// A type whose value of all zero bits is valid: `T::zeroed()`.
///
/// Linux 7.3's prelude exports `pin_init::Zeroable`, which has more (`init_zeroed()`, a derive
/// macro) and more implementations; on the host (and on Linux 6.12, which has no such method),
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
