// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The list macros misused, rejected as Linux 7.3 rejects them: `ListItem<1>` through links of
//! list 0, links reached through a pointer (the links must be inside the value), tracking by a
//! field that is not structurally pinned, and tracking by a field that is no tracker.

use kernel_core::list::{
    impl_list_arc_safe, impl_list_item, AtomicTracker, ListLinks, TryNewListArc,
};
use kernel_core::prelude::*;

#[pin_data]
struct WrongId {
    #[pin]
    links: ListLinks<0>,
}

impl_list_arc_safe! {
    impl ListArcSafe<1> for WrongId { untracked; }
}
impl_list_item! {
    impl ListItem<1> for WrongId { using ListLinks { self.links }; }
}

struct Holder {
    links: ListLinks,
}

struct ThroughABox {
    boxed: KBox<Holder>,
}

impl_list_arc_safe! {
    impl ListArcSafe<0> for ThroughABox { untracked; }
}
impl_list_item! {
    impl ListItem<0> for ThroughABox { using ListLinks { self.boxed.links }; }
}

#[pin_data]
struct NotPinned {
    tracker: AtomicTracker,
}

impl_list_arc_safe! {
    impl ListArcSafe<0> for NotPinned { tracked_by tracker: AtomicTracker; }
}

#[pin_data]
struct NoTracker {
    #[pin]
    count: u32,
}

impl_list_arc_safe! {
    impl ListArcSafe<0> for NoTracker { tracked_by count: u32; }
}

fn main() {}
