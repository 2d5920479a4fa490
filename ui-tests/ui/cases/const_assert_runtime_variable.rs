// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `const_assert!` cannot refer to a run-time value, not even an argument of a `const fn`:
//! the error says the value is not a constant.

use kernel_core::const_assert;

const fn shift(amount: u32) -> u32 {
    const_assert!(amount < 32, "shift amount out of range");
    1 << amount
}

fn main() {
    let _ = shift(3);
}
