// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A model of the engine in memory, which the tests and the module's init drive instead of
//! hardware.
//!
//! [`SimDevice`] holds the register window, descriptor memory for the rings of channels 0 and
//! 1, and a small data memory, as arrays in `KBox`es (allocations with `GFP_KERNEL`, as a
//! driver's coherent DMA memory is one), and lends the driver `SysMem` views of them: the same
//! `Io` code that programs the real device's `Mmio` mapping. Memory does not react to
//! a write, so the device works in cycles: [`SimDevice::tick`] looks at what the driver wrote
//! and does what the hardware would, and [`SimDevice::poll`] is one cycle and one read of a
//! channel's status, what a round of a driver's polling loop does to the real device.
//!
//! The model implements the datasheet with its own offsets and bits below, not with the
//! `register!` types, so that driving it also checks the driver's declarations. It behaves so:
//!
//! - a reset (`CTRL.reset`) clears every register but `ID`, then `CTRL.reset` itself;
//! - a running channel of an enabled engine whose doorbell is ahead of it processes the
//!   descriptor at its head, taking `latency + 1` cycles for each; it reads descriptors
//!   little-endian, and reaches memory at [`DESC_BUS_BASE`] and [`DATA_BUS_BASE`] only;
//! - a descriptor it does not own or cannot do, or an injected bus error, halts the channel
//!   with the fault and the descriptor's index, until the next reset;
//! - `STATUS` sums the channels up after every cycle.

use crate::regs::{self, Channel, Regs, CHANNELS, REGS_SIZE};
use crate::ring::{DESC_SIZE, MAX_LEN};
use core::ops::Range;
use kernel_core::error::code::EINVAL;
use kernel_core::error::Result;
use kernel_core::extras::io::sys_mem;
use kernel_core::io::{Region, SysMem};
use kernel_core::prelude::*;

/// The model's [`regs::ID`](struct@regs::ID): version 1.2, [`CHANNELS`] channels.
pub const ID_VALUE: u32 = (regs::MAGIC << 16) | 0x1200 | CHANNELS as u32;
/// The bytes of descriptor memory of a channel: a ring of up to 8 descriptors.
pub const RING_SLICE: usize = 256;
/// The channels with descriptor memory: 0 and 1.
pub const RING_CHANNELS: usize = 2;
/// The bus address of the descriptor memory, above 4 GiB so that the high words count.
pub const DESC_BUS_BASE: u64 = 0x0000_0010_8000_0000;
/// The size of the data memory that transfers read and write.
pub const DATA_SIZE: usize = 512;
/// The bus address of the data memory.
pub const DATA_BUS_BASE: u64 = 0x0000_0020_0000_0000;

// The datasheet, as the model implements it: offsets and bits.
const CTRL: usize = 0x04;
const STATUS: usize = 0x08;
const DOORBELL: usize = 0x20;
const CH_BLOCK: usize = 0x40;
const CH_STRIDE: usize = 0x20;
const CH_CTL: usize = 0x00;
const CH_STATUS: usize = 0x04;
const CH_BASE_LO: usize = 0x08;
const CH_BASE_HI: usize = 0x0c;
const CH_ERR_INDEX: usize = 0x10;
const ENABLE: u32 = 1 << 0;
const RESET: u32 = 1 << 1;
const RUN: u32 = 1 << 0;
const ACTIVE: u32 = 1 << 0;
const HALTED: u32 = 1 << 1;
const VALID: u32 = 1 << 0;
const DONE: u32 = 1 << 0;
const NOP: u32 = 0;
const COPY: u32 = 1;
const FILL: u32 = 2;
const BAD_DESCRIPTOR: u32 = 1;
const BAD_ADDRESS: u32 = 2;
const BAD_ALIGNMENT: u32 = 3;
const BUS_ERROR: u32 = 4;

/// The engine, in memory. See [the module documentation](self).
#[derive(Debug)]
pub struct SimDevice {
    regs: KBox<[u32; REGS_SIZE / 4]>,
    descs: KBox<[u32; RING_CHANNELS * RING_SLICE / 4]>,
    data: KBox<[u8; DATA_SIZE]>,
    heads: [u16; CHANNELS],
    waited: [u32; CHANNELS],
    bus_error: Option<(usize, u16)>,
    latency: u32,
    cycles: u32,
    completed_any: bool,
}

