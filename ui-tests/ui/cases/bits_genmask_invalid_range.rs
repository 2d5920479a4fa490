// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `genmask_u*` with a reversed range, or one that ends past the width, met during const
//! evaluation, is a compile error naming the condition that failed, checked in the order of
//! Linux 7.3's `kernel::bits`: `start <= end` first, then the end's position.

use kernel_core::bits::{genmask_u16, genmask_u64, genmask_u8};

const FIELD: u16 = genmask_u16(4..=7);
const REVERSED: u8 = genmask_u8(5..=2);
const PAST_THE_END: u16 = genmask_u16(8..=16);
const REVERSED_AND_PAST: u64 = genmask_u64(70..=65);

fn main() {
    let _ = (FIELD, REVERSED, PAST_THE_END, REVERSED_AND_PAST);
}
