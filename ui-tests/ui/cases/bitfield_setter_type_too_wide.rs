// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `with_field(value)` takes only types whose every value fits in the field, as in Linux 7.3:
//! a `u8` does not fit a 4-bit field (use `try_with_field`, which checks at run time), and a
//! `=>` field takes its own type only.

use kernel_core::bitfield;

bitfield! {
    struct Reg(u32) {
        7:4 nibble;
        8:8 enabled => bool;
    }
}

fn main() {
    let _ = Reg::from_raw(0).with_nibble(0x3_u8);
    let _ = Reg::from_raw(0).with_enabled(1_u32);
}
