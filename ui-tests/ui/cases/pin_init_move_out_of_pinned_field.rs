// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A structurally pinned field is handed out as `Pin<&mut T>`, by `project()` and to the later
//! fields of `pin_init!`: for a `!Unpin` field, neither gives a `&mut T` that could move it.

use core::{marker::PhantomPinned, pin::Pin};
use pin_init::{pin_data, pin_init, PinInit};

#[pin_data]
struct Waiter {
    #[pin]
    _pin: PhantomPinned,
    id: u32,
}

#[pin_data]
struct Queue {
    #[pin]
    head: Waiter,
    len: usize,
}

fn take(queue: Pin<&mut Queue>) -> Waiter {
    let fields = queue.project();
    core::mem::replace(fields.head.get_mut(), Waiter { _pin: PhantomPinned, id: 0 })
}

fn swap_in_init() -> impl PinInit<Queue> {
    pin_init!(Queue {
        head: Waiter { _pin: PhantomPinned, id: 1 },
        len: {
            let mut other = Waiter { _pin: PhantomPinned, id: 2 };
            core::mem::swap(&mut *head, &mut other);
            0
        },
    })
}

fn main() {
    let _ = (take, swap_in_init());
}
