// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! An out-of-tree driver that uses kernel-core from its own directory, through the two lines
//! of `Kbuild` next to this file.
//!
//! It models a device with a 64 KiB register window and a DMA ring, the kind of arithmetic
//! drivers do at probe time, with the checks at build time, and programs the ring's registers
//! with `io::register!` through any `Io` (here memory standing for the device: the same
//! function runs on an `Mmio` mapping, and in a host test).

// The one prelude line: the kernel's own prelude (`module!`, `pr_info!`, `Result`, `EINVAL`,
// ...) and kernel-core's `build_assert!`, `static_assert!` and the rest, on 6.12, 7.2 and 7.3.
use kernel_core::extras::io::sys_mem;
use kernel_core::io::register::Array;
use kernel_core::io::{register, Io, Region};
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

register! {
    /// The DMA ring's control register.
    RING_CTL(u32) @ 0x0 {
        0:0 enable => bool;
        11:4 entries_log2;
    }
    /// The ring's base address, low and high words.
    RING_BASE(u32)[2] @ 0x8 {
        31:0 value;
    }
}

/// Programs the ring at DMA address `base`, through any view of the register window.
fn program_ring<'a, IO>(io: IO, base: u64) -> u32
where
    IO: Io<'a, Target = Region<0x100>>,
    IO::Backend: kernel_core::io::IoCapable<u32>,
{
    io.write(RING_BASE::at(0), RING_BASE::from(base as u32));
    io.write(RING_BASE::at(1), RING_BASE::from((base >> 32) as u32));
    io.write_reg(
        RING_CTL::zeroed()
            .with_const_entries_log2::<{ RING_ENTRIES.trailing_zeros() }>()
            .with_enable(true),
    );
    io.read32(0x0)
}

struct Example;

impl kernel::Module for Example {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let start = Instant::<Monotonic>::now();
        let dma_base: u64 = 0x1_2345_6789;
        let aligned = dma_base.align_up(Alignment::new::<SZ_4K>()).ok_or(EINVAL)?;
        let mut window = [0_u32; 0x40];
        let ctl = program_ring(sys_mem::<0x100, _>(&mut window)?, aligned);
        if window[2] != aligned as u32 || window[3] != (aligned >> 32) as u32 {
            return Err(EINVAL);
        }
        let probe: Delta = start.elapsed();
        // As a u32: Rust's `{}` of an i64 of 10000 or more divides in 64 bits, which 32-bit
        // arm's kernel has no runtime function for (an Oops there, seen on a loaded host).
        let probe_us = u32::try_from(probe.as_micros_ceil()).unwrap_or(u32::MAX);
        pr_info!(
            "kernel-core example: window {:#x}, {} ring entries, status register at {:#x}, DMA base {:#x}, RING_CTL {:#x}, probe took {} us\n",
            WINDOW,
            RING_ENTRIES,
            register(3),
            aligned,
            ctl,
            probe_us
        );
        Ok(Example)
    }
}
