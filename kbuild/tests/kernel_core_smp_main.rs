// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The SMP suite (`smp.rs`) as a module of its own: work on every online CPU at once, which
//! fails on a kernel that only pretends to be SMP.
//!
//! Not a part of `kernel_core_tests.ko`, whose suites run over memory on the host too: these
//! cases need the machine's CPUs (and the C of `kbuild/every_cpu.c`).

use kernel::prelude::*;

module! {
    type: KernelCoreSmp,
    name: "kernel_core_smp",
    description: "kernel-core's SMP suite: work on every CPU at once, run by KUnit",
    license: "GPL",
}

#[path = "smp.rs"]
mod smp;

struct KernelCoreSmp;

impl kernel::Module for KernelCoreSmp {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(KernelCoreSmp)
    }
}
