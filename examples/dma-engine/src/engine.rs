// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Driving a channel: submitting transfers, waiting for them, taking them back.
//!
//! An [`Engine`] owns a channel's [`Ring`] and knows its bus address. It writes a transfer's
//! descriptor into the ring and rings the doorbell ([`Engine::submit`]), polls the channel's
//! status with `io::poll::read_poll_timeout` until the device counts the descriptor complete
//! ([`Engine::wait`]), and takes completed descriptors back in order ([`Engine::reap`]). What
//! goes wrong is a kernel error code: `EINVAL` for a transfer the device cannot do, `EBUSY` for
//! a full ring, `ETIMEDOUT` for a device that does not answer in time, and the error of the
//! fault a halted channel reports (`EFAULT`, `EIO`, `EINVAL`).
//!
//! Why the wait takes a closure: it polls whatever reads the status, a read of the device's
//! mapping in a driver ([`Engine::wait_io`]), a cycle of the model and a read in a test
//! ([`crate::device::SimDevice::poll`]), with the same timeout logic.

use crate::regs::{self, Channel, Regs, CH_STATUS};
use crate::ring::{
    read_writeback, seq_done, write_descriptor, DescCtl, Descriptor, Opcode, Ring, MAX_LEN,
    RING_ALIGN,
};
use core::marker::PhantomData;
use kernel_core::error::code::{EBUSY, EINVAL, EIO};
use kernel_core::error::{Error, Result};
use kernel_core::io::poll::read_poll_timeout;
use kernel_core::io::{Io, IoCapable, Region};
use kernel_core::prelude::*;
use kernel_core::ptr::Alignable;
use kernel_core::time::Delta;

/// How often [`Engine::wait_io`] reads the status.
pub const POLL_INTERVAL: Delta = Delta::from_micros(20);
/// What [`transfer_timeout`] adds to the time on the bus: the device's own latency, and the
/// granularity of the clock, which on some configurations ticks once a jiffy (4 ms at 250 Hz).
pub const TIMEOUT_SLACK: Delta = Delta::from_millis(100);

/// A transfer, as a driver asks for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transfer {
    /// What to do.
    pub op: Opcode,
    /// The source's bus address (a copy), or the 32-bit pattern (a fill).
    pub src: u64,
    /// The destination's bus address.
    pub dst: u64,
    /// How many bytes.
    pub len: u32,
}

impl Transfer {
    /// Copy `len` bytes from bus address `src` to `dst`.
    pub const fn copy(src: u64, dst: u64, len: u32) -> Self {
        Self {
            op: Opcode::Copy,
            src,
            dst,
            len,
        }
    }

    /// Fill `len` bytes at bus address `dst` with `pattern`, little-endian.
    pub const fn fill(dst: u64, pattern: u32, len: u32) -> Self {
        Self {
            op: Opcode::Fill,
            src: pattern as u64,
            dst,
            len,
        }
    }

    /// A descriptor that only completes.
    pub const NOP: Self = Self {
        op: Opcode::Nop,
        src: 0,
        dst: 0,
        len: 0,
    };

    /// `EINVAL` if the device cannot do it: an empty or too long copy or fill, an address range
    /// that wraps around, or a fill whose destination or length is not a multiple of 4.
    pub fn validate(&self) -> Result {
        let fits = |start: u64| start.checked_add(u64::from(self.len)).is_some();
        let sized = self.len > 0 && self.len <= MAX_LEN && fits(self.dst);
        let valid = match self.op {
            Opcode::Nop => self.len == 0,
            Opcode::Copy => sized && fits(self.src),
            Opcode::Fill => sized && self.len % 4 == 0 && self.dst % 4 == 0,
        };
        if valid {
            Ok(())
        } else {
            Err(EINVAL)
        }
    }
}

/// A submitted transfer: its descriptor's free-running index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cookie(pub u16);

/// A transfer the device completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Completion {
    /// Which one.
    pub cookie: Cookie,
    /// How many bytes the device moved.
    pub bytes: u32,
}

/// How long a transfer of `len` bytes may take at `bytes_per_us`: its time on the bus in whole
/// microseconds, plus [`TIMEOUT_SLACK`]. `None` for a rate of zero.
pub fn transfer_timeout(len: u32, bytes_per_us: u32) -> Option<Delta> {
    let micros = len.checked_div(bytes_per_us)? + u32::from(len % bytes_per_us != 0);
    Some(Delta::from_micros(i64::from(micros)) + TIMEOUT_SLACK)
}

