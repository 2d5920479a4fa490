// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `..Zeroable::init_zeroed()` zeroes the whole struct first: the struct must be `Zeroable`,
//! which this one (a reference, never null) is not.

use pin_init::{pin_data, pin_init, PinInit};

#[pin_data]
struct Named {
    name: &'static str,
    id: u32,
}

fn named() -> impl PinInit<Named> {
    pin_init!(Named {
        id: 1,
        ..Zeroable::init_zeroed()
    })
}

fn main() {
    let _ = named();
}
