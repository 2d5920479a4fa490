// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `fmt!` misuse, rejected as Linux 7.3 rejects it: a type with only `core`'s `Display`, a
//! width given as an argument (every argument is wrapped), a comparison without parentheses
//! (read as `name = value`), and a format string whose `{...}` names no identifier (7.3's proc
//! macro panics there; kernel-core's says why).

use kernel_core::macros::fmt;

struct Plain;

impl core::fmt::Display for Plain {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("plain")
    }
}

fn main() {
    let _ = fmt!("{}", Plain);
    let _ = fmt!("{:w$}", 1, w = 8);
    let (a, b) = (1, 2);
    let _ = fmt!("{}", a == b);
    let _ = fmt!("\u{1F600} {}", 1);
}
