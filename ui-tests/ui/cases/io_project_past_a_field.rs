// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `io_project!` reaches the fields a type has, and indexes arrays and slices only: a field
//! that does not exist, or an index into a struct, does not compile.

use kernel_core::io::{io_project, SysMem};

#[repr(C)]
struct Regs {
    ctl: u32,
}

fn main() {
    let mut regs = Regs { ctl: 0 };
    // SAFETY: `regs` is valid memory for as long as the view is used.
    let io = unsafe { SysMem::new(&raw mut regs) };
    let _ = io_project!(io, .status);
    let _ = io_project!(io, [build: 0]);
}
