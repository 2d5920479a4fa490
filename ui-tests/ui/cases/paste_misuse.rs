// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `paste!` misuse: each is a compile error at the offending token, naming the problem.

use kernel_core::macros::paste;

paste! { const [<A :bogus>]: u8 = 0; }
paste! { const [<A + B>]: u8 = 0; }
paste! { const [<1 x>]: u8 = 0; }
paste! { const [<A:span B:span>]: u8 = 0; }
paste! { const [<:lower A>]: u8 = 0; }
paste! { const [<A:>]: u8 = 0; }
paste! { const [<"">]: u8 = 0; }
paste! { const [<PRICE_ "€">]: u8 = 0; }

fn main() {}
