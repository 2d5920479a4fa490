// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The conformance suite (`conformance.rs`) as a module of its own: kernel-core compared with
//! the kernel crate's own APIs, where the kernel has them (7.1+).
//!
//! Not a part of `kernel_core_tests.ko`, so that module holds exactly the suites of
//! `tests/suites/` in every build, the switch-back check's included, and the cases one build
//! declares in its object are those the other must report.

use kernel::prelude::*;

module! {
    type: KernelCoreConformance,
    name: "kernel_core_conformance",
    description: "kernel-core against the kernel's own APIs, run by KUnit",
    license: "GPL",
}

#[path = "conformance.rs"]
mod conformance;

struct KernelCoreConformance;

impl kernel::Module for KernelCoreConformance {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        // The suite ran before `init`, when the module was loaded.
        Ok(KernelCoreConformance)
    }
}
