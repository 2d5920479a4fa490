// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A register array whose stride is smaller than its storage (2 bytes apart for `u32`
//! registers, which would overlap) does not compile, as in Linux 7.3.

use kernel_core::io::register;

register! {
    LUT(u32)[8, stride = 2] @ 0x100 {
        31:0 entry;
    }
}

fn main() {
    let _ = LUT::from_raw(0);
}
