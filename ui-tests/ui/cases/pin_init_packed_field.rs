// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Initializers write fields through aligned pointers: a field of a packed struct that may be
//! unaligned is an error (E0793), as in Linux 7.3.

use pin_init::{init, Init};

#[repr(C, packed)]
struct Header {
    kind: u8,
    length: u32,
}

fn header() -> impl Init<Header> {
    init!(Header { kind: 1, length: 2 })
}

fn main() {
    let _ = header();
}
