// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What `kernel_core::prelude` re-exports on the host, besides kernel-core's own items: the
//! part of Linux 7.3's prelude that means something without a kernel.
//!
//! Its kernel twin, `env/kernel/prelude.rs`, re-exports the kernel's whole prelude, so that
//! `use kernel_core::prelude::*;` is the only prelude line a driver needs. On the host there is
//! no kernel crate; these are the items of Linux 7.3's prelude that a driver's kernel-independent
//! code and its doc examples use, so that they read the same in both worlds:
//!
//! - `Error`, `Result` and the error codes (`EINVAL`, ...), from [`crate::error`];
//! - the C types `c_char` .. `c_ulonglong`, mapped as the kernel's `ffi` crate maps them
//!   (`c_char` is `u8`, `c_long` is `isize`, `c_ulong` is `usize`), and `c_void` and `CStr`,
//!   which are `core::ffi`'s in the kernel too;
//! - `core::mem::{align_of, align_of_val, size_of, size_of_val}` and `core::pin::Pin`;
//! - [`Zeroable`] (the trait, which `bitfield!` types implement, and its derive macro): the
//!   `pin_init` crate's, as Linux 7.3's prelude exports it;
//! - `FromBytes` and `IntoBytes`, the bounds of `io`'s byte copies: Linux 7.3's prelude exports
//!   `zerocopy`'s, here they are kernel-core's own ([`crate::extras::bytes`]), without the
//!   derive macros;
//! - the allocator's collections and flags: [`Box`], [`KBox`], [`VBox`], [`KVBox`], [`Vec`],
//!   [`KVec`], [`VVec`], [`KVVec`] and the `GFP_*`/`__GFP_*` flags of
//!   [`alloc::flags`](crate::alloc::flags), kernel-core's own on the host (see
//!   [`crate::alloc`]): a glob import of the prelude shadows `std`'s `Box` and `Vec`, as in the
//!   kernel;
//! - [`InPlaceInit`] (`KBox::pin_init`, ...), [`try_init!`](crate::try_init!) and
//!   [`try_pin_init!`](crate::try_pin_init!), and of the `pin_init` crate what 7.3's prelude
//!   takes from it: `init!`, `#[pin_data]`, `pin_init!`, `#[pinned_drop]`, [`InPlaceWrite`],
//!   [`Init`] and [`PinInit`];
//! - `fmt!` and the printing macros `pr_emerg!` to `pr_debug!` (not `pr_cont!` nor the `_once`
//!   forms, as in 7.3), kernel-core's own on the host (see [`crate::print`]);
//! - the methods of `CStr` that the kernel adds, `CStrExt as _` ([`crate::str::CStrExt`]).
//!
//! - `module!`, `#[vtable]`, `#[export]` and `ThisModule` (see [`crate::module`]), and
//!   `UserPtr` (see [`crate::uaccess`]), kernel-core's own on the host.
//!
//! Left out, as they need the kernel: `dev_info!`, `dbg!` and `current!`.

pub use pin_init::{init, pin_data, pin_init, pinned_drop, InPlaceWrite, Init, PinInit, Zeroable};

pub use crate::alloc::{flags::*, Box, KBox, KVBox, KVVec, KVec, VBox, VVec, Vec};

pub use crate::init::InPlaceInit;

pub use crate::{try_init, try_pin_init};

pub use crate::extras::bytes::{FromBytes, IntoBytes};

pub use crate::error::{code::*, Error, Result};

pub use crate::ffi::{
    c_char, c_int, c_long, c_longlong, c_schar, c_short, c_uchar, c_uint, c_ulong, c_ulonglong,
    c_ushort, c_void, CStr,
};

pub use core::mem::{align_of, align_of_val, size_of, size_of_val};

pub use core::pin::Pin;

pub use crate::macros::fmt;

pub use crate::str::CStrExt as _;

pub use crate::{dbg, pr_alert, pr_crit, pr_debug, pr_emerg, pr_err, pr_info, pr_notice, pr_warn};

pub use crate::macros::{export, module, vtable};

pub use crate::{uaccess::UserPtr, ThisModule};