impl SimDevice {
    /// A device after power-on, whose descriptors take `latency + 1` cycles each; `ENOMEM` if
    /// its memories cannot be allocated.
    pub fn new(latency: u32) -> Result<Self> {
        let mut dev = Self {
            regs: KBox::new([0; REGS_SIZE / 4], GFP_KERNEL)?,
            descs: KBox::new([0; RING_CHANNELS * RING_SLICE / 4], GFP_KERNEL)?,
            data: KBox::new([0; DATA_SIZE], GFP_KERNEL)?,
            heads: [0; CHANNELS],
            waited: [0; CHANNELS],
            bus_error: None,
            latency,
            cycles: 0,
            completed_any: false,
        };
        dev.reset();
        Ok(dev)
    }

    /// The bus address of channel `channel`'s ring.
    pub const fn ring_address(channel: usize) -> u64 {
        DESC_BUS_BASE + (channel * RING_SLICE) as u64
    }

    /// The bus address of byte `offset` of the data memory.
    pub const fn data_address(offset: usize) -> u64 {
        DATA_BUS_BASE + offset as u64
    }

    /// A view of the register window, as the driver maps it.
    pub fn regs(&mut self) -> Result<SysMem<'_, Regs>> {
        sys_mem::<REGS_SIZE, _>(&mut self.regs[..])
    }

    /// Views of the register window and of channel `C`'s ring, together; `EINVAL` for a
    /// channel without descriptor memory.
    pub fn views<C: Channel>(
        &mut self,
    ) -> Result<(SysMem<'_, Regs>, SysMem<'_, Region<RING_SLICE>>)> {
        let start = C::INDEX * RING_SLICE / 4;
        let ring = self
            .descs
            .get_mut(start..start + RING_SLICE / 4)
            .ok_or(EINVAL)?;
        Ok((
            sys_mem::<REGS_SIZE, _>(&mut self.regs[..])?,
            sys_mem::<RING_SLICE, _>(ring)?,
        ))
    }

    /// The data memory.
    pub fn data(&self) -> &[u8; DATA_SIZE] {
        &self.data
    }

    /// The data memory, to set up a transfer.
    pub fn data_mut(&mut self) -> &mut [u8; DATA_SIZE] {
        &mut self.data
    }

    /// The cycles since power-on (wrapping).
    pub fn cycles(&self) -> u32 {
        self.cycles
    }

    /// Makes the bus fail channel `channel`'s descriptor of index `seq` (one at most), or none.
    pub fn inject_bus_error(&mut self, at: Option<(usize, u16)>) {
        self.bus_error = at;
    }

    /// One cycle and one read of channel `C`'s status: a round of a driver's polling loop.
    pub fn poll<C: Channel>(&mut self) -> Result<regs::CH_STATUS> {
        self.tick();
        Ok(regs::channel_status::<C, _>(self.regs()?))
    }

    /// Cycles while one would change something, at most `limit`: how many ran.
    pub fn run(&mut self, limit: u32) -> u32 {
        let mut ran = 0;
        while ran < limit
            && (self.reg(CTRL) & RESET != 0 || (0..CHANNELS).any(|c| self.can_step(c)))
        {
            self.tick();
            ran += 1;
        }
        ran
    }

    /// One cycle of the device (see [the module documentation](self)).
    pub fn tick(&mut self) {
        self.cycles = self.cycles.wrapping_add(1);
        if self.reg(CTRL) & RESET != 0 {
            self.reset();
            return;
        }
        let (mut busy, mut errors) = (0, 0);
        for channel in 0..CHANNELS {
            if self.can_step(channel) {
                self.step(channel);
            }
            let at = CH_BLOCK + channel * CH_STRIDE + CH_STATUS;
            let halted = self.reg(at) & HALTED != 0;
            let active = self.pending(channel) && !halted;
            self.regs[at / 4] = (self.reg(at) & !ACTIVE) | u32::from(active);
            busy |= u32::from(active) << channel;
            errors |= u32::from(halted) << channel;
        }
        let done = busy == 0 && self.completed_any;
        self.regs[STATUS / 4] = u32::from(busy != 0)
            | (u32::from(done) << 1)
            | (u32::from(errors != 0) << 2)
            | (errors << 8)
            | (busy << 16);
    }

    /// The register at byte offset `offset`.
    fn reg(&self, offset: usize) -> u32 {
        self.regs[offset / 4]
    }

    /// Back to the state after power-on, but for the memories and an injected error.
    fn reset(&mut self) {
        self.regs.fill(0);
        self.regs[0] = ID_VALUE;
        self.heads = [0; CHANNELS];
        self.waited = [0; CHANNELS];
        self.completed_any = false;
    }

    /// Whether channel `channel`'s doorbell is ahead of its head.
    fn pending(&self, channel: usize) -> bool {
        self.reg(DOORBELL + channel * 8) & 0xffff != u32::from(self.heads[channel])
    }

    /// Whether channel `channel` makes progress in a cycle.
    fn can_step(&self, channel: usize) -> bool {
        let block = CH_BLOCK + channel * CH_STRIDE;
        self.reg(CTRL) & ENABLE != 0
            && self.reg(block + CH_CTL) & RUN != 0
            && self.reg(block + CH_STATUS) & HALTED == 0
            && self.pending(channel)
    }

    /// A cycle of channel `channel`: a wait, or its head descriptor processed.
    fn step(&mut self, channel: usize) {
        if self.waited[channel] < self.latency {
            self.waited[channel] += 1;
            return;
        }
        self.waited[channel] = 0;
        let block = CH_BLOCK + channel * CH_STRIDE;
        let seq = self.heads[channel];
        let status = self.reg(block + CH_STATUS);
        match self.process(channel, seq) {
            Ok(()) => {
                self.heads[channel] = seq.wrapping_add(1);
                self.completed_any = true;
                self.regs[(block + CH_STATUS) / 4] =
                    (status & 0xffff) | (u32::from(seq.wrapping_add(1)) << 16);
            }
            Err(fault) => {
                self.regs[(block + CH_STATUS) / 4] = (status & 0xffff_0000) | (fault << 4) | HALTED;
                self.regs[(block + CH_ERR_INDEX) / 4] = u32::from(seq);
            }
        }
    }

    /// The range of memory of `len` bytes at bus address `address` in a memory of `size`
    /// bytes at `base`.
    fn range(address: u64, len: usize, base: u64, size: usize) -> Result<Range<usize>, u32> {
        let start = address
            .checked_sub(base)
            .and_then(|o| usize::try_from(o).ok());
        match start.and_then(|start| Some(start..start.checked_add(len)?)) {
            Some(range) if range.end <= size => Ok(range),
            _ => Err(BAD_ADDRESS),
        }
    }

    /// Processes channel `channel`'s descriptor `seq` and writes its status back; or the
    /// fault that halts the channel.
    fn process(&mut self, channel: usize, seq: u16) -> Result<(), u32> {
        let block = CH_BLOCK + channel * CH_STRIDE;
        let (ctl, low, high) = (
            self.reg(block + CH_CTL),
            self.reg(block + CH_BASE_LO),
            self.reg(block + CH_BASE_HI),
        );
        let slot = usize::from(seq) & ((1 << ((ctl >> 8) & 0xf)) - 1);
        let address =
            ((u64::from(high) << 32) | u64::from(low & !0xff)) + (slot * DESC_SIZE) as u64;
        let words = Self::range(address, DESC_SIZE, DESC_BUS_BASE, self.descs.len() * 4)?;
        let first = words.start / 4;
        let word = |index: usize| u32::from_le(self.descs[first + index]);
        let (ctl, len) = (word(0), word(1));
        let (src, dst) = (
            (u64::from(word(3)) << 32) | u64::from(word(2)),
            (u64::from(word(5)) << 32) | u64::from(word(4)),
        );
        let result = if ctl & VALID == 0 || ctl >> 16 != u32::from(seq) || len > MAX_LEN {
            Err(BAD_DESCRIPTOR)
        } else if self.bus_error == Some((channel, seq)) {
            Err(BUS_ERROR)
        } else {
            self.execute((ctl >> 4) & 0xf, src, dst, len as usize)
        };
        let moved = *result.as_ref().unwrap_or(&0);
        let fault = result.err().unwrap_or(0);
        self.descs[first + 6] =
            ((u32::from(seq) << 16) | (fault << 4) | (u32::from(fault == 0) * DONE)).to_le();
        self.descs[first + 7] = moved.to_le();
        if fault != 0 {
            return Err(fault);
        }
        // Handed back: `valid` cleared, after the write-back.
        self.descs[first] = (ctl & !VALID).to_le();
        Ok(())
    }

    /// Does operation `op`: the count of bytes moved, or the fault.
    fn execute(&mut self, op: u32, src: u64, dst: u64, len: usize) -> Result<u32, u32> {
        let to = Self::range(dst, len, DATA_BUS_BASE, DATA_SIZE);
        match op {
            NOP => return Ok(0),
            COPY => {
                let from = Self::range(src, len, DATA_BUS_BASE, DATA_SIZE)?;
                // Like `memmove`: the ranges may overlap.
                self.data.copy_within(from, to?.start);
            }
            FILL if dst % 4 != 0 || len % 4 != 0 => return Err(BAD_ALIGNMENT),
            FILL => {
                let pattern = (src as u32).to_le_bytes();
                for (byte, value) in self.data[to?].iter_mut().zip(pattern.iter().cycle()) {
                    *byte = *value;
                }
            }
            _ => return Err(BAD_DESCRIPTOR),
        }
        Ok(len as u32)
    }
}

