// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::extras`: what kernel-core adds beyond the kernel crate.
//!
//! Not part of the switch-back check, which builds the other suites against the kernel's own
//! `kernel::`: these items exist only in kernel-core. (The fake clocks of `extras::time` are
//! tested in `time.rs`, since they build on top of either `time` module.)

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_extras)]
mod tests {
    use kernel_core::extras::sizes::SizeConstants64;
    use kernel_core::sizes::SizeConstants;

    #[test]
    fn sixty_four_bit_sizes() {
        let sizes = [
            (u64::SZ_4G, 32),
            (u64::SZ_8G, 33),
            (u64::SZ_16G, 34),
            (u64::SZ_32G, 35),
            (u64::SZ_64G, 36),
            (u64::SZ_128G, 37),
            (u64::SZ_256G, 38),
            (u64::SZ_512G, 39),
            (u64::SZ_1T, 40),
            (u64::SZ_2T, 41),
            (u64::SZ_4T, 42),
            (u64::SZ_8T, 43),
            (u64::SZ_16T, 44),
            (u64::SZ_32T, 45),
            (u64::SZ_64T, 46),
            (u64::SZ_128T, 47),
        ];
        for (size, shift) in sizes {
            assert_eq!(size, 1_u64 << shift);
        }
        assert_eq!(u64::SZ_4G, 2 * u64::SZ_2G);
    }
}
