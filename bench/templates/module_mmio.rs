// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo xtask bench`, part 6: kernel-core's `Mmio::read32`/`write32` against what they
//! stand for.
//!
//! Built against each required kernel and architecture. Each accessor at a constant offset
//! (proven in bounds at build time, so there is no check left) is compared with a direct call
//! of the C function kernel-core's `Mmio` reaches there (the kernel's Rust helper on 7.2 and
//! 7.3, kernel-core's own `kernel_core_readl()` on 6.12), and on 7.3 with the kernel's own
//! `kernel::io::Mmio`. The functions are `#[no_mangle]`, so the benchmark finds them in the
//! object.

use kernel::prelude::*;
use kernel_core::io::{Io as _, Mmio, Region};

module! {
    type: Bench,
    name: "bench_mmio",
    description: "kernel-core bench: Mmio accessors",
    license: "GPL",
}

struct Bench;

impl kernel::Module for Bench {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(Bench)
    }
}

/// kernel-core's `read32`.
#[no_mangle]
pub fn kc_bench_ours_read32(io: Mmio<'_, Region<0x100>>) -> u32 {
    io.read32(0x10)
}

/// kernel-core's `write32`.
#[no_mangle]
pub fn kc_bench_ours_write32(io: Mmio<'_, Region<0x100>>, value: u32) {
    io.write32(value, 0x10)
}

/// The C function kernel-core's `Mmio` calls on this kernel.
#[cfg(kernel_core_linux_7_1)]
use kernel::bindings::{readl, writel};
#[cfg(not(kernel_core_linux_7_1))]
unsafe extern "C" {
    #[link_name = "kernel_core_readl"]
    fn readl(addr: *const core::ffi::c_void) -> u32;
    #[link_name = "kernel_core_writel"]
    fn writel(value: u32, addr: *mut core::ffi::c_void);
}

/// The floor: that function, called directly at the same address.
#[no_mangle]
pub fn kc_bench_call_read32(base: usize) -> u32 {
    // SAFETY: a benchmark's function, never called: only its code is measured.
    unsafe { readl(base.wrapping_add(0x10) as *const core::ffi::c_void) }
}

/// The floor of `write32`.
#[no_mangle]
pub fn kc_bench_call_write32(base: usize, value: u32) {
    // SAFETY: as above.
    unsafe { writel(value, base.wrapping_add(0x10) as *mut core::ffi::c_void) }
}

/// Linux 7.3's own `read32`.
#[cfg(kernel_core_linux_7_3)]
#[no_mangle]
pub fn kc_bench_linux_read32(io: kernel::io::Mmio<'_, kernel::io::Region<0x100>>) -> u32 {
    use kernel::io::Io as _;
    io.read32(0x10)
}

/// Linux 7.3's own `write32`.
#[cfg(kernel_core_linux_7_3)]
#[no_mangle]
pub fn kc_bench_linux_write32(io: kernel::io::Mmio<'_, kernel::io::Region<0x100>>, value: u32) {
    use kernel::io::Io as _;
    io.write32(value, 0x10)
}