#[kunit_tests(dma_engine_device)]
mod tests {
    use super::*;
    use crate::regs::{Channel0, Channel3, Fault, CH_STATUS, STATUS};
    use crate::ring::{read_writeback, write_descriptor, DescCtl, Descriptor, Opcode};
    use kernel_core::io::Io;

    /// Resets `dev`, enables it, runs channel 0 with a ring of 8, and writes and rings `descs`
    /// there, each with the index of its place.
    fn start(dev: &mut SimDevice, descs: &[(Opcode, u64, u64, u32)]) -> Result {
        regs::reset(dev.regs()?, true);
        dev.tick();
        let (regs, ring) = dev.views::<Channel0>()?;
        regs::enable(regs, true);
        regs::program_channel::<Channel0, _>(regs, SimDevice::ring_address(0), 3)?;
        for (seq, &(op, src, dst, len)) in (0_u16..).zip(descs) {
            let ctl = DescCtl::zeroed()
                .with_valid(true)
                .with_opcode(op)
                .with_seq(seq);
            write_descriptor(ring, usize::from(seq), &Descriptor { ctl, len, src, dst })?;
            regs::ring_doorbell::<Channel0, _>(regs, seq + 1);
        }
        Ok(())
    }

    /// Channel 0's status, and the global status.
    fn statuses(dev: &mut SimDevice) -> Result<(CH_STATUS, STATUS)> {
        let io = dev.regs()?;
        Ok((regs::channel_status::<Channel0, _>(io), io.read(STATUS)))
    }