/// The error of the fault a halted channel's status reports.
pub(crate) fn fault_error(status: CH_STATUS) -> Error {
    status
        .fault()
        .map_or_else(|e| e, |fault| fault.to_error().unwrap_or(EIO))
}

/// Channel `C`, with a ring of `N` descriptors at a bus address.
pub struct Engine<C: Channel, const N: usize> {
    ring: Ring<N>,
    base: u64,
    /// The channel, a type only: `fn() -> C` keeps the engine `Send`, `Sync` and `Unpin`
    /// whatever `C` is (a lock's guard hands out `&mut` to `Unpin` data only).
    channel: PhantomData<fn() -> C>,
}

impl<C: Channel, const N: usize> Engine<C, N> {
    /// An engine whose ring is at bus address `base`; `EINVAL` if that is not aligned to
    /// [`RING_ALIGN`] or the ring would wrap around the address space.
    pub fn new(base: u64) -> Result<Self> {
        const_assert!(C::INDEX < regs::CHANNELS, "a channel of the register map");
        if base.align_down(RING_ALIGN) != base
            || base.checked_add(Ring::<N>::BYTES as u64).is_none()
        {
            return Err(EINVAL);
        }
        Ok(Self {
            ring: Ring::starting_at(0),
            base,
            channel: PhantomData,
        })
    }

    /// The bus address of the ring.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// How many transfers were submitted and not reaped yet.
    pub fn in_flight(&self) -> usize {
        self.ring.len()
    }

    /// Points the channel at the ring and runs it, from the count of completed descriptors the
    /// device has (0 after a reset). `EBUSY` if transfers are in flight, the fault's error if
    /// the channel is halted.
    pub fn start<'a, R>(&mut self, regs: R) -> Result
    where
        R: Io<'a, Target = Regs>,
        R::Backend: IoCapable<u32>,
    {
        let status = regs::channel_status::<C, _>(regs);
        if !self.ring.is_empty() {
            return Err(EBUSY);
        } else if status.halted() {
            return Err(fault_error(status));
        }
        self.ring = Ring::starting_at(u16::from(status.completed()));
        regs::program_channel::<C, _>(regs, self.base, Ring::<N>::ORDER)
    }

    /// Writes `transfer`'s descriptor into the ring `ring` views and rings the doorbell.
    /// `EINVAL` for a transfer the device cannot do or a view smaller than the ring, `EBUSY` if
    /// the ring is full, the fault's error if the channel is halted.
    pub fn submit<'a, 'b, R, D, const SIZE: usize>(
        &mut self,
        regs: R,
        ring: D,
        transfer: &Transfer,
    ) -> Result<Cookie>
    where
        R: Io<'a, Target = Regs>,
        R::Backend: IoCapable<u32>,
        D: Io<'b, Target = Region<SIZE>>,
        D::Backend: IoCapable<u32>,
    {
        transfer.validate()?;
        let status = regs::channel_status::<C, _>(regs);
        if ring.size() < Ring::<N>::BYTES {
            return Err(EINVAL);
        } else if status.halted() {
            return Err(fault_error(status));
        }
        let seq = self.ring.head();
        let ctl = DescCtl::zeroed()
            .with_valid(true)
            .with_opcode(transfer.op)
            .with_seq(seq);
        let desc = Descriptor {
            ctl,
            len: transfer.len,
            src: transfer.src,
            dst: transfer.dst,
        };
        self.ring.push().ok_or(EBUSY)?;
        write_descriptor(ring, Ring::<N>::slot(seq), &desc)?;
        regs::ring_doorbell::<C, _>(regs, self.ring.head());
        Ok(Cookie(seq))
    }

    /// Whether `status` counts the transfer of `cookie` complete.
    pub fn is_complete(&self, status: CH_STATUS, cookie: Cookie) -> bool {
        seq_done(u16::from(status.completed()), cookie.0)
    }

    /// Polls `read_status` every `interval` until it counts `cookie` complete, for at most
    /// `timeout`: the last status read. `ETIMEDOUT` if the time runs out, the fault's error if
    /// the channel halts, or `read_status`'s error.
    pub fn wait<F>(
        &self,
        cookie: Cookie,
        timeout: Delta,
        interval: Delta,
        read_status: F,
    ) -> Result<CH_STATUS>
    where
        F: FnMut() -> Result<CH_STATUS>,
    {
        let done = |status: &CH_STATUS| self.is_complete(*status, cookie) || status.halted();
        let status = read_poll_timeout(read_status, done, interval, timeout)?;
        if self.is_complete(status, cookie) {
            Ok(status)
        } else {
            Err(fault_error(status))
        }
    }

