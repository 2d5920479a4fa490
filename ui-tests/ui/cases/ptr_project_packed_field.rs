// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A field that may be unaligned (in a `#[repr(packed)]` struct) cannot be projected: not every
//! user of a projection (an `Io` view, DMA) can handle an unaligned one. As in Linux 7.3, the
//! build fails at the field.

#[repr(C, packed)]
struct Packed {
    tag: u8,
    value: u32,
}

fn main() {
    let packed: *const Packed = core::ptr::dangling();
    let _ = kernel_core::ptr::project!(packed, .value);
}
