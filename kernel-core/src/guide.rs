// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Guides: how to start, how to pick an assertion, and how to move a driver between `kernel::`
//! and `kernel_core::`.
//!
//! Each guide is a Markdown file of `docs/`, shown on GitHub as it is and here with its
//! examples compiled and run as doctests, so that neither copy can go stale.
//!
//! - [Getting started](getting_started): the Kbuild lines and the one prelude line of a
//!   driver, `Cargo.toml` for its host tests with and without `std`, the driver's state behind
//!   locks in an `Arc` (each lock initialised in the library alone) tested on threads and under
//!   Miri, what each build profile does with assertions and overflow, and what `cargo check`
//!   cannot see.
//! - [Choosing an assertion](choosing_an_assertion): `static_assert!`, `const_assert!` or
//!   `build_assert!`, and what each failure looks like.
//! - [From `kernel::` to `kernel_core::`, and back](migrating): what each kernel has, what
//!   kernel-core adds, and its few deliberate differences.
//! - [Your users' kernel](your_users_kernel): a driver built, tested and shipped for Debian's
//!   stock kernels, and what the symbol check proves.
//! - [Testing against a device](testing_against_a_device): register code run over memory on
//!   the host and over each QEMU machine's devices in the kernel.
//!
//! # Examples
//!
//! The guides are documentation only; the first lines of a driver's host code:
//!
//! ```
//! use kernel_core::prelude::*;
//! use kernel_core::sizes::SZ_4K;
//!
//! static_assert!(SZ_4K == 4096, "pages are 4 KiB");
//! ```

#[doc = include_str!("../docs/getting-started.md")]
pub mod getting_started {}

#[doc = include_str!("../docs/choosing-an-assertion.md")]
pub mod choosing_an_assertion {}

#[doc = include_str!("../docs/migrating.md")]
pub mod migrating {}

#[doc = include_str!("../docs/your-users-kernel.md")]
pub mod your_users_kernel {}

#[doc = include_str!("../docs/testing-against-a-device.md")]
pub mod testing_against_a_device {}