    /// [`Engine::wait`] on the status register of `regs`, every [`POLL_INTERVAL`]: what a
    /// driver calls on its device's mapping.
    pub fn wait_io<'a, R>(&self, regs: R, cookie: Cookie, timeout: Delta) -> Result<CH_STATUS>
    where
        R: Io<'a, Target = Regs>,
        R::Backend: IoCapable<u32>,
    {
        self.wait(cookie, timeout, POLL_INTERVAL, || {
            Ok(regs::channel_status::<C, _>(regs))
        })
    }

    /// Takes back the oldest transfer if `status` counts it complete, `None` if there is none;
    /// `EIO` if its descriptor's write-back disagrees.
    pub fn reap<'b, D, const SIZE: usize>(
        &mut self,
        ring: D,
        status: CH_STATUS,
    ) -> Result<Option<Completion>>
    where
        D: Io<'b, Target = Region<SIZE>>,
        D::Backend: IoCapable<u32>,
    {
        let Some(seq) = self
            .ring
            .peek()
            .filter(|&seq| seq_done(u16::from(status.completed()), seq))
        else {
            return Ok(None);
        };
        let (written, bytes) = read_writeback(ring, Ring::<N>::slot(seq))?;
        if !written.done() || written.seq() != u32::from(seq) {
            return Err(EIO);
        }
        self.ring.pop();
        Ok(Some(Completion {
            cookie: Cookie(seq),
            bytes,
        }))
    }
}

#[kunit_tests(dma_engine_engine)]
mod tests {
    use super::*;
    use crate::device::{SimDevice, DATA_BUS_BASE};
    use crate::regs::{Channel0, Channel3};
    use kernel_core::error::code::{EFAULT, ETIMEDOUT};

    /// Channel 0 of `dev` started with a ring of 8, the engine enabled.
    fn setup(dev: &mut SimDevice) -> Result<Engine<Channel0, 8>> {
        let mut engine = Engine::new(SimDevice::ring_address(0))?;
        let regs = dev.regs()?;
        regs::identify(regs)?;
        regs::enable(regs, true);
        engine.start(regs)?;
        Ok(engine)
    }

    /// Submits `transfer` to `engine` on channel 0 of `dev`.
    fn submit(
        dev: &mut SimDevice,
        engine: &mut Engine<Channel0, 8>,
        transfer: Transfer,
    ) -> Result<Cookie> {
        let (regs, ring) = dev.views::<Channel0>()?;
        engine.submit(regs, ring, &transfer)
    }

    /// Waits for `cookie` on channel 0 of `dev`, polling every `interval`, for up to `timeout`.
    fn wait(
        dev: &mut SimDevice,
        engine: &Engine<Channel0, 8>,
        cookie: Result<Cookie>,
        timeout: Delta,
        interval: Delta,
    ) -> Result<CH_STATUS> {
        engine.wait(cookie?, timeout, interval, || dev.poll::<Channel0>())
    }

    /// Reaps the oldest transfer of `engine` on channel 0 of `dev`.
    fn reap(dev: &mut SimDevice, engine: &mut Engine<Channel0, 8>) -> Result<Option<Completion>> {
        let (regs, ring) = dev.views::<Channel0>()?;
        engine.reap(ring, regs::channel_status::<Channel0, _>(regs))
    }

    #[test]
    fn a_copy_is_submitted_waited_for_and_reaped() -> Result {
        let mut dev = SimDevice::new(3)?;
        let mut engine = setup(&mut dev)?;
        for (byte, value) in dev.data_mut()[..64].iter_mut().zip(0x5a_u8..) {
            *byte = value;
        }
        let copy = Transfer::copy(SimDevice::data_address(0), SimDevice::data_address(128), 64);
        let cookie = submit(&mut dev, &mut engine, copy);
        assert_eq!((cookie, engine.in_flight()), (Ok(Cookie(0)), 1));
        let timeout = transfer_timeout(64, 100).ok_or(EINVAL)?;
        wait(&mut dev, &engine, cookie, timeout, Delta::ZERO)?;
        // Latency 3: the fourth poll saw it done.
        assert_eq!(dev.cycles(), 4);
        assert_eq!(
            reap(&mut dev, &mut engine),
            Ok(Some(Completion {
                cookie: Cookie(0),
                bytes: 64
            }))
        );
        assert_eq!(
            (reap(&mut dev, &mut engine), engine.in_flight()),
            (Ok(None), 0)
        );
        assert_eq!(
            (&dev.data()[128..192], dev.data()[192]),
            (&dev.data()[..64], 0)
        );
        Ok(())
    }

