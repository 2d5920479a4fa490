// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host test suites of `tests/suites/`, built into a module as KUnit suites.
//!
//! Each `#[kunit_tests]` module below registers its suite in `.kunit_test_suites`, so KUnit
//! runs them all when this module is loaded and prints KTAP to the kernel log. The files are
//! the very ones `cargo nextest` runs on the host.

use kernel::prelude::*;

module! {
    type: KernelCoreTests,
    name: "kernel_core_tests",
    description: "kernel-core's test suites, run by KUnit",
    license: "GPL",
}

#[path = "../../tests/suites/build_assert.rs"]
mod build_assert;
#[path = "../../tests/suites/ptr.rs"]
mod ptr;
#[path = "../../tests/suites/sizes.rs"]
mod sizes;
#[path = "../../tests/suites/time.rs"]
mod time;

/// Compares kernel-core with the kernel crate's own APIs, where the kernel has them (7.1+).
#[cfg(kernel_core_linux_7_1)]
#[path = "conformance.rs"]
mod conformance;

struct KernelCoreTests;

impl kernel::Module for KernelCoreTests {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        // The suites ran before `init`, when the module was loaded.
        Ok(KernelCoreTests)
    }
}
