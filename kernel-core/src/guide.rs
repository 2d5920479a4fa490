// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Guides: how to pick an assertion, and how to move a driver between `kernel::` and
//! `kernel_core::`.

#[doc = include_str!("../docs/choosing-an-assertion.md")]
pub mod choosing_an_assertion {}

#[doc = include_str!("../docs/migrating.md")]
pub mod migrating {}
