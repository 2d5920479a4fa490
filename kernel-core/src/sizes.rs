// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Power-of-two sizes, `SZ_1K` to `SZ_2G`, as `usize` and as typed constants.
//!
//! Kernel counterpart: `rust/kernel/sizes.rs` (Linux 7.3); C header:
//! [`include/linux/sizes.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/sizes.h).
//!
//! - The module-level `SZ_*` constants are `usize`, for CPU-side sizes such as page arithmetic.
//! - [`SizeConstants`] gives the same values as associated constants of [`u32`], [`u64`] and
//!   [`usize`], for device address spaces, whose width is the hardware's rather than the CPU's.
//!   Every value fits in a `u32`, which is checked at compile time for each type.
//!
//! The 64-bit sizes of `sizes.h` (`SZ_4G` and up), which the kernel crate does not have, are
//! kernel-core's addition [`SizeConstants64`](crate::extras::sizes::SizeConstants64).
//!
//! # Examples
//!
//! ```
//! use kernel_core::sizes::{SizeConstants, SZ_1M, SZ_4K};
//!
//! // Module-level constants are `usize`.
//! let pages_per_mib = SZ_1M / SZ_4K;
//! assert_eq!(pages_per_mib, 256);
//!
//! // Associated constants pick their type.
//! const VRAM: u64 = 14 * u64::SZ_1M;
//! const MMIO_WINDOW: u32 = u32::SZ_16M;
//! assert_eq!(VRAM, 14 << 20);
//! assert_eq!(MMIO_WINDOW, 1 << 24);
//! ```

/// Declares the module constants and the trait, with each value checked to fit every
/// implementing type at compile time.
macro_rules! sizes {
    (
        $(#[$trait_meta:meta])*
        trait $trait:ident for [$($ty:ty),+];
        $names:tt
    ) => {
        sizes!(@module $names);
        sizes!(@trait $(#[$trait_meta])* $trait $names);
        $(sizes!(@impl $trait, $ty, $names);)+
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
    (@module { $($name:ident = $shift:literal,)+ }) => {
        $(
            #[doc = concat!("`1 << ", stringify!($shift), "` bytes, as a `usize`.")]
            pub const $name: usize = <usize as SizeConstants>::$name;
        )+
    };
}

sizes! {
    /// The `SZ_*` sizes as associated constants, for [`u32`], [`u64`] and [`usize`].
    ///
    /// Pick the type that matches the address space: device registers and apertures are often
    /// `u32` or `u64` whatever the CPU's word size. All values fit in a `u32`, so every
    /// implementation is exact.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sizes::SizeConstants;
    ///
    /// let bar0 = u64::SZ_256M;
    /// let window = u32::SZ_2G;
    /// assert_eq!(bar0, 0x1000_0000);
    /// assert_eq!(window, 0x8000_0000);
    ///
    /// fn twice<T: SizeConstants + core::ops::Add<Output = T>>() -> T {
    ///     T::SZ_1K + T::SZ_1K
    /// }
    /// assert_eq!(twice::<u32>(), u32::SZ_2K);
    /// ```
    trait SizeConstants for [u32, u64, usize];
    {
    SZ_1K = 10,
    SZ_2K = 11,
    SZ_4K = 12,
    SZ_8K = 13,
    SZ_16K = 14,
    SZ_32K = 15,
    SZ_64K = 16,
    SZ_128K = 17,
    SZ_256K = 18,
    SZ_512K = 19,
    SZ_1M = 20,
    SZ_2M = 21,
    SZ_4M = 22,
    SZ_8M = 23,
    SZ_16M = 24,
    SZ_32M = 25,
    SZ_64M = 26,
    SZ_128M = 27,
    SZ_256M = 28,
    SZ_512M = 29,
    SZ_1G = 30,
    SZ_2G = 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_is_its_power_of_two_in_every_type() {
        let sizes = [
            SZ_1K, SZ_2K, SZ_4K, SZ_8K, SZ_16K, SZ_32K, SZ_64K, SZ_128K, SZ_256K, SZ_512K, SZ_1M,
            SZ_2M, SZ_4M, SZ_8M, SZ_16M, SZ_32M, SZ_64M, SZ_128M, SZ_256M, SZ_512M, SZ_1G, SZ_2G,
        ];
        for (i, size) in sizes.into_iter().enumerate() {
            assert_eq!(size, 1 << (i + 10));
        }
        assert_eq!(u32::SZ_2G, 1 << 31);
        assert_eq!(u64::SZ_2G, 1 << 31);
        assert_eq!(usize::SZ_2G, 1 << 31);
    }
}
