// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Integer conversions that cannot lose anything, where `as` could and [`From`] is missing.
//!
//! Kernel counterpart: `rust/kernel/num/casts.rs` (Linux 7.3).
//!
//! `as` truncates silently, so kernel code avoids it; [`From`] is lossless but the standard
//! library leaves out conversions that depend on the pointer width, such as `usize` into `u64`,
//! although every architecture the kernel supports has 32- or 64-bit pointers. This module
//! fills the gap:
//!
//! - `const fn`s named `<from>_as_<into>` ([`usize_as_u64`], [`u32_as_usize`], ...): every
//!   lossless conversion between `u8`, `u16`, `u32`, `u64` and `usize`, for const contexts,
//!   where [`From`] cannot be called;
//! - [`FromSafeCast`] and [`IntoSafeCast`]: [`From`] and [`Into`] for `usize` into `u64` and
//!   `u32` into `usize`;
//! - `const fn`s named `<from>_into_<into>::<VALUE>()` ([`u64_into_u8`], ...): a constant of a
//!   wider type into a narrower one, which must hold it, or the build fails;
//! - [`arch`]: the conversions that are lossless only for the pointer width being built for.
//!
//! # Examples
//!
//! ```
//! use kernel_core::num::casts::{self, FromSafeCast, IntoSafeCast};
//!
//! const PAGE: usize = casts::u16_as_usize(4096);
//! const DMA_BITS: u8 = casts::u32_into_u8::<40>();
//!
//! let offset = u64::from_safe_cast(PAGE);
//! let also: u64 = PAGE.into_safe_cast();
//! assert_eq!((offset, also, DMA_BITS), (4096, 4096, 40));
//! ```

use crate::build_assert::{const_assert, static_assert};

/// The lossless `$from as $into` `const fn`s.
macro_rules! safe_as {
    ($($name:ident: $from:ident => $into:ident),* $(,)?) => {$(
        #[doc = concat!("`value` as a [`", stringify!($into), "`], which holds every [`",
                        stringify!($from), "`].")]
        ///
        /// For const contexts; elsewhere, [`From`] or [`FromSafeCast`] say the same.
        ///
        /// # Examples
        ///
        /// ```
        /// use kernel_core::num::casts;
        ///
        #[doc = concat!("const V: ", stringify!($into), " = casts::", stringify!($name), "(",
                        stringify!($from), "::MAX);")]
        #[doc = concat!("assert_eq!(u128::try_from(V).ok(), u128::try_from(", stringify!($from),
                        "::MAX).ok());")]
        /// ```
        #[inline]
        pub const fn $name(value: $from) -> $into {
            static_assert!(core::mem::size_of::<$into>() >= core::mem::size_of::<$from>());
            value as $into
        }
    )*};
}

safe_as!(
    u8_as_u16: u8 => u16,
    u8_as_u32: u8 => u32,
    u8_as_u64: u8 => u64,
    u8_as_usize: u8 => usize,
    u16_as_u32: u16 => u32,
    u16_as_u64: u16 => u64,
    u16_as_usize: u16 => usize,
    u32_as_u64: u32 => u64,
    // Pointers have 32 or 64 bits on every architecture the kernel supports.
    usize_as_u64: usize => u64,
    u32_as_usize: u32 => usize,
);

/// [`From`] for the conversions that are lossless on every architecture the kernel supports
/// but that the standard library leaves out: `usize` into [`u64`] and `u32` into [`usize`].
///
/// Use it instead of `as`, which would also accept a lossy conversion, or of [`TryFrom`],
/// whose error case cannot happen. In const contexts, use [`usize_as_u64`] and
/// [`u32_as_usize`].
///
/// # Examples
///
/// ```
/// use kernel_core::num::casts::FromSafeCast;
///
/// assert_eq!(usize::from_safe_cast(0xf00_u32), 0xf00_usize);
/// assert_eq!(u64::from_safe_cast(usize::MAX), usize::MAX as u64);
/// ```
pub trait FromSafeCast<T> {
    /// `value` as a `Self`, without loss.
    fn from_safe_cast(value: T) -> Self;
}

impl FromSafeCast<usize> for u64 {
    #[inline]
    fn from_safe_cast(value: usize) -> Self {
        usize_as_u64(value)
    }
}

impl FromSafeCast<u32> for usize {
    #[inline]
    fn from_safe_cast(value: u32) -> Self {
        u32_as_usize(value)
    }
}

/// [`Into`] for [`FromSafeCast`]: implemented for every `S` whose `T` implements
/// `FromSafeCast<S>`.
///
/// # Examples
///
/// ```
/// use kernel_core::num::casts::IntoSafeCast;
///
/// let len: usize = 0xf00_u32.into_safe_cast();
/// assert_eq!(len, 0xf00);
/// ```
pub trait IntoSafeCast<T> {
    /// `self` as a `T`, without loss.
    fn into_safe_cast(self) -> T;
}

impl<S, T> IntoSafeCast<T> for S
where
    T: FromSafeCast<S>,
{
    #[inline]
    fn into_safe_cast(self) -> T {
        T::from_safe_cast(self)
    }
}

