// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host test suites of `tests/suites/`, built into a module as KUnit suites.
//!
//! Each `#[kunit_tests]` module below registers its suite in `.kunit_test_suites`, so KUnit
//! runs them all when this module is loaded and prints KTAP to the kernel log. The files are
//! the very ones `cargo nextest` runs on the host. The switch-back check builds this module a
//! second time with `kernel_core::` naming the kernel's own items (see
//! `kbuild/switch-back/kernel_core.rs`), and the same suites must pass.

use kernel::prelude::*;

module! {
    type: KernelCoreTests,
    name: "kernel_core_tests",
    description: "kernel-core's test suites, run by KUnit",
    license: "GPL",
}

// One module per file of `tests/suites/`, declared by Kbuild (`kernel_core_suites.rs`): the
// directory is the one list of suites, which cargo's `tests/build.rs` reads too.
include!(env!("KERNEL_CORE_SUITES_RS"));

struct KernelCoreTests;

impl kernel::Module for KernelCoreTests {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        // The suites ran before `init`, when the module was loaded.
        Ok(KernelCoreTests)
    }
}
