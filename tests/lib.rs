// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! kernel-core's test suites; the library itself is empty.
//!
//! `suites/` holds KUnit-style suites (`#[kunit_tests]`), written against `core` only, so that
//! the kernel's test module builds the very same files (see the top-level `Kbuild`).
//! `properties.rs` holds the host-only property tests.

#![no_std]
