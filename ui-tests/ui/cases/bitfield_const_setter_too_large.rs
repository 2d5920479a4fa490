// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `with_const_field::<VALUE>()` with a value that does not fit in the field does not compile,
//! as in Linux 7.3: `0x10` needs 5 bits, the field has 4.

use kernel_core::bitfield;

bitfield! {
    struct Reg(u16) {
        7:4 nibble;
    }
}

fn main() {
    let _ = Reg::from_raw(0).with_const_nibble::<0x10>();
}
