// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A signed `Bounded` holds `-2^(N-1)..2^(N-1)`: 8 does not fit in 4 signed bits, so
//! `new::<8>()` does not compile, as in Linux 7.3.

use kernel_core::num::Bounded;

fn main() {
    let _ = Bounded::<i8, 4>::new::<8>();
}
