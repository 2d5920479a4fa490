// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::sizes`: every constant, in every type, is its power of two.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_sizes)]
mod tests {
    use kernel_core::sizes::*;

    /// The module constants with their exponents, `SZ_1K` (2^10) to `SZ_2G` (2^31).
    const USIZE: [(usize, u32); 22] = [
        (SZ_1K, 10),
        (SZ_2K, 11),
        (SZ_4K, 12),
        (SZ_8K, 13),
        (SZ_16K, 14),
        (SZ_32K, 15),
        (SZ_64K, 16),
        (SZ_128K, 17),
        (SZ_256K, 18),
        (SZ_512K, 19),
        (SZ_1M, 20),
        (SZ_2M, 21),
        (SZ_4M, 22),
        (SZ_8M, 23),
        (SZ_16M, 24),
        (SZ_32M, 25),
        (SZ_64M, 26),
        (SZ_128M, 27),
        (SZ_256M, 28),
        (SZ_512M, 29),
        (SZ_1G, 30),
        (SZ_2G, 31),
    ];

    /// The same, through `SizeConstants` for `T`, widened to `u64` for comparison.
    fn typed<T: SizeConstants + Into<u64>>() -> [u64; 22] {
        [
            T::SZ_1K.into(),
            T::SZ_2K.into(),
            T::SZ_4K.into(),
            T::SZ_8K.into(),
            T::SZ_16K.into(),
            T::SZ_32K.into(),
            T::SZ_64K.into(),
            T::SZ_128K.into(),
            T::SZ_256K.into(),
            T::SZ_512K.into(),
            T::SZ_1M.into(),
            T::SZ_2M.into(),
            T::SZ_4M.into(),
            T::SZ_8M.into(),
            T::SZ_16M.into(),
            T::SZ_32M.into(),
            T::SZ_64M.into(),
            T::SZ_128M.into(),
            T::SZ_256M.into(),
            T::SZ_512M.into(),
            T::SZ_1G.into(),
            T::SZ_2G.into(),
        ]
    }

    #[test]
    fn module_constants_are_powers_of_two() {
        for (size, shift) in USIZE {
            assert_eq!(size, 1_usize << shift);
            assert!(size.is_power_of_two());
        }
        assert_eq!(SZ_1K, 0x400);
        assert_eq!(SZ_2G, 0x8000_0000);
    }

    #[test]
    fn typed_constants_match_the_module_constants() {
        for (i, (size, _)) in USIZE.into_iter().enumerate() {
            assert_eq!(typed::<u32>()[i], size as u64);
            assert_eq!(typed::<u64>()[i], size as u64);
        }
        assert_eq!(usize::SZ_1K, SZ_1K);
        assert_eq!(usize::SZ_2G, SZ_2G);
    }

    #[test]
    fn the_largest_u32_size_is_the_top_bit() {
        assert_eq!(u32::SZ_2G, 1 << 31);
        assert_eq!(u32::SZ_2G - 1 + u32::SZ_2G, u32::MAX);
        assert_eq!(u32::SZ_2G.checked_mul(2), None);
    }

    #[test]
    fn usable_in_const_contexts() {
        const HEAP: u64 = 14 * u64::SZ_1M;
        const WINDOW: u32 = u32::SZ_16M + u32::SZ_8M;
        const BUFFER: [u8; SZ_4K] = [0; SZ_4K];
        assert_eq!(HEAP, 14 << 20);
        assert_eq!(WINDOW, 24 << 20);
        assert_eq!(BUFFER.len(), 4096);
    }
}
