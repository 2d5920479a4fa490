// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A `Bounded` cannot have more bits than its backing type: making a `Bounded<u8, 9>`, even at
//! run time with `try_new`, does not compile, as in Linux 7.3.

use kernel_core::num::Bounded;

fn main() {
    let _ = Bounded::<u8, 9>::try_new(1);
}
