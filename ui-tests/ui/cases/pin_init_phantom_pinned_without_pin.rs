// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A `PhantomPinned` field without `#[pin]` does not make the struct `!Unpin`: `#[pin_data]`
//! warns of it (an error here, with the warning denied), as Linux 7.3's does.

#![deny(deprecated)]

use core::marker::PhantomPinned;
use pin_init::pin_data;

#[pin_data]
pub struct Waiter {
    pub pin: PhantomPinned,
    #[pin]
    pub pinned: PhantomPinned,
}

fn main() {}
