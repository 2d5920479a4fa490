// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `Io::try_cast` moves plain bytes only: a type for which not every byte sequence is a value
//! (`bool`, a struct that does not implement `FromBytes`) is rejected at build time, as Linux
//! 7.3 rejects a type that is not `zerocopy::FromBytes`.

use kernel_core::extras::io::sys_mem;
use kernel_core::io::Io;

#[repr(C)]
struct Status {
    ready: bool,
    code: u8,
}

fn main() {
    let mut backing = [0_u32; 4];
    let io = sys_mem::<16, u32>(&mut backing).unwrap();
    let _ = io.try_cast::<bool>();
    let _ = io.try_cast::<Status>();
}