/// The `const fn $name<const VALUE: $from>() -> $into`s, checked at build time.
macro_rules! const_into {
    ($($name:ident: $from:ident => $into:ident),* $(,)?) => {$(
        #[doc = concat!("The constant `VALUE` as a [`", stringify!($into), "`]; a `VALUE` that a [`",
                        stringify!($into), "`] cannot hold does not build.")]
        ///
        /// For constants declared in a wider type than some of their uses.
        ///
        /// # Examples
        ///
        /// ```
        /// use kernel_core::num::casts;
        ///
        #[doc = concat!("assert_eq!(casts::", stringify!($name), "::<1>(), 1);")]
        #[doc = concat!("assert_eq!(casts::", stringify!($name), "::<{ ", stringify!($into),
                        "::MAX as ", stringify!($from), " }>(), ", stringify!($into), "::MAX);")]
        #[doc = concat!("// Does not build: casts::", stringify!($name), "::<{ ",
                        stringify!($into), "::MAX as ", stringify!($from), " + 1 }>()")]
        /// ```
        #[inline]
        pub const fn $name<const VALUE: $from>() -> $into {
            static_assert!($from::BITS >= $into::BITS);
            const_assert!(VALUE <= $into::MAX as $from, "the value does not fit in the target type");
            // CAST: Just checked: the target type holds `VALUE` (all these types are unsigned).
            VALUE as $into
        }
    )*};
}

const_into!(
    usize_into_u8: usize => u8,
    usize_into_u16: usize => u16,
    usize_into_u32: usize => u32,
    u64_into_u8: u64 => u8,
    u64_into_u16: u64 => u16,
    u64_into_u32: u64 => u32,
    u32_into_u8: u32 => u8,
    u32_into_u16: u32 => u16,
    u16_into_u8: u16 => u8,
);

/// Conversions that are lossless only for the pointer width being built for.
///
/// On 64-bit architectures (`CONFIG_64BIT`), `u64` into `usize`: [`u64_as_usize`](arch::u64_as_usize) and
/// [`FromSafeCastArch<u64>`](arch::FromSafeCastArch) for `usize`; on 32-bit ones, `usize` into `u32`:
/// `usize_as_u32` and `FromSafeCastArch<usize>` for `u32`. Code that uses them builds for one
/// of the two only: keep it to code that is specific to that width.
///
/// kernel-core decides with the target's pointer width, which is `CONFIG_64BIT` in the kernel
/// and needs no configuration on the host.
///
/// # Examples
///
/// ```
/// # #[cfg(target_pointer_width = "64")] {
/// use kernel_core::num::casts::arch::{self, FromSafeCastArch, IntoSafeCastArch};
///
/// const V: usize = arch::u64_as_usize(u64::MAX);
/// assert_eq!(V, usize::MAX);
/// assert_eq!(usize::from_safe_cast_arch(7_u64), 7);
/// let v: usize = 7_u64.into_safe_cast_arch();
/// assert_eq!(v, 7);
/// # }
/// ```
pub mod arch {
    /// [`FromSafeCast`](super::FromSafeCast) for the conversions of [`arch`](self), which
    /// depend on the pointer width.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(target_pointer_width = "64")] {
    /// use kernel_core::num::casts::arch::FromSafeCastArch;
    ///
    /// assert_eq!(usize::from_safe_cast_arch(u64::MAX), usize::MAX);
    /// # }
    /// ```
    pub trait FromSafeCastArch<T> {
        /// `value` as a `Self`, without loss on this architecture.
        fn from_safe_cast_arch(value: T) -> Self;
    }

    /// [`Into`] for [`FromSafeCastArch`].
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(target_pointer_width = "64")] {
    /// use kernel_core::num::casts::arch::IntoSafeCastArch;
    ///
    /// let v: usize = 0x1_0000_0000_u64.into_safe_cast_arch();
    /// assert_eq!(v, 1 << 32);
    /// # }
    /// ```
    pub trait IntoSafeCastArch<T> {
        /// `self` as a `T`, without loss on this architecture.
        fn into_safe_cast_arch(self) -> T;
    }

    impl<S, T> IntoSafeCastArch<T> for S
    where
        T: FromSafeCastArch<S>,
    {
        #[inline]
        fn into_safe_cast_arch(self) -> T {
            T::from_safe_cast_arch(self)
        }
    }

    /// `value` as a [`usize`], which has 64 bits on 64-bit architectures.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(target_pointer_width = "64")] {
    /// use kernel_core::num::casts::arch::u64_as_usize;
    ///
    /// const V: usize = u64_as_usize(1 << 40);
    /// assert_eq!(V, 1 << 40);
    /// # }
    /// ```
    #[cfg(target_pointer_width = "64")]
    #[inline]
    pub const fn u64_as_usize(value: u64) -> usize {
        value as usize
    }

    #[cfg(target_pointer_width = "64")]
    impl FromSafeCastArch<u64> for usize {
        #[inline]
        fn from_safe_cast_arch(value: u64) -> Self {
            u64_as_usize(value)
        }
    }

    /// `value` as a [`u32`], which holds a `usize` on 32-bit architectures.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(target_pointer_width = "32")] {
    /// use kernel_core::num::casts::arch::usize_as_u32;
    ///
    /// const V: u32 = usize_as_u32(usize::MAX);
    /// assert_eq!(V, u32::MAX);
    /// # }
    /// ```
    #[cfg(target_pointer_width = "32")]
    #[inline]
    pub const fn usize_as_u32(value: usize) -> u32 {
        value as u32
    }

    #[cfg(target_pointer_width = "32")]
    impl FromSafeCastArch<usize> for u32 {
        #[inline]
        fn from_safe_cast_arch(value: usize) -> Self {
            usize_as_u32(value)
        }
    }
}