    #[test]
    fn a_doorbell_completes_a_copy_after_the_latency() -> Result {
        let mut dev = SimDevice::new(2)?;
        // A reset clears every register but `ID`, and then itself.
        dev.regs()?.write32(0xffff_ffff, 0xfc);
        let (src, dst) = (SimDevice::data_address(0), SimDevice::data_address(256));
        start(&mut dev, &[(Opcode::Copy, src, dst, 16)])?;
        assert!(!regs::reset(dev.regs()?, false) && dev.regs()?.read32(0xfc) == 0);
        let id = regs::identify(dev.regs()?)?;
        assert_eq!((id.version, id.channels), ((1, 2), CHANNELS));
        assert_eq!(dev.views::<Channel3>().err(), Some(EINVAL));
        for (byte, value) in dev.data_mut().iter_mut().zip(1..=16) {
            *byte = value;
        }
        // Two cycles waiting, busy; the third completes it.
        for _ in 0..2 {
            dev.tick();
            let (channel, global) = statuses(&mut dev)?;
            assert!(channel.active() && channel.completed() == 0);
            assert!(global.busy() && !global.done() && global.busy_mask() == 1);
        }
        dev.tick();
        let (channel, global) = statuses(&mut dev)?;
        assert!(!channel.active() && channel.completed() == 1);
        assert!(!global.busy() && global.done() && !global.error());
        assert_eq!(
            (dev.data()[256], dev.data()[271], dev.data()[272]),
            (1, 16, 0)
        );
        // Written back, and handed back.
        let (status, bytes) = read_writeback(dev.views::<Channel0>()?.1, 0)?;
        assert!(status.done() && status.seq() == 0 && bytes == 16);
        assert_eq!(u32::from_le(dev.views::<Channel0>()?.1.read32(0)) & 1, 0);
        assert_eq!(dev.run(100), 0);
        Ok(())
    }

