// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::list` in the kernel.
//!
//! - **Linux 7.3 and 7.2**: the kernel's own module; 7.2's `rust/kernel/list.rs` and `list/` are
//!   7.3's, file for file.
//! - **Linux 6.12**, whose `kernel::list` is an older form (a `Cursor` with `current`, `next`,
//!   `prev` and `remove` only: no `cursor_back`, `CursorPeek`, `move_next`/`move_prev` or
//!   insertion at a cursor; `impl_list_item!` written `using ListLinks;` next to a separate
//!   `impl_has_list_links!`): kernel-core's shared code (`env/list.rs`, the host's too), with
//!   7.3's API, over 6.12's own `Arc`, `ArcBorrow` and `UniqueArc` and kernel-core's `Opaque` and
//!   `AtomicFlag` there. Its types are kernel-core's, not 6.12's `kernel::list::List`: no 6.12
//!   API takes one.

#[cfg(kernel_core_linux_7_1)]
pub use kernel::list::*;

#[cfg(not(kernel_core_linux_7_1))]
#[path = "../list.rs"]
mod own;
#[cfg(not(kernel_core_linux_7_1))]
pub use own::*;
