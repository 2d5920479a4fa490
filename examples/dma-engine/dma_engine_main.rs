// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! dma_engine: the module glue. The driver's code lives in its library (`src/`, the crate
//! `dma_engine`), which `cargo test` tests on the host and which Kbuild builds into this module
//! too, so its `#[kunit_tests]` suites run as KUnit suites when the module loads.
//!
//! There is no such device to bind to, so the module's init probes the library's model of it,
//! claims channel 0, and drives a copy and a fill through it, from the reset to the collected
//! completions; it checks the data and prints what happened: on a kernel without KUnit
//! (Debian's stock kernels), these lines show that the driver's code runs there. The module
//! keeps the device and the channel, shared state in `Arc`s, until it is unloaded.
//!
//! Every lock of the driver is initialised in the library (`src/driver.rs`), none here: a lock's
//! class is its initialiser's call site, so the classes the host tests check are the module's.

// The kernel's prelude (`module!`, `pr_info!`, `Result`, ...) with kernel-core's macros, on
// Linux 6.12, 7.2 and 7.3.
use dma_engine::device::SimDevice;
use dma_engine::driver::{DmaChannel, DmaDevice, RING_ENTRIES};
use dma_engine::engine::{transfer_timeout, Transfer};
use dma_engine::regs::Channel0;
use dma_engine::ring::{ring_footprint, Ring};
use kernel_core::extras::fmt::Decimal;
use kernel_core::prelude::*;
use kernel_core::sync::Arc;
use kernel_core::time::Delta;

module! {
    type: DmaEngine,
    name: "dma_engine",
    description: "dma_engine: a made-up DMA engine driver on kernel-core, run on a model of the device",
    license: "GPL",
}

/// The ring of the demonstration.
type DemoRing = Ring<RING_ENTRIES>;

/// The module's state: the probed device and the channel it holds.
struct DmaEngine {
    device: Arc<DmaDevice>,
    channel: Arc<DmaChannel<Channel0>>,
}

impl kernel::Module for DmaEngine {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let device = DmaDevice::probe(SimDevice::new(1)?)?;
        let channel = DmaChannel::<Channel0>::new(device.clone())?;
        let id = device.identity();
        device.with_data(|data| {
            for (byte, value) in data[..64].iter_mut().zip((0_u8..).step_by(3)) {
                *byte = value;
            }
        });
        let copy = Transfer::copy(SimDevice::data_address(0), SimDevice::data_address(256), 64);
        let fill = Transfer::fill(SimDevice::data_address(128), 0xc0de_d00d, 32);
        let start = device.cycles();
        let timeout = transfer_timeout(96, 64).ok_or(EINVAL)?;
        let copying = channel.submit(&copy)?;
        let filling = channel.submit(&fill)?;
        // The fill is the later: waiting for it reaps both, and the copy is collected at once.
        let filled = channel.wait(filling, timeout, Delta::ZERO)?;
        let copied = channel.wait(copying, timeout, Delta::ZERO)?;
        let cycles = device.cycles().wrapping_sub(start);
        let pattern = 0xc0de_d00d_u32.to_le_bytes();
        let data_ok = device.with_data(|data| {
            data[256..320] == data[..64]
                && data[128..160]
                    .iter()
                    .zip(pattern.iter().cycle())
                    .all(|(a, b)| a == b)
        });
        if !data_ok || (copied, filled) != (64, 32) {
            return Err(EIO);
        }

        pr_info!(
            "engine {}.{} with {} channels; a ring of {} descriptors ({} bytes, {} with its pages) at {:#x}\n",
            id.version.0,
            id.version.1,
            id.channels,
            RING_ENTRIES,
            DemoRing::BYTES,
            ring_footprint(RING_ENTRIES).unwrap_or(0),
            SimDevice::ring_address(0)
        );
        pr_info!(
            "a copy of {} bytes and a fill of {} bytes checked, done in {} device cycles (timeout {} us)\n",
            copied,
            filled,
            cycles,
            // An `i64`: through `Decimal`, since 32-bit arm cannot divide it for `{}`.
            Decimal(timeout.as_micros_ceil())
        );
        Ok(DmaEngine { device, channel })
    }
}

impl Drop for DmaEngine {
    fn drop(&mut self) {
        // The engine off, as a driver's remove does; the channel is released when its `Arc`
        // goes, after this.
        if self.device.disable().is_err() {
            pr_warn!("the engine could not be disabled\n");
        }
        pr_info!(
            "unloaded, with {} transfers not collected\n",
            self.channel.pending()
        );
    }
}
