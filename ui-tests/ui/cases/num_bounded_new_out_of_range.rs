// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `Bounded::new::<VALUE>()` with a value that does not fit in `N` bits does not compile, as in
//! Linux 7.3: 16 needs 5 unsigned bits.

use kernel_core::num::Bounded;

fn main() {
    let _ = Bounded::<u8, 4>::new::<16>();
}