    #[test]
    fn what_the_device_cannot_do_is_invalid() {
        let transfers = [
            Transfer::copy(0, 0x1000, 0),
            Transfer::copy(0, 0x1000, MAX_LEN + 1),
            Transfer::copy(u64::MAX - 3, 0, 8),
            Transfer::fill(0x1002, 0, 8),
            Transfer::fill(0x1000, 0, 6),
            Transfer {
                len: 1,
                ..Transfer::NOP
            },
        ];
        assert!(transfers.iter().all(|t| t.validate() == Err(EINVAL)));
        assert_eq!(Transfer::copy(u64::MAX - 8, 0, 8).validate(), Ok(()));
        assert_eq!(Transfer::fill(0x1000, u32::MAX, MAX_LEN).validate(), Ok(()));
        assert_eq!(Engine::<Channel3, 8>::new(0x1080).err(), Some(EINVAL));
        assert_eq!(Engine::<Channel3, 8>::new(!0xff).err(), Some(EINVAL));
        assert_eq!(
            Engine::<Channel3, 8>::new(0x1100).map(|e| e.base()),
            Ok(0x1100)
        );
        assert_eq!(
            transfer_timeout(101, 100),
            Some(Delta::from_micros(100_002))
        );
        assert_eq!(
            transfer_timeout(MAX_LEN, 1),
            Some(Delta::from_micros(16_877_216))
        );
        assert_eq!(transfer_timeout(1, 0), None);
    }

    #[test]
    fn a_full_ring_is_busy_until_reaped() -> Result {
        let mut dev = SimDevice::new(0)?;
        let mut engine = setup(&mut dev)?;
        let mut submitted = 0;
        while submit(&mut dev, &mut engine, Transfer::NOP).is_ok() {
            submitted += 1;
        }
        assert_eq!(submit(&mut dev, &mut engine, Transfer::NOP), Err(EBUSY));
        assert_eq!((submitted, dev.run(100)), (8, 8));
        let mut reaped = 0;
        while let Some(done) = reap(&mut dev, &mut engine)? {
            assert_eq!(done.cookie, Cookie(reaped));
            reaped += 1;
        }
        assert_eq!(reaped, 8);
        assert_eq!(submit(&mut dev, &mut engine, Transfer::NOP), Ok(Cookie(8)));
        Ok(())
    }

    #[test]
    fn a_channel_that_does_not_run_times_out() -> Result {
        let mut dev = SimDevice::new(0)?;
        let mut engine = setup(&mut dev)?;
        regs::run_channel::<Channel0, _>(dev.regs()?, false);
        let cookie = submit(&mut dev, &mut engine, Transfer::NOP);
        let timeout = Delta::from_millis(2);
        let waited = wait(&mut dev, &engine, cookie, timeout, Delta::from_micros(100));
        assert_eq!(waited.err(), Some(ETIMEDOUT));
        // Through the register window alone, as a driver waits.
        let waited = engine.wait_io(dev.regs()?, cookie?, timeout);
        assert_eq!((waited.err(), engine.in_flight()), (Some(ETIMEDOUT), 1));
        Ok(())
    }

    #[test]
    fn device_faults_are_errors_and_halt_the_channel() -> Result {
        let mut dev = SimDevice::new(1)?;
        let mut engine = setup(&mut dev)?;
        let (timeout, outside) = (
            Delta::from_millis(100),
            Transfer::copy(DATA_BUS_BASE, 0x1000, 4),
        );
        dev.inject_bus_error(Some((0, 1)));
        let cookies =
            [Transfer::NOP, Transfer::NOP, outside].map(|t| submit(&mut dev, &mut engine, t));
        assert!(wait(&mut dev, &engine, cookies[0], timeout, Delta::ZERO).is_ok());
        assert_eq!(
            wait(&mut dev, &engine, cookies[1], timeout, Delta::ZERO).err(),
            Some(EIO)
        );
        assert_eq!(submit(&mut dev, &mut engine, Transfer::NOP), Err(EIO));
        assert_eq!(engine.start(dev.regs()?), Err(EBUSY));

        // After a reset, a new engine starts from index 0, and the next fault is the address.
        dev.inject_bus_error(None);
        regs::reset(dev.regs()?, true);
        dev.tick();
        let mut engine = setup(&mut dev)?;
        let cookie = submit(&mut dev, &mut engine, outside);
        assert_eq!(cookie, Ok(Cookie(0)));
        assert_eq!(
            wait(&mut dev, &engine, cookie, timeout, Delta::ZERO).err(),
            Some(EFAULT)
        );
        Ok(())
    }

