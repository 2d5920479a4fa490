// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A `bitfield!` field written `lo:hi` (its high bit below its low bit) does not compile, as
//! with Linux 7.3's `kernel::bitfield!` (where the error is an overflow computing the field's
//! width); kernel-core's error names the problem.

use kernel_core::bitfield;

bitfield! {
    struct Reg(u32) {
        3:7 reversed;
    }
}

fn main() {
    let _ = Reg::from_raw(0);
}
