// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `impl_list_arc_safe!`'s `tracked_by` names `TryNewListArc` as written, unqualified, as Linux
//! 7.3's does: without it in scope, the expansion does not build, in the kernel either. (Binder
//! imports it.)

use kernel_core::list::{impl_list_arc_safe, AtomicTracker};
use kernel_core::prelude::*;

#[pin_data]
struct Tracked {
    #[pin]
    tracker: AtomicTracker,
}

impl_list_arc_safe! {
    impl ListArcSafe<0> for Tracked { tracked_by tracker: AtomicTracker; }
}

fn main() {}
