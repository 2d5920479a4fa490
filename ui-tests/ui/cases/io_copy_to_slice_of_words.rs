// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `copy_from_slice` and `copy_to_slice` copy between a view of bytes (`[u8]`) and a slice of
//! bytes, as in Linux 7.3: a view of a `Region` (or of words) is cast or projected to bytes
//! first.

use kernel_core::extras::io::sys_mem;
use kernel_core::io::Io;

fn main() {
    let mut backing = [0_u32; 4];
    let io = sys_mem::<16, u32>(&mut backing).unwrap();
    let mut out = [0_u8; 16];
    io.copy_to_slice(&mut out);
}
