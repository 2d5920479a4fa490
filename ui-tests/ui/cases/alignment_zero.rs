// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `Alignment::new::<0>()` does not compile either: zero is not a power of two.

use kernel_core::ptr::Alignment;

const NO_ALIGNMENT: Alignment = Alignment::new::<0>();

fn main() {
    let _ = NO_ALIGNMENT.as_usize();
}
