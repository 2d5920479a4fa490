// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! An access of a width no backend supports (`u128`) does not compile: there is no `IoLoc`
//! for it, as in Linux 7.3.

use kernel_core::extras::io::sys_mem;
use kernel_core::io::Io;

fn main() {
    let mut backing = [0_u64; 4];
    let io = sys_mem::<32, _>(&mut backing).unwrap();
    let _: u128 = io.read(0_usize);
}
