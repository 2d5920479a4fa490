// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `extend` only widens: `extend::<4>()` of a 12-bit `Bounded` does not compile, as in Linux
//! 7.3 (`try_shrink` is the run-time check).

use kernel_core::num::Bounded;

fn main() {
    let _ = Bounded::<u32, 12>::new::<7>().extend::<4>();
}
