// SPDX-License-Identifier: GPL-2.0-only OR MIT

// `concat_idents!` takes two identifiers separated by a comma, and nothing else.

use kernel_core::macros::concat_idents;

const ab: u32 = 1;

fn main() {
    let _ = concat_idents!(a);
    let _ = concat_idents!(a, 1);
    let _ = concat_idents!(a b);
    let _ = concat_idents!(a, b, c);
    let _ = concat_idents!(a, b);
}
