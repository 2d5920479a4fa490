// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! dma_engine: the module glue. The driver's code lives in its library (`src/`, the crate
//! `dma_engine`), which `cargo test` tests on the host and which Kbuild builds into this module
//! too, so its `#[kunit_tests]` suites run as KUnit suites when the module loads.
//!
//! There is no such device to bind to, so the module's init drives the library's model of it
//! through a copy and a fill, from the reset to the reaped completions, checks the data and
//! prints what happened: on a kernel without KUnit (Debian's stock kernels), these lines show
//! that the driver's code runs there.

// The kernel's prelude (`module!`, `pr_info!`, `Result`, ...) with kernel-core's macros, on
// Linux 6.12, 7.2 and 7.3.
use dma_engine::device::SimDevice;
use dma_engine::engine::{transfer_timeout, Engine, Transfer};
use dma_engine::regs::{self, Channel0};
use dma_engine::ring::{ring_footprint, Ring};
use kernel_core::extras::fmt::Decimal;
use kernel_core::io::poll::read_poll_timeout;
use kernel_core::prelude::*;
use kernel_core::time::Delta;

module! {
    type: DmaEngine,
    name: "dma_engine",
    description: "dma_engine: a made-up DMA engine driver on kernel-core, run on a model of the device",
    license: "GPL",
}

/// The ring of the demonstration: 8 descriptors.
type DemoRing = Ring<8>;

struct DmaEngine;

impl kernel::Module for DmaEngine {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let mut dev = SimDevice::new(1);
        let id = regs::identify(dev.regs()?)?;
        regs::reset(dev.regs()?, true);
        let resetting = || {
            dev.tick();
            Ok(regs::reset(dev.regs()?, false))
        };
        read_poll_timeout(resetting, |busy| !busy, Delta::ZERO, Delta::from_millis(10))?;
        regs::enable(dev.regs()?, true);

        let mut engine = Engine::<Channel0, 8>::new(SimDevice::ring_address(0))?;
        engine.start(dev.regs()?)?;
        for (byte, value) in dev.data_mut()[..64].iter_mut().zip((0_u8..).step_by(3)) {
            *byte = value;
        }
        let copy = Transfer::copy(SimDevice::data_address(0), SimDevice::data_address(256), 64);
        let fill = Transfer::fill(SimDevice::data_address(128), 0xc0de_d00d, 32);
        let (regs, ring) = dev.views::<Channel0>()?;
        engine.submit(regs, ring, &copy)?;
        let last = engine.submit(regs, ring, &fill)?;
        let start = dev.cycles();
        let timeout = transfer_timeout(96, 64).ok_or(EINVAL)?;
        let status = engine.wait(last, timeout, Delta::ZERO, || dev.poll::<Channel0>())?;
        let cycles = dev.cycles() - start;
        let (_, ring) = dev.views::<Channel0>()?;
        let copied = engine.reap(ring, status)?.ok_or(EIO)?.bytes;
        let filled = engine.reap(ring, status)?.ok_or(EIO)?.bytes;
        let data = dev.data();
        let pattern = 0xc0de_d00d_u32.to_le_bytes();
        let fill_ok = data[128..160]
            .iter()
            .zip(pattern.iter().cycle())
            .all(|(a, b)| a == b);
        if data[256..320] != data[..64] || !fill_ok || (copied, filled) != (64, 32) {
            return Err(EIO);
        }

        pr_info!(
            "engine {}.{} with {} channels; a ring of {} descriptors ({} bytes, {} with its pages) at {:#x}\n",
            id.version.0,
            id.version.1,
            id.channels,
            1 << DemoRing::ORDER,
            DemoRing::BYTES,
            ring_footprint(1 << DemoRing::ORDER).unwrap_or(0),
            engine.base()
        );
        pr_info!(
            "a copy of {} bytes and a fill of {} bytes checked, done in {} device cycles (timeout {} us)\n",
            copied,
            filled,
            cycles,
            // An `i64`: through `Decimal`, since 32-bit arm cannot divide it for `{}`.
            Decimal(timeout.as_micros_ceil())
        );
        Ok(DmaEngine)
    }
}

impl Drop for DmaEngine {
    fn drop(&mut self) {
        pr_info!("unloaded\n");
    }
}
