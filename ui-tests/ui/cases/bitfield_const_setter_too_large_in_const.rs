// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `with_const_field::<VALUE>()` in a `const` with a value that does not fit in the field does
//! not compile, as in Linux 7.3: a field of one bit cannot hold `2`.

use kernel_core::bitfield;

bitfield! {
    struct Reg(u64) {
        63:63 flag;
    }
}

const FLAG: Reg = Reg::from_raw(0).with_const_flag::<2>();

fn main() {
    let _ = FLAG;
}
