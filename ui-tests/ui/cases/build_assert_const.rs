// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A false `build_assert!` met during const evaluation is a compile error carrying the
//! message, pointing at the `const` item that evaluates it.

use kernel_core::build_assert::build_assert;

const fn checked_shift(shift: u32) -> u32 {
    build_assert!(shift < 32, "shift too large");
    1 << shift
}

const FINE: u32 = checked_shift(4);
const BAD: u32 = checked_shift(40);

fn main() {
    let _ = FINE + BAD;
}
