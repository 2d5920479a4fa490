// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `list` misuse, rejected as Linux 7.3 rejects it: an element inserted as a plain `Arc` or a
//! `UniqueArc` instead of a `ListArc` (which alone may own the links), a `ListArc` of one list
//! id pushed into a list of another, a list of a type that has no links for its id, a
//! `ListArc` cloned (it is the one reference that may be in the list), and a `ListArc` made
//! from a shared `Arc` of a type whose `ListArc`s are not tracked (only a `UniqueArc` proves
//! there is no other).

use kernel_core::list::{impl_list_arc_safe, impl_list_item, List, ListArc, ListLinks};
use kernel_core::prelude::*;
use kernel_core::sync::{Arc, UniqueArc};

#[pin_data]
struct Item {
    value: u32,
    #[pin]
    links: ListLinks,
}

impl_list_arc_safe! {
    impl ListArcSafe<0> for Item { untracked; }
    impl ListArcSafe<1> for Item { untracked; }
}
impl_list_item! {
    impl ListItem<0> for Item { using ListLinks { self.links }; }
}

fn new_item() -> Result<Pin<UniqueArc<Item>>> {
    UniqueArc::pin_init(try_pin_init!(Item { value: 1, links <- ListLinks::new() }), GFP_KERNEL)
}

fn main() -> Result {
    let mut list = List::<Item>::new();

    let shared: Arc<Item> = new_item()?.into();
    list.push_back(shared);
    list.push_front(new_item()?);

    let of_list_one = ListArc::<Item, 1>::from(new_item()?);
    list.push_back(of_list_one);

    let no_links: List<Item, 1> = List::new();
    let _ = no_links;

    let unique = ListArc::<Item>::from(new_item()?);
    let _second = unique.clone();

    let shared: Arc<Item> = new_item()?.into();
    let _untracked = ListArc::<Item>::try_from_arc(shared);
    Ok(())
}
