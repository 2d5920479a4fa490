// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Intrusive linked lists: [`List`] of values in [`Arc`](crate::sync::Arc)s, linked through
//! [`ListLinks`] fields inside them, and [`ListArc`], the one reference of a value that may put
//! it in a list.
//!
//! Kernel counterpart: `rust/kernel/list.rs` and `rust/kernel/list/` (Linux 7.3); C header:
//! [`include/linux/list.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/list.h).
//!
//! Why: a driver keeps queues of work, waiters, requests, nodes; with the links inside the
//! elements (as C's `struct list_head`), putting a value in a list or taking it out allocates
//! nothing and cannot fail, which is what code under a spinlock needs, and a value can be in
//! several lists at once (one [`ListLinks`] field per list id). Binder is built on it. Unlike
//! C's, these lists are safe: [`ListArc`] makes sure a value's links belong to one list at a
//! time, so the compiler and the [`ListArcSafe`] tracking rule out inserting a value twice.
//!
//! The pieces:
//!
//! - [`List<T, ID>`](List): the list, one pointer; [`Cursor`] and [`CursorPeek`] to walk and
//!   edit it, [`Iter`] and [`IntoIter`] to iterate;
//! - [`ListLinks<ID>`](ListLinks) (or [`ListLinksSelfPtr`], for lists of trait objects): the
//!   field of the element type, and [`ListItem`], implemented with [`impl_list_item!`], which
//!   says where it is;
//! - [`ListArc<T, ID>`](ListArc): an `Arc` that is unique for `ID`, and [`ListArcSafe`] (with
//!   [`impl_list_arc_safe!`]), which keeps track of whether one exists: `untracked` (made from a
//!   [`UniqueArc`](crate::sync::UniqueArc) only) or `tracked_by` a field, usually an
//!   [`AtomicTracker`] (then [`TryNewListArc`] makes one from any `Arc`);
//! - [`ListArcField`] and [`define_list_arc_field_getter!`]: a field owned by the `ListArc`.
//!
//! # Examples
//!
//! A queue of work items, each queued at most once, from any `Arc` of it:
//!
//! ```
//! use kernel_core::list::{
//!     impl_list_arc_safe, impl_list_item, AtomicTracker, List, ListArc, ListLinks,
//!     TryNewListArc,
//! };
//! use kernel_core::prelude::*;
//! use kernel_core::sync::{new_spinlock, Arc, SpinLock};
//!
//! #[pin_data]
//! struct Work {
//!     id: u32,
//!     #[pin]
//!     links: ListLinks,
//!     #[pin]
//!     queued: AtomicTracker,
//! }
//!
//! impl_list_arc_safe! {
//!     impl ListArcSafe<0> for Work { tracked_by queued: AtomicTracker; }
//! }
//! impl_list_item! {
//!     impl ListItem<0> for Work { using ListLinks { self.links }; }
//! }
//!
//! impl Work {
//!     fn new(id: u32) -> Result<Arc<Self>> {
//!         Arc::pin_init(
//!             pin_init!(Self { id, links <- ListLinks::new(), queued <- AtomicTracker::new() }),
//!             GFP_KERNEL,
//!         )
//!     }
//! }
//!
//! /// Queues `work` unless it is queued already: `false` then.
//! fn queue(pending: &SpinLock<List<Work>>, work: &Arc<Work>) -> bool {
//!     match ListArc::try_from_arc(work.clone()) {
//!         Ok(item) => {
//!             pending.lock().push_back(item);
//!             true
//!         }
//!         Err(_) => false,
//!     }
//! }
//!
//! let pending = KBox::pin_init(new_spinlock!(List::new()), GFP_KERNEL)?;
//! let (a, b) = (Work::new(1)?, Work::new(2)?);
//! assert!(queue(&pending, &a));
//! assert!(queue(&pending, &b));
//! assert!(!queue(&pending, &a)); // already queued
//!
//! let first = pending.lock().pop_front().expect("two queued");
//! assert_eq!(first.id, 1);
//! drop(first); // no longer queued: may be queued again
//! assert!(queue(&pending, &a));
//! assert!(pending.lock().iter().map(|w| w.id).eq([2, 1]));
//! # Ok::<(), Error>(())
//! ```
//!
//! # The worlds
//!
//! - **Linux 7.3 and 7.2**: these are the kernel's own items (7.2's `list` is 7.3's).
//! - **Linux 6.12**, whose `kernel::list` has an older cursor (`Cursor::current`, `next`,
//!   `prev`, `remove`; no `cursor_back`, `CursorPeek`, insertion at a cursor) and older macro
//!   forms (`impl_list_item!` with `using ListLinks;` and a separate `impl_has_list_links!`):
//!   kernel-core's own, over the kernel's `Arc`.
//! - **The host**: kernel-core's own, over kernel-core's [`Arc`](crate::sync::Arc), checked
//!   under Miri with its tests. Two things need nightly features the kernel enables and stable
//!   Rust lacks:
//!   - a `ListArc<Wrap<T>>` does not coerce to a `ListArc<Wrap<dyn Trait>>` (the kernel's
//!     derives `CoercePointee`): convert through the raw pointer, `unsafe {
//!     ListArc::from_raw(ListArc::into_raw(arc) as *const Wrap<dyn Trait>) }`, which builds
//!     with the kernel's too (see [`List`]'s second example);
//!   - [`define_list_arc_field_getter!`]'s accessors take the `ListArc` as a first argument
//!     named `this`, not as `self: &ListArc<Self>` (`arbitrary_self_types`): call them as
//!     `Type::getter(&list_arc)`, which builds with the kernel's macro too.

#[doc(inline)]
pub use crate::env::list::{
    define_list_arc_field_getter, impl_has_list_links, impl_has_list_links_self_ptr,
    impl_list_arc_safe, impl_list_item, AtomicTracker, Cursor, CursorPeek, HasListLinks,
    HasSelfPtr, IntoIter, Iter, List, ListArc, ListArcField, ListArcSafe, ListItem, ListLinks,
    ListLinksSelfPtr, TryNewListArc,
};
