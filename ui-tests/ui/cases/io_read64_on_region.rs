// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A build-time checked 64-bit access to a `Region` does not compile: a `Region` is only
//! 4-byte aligned, so nothing proves a `u64` there aligned (as in Linux 7.3, whose check is the
//! same `const_assert!`). The run-time checked `try_read64` is the way.

use kernel_core::extras::io::sys_mem;
use kernel_core::io::Io;

fn main() {
    let mut backing = [0_u64; 4];
    let io = sys_mem::<32, _>(&mut backing).unwrap();
    let _ = io.read64(8);
}
