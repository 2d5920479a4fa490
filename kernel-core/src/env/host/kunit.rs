// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host half of `#[kunit_tests]`: host suites are plain tests.
//!
//! Its kernel twin is `env/kernel/kunit.rs`.

/// The kernel's KUnit run-time support has no host counterpart.
pub mod kunit_rt {}
