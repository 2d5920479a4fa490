// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Kernel types: [`Opaque`], [`ForeignOwnable`], [`ScopeGuard`] and [`NotThreadSafe`](type@NotThreadSafe).
//!
//! Kernel counterpart: `rust/kernel/types.rs` (Linux 7.3).
//!
//! What a driver's own logic uses of Linux 7.3's `kernel::types`:
//!
//! - [`Opaque<T>`]: a value that C code owns and mutates behind Rust's back (a `struct mutex`,
//!   a `struct list_head` inside a driver's state), with its pin-initialisers
//!   [`Opaque::ffi_init`], [`Opaque::try_ffi_init`] and `Wrapper::pin_init`;
//! - [`ForeignOwnable`]: what can be handed to C as a `void *` and taken back: `()`, a `KBox`
//!   (any `Box`), a `Pin<KBox>`, and an `Arc` (with [`sync`](crate::sync));
//! - [`ScopeGuard`]: cleanup on every exit path, unless dismissed;
//! - [`NotThreadSafe`](type@NotThreadSafe): a marker field that makes a type neither `Send` nor `Sync`.
//!
//! 7.3 moved `ARef` and `AlwaysRefCounted` to [`sync::aref`](crate::sync) and has no `Either`
//! any more; `ForLt!` and `CovariantForLt!` (7.3's `types::for_lt`, for device-bound data) are
//! not mirrored. In the kernel these are the kernel's own items; on the host kernel-core's, with
//! Linux 7.3's signatures and behaviour.
//!
//! # Examples
//!
//! ```
//! use kernel_core::types::ScopeGuard;
//!
//! fn setup(steps: &mut Vec<&'static str>, fail: bool) -> Result<(), ()> {
//!     steps.push("enable clock");
//!     let clock = ScopeGuard::new_with_data(&mut *steps, |steps| steps.push("disable clock"));
//!     if fail {
//!         return Err(()); // the guard disables the clock
//!     }
//!     let steps = clock.dismiss(); // success: the clock stays on
//!     steps.push("ready");
//!     Ok(())
//! }
//!
//! let mut steps = Vec::new();
//! assert_eq!(setup(&mut steps, true), Err(()));
//! assert_eq!(setup(&mut steps, false), Ok(()));
//! assert_eq!(steps, ["enable clock", "disable clock", "enable clock", "ready"]);
//! ```

pub use crate::env::types::{ForeignOwnable, NotThreadSafe, Opaque, ScopeGuard};
