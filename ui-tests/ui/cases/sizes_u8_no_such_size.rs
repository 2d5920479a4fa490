// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `u8::SZ_1K` does not exist: `SizeConstants` is implemented for `u32`, `u64` and `usize`
//! only, since 1 KiB does not fit in a `u8`.

use kernel_core::sizes::SizeConstants;

fn main() {
    let _ = u8::SZ_1K;
    let _ = u32::SZ_1K;
}
