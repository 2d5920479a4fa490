// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `u32::SZ_4G` does not compile, instead of truncating to 0: `SizeConstants64` is for `u64`
//! only.

use kernel_core::extras::sizes::SizeConstants64;
use kernel_core::sizes::SizeConstants;

fn main() {
    let _ = u64::SZ_4G;
    let _ = u32::SZ_2G;
    let _ = u32::SZ_4G;
}
