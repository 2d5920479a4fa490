// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A `build_error!` reached during const evaluation is a compile error carrying the message.

const fn pick(index: usize) -> u8 {
    match index {
        0 => 10,
        1 => 20,
        _ => kernel_core::build_error!("index out of range"),
    }
}

const GOOD: u8 = pick(1);
const BAD: u8 = pick(2);

fn main() {
    let _ = GOOD + BAD;
}
