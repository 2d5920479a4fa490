// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A field initialized twice in `pin_init!` is the compiler's own "specified more than once"
//! error (a value initialized twice would leak the first, or drop it while pinned).

use pin_init::{pin_data, pin_init, PinInit};

#[pin_data]
struct Device {
    id: u32,
    irq: u32,
}

fn device() -> impl PinInit<Device> {
    pin_init!(Device { id: 1, irq: 2, id: 3 })
}

fn main() {
    let _ = device();
}
