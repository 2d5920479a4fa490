// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `casts::u64_into_u8::<VALUE>()` with a value a `u8` cannot hold does not compile, as in
//! Linux 7.3.

use kernel_core::num::casts;

fn main() {
    let _ = casts::u64_into_u8::<256>();
}
