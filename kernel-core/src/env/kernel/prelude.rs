// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What `kernel_core::prelude` re-exports in the kernel, besides kernel-core's own items: the
//! kernel's whole prelude.
//!
//! A driver then needs one line, `use kernel_core::prelude::*;`, for `module!`, `pr_info!`,
//! `Result`, `KBox`, the error codes and everything else the kernel's prelude has, on every
//! supported kernel. The two-glob form (`use kernel::prelude::*;` next to
//! `use kernel_core::prelude::*;`) cannot work: the kernel's prelude exports its own
//! `build_assert!`, `static_assert!` (on 6.12 without a message), `const_assert!` (7.1+) and
//! `#[kunit_tests]` (7.2+), and two globs that give one name two meanings are ambiguous.
//!
//! kernel-core's own assertion macros and `#[kunit_tests]` are imported by name in
//! `kernel_core::prelude`, and an explicit import beats a glob one: where both preludes
//! have a name, the driver gets kernel-core's: Linux 7.3's API (a `static_assert!` with a
//! message, `const_assert!`, `#[kunit_tests]`) on 6.12 too. Its host twin,
//! `env/host/prelude.rs`, adds nothing.

pub use kernel::prelude::*;

// Linux 7.3's `pin_init` items on Linux 6.12, which has no `pin_init` crate (its prelude's
// `pin_init!`, `#[pin_data]` and `Zeroable` derive are the older macro_rules of `kernel::init`,
// and its `kernel::init::Zeroable` has no `zeroed()`): kernel-core's pin-init crate, which
// kernel-core.mk passes as `pin_init` there, with 7.3's syntax over 6.12's `PinInit` and `Init`.
// These names beat the glob's. On Linux 7.2 and 7.3 (`kernel_core_linux_7_1`) the glob brings
// the kernel's own.
#[cfg(not(kernel_core_linux_7_1))]
pub use pin_init::{init, pin_data, pin_init, pinned_drop, InPlaceWrite, Init, PinInit, Zeroable};

// The C types, which Linux 7.1 and later export from their prelude (`::ffi::{c_int, ...}`) and
// 6.12 does not: its `kernel::ffi` crate maps them as 7.3's does. `CStr` stays 6.12's own
// (`kernel::str::CStr`, in its prelude).
#[cfg(not(kernel_core_linux_7_1))]
pub use kernel::ffi::{
    c_char, c_int, c_long, c_longlong, c_schar, c_short, c_uchar, c_uint, c_ulong, c_ulonglong,
    c_ushort, c_void,
};

// `FromBytes` and `IntoBytes` on Linux 6.12, which vendors no `zerocopy`: kernel-core's own
// traits, as on the host. On 7.2 and 7.3 the glob above brings the kernel's (`zerocopy`'s, with
// their derive macros), which imply kernel-core's.
#[cfg(not(kernel_core_linux_7_1))]
pub use crate::extras::bytes::{FromBytes, IntoBytes};

// The error codes: Linux 7.3's prelude exports all 153 of `kernel::error::code`, 6.12's and
// 7.2's only theirs (53 and 56, no `ETIMEDOUT` on 6.12). kernel-core's `error::code` has the
// 153, the kernel's own items where it has them, so this glob and the kernel prelude's name the
// same items where both have a name, and adds the others.
#[cfg(not(kernel_core_linux_7_3))]
pub use crate::error::code::*;

// Linux 7.3's `Vec` and `Box` methods that older kernels' lack (`v.pop()`, `KVec::zeroed`, ...):
// extension traits, imported without a name. On 7.3 the methods are the kernel's own.
#[cfg(not(kernel_core_linux_7_3))]
pub use crate::env::alloc::VecExt as _;
#[cfg(not(kernel_core_linux_7_1))]
pub use crate::env::alloc::{ArrayLayoutExt as _, BoxExt as _, KVVecExt as _};

// Linux 7.3's `try_init!` and `try_pin_init!` on 6.12, whose own cannot initialise a struct
// marked by kernel-core's `#[pin_data]`: kernel-core's, which beat the glob's.
#[cfg(not(kernel_core_linux_7_1))]
pub use crate::{try_init, try_pin_init};

// Linux 7.3's `Arc::as_ptr` on 6.12, whose `Arc` lacks it.
#[cfg(not(kernel_core_linux_7_1))]
pub use crate::env::sync::ArcExt as _;