    #[test]
    fn a_fill_writes_its_pattern_little_endian() -> Result {
        let mut dev = SimDevice::new(0)?;
        start(
            &mut dev,
            &[(Opcode::Fill, 0x4433_2211, SimDevice::data_address(8), 8)],
        )?;
        assert_eq!(dev.run(100), 1);
        let expected = [
            0, 0, 0, 0, 0x11, 0x22, 0x33, 0x44, 0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0,
        ];
        assert_eq!(dev.data()[4..20], expected);
        Ok(())
    }

    #[test]
    fn faults_halt_the_channel_until_a_reset() -> Result {
        let mut dev = SimDevice::new(0)?;
        let data = SimDevice::data_address;
        let cases = [
            (
                Opcode::Copy,
                data(DATA_SIZE - 4),
                data(0),
                8,
                Fault::Address,
            ),
            (Opcode::Fill, 0, data(2), 8, Fault::Alignment),
            (
                Opcode::Copy,
                data(0),
                data(1),
                MAX_LEN + 1,
                Fault::Descriptor,
            ),
            (Opcode::Copy, data(0), data(1), 1, Fault::Bus),
        ];
        for (op, src, dst, len, fault) in cases {
            dev.inject_bus_error((fault == Fault::Bus).then_some((0, 1)));
            dev.data_mut()[0] = 0xaa;
            let nop = (Opcode::Nop, 0, 0, 0);
            start(&mut dev, &[nop, (op, src, dst, len), nop])?;
            assert_eq!(dev.run(100), 2);
            let (channel, global) = statuses(&mut dev)?;
            assert!(channel.halted() && !channel.active() && channel.completed() == 1);
            assert_eq!(channel.fault(), Ok(fault));
            assert!(global.error() && global.error_mask() == 1 && dev.regs()?.read32(0x50) == 1);
            let (status, _) = read_writeback(dev.views::<Channel0>()?.1, 1)?;
            assert!(!status.done() && status.fault() == Ok(fault));
            assert_eq!(dev.data()[1..8], [0; 7]);
            assert_eq!(dev.run(100), 0);
        }
        Ok(())
    }

    #[test]
    fn nothing_moves_until_the_engine_and_the_channel_run() -> Result {
        let mut dev = SimDevice::new(0)?;
        start(&mut dev, &[(Opcode::Nop, 0, 0, 0)])?;
        regs::enable(dev.regs()?, false);
        assert_eq!(dev.run(10), 0);
        dev.tick();
        assert!(statuses(&mut dev)?.0.active());
        regs::enable(dev.regs()?, true);
        regs::run_channel::<Channel0, _>(dev.regs()?, false);
        assert_eq!(dev.run(10), 0);
        regs::run_channel::<Channel0, _>(dev.regs()?, true);
        assert_eq!(dev.run(10), 1);
        assert_eq!(
            regs::channel_status::<Channel3, _>(dev.regs()?).into_raw(),
            0
        );
        Ok(())
    }

    #[cfg(kernel)]
    #[test]
    fn the_model_runs_in_the_kernel() -> Result {
        let mut dev = SimDevice::new(3)?;
        start(&mut dev, &[(Opcode::Nop, 0, 0, 0)])?;
        let ran = dev.run(100);
        kernel::pr_info!("dma_engine_device: a descriptor took {} cycles\n", ran);
        assert_eq!(ran, 4);
        Ok(())
    }
}
