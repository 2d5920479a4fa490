// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The 64-bit sizes of `include/linux/sizes.h`, `SZ_4G` to `SZ_128T`, which the kernel crate's
//! [`crate::sizes`] stops short of.
//!
//! An addition of kernel-core. A driver that switches back to `kernel::` writes them as
//! multiples of `u64::SZ_1G` instead, or keeps this import.
//!
//! # Examples
//!
//! ```
//! use kernel_core::extras::sizes::SizeConstants64;
//!
//! const APERTURE: u64 = 2 * u64::SZ_4G;
//! assert_eq!(APERTURE, 1 << 33);
//! ```

/// Declares the trait and its implementations, each value checked to fit its type at compile
/// time. Self-contained, so that this file builds on top of the kernel's `sizes` as well.
macro_rules! sizes64 {
    (
        $(#[$trait_meta:meta])*
        trait $trait:ident for [$($ty:ty),+];
        $names:tt
    ) => {
        sizes64!(@trait $(#[$trait_meta])* $trait $names);
        $(sizes64!(@impl $trait, $ty, $names);)+
    };
    (@trait $(#[$trait_meta:meta])* $trait:ident { $($name:ident = $shift:literal,)+ }) => {
        $(#[$trait_meta])*
        pub trait $trait {
            $(
                #[doc = concat!("`1 << ", stringify!($shift), "`.")]
                const $name: Self;
            )+
        }
    };
    (@impl $trait:ident, $ty:ty, { $($name:ident = $shift:literal,)+ }) => {
        impl $trait for $ty {
            $(
                const $name: Self = {
                    let value: u64 = 1 << $shift;
                    ::core::assert!(
                        value <= <$ty>::MAX as u64,
                        concat!(stringify!($name), " does not fit in ", stringify!($ty))
                    );
                    value as $ty
                };
            )+
        }
    };
}

sizes64! {
    /// The 64-bit sizes of `include/linux/sizes.h`, `SZ_4G` to `SZ_128T`.
    ///
    /// An addition of kernel-core: not in the kernel crate. None of these fits in 32 bits, so
    /// they are usable on [`u64`] and on a 64-bit [`usize`] only: naming one on [`u32`], or on `usize` of a 32-bit target,
    /// is a compile error, `evaluation panicked: SZ_4G does not fit in u32`. (The implementations
    /// for those types exist so that this error names the problem, where a missing
    /// implementation would only suggest `SZ_1G`.)
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::sizes::SizeConstants64;
    /// use kernel_core::sizes::SizeConstants;
    ///
    /// let dram = 3 * u64::SZ_16G;
    /// assert_eq!(dram, 48 * u64::SZ_1G);
    /// assert_eq!(u64::SZ_1T, 1 << 40);
    /// assert_eq!(u64::SZ_128T, 0x8000_0000_0000);
    /// ```
    ///
    /// ```compile_fail
    /// use kernel_core::extras::sizes::SizeConstants64;
    ///
    /// let truncated = u32::SZ_4G;
    /// ```
    trait SizeConstants64 for [u64, usize, u32];
    {
    SZ_4G = 32,
    SZ_8G = 33,
    SZ_16G = 34,
    SZ_32G = 35,
    SZ_64G = 36,
    SZ_128G = 37,
    SZ_256G = 38,
    SZ_512G = 39,
    SZ_1T = 40,
    SZ_2T = 41,
    SZ_4T = 42,
    SZ_8T = 43,
    SZ_16T = 44,
    SZ_32T = 45,
    SZ_64T = 46,
    SZ_128T = 47,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_is_its_power_of_two() {
        let sizes = [
            u64::SZ_4G,
            u64::SZ_8G,
            u64::SZ_16G,
            u64::SZ_32G,
            u64::SZ_64G,
            u64::SZ_128G,
            u64::SZ_256G,
            u64::SZ_512G,
            u64::SZ_1T,
            u64::SZ_2T,
            u64::SZ_4T,
            u64::SZ_8T,
            u64::SZ_16T,
            u64::SZ_32T,
            u64::SZ_64T,
            u64::SZ_128T,
        ];
        for (i, size) in sizes.into_iter().enumerate() {
            assert_eq!(size, 1 << (i + 32));
        }
        #[cfg(target_pointer_width = "64")]
        assert_eq!(usize::SZ_128T, 1 << 47);
    }
}
