// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A `#[pin_data]` struct is dropped pinned: an `impl Drop` (which gets `&mut Self`, and could
//! move a pinned field) conflicts with what `#[pin_data]` generates; `PinnedDrop` is
//! implemented with `#[pinned_drop]` (an `unsafe impl` by hand needs a token only the
//! generated `Drop` can make), and only under `#[pin_data(PinnedDrop)]`.

use core::pin::Pin;
use pin_init::{pin_data, pinned_drop, PinnedDrop};

#[pin_data]
struct WithDrop {
    id: u32,
}

impl Drop for WithDrop {
    fn drop(&mut self) {}
}

#[pin_data(PinnedDrop)]
struct ByHand {
    id: u32,
}

impl PinnedDrop for ByHand {
    fn drop(self: Pin<&mut Self>) {}
}

#[pin_data]
struct Forgotten {
    id: u32,
}

#[pinned_drop]
impl PinnedDrop for Forgotten {
    fn drop(self: Pin<&mut Self>) {}
}

fn main() {}
