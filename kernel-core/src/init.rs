// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! In-place initialisation into the kernel's allocations: [`InPlaceInit`] (`KBox::pin_init`,
//! `KBox::init`, ...), and [`try_init!`](crate::try_init!) and
//! [`try_pin_init!`](crate::try_pin_init!) at the crate root.
//!
//! Kernel counterpart: `rust/kernel/init.rs` (Linux 7.3), the kernel's additions to the
//! `pin_init` crate (`rust/pin-init/`, which kernel-core's `kernel-core-pin-init` package is on
//! the host and on Linux 6.12).
//!
//! Many kernel structs must not move once initialised: a lock's C struct is on lists, a work
//! item is queued by address. `pin_init`'s initialisers write such a value in place, and
//! `InPlaceInit` gives them the memory: a new [`KBox`](crate::alloc::KBox) (or `Arc`) whose
//! value is initialised where it will live, with the allocation's failure and the
//! initialiser's in one `Result`. `try_init!` and `try_pin_init!` are `pin_init`'s `init!` and
//! `pin_init!` with the kernel's [`Error`](crate::error::Error) as their default error.
//!
//! - **In the kernel** these are the kernel's own on Linux 7.3 and 7.2; on 6.12, `InPlaceInit`
//!   is the kernel's own (with 7.3's methods) and the macros are kernel-core's.
//! - **On the host** they are kernel-core's own, with Linux 7.3's API, for kernel-core's `Box`
//!   (and `sync`'s `Arc`), and the same pinning guarantees (checked under Miri).
//!
//! # Examples
//!
//! ```
//! use kernel_core::prelude::*;
//!
//! // A value that is written into its allocation, pinned, and may fail to initialise.
//! fn sensor(id: u32) -> impl pin_init::PinInit<u32, Error> {
//!     if id < 8 { Ok(id * 100) } else { Err(ENODEV) }
//! }
//!
//! let s: Pin<KBox<u32>> = KBox::try_pin_init(sensor(2), GFP_KERNEL)?;
//! assert_eq!(*s, 200);
//! assert_eq!(KBox::try_pin_init(sensor(9), GFP_KERNEL).err(), Some(ENODEV));
//! # Ok::<(), Error>(())
//! ```

#[allow(unused_imports, unreachable_pub)] // Until the module has items in both worlds.
pub use crate::env::init::*;
