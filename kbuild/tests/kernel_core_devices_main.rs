// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The device suite (`devices.rs`) as a module of its own: kernel-core's `Mmio` and
//! `register!` against the devices of each QEMU machine.
//!
//! Not a part of `kernel_core_tests.ko`, whose suites run over memory on the host too: these
//! cases need the machine, and map its device memory with `ioremap()`.

use kernel::prelude::*;

module! {
    type: KernelCoreDevices,
    name: "kernel_core_devices",
    description: "kernel-core's Mmio against each QEMU machine's devices, run by KUnit",
    license: "GPL",
}

#[path = "devices.rs"]
mod devices;

struct KernelCoreDevices;

impl kernel::Module for KernelCoreDevices {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        // The suite ran before `init`, when the module was loaded.
        Ok(KernelCoreDevices)
    }
}
