// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! An initializer that needs its memory pinned (a `PinInit` that is no `Init`) may only
//! initialize a `#[pin]` field of `pin_init!`: not a field without `#[pin]`, and nothing in
//! `init!`, whose value may move once initialized. And `pin_init!` makes a `PinInit`, which is
//! no `Init`.

use core::marker::PhantomPinned;
use pin_init::{init, pin_data, pin_init, pin_init_from_closure, Init, PinInit};

#[pin_data]
struct Waiter {
    #[pin]
    _pin: PhantomPinned,
}

#[pin_data]
struct Queue {
    #[pin]
    pinned: Waiter,
    unpinned: Waiter,
}

fn waiter() -> impl PinInit<Waiter> {
    // SAFETY: `Waiter` is zero-sized: nothing to write.
    unsafe { pin_init_from_closure(|_| Ok(())) }
}

fn in_pin_init() -> impl PinInit<Queue> {
    pin_init!(Queue {
        pinned <- waiter(),
        unpinned <- waiter(),
    })
}

fn in_init() -> impl Init<Queue> {
    init!(Queue {
        pinned <- waiter(),
        unpinned: Waiter { _pin: PhantomPinned },
    })
}

fn not_init() -> impl Init<Waiter> {
    pin_init!(Waiter { _pin: PhantomPinned })
}

fn main() {
    let _ = (in_pin_init(), in_init(), not_init());
}
