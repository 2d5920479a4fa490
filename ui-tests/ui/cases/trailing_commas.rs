// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Trailing commas: rejected wherever Linux 7.3's macros reject them, so that code written
//! against kernel-core builds with the kernel's `kernel::` too. (`build_assert!(c,)` is
//! accepted, as in the kernel: see `pass_every_api.rs`.)

use kernel_core::build_assert::{build_assert, build_error, const_assert, static_assert};

static_assert!(true,);
static_assert!(true, "message",);

fn generic<const N: usize>() {
    const_assert!(N > 0,);
    const_assert!(N > 0, "message",);
}

fn main() {
    generic::<1>();
    build_assert!(1 > 0, "message",);
    if false {
        build_error!("message",);
    }
}
