// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Misuse of the pin-init macros' syntax: each is an error naming the problem, at it.

use core::pin::Pin;
use pin_init::{init, pin_data, pin_init, pinned_drop, PinInit, Zeroable};

#[pin_data]
enum NotAStruct {
    A,
}

#[pin_data]
struct Tuple(u32);

#[pin_data(Drop)]
struct BadArgument {
    id: u32,
}

#[pin_data]
struct PinnedTwice {
    #[pin]
    #[pin]
    id: u32,
}

#[pin_data(PinnedDrop)]
struct Dropped {
    id: u32,
}

#[pinned_drop]
impl PinnedDrop for Dropped {
    fn drop(self: Pin<&mut Self>) {}
}

#[pinned_drop]
unsafe impl PinnedDrop for Dropped {
    fn drop(self: Pin<&mut Self>) {}
}

#[pinned_drop]
impl kernel::PinnedDrop for Dropped {
    fn drop(self: Pin<&mut Self>) {}
}

#[pinned_drop]
impl Dropped {
    fn drop(self: Pin<&mut Self>) {}
}

#[derive(Zeroable)]
enum Enum {
    A,
}

#[pin_data]
#[derive(Zeroable)]
struct Plain {
    id: u32,
}

fn unknown_attribute() -> impl PinInit<Plain> {
    pin_init!(#[error(u8)] Plain { id: 1 })
}

fn other_rest() -> impl PinInit<Plain> {
    pin_init!(Plain { ..Default::default() })
}

fn rest_not_last() -> impl PinInit<Plain> {
    pin_init!(Plain { ..Zeroable::init_zeroed(), })
}

fn bad_field() -> impl PinInit<Plain> {
    pin_init!(Plain { id = 1 })
}

fn code_without_block() -> impl PinInit<Plain> {
    pin_init!(Plain { id: 1, _: 5 })
}

fn after_the_braces() -> impl PinInit<Plain> {
    pin_init!(Plain { id: 1 } Error)
}

fn no_path() -> impl PinInit<Plain> {
    init!({ id: 1 })
}

#[pin_data]
struct Names {
    slot: u32,
    r#type: u32,
}

fn named_slot() -> impl PinInit<Names> {
    pin_init!(Names { slot: 1, r#type: 2 })
}

fn raw_name() -> impl PinInit<Names> {
    pin_init!(Names { r#type: 2, ..Zeroable::init_zeroed() })
}

fn main() {}
