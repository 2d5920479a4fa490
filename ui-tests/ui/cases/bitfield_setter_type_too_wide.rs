// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `with_field(value)` takes only types whose every value fits in the field, as in Linux 7.3:
//! a `u8` or a `u32` does not fit a 4-bit field, and the error names `try_with_field` (checked
//! at run time) and `with_const_field` (checked at build time); a `=>` field takes its own type
//! only. `Bounded::from` of a too wide type gets the same hint, and a `Bounded` into a narrower
//! primitive an error, not a compiler crash.

use kernel_core::bitfield;
use kernel_core::num::Bounded;

bitfield! {
    struct Reg(u32) {
        7:4 nibble;
        8:8 enabled => bool;
    }
}

fn main() {
    let _ = Reg::from_raw(0).with_nibble(0x3_u8);
    let _ = Reg::from_raw(0).with_nibble(0x3_u32);
    let _ = Reg::from_raw(0).with_enabled(1_u32);
    let _ = Bounded::<u16, 12>::from(0x3_u16);
    let _ = u8::from(Bounded::<u32, 12>::new::<3>());
}
