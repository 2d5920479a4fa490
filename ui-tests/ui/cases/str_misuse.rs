// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::str` misuse: a formatter that outlives its buffer (which Linux 7.3's
//! `Formatter::new` would let through), `CStrExt` for another type (sealed), `c_str!` of a
//! string with a NUL inside, and `CString` printed with `{}` (Linux 7.3 gives it `Debug` only).

use kernel_core::macros::fmt;
use kernel_core::str::{CStrExt, CString, Formatter};

struct Mine;

impl CStrExt for Mine {}

fn dangling() -> Formatter<'static> {
    let mut buffer = [0_u8; 8];
    Formatter::new(&mut buffer)
}

const BAD: &kernel_core::str::CStr = kernel_core::c_str!("a\0b");

fn main() {
    let _ = dangling();
    let _ = BAD;
    let owned = CString::try_from(c"x").unwrap();
    let _ = fmt!("{}", owned);
}
