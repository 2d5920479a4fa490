// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `#[export]` misuse: on something that is not a function, on a function C cannot call, and
//! with arguments.

use kernel_core::prelude::*;

#[export]
pub static LIMIT: u32 = 4;

#[export]
pub fn rust_abi(x: u32) -> u32 {
    x
}

#[export]
pub extern "C-unwind" fn unwinds() {}

#[export(name)]
pub extern "C" fn with_arguments() {}

fn main() {}
