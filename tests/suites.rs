// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! kernel-core's KUnit-style suites on the host: one module per file of `suites/`, listed by
//! `build.rs`. The kernel's test module builds the same files as KUnit suites.
//!
//! The crate declares its module as the kernel's test module does
//! (`kbuild/tests/kernel_core_tests_main.rs`), so that what the suites name from it is there
//! on the host too: the `LocalModule` of Linux 7.3's `#[vtable]` impls.

use kernel_core::prelude::*;

module! {
    type: KernelCoreTests,
    name: "kernel_core_tests",
    description: "kernel-core's test suites, run by KUnit",
    license: "GPL",
}

/// The test module: the suites run on their own, under `cargo test`.
struct KernelCoreTests;

impl kernel_core::Module for KernelCoreTests {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(KernelCoreTests)
    }
}

include!(concat!(env!("OUT_DIR"), "/suites.rs"));
