// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! An alias of an element past the end of a register array (`SCRATCH[8]` of 8 registers) does
//! not compile, as in Linux 7.3.

use kernel_core::io::register;

register! {
    SCRATCH(u32)[8] @ 0x20 {
        31:0 value;
    }
    STATUS(u32) => SCRATCH[8] {
        7:0 code;
    }
}

fn main() {
    let _ = STATUS::from_raw(0);
}
