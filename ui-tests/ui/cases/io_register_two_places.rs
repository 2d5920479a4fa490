// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A register given both an offset and an alias has no single place: a compile error that
//! lists the accepted forms (Linux 7.3's macro rejects it too, with "no rules expected").

use kernel_core::io::register;

register! {
    CTL(u32) @ 0x10 {
        31:0 value;
    }
    ALIAS(u32) @ 0x20 => CTL {
        31:0 value;
    }
}

fn main() {}
