// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `Alignment::new::<3>()` does not compile: "ALIGN must be a power of two".

use kernel_core::ptr::Alignment;

fn main() {
    let align = Alignment::new::<3>();
    let _ = align.as_usize();
}
