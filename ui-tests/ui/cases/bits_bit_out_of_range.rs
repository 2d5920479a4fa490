// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `bit_u*` with a position that is not less than the width, met during const evaluation, is a
//! compile error naming the condition that failed, as with Linux 7.3's `kernel::bits` (whose
//! `build_assert!` fails the same way). Outside const evaluation such calls fail optimized builds
//! (the link, or modpost) and panic with debug assertions, which no compile-fail case shows.

use kernel_core::bits::{bit_u32, bit_u64, bit_u8};

const TOP: u8 = bit_u8(7);
const PAST_U8: u8 = bit_u8(8);
const PAST_U32: u32 = bit_u32(32);
const FAR: u64 = bit_u64(u32::MAX);

fn main() {
    let _ = (TOP, PAST_U8, PAST_U32, FAR);
}
