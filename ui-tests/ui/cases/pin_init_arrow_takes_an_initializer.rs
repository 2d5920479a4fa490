// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `field <- x` needs `x` to be an initializer of the field's type (a value of that type is
//! one); anything else is an error at `x`.

use pin_init::{pin_data, pin_init, PinInit};

#[pin_data]
struct Device {
    #[pin]
    name: [u8; 4],
    id: u32,
}

fn device() -> impl PinInit<Device> {
    pin_init!(Device {
        name <- "name",
        id <- 1_u64,
    })
}

fn main() {
    let _ = device();
}
