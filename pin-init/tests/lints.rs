// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The macros' expansions pass the lints the kernel builds modules with (Linux 7.3's
//! `rust_common_flags`, denied here): a driver using them gets no warning from their code.
//!
//! `cargo test` checks the rustc lints, `cargo clippy --all-targets` the clippy ones; the
//! items are public and private, in a private module, as in a driver.

#![deny(
    missing_docs,
    rust_2018_idioms,
    unreachable_pub,
    unsafe_op_in_unsafe_fn,
    non_ascii_idents,
    unused,
    clippy::all,
    clippy::as_ptr_cast_mut,
    clippy::as_underscore,
    clippy::cast_lossless,
    clippy::ignored_unit_patterns,
    clippy::mut_mut,
    clippy::needless_bitwise_bool,
    clippy::no_mangle_with_rust_abi,
    clippy::ptr_as_ptr,
    clippy::ptr_cast_constness,
    clippy::ref_as_ptr,
    clippy::undocumented_unsafe_blocks,
    clippy::unnecessary_safety_comment,
    clippy::unnecessary_safety_doc
)]

extern crate kernel_core_pin_init as pin_init;

mod driver {
    use core::{marker::PhantomPinned, pin::Pin};
    use pin_init::{init, pin_data, pin_init, pinned_drop, Init, PinInit, Zeroable};

    /// A device, pinned.
    #[pin_data(PinnedDrop)]
    pub(crate) struct Device<T: Copy> {
        #[pin]
        _pin: PhantomPinned,
        pub(crate) regs: Regs,
        state: T,
    }

    #[pinned_drop]
    impl<T: Copy> PinnedDrop for Device<T> {
        fn drop(self: Pin<&mut Self>) {
            let _ = self.project().state;
        }
    }

    /// Registers. (`pub` in a private module, as a driver's might be: the lint is the
    /// struct's own, allowed here; the items the macros generate with its visibility must not
    /// add their own.)
    #[allow(unreachable_pub)]
    #[pin_data]
    #[derive(Zeroable)]
    pub struct Regs {
        /// Control.
        pub ctrl: u32,
        status: u32,
    }

    /// A device's initializer.
    pub(crate) fn device<T: Copy>(state: T) -> impl PinInit<Device<T>> {
        pin_init!(&this in Device {
            _pin: PhantomPinned,
            regs <- init!(Regs { ctrl: 1, ..Zeroable::init_zeroed() }),
            state,
            _: {
                let _ = this;
            },
        })
    }

    /// Registers' initializer.
    pub(crate) fn regs() -> impl Init<Regs> {
        init!(Regs { ctrl: 2, status: 0 })
    }

    /// Reads `status`.
    pub(crate) fn status(regs: &Regs) -> u32 {
        regs.status
    }
}

#[test]
fn the_expansions_pass_the_kernels_lints() {
    pin_init::stack_pin_init!(let device = driver::device(3_u8));
    assert_eq!(device.regs.ctrl, 1);
    assert_eq!(driver::status(&device.regs), 0);
    pin_init::stack_pin_init!(let regs = driver::regs());
    assert_eq!(regs.ctrl, 2);
}
