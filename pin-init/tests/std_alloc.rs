// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `InPlaceInit` for `std`'s `Box` and `Arc` (feature `std`): values initialised in place, pinned
//! or not, errors returned with nothing dropped that was never made. Miri-clean.

#![cfg(feature = "std")]

extern crate kernel_core_pin_init as pin_init;

use core::cell::Cell;
use core::convert::Infallible;
use core::marker::PhantomPinned;
use pin_init::{init, pin_data, pin_init, InPlaceInit, InPlaceWrite, PinInit};
use std::sync::Arc;

/// Counts its drops.
struct Counted<'a>(&'a Cell<u32>);

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() + 1);
    }
}

/// An error that allocation failures (never, with `std`) convert into.
#[derive(Debug, PartialEq)]
struct Refused;

impl From<Infallible> for Refused {
    fn from(never: Infallible) -> Self {
        match never {}
    }
}

#[pin_data]
struct Node<'a> {
    value: u32,
    counted: Counted<'a>,
    #[pin]
    pinned: PhantomPinned,
}

fn node<'a>(value: u32, drops: &'a Cell<u32>) -> impl PinInit<Node<'a>> {
    pin_init!(Node {
        value,
        counted: Counted(drops),
        pinned: PhantomPinned
    })
}

#[test]
fn box_and_arc_pin_init_in_place() {
    let drops = Cell::new(0);
    let b = Box::pin_init(node(1, &drops)).unwrap();
    let a = Arc::pin_init(node(2, &drops)).unwrap();
    assert_eq!((b.value, a.value), (1, 2));
    drop((b, a));
    assert_eq!(drops.get(), 2);
}

#[test]
fn a_failed_initialiser_drops_what_it_made_and_returns_its_error() {
    let drops = Cell::new(0);
    let drops = &drops;
    let failing = move || {
        pin_init!(Node { value: 7, counted: Counted(drops), pinned: PhantomPinned } ? Refused)
            .pin_chain(|_| Err(Refused))
    };
    // The chain's error drops the node it made: once per attempt.
    assert_eq!(Box::try_pin_init(failing()).err(), Some(Refused));
    assert_eq!(Arc::try_pin_init(failing()).err(), Some(Refused));
    assert_eq!(drops.get(), 2);
    // SAFETY: The closure fails without writing anything.
    let never_made = unsafe { pin_init::init_from_closure(|_: *mut u64| Err(Refused)) };
    assert_eq!(Arc::<u64>::try_init(never_made).err(), Some(Refused));
}

#[test]
fn unpinned_and_uninitialised() {
    #[derive(Debug, PartialEq)]
    struct Pair {
        a: u8,
        b: u16,
    }
    let b = Box::init(init!(Pair { a: 1, b: 2 })).unwrap();
    assert_eq!(*b, Pair { a: 1, b: 2 });
    let a = Arc::init(init!(Pair { a: 3, b: 4 })).unwrap();
    assert_eq!(*a, Pair { a: 3, b: 4 });
    let Ok(w) = Box::<u32>::new_uninit().write_init(9_u32);
    assert_eq!(*w, 9);
}
