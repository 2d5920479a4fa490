// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! An `io::register!` field past the register's width (bit 16 of a `u16` register) does not
//! compile, as with Linux 7.3's `kernel::io::register!`, whose fields are `bitfield!` fields.

use kernel_core::io::register;

register! {
    CTL(u16) @ 0x10 {
        16:8 too_wide;
    }
}

fn main() {
    let _ = CTL::from_raw(0);
}