    // Host only: in virtual time the count of polls and the time they took are exact.
    #[cfg(not(kernel))]
    #[test]
    fn polling_in_virtual_time_is_exact() -> Result {
        let time = kernel_core::extras::virtual_time::VirtualTime::start();
        let mut dev = SimDevice::new(4)?;
        let mut engine = setup(&mut dev)?;
        let cookie = submit(&mut dev, &mut engine, Transfer::NOP);
        wait(
            &mut dev,
            &engine,
            cookie,
            Delta::from_secs(1),
            Delta::from_micros(10),
        )?;
        // Five polls, with four sleeps of 10 µs between them.
        assert_eq!((dev.cycles(), time.now()), (5, Delta::from_micros(40)));

        regs::run_channel::<Channel0, _>(dev.regs()?, false);
        let cookie = submit(&mut dev, &mut engine, Transfer::NOP);
        let waited = wait(
            &mut dev,
            &engine,
            cookie,
            Delta::from_millis(1),
            Delta::from_micros(100),
        );
        // Reads at 40, 140, ..., 1140 µs: the first one past the timeout gives up.
        assert_eq!(waited.err(), Some(ETIMEDOUT));
        assert_eq!(
            (dev.cycles(), time.now()),
            (5 + 12, Delta::from_micros(1_140))
        );
        Ok(())
    }

    // Host only: seventy thousand random copies and fills, around the 16-bit index space and
    // back, checked against a reference memory (three hundred under Miri).
    #[cfg(not(kernel))]
    #[test]
    fn random_transfers_match_a_reference_across_the_wrap() -> Result {
        let mut dev = SimDevice::new(0)?;
        let mut engine = setup(&mut dev)?;
        let mut reference = [0_u8; crate::device::DATA_SIZE];
        let (mut done, mut state) = (0_u32, 0x9e37_79b9_u32);
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        let transfers = if cfg!(miri) { 300 } else { 70_000 };
        while done < transfers {
            let mut batch = [Transfer::NOP; 8];
            for transfer in batch.iter_mut().take(1 + next() as usize % 8) {
                let random = next();
                let len = 4 * (1 + (random >> 8) % 16);
                let (src, dst) = (
                    ((random >> 16) % 400) as usize,
                    4 * ((random >> 24) % 100) as usize,
                );
                *transfer = if random % 2 == 0 {
                    Transfer::copy(
                        SimDevice::data_address(src),
                        SimDevice::data_address(dst),
                        len,
                    )
                } else {
                    Transfer::fill(SimDevice::data_address(dst), random, len)
                };
                submit(&mut dev, &mut engine, *transfer)?;
            }
            dev.run(1_000);
            for transfer in batch.iter().take(engine.in_flight()) {
                let reaped = reap(&mut dev, &mut engine)?.map(|c| c.cookie);
                assert_eq!(reaped, Some(Cookie(done as u16)));
                let (len, dst) = (
                    transfer.len as usize,
                    (transfer.dst - DATA_BUS_BASE) as usize,
                );
                if transfer.op == Opcode::Copy {
                    let src = (transfer.src - DATA_BUS_BASE) as usize;
                    reference.copy_within(src..src + len, dst);
                } else {
                    let pattern = (transfer.src as u32).to_le_bytes();
                    for (byte, value) in reference[dst..dst + len]
                        .iter_mut()
                        .zip(pattern.iter().cycle())
                    {
                        *byte = *value;
                    }
                }
                done += 1;
            }
            assert_eq!((engine.in_flight(), dev.data()), (0, &reference));
        }
        Ok(())
    }

    // In the kernel: polling on the kernel's own clock, with real sleeps between the reads.
    #[cfg(kernel)]
    #[test]
    fn waiting_on_the_kernels_clock() -> Result {
        use kernel_core::time::{Instant, Monotonic};

        let mut dev = SimDevice::new(3)?;
        let mut engine = setup(&mut dev)?;
        let cookie = submit(&mut dev, &mut engine, Transfer::NOP);
        let (start, interval) = (Instant::<Monotonic>::now(), Delta::from_millis(10));
        wait(&mut dev, &engine, cookie, Delta::from_secs(1), interval)?;
        let took = start.elapsed();
        // Four reads, with three sleeps of at least 10 ms between them, on a clock that may
        // tick once a jiffy only.
        assert!(dev.cycles() == 4 && took >= interval * 2);
        // An `i64` in decimal through `Decimal`: 32-bit arm has no 64-bit division for `{}`.
        kernel::pr_info!(
            "dma_engine_engine: complete after 4 polls in {} us\n",
            kernel_core::extras::fmt::Decimal(took.as_micros_ceil())
        );
        Ok(())
    }
}
