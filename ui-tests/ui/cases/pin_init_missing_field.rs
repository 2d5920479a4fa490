// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `pin_init!` and `init!` must initialize every field: a missing one is the compiler's own
//! "missing field" error at the struct's path (fields may be left out only after
//! `..Zeroable::init_zeroed()`).

use pin_init::{init, pin_data, pin_init, Init, PinInit};

#[pin_data]
struct Device {
    id: u32,
    irq: u32,
}

fn pinned() -> impl PinInit<Device> {
    pin_init!(Device { id: 1 })
}

fn unpinned() -> impl Init<Device> {
    init!(Device { irq: 1 })
}

fn main() {
    let _ = (pinned(), unpinned());
}
