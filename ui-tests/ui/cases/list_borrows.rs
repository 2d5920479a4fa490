// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `list` borrows, rejected as Linux 7.3 rejects them: an element borrowed from an iterator
//! kept after its list is gone, a list changed while an iterator borrows it, and an element
//! peeked at through a cursor read after the cursor removed it.

use kernel_core::list::{impl_list_arc_safe, impl_list_item, List, ListArc, ListLinks};
use kernel_core::prelude::*;

#[pin_data]
struct Item {
    value: u32,
    #[pin]
    links: ListLinks,
}

impl_list_arc_safe! {
    impl ListArcSafe<0> for Item { untracked; }
}
impl_list_item! {
    impl ListItem<0> for Item { using ListLinks { self.links }; }
}

fn item(value: u32) -> Result<ListArc<Item>> {
    ListArc::pin_init(try_pin_init!(Item { value, links <- ListLinks::new() }), GFP_KERNEL)
}

fn outlives_its_list() -> Result<u32> {
    let mut list = List::new();
    list.push_back(item(1)?);
    let first = list.iter().next();
    drop(list);
    Ok(first.map_or(0, |i| i.value))
}

fn changed_while_iterated() -> Result {
    let mut list = List::new();
    list.push_back(item(1)?);
    for i in &list {
        if i.value == 1 {
            list.push_back(item(2)?);
        }
    }
    Ok(())
}

fn read_after_removal() -> Result<u32> {
    let mut list = List::new();
    list.push_back(item(1)?);
    let mut cursor = list.cursor_front();
    let peek = cursor.peek_next().ok_or(EINVAL)?;
    let value: &u32 = &peek.value;
    let removed = peek.remove();
    drop(removed);
    Ok(*value)
}

fn main() {
    let _ = (outlives_its_list(), changed_while_iterated(), read_after_removal());
}
