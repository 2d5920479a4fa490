// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The dual-build corpus of `#[kunit_tests]` suites; the library itself is empty (see
//! `Cargo.toml` and `suites/`).

#![no_std]
