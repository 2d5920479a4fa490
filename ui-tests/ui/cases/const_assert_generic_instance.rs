// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `const_assert!` fails for the one generic instance that breaks it (`ring::<6>`), with its
//! message, and not for the good one (`ring::<8>`).
//!
//! This error only appears when the instance is compiled: `cargo check` does not see it.

use kernel_core::const_assert;

fn ring<const N: usize>() -> [u8; N] {
    const_assert!(N.is_power_of_two(), "ring sizes must be powers of two");
    [0; N]
}

fn main() {
    let good = ring::<8>();
    let bad = ring::<6>();
    assert_eq!(good.len() + bad.len(), 14);
}
