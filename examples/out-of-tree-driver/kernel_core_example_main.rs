// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! An out-of-tree driver that uses kernel-core from its own directory, through the two lines
//! of `Kbuild` next to this file.
//!
//! It models a device with a 64 KiB register window and a DMA ring, the kind of arithmetic
//! drivers do at probe time, with the checks at build time.

// The one prelude line: the kernel's own prelude (`module!`, `pr_info!`, `Result`, `EINVAL`,
// ...) and kernel-core's `build_assert!`, `static_assert!` and the rest, on 6.12, 7.2 and 7.3.
use kernel_core::prelude::*;
use kernel_core::ptr::{Alignable, Alignment};
use kernel_core::sizes::{SizeConstants, SZ_4K};
use kernel_core::time::{Delta, Instant, Monotonic};

module! {
    type: Example,
    name: "kernel_core_example",
    description: "kernel-core example: an out-of-tree driver",
    license: "GPL",
}

/// The register window of the device.
const WINDOW: u32 = u32::SZ_64K;
/// Descriptors of 32 bytes in one page.
const RING_ENTRIES: usize = SZ_4K / 32;
static_assert!(
    RING_ENTRIES.is_power_of_two(),
    "the ring index wraps with a mask"
);

/// The offset of register `index`; every call site passes a constant, so this is free.
#[inline(always)]
fn register(index: u32) -> u32 {
    build_assert!(index < WINDOW / 4, "register outside the window");
    index * 4
}

struct Example;

impl kernel::Module for Example {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let start = Instant::<Monotonic>::now();
        let dma_base: u64 = 0x1_2345_6789;
        let aligned = dma_base.align_up(Alignment::new::<SZ_4K>()).ok_or(EINVAL)?;
        let probe: Delta = start.elapsed();
        pr_info!(
            "kernel-core example: window {:#x}, {} ring entries, status register at {:#x}, DMA base {:#x}, probe took {} us\n",
            WINDOW,
            RING_ENTRIES,
            register(3),
            aligned,
            probe.as_micros_ceil()
        );
        Ok(Example)
    }
}
