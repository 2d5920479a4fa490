// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Printing to the kernel log: [`pr_info!`](crate::pr_info) and its siblings at the crate root,
//! [`pr_cont!`](crate::pr_cont), the `_once` forms, [`do_once_lite!`](crate::do_once_lite) and
//! its [`OnceLite`].
//!
//! Kernel counterpart: `rust/kernel/print.rs` (Linux 7.3); C header:
//! [`include/linux/printk.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/printk.h).
//! Reference: <https://docs.kernel.org/core-api/printk-basics.html>.
//!
//! The macros take [`fmt!`](crate::macros::fmt)'s arguments: `{}` formats with the kernel's
//! [`Display`](crate::fmt::Display), `{:p}` hashes pointers. As in Linux 7.3 each message is
//! printed at its level, after the name of the module that prints it and `": "`, and a message
//! without a final newline stays open for [`pr_cont!`](crate::pr_cont).
//!
//! - **In the kernel** the macros are the kernel's own; the module name is the `name:` of the
//!   driver's `module!`.
//! - **On the host** they are kernel-core's, and print what the kernel's log would show:
//!   - the module name is the name of the crate that prints (the first segment of its
//!     `module_path!()`), which is the module's name when a driver's crate is named after it;
//!   - each line goes to standard error in the form `dmesg -r` shows, `<6>my_driver: probed`
//!     (through `std`'s `eprint!`, so `cargo test` shows it with a failing test's output), and
//!     to the [captures](crate::extras::log) of the printing thread, where a test reads it back;
//!   - a message with several lines gives several lines at its level; one without a final
//!     newline is a line that [`pr_cont!`](crate::pr_cont) from the same thread extends until a
//!     newline or the thread's next message ends it, and it reaches standard error then; a
//!     `pr_cont!` with no open line starts one at the default level, 4 (warning), as in the
//!     kernel. (In the kernel a message from another CPU in between also ends the open line;
//!     on the host each thread's line is its own.)
//!   - [`pr_debug!`](crate::pr_debug) prints when the calling crate is built with debug
//!     assertions, as Linux 7.3's does (it does not support dynamic debug): in `cargo test`'s
//!     default profile, not with `--release`;
//!   - without the `std` feature the arguments are formatted and the line is dropped: there
//!     is no standard error.
//!
//! # Examples
//!
//! ```
//! use kernel_core::{pr_cont, pr_info, pr_warn_once};
//!
//! let queues = 4;
//! pr_info!("probed with {queues} queues\n");
//! pr_info!("link:");
//! pr_cont!(" up, {} Mb/s\n", 1000);
//! for _ in 0..3 {
//!     pr_warn_once!("firmware is old\n"); // once per call site
//! }
//! ```

pub use crate::env::print::OnceLite;

#[doc(hidden)]
pub use crate::env::print::{call_printk, call_printk_cont, format_strings};
