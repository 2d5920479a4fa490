// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A `bitfield!` field whose high bit is past the storage type's width (bit 8 of a `u8`) does
//! not compile, as with Linux 7.3's `kernel::bitfield!` (where the error is an overflow in the
//! macro's arithmetic); kernel-core's error names the problem.

use kernel_core::bitfield;

bitfield! {
    struct Reg(u8) {
        8:0 wide;
    }
}

fn main() {
    let _ = Reg::from_raw(0);
}
