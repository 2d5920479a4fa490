// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The driver's state: a probed device and its channels, shared through `Arc`s, with what
//! changes behind locks.
//!
//! [`DmaDevice::probe`] identifies, resets and enables a device and makes its shared state: the
//! device (its register window and memory, here the model [`SimDevice`]) behind a spinlock,
//! which every register access takes, briefly and without sleeping, as a driver's register
//! lock does. [`DmaChannel::new`] claims one of its channels: a reference to the device, and
//! behind a mutex of its own the channel's [`Engine`] (its ring) and the transfers submitted
//! and not collected yet, in a `KVec` allocated with `GFP_KERNEL`. Both are built in place in
//! their `Arc` by `pin_init!`, since a lock must not move once initialised, and any number of
//! threads use them through clones of the `Arc`: each submits transfers
//! ([`DmaChannel::submit`]) and waits for its own ([`DmaChannel::wait`]), while whichever
//! thread reads the device reaps every completed descriptor for its owner.
//!
//! The rules of the locks, which the host's lockdep and sleep-in-atomic checks hold every test
//! to:
//!
//! - a channel's mutex, then the device's spinlock; never the other way, never two channels'
//!   mutexes at once (they are one lock class: one `new_mutex!`);
//! - nothing sleeps or allocates with the spinlock held: [`DmaChannel::submit`] makes room for
//!   its bookkeeping before it takes the spinlock, and [`DmaChannel::wait`] takes the spinlock
//!   for each read of the device and sleeps between reads with no lock held;
//! - every lock is initialised here, by one `new_spinlock!` or `new_mutex!` each, and never in
//!   the module glue: a lock's class is its initialiser's call site, so the classes the host's
//!   tests check are those the module uses.

use crate::device::{SimDevice, DATA_SIZE};
use crate::engine::{fault_error, Cookie, Engine, Transfer};
use crate::regs::{self, Channel, Identity};
use kernel_core::error::code::{EBUSY, EINVAL, EIO, ENODEV};
use kernel_core::error::Result;
use kernel_core::io::poll::read_poll_timeout;
use kernel_core::prelude::*;
use kernel_core::sync::{new_mutex, new_spinlock, Arc, Mutex, SpinLock};
use kernel_core::time::Delta;

/// The descriptors of a channel's ring.
pub const RING_ENTRIES: usize = 8;
/// The most transfers a channel keeps submitted and not collected: beyond, [`DmaChannel::submit`]
/// is `EBUSY`. Far below half the 16-bit index space, so that no two have one cookie.
pub const MAX_PENDING: usize = 4 * RING_ENTRIES;
/// How long [`DmaDevice::probe`] waits for the device's reset.
pub const RESET_TIMEOUT: Delta = Delta::from_millis(10);

/// What the device's spinlock guards.
struct Hw {
    /// The device: its registers and memory.
    dev: SimDevice,
    /// The channels a [`DmaChannel`] holds, a bit each.
    claimed: u32,
}

/// A probed device, shared by its channels and its users.
#[pin_data]
pub struct DmaDevice {
    /// What the device said it is.
    identity: Identity,
    /// The device, one user at a time, in atomic context.
    #[pin]
    hw: SpinLock<Hw>,
}

impl DmaDevice {
    /// Probes `dev`: identifies it, resets it and waits up to [`RESET_TIMEOUT`] for the reset,
    /// and enables the engine. `ENODEV` or `EINVAL` if it is not an engine this driver knows,
    /// `ETIMEDOUT` if the reset does not end, `ENOMEM`.
    pub fn probe(mut dev: SimDevice) -> Result<Arc<Self>> {
        let identity = regs::identify(dev.regs()?)?;
        regs::reset(dev.regs()?, true);
        // The model moves a cycle per read; hardware resets on its own.
        let resetting = || {
            dev.tick();
            Ok(regs::reset(dev.regs()?, false))
        };
        read_poll_timeout(resetting, |busy| !busy, Delta::ZERO, RESET_TIMEOUT)?;
        regs::enable(dev.regs()?, true);
        let state = Hw { dev, claimed: 0 };
        Arc::pin_init(
            pin_init!(Self {
                identity,
                hw <- new_spinlock!(state, "dma_engine_hw"),
            }),
            GFP_KERNEL,
        )
    }

    /// What the device said it is.
    pub fn identity(&self) -> Identity {
        self.identity
    }

    /// The device's cycles since power-on (wrapping).
    pub fn cycles(&self) -> u32 {
        self.hw.lock().dev.cycles()
    }

    /// Calls `f` on the device's data memory, where transfers read and write: `f` runs with
    /// the spinlock held, so it must not sleep or allocate.
    pub fn with_data<R>(&self, f: impl FnOnce(&mut [u8; DATA_SIZE]) -> R) -> R {
        f(self.hw.lock().dev.data_mut())
    }

    /// Makes the bus fail channel `channel`'s descriptor of index `seq`, or none
    /// ([`SimDevice::inject_bus_error`]).
    pub fn inject_bus_error(&self, at: Option<(usize, u16)>) {
        self.hw.lock().dev.inject_bus_error(at);
    }

    /// Disables the engine, as a driver's remove does: the channels stop where they are.
    pub fn disable(&self) -> Result {
        regs::enable(self.hw.lock().dev.regs()?, false);
        Ok(())
    }
}

/// A transfer submitted on a channel and not collected yet.
#[derive(Debug, Clone, Copy)]
struct Pending {
    /// Its descriptor's index.
    cookie: Cookie,
    /// The bytes the device moved, once a read of the device reaped its descriptor.
    bytes: Option<u32>,
}

/// What a channel's mutex guards.
struct Queue<C: Channel> {
    /// The channel's ring.
    engine: Engine<C, RING_ENTRIES>,
    /// The transfers submitted and not collected, in submission order.
    pending: KVec<Pending>,
}

/// Channel `C` of a device, claimed for this driver: submitting transfers and waiting for them.
#[pin_data(PinnedDrop)]
pub struct DmaChannel<C: Channel> {
    /// The channel's device.
    device: Arc<DmaDevice>,
    /// The channel's ring and transfers.
    #[pin]
    queue: Mutex<Queue<C>>,
}

impl<C: Channel> DmaChannel<C> {
    /// Claims channel `C` of `device`, points it at its ring and runs it. `ENODEV` if the
    /// device has no such channel, `EINVAL` if it has no ring memory for it, `EBUSY` if
    /// another `DmaChannel` holds it, the fault's error if it is halted, `ENOMEM`.
    ///
    /// The refusals come before the allocations, so that they do not depend on memory.
    pub fn new(device: Arc<DmaDevice>) -> Result<Arc<Self>> {
        if C::INDEX >= device.identity.channels {
            return Err(ENODEV);
        }
        let mut engine = Engine::new(SimDevice::ring_address(C::INDEX))?;
        {
            let mut hw = device.hw.lock();
            if hw.claimed & (1 << C::INDEX) != 0 {
                return Err(EBUSY);
            }
            let (regs, _) = hw.dev.views::<C>()?;
            engine.start(regs)?;
            hw.claimed |= 1 << C::INDEX;
        }
        // Claimed: from here on, an error releases the channel, since no `DmaChannel` lived
        // to release it when dropped.
        let owner = device.clone();
        let make = move || {
            let pending = KVec::with_capacity(RING_ENTRIES, GFP_KERNEL)?;
            let state = Queue { engine, pending };
            Arc::pin_init(
                pin_init!(Self {
                    device,
                    queue <- new_mutex!(state, "dma_engine_channel"),
                }),
                GFP_KERNEL,
            )
        };
        make().inspect_err(|_| release::<C>(&owner))
    }

    /// Submits `transfer`: its cookie, to wait for. `EINVAL` for a transfer the device cannot
    /// do, `EBUSY` if the ring is full or [`MAX_PENDING`] transfers were not collected,
    /// `ENOMEM`, the fault's error if the channel halted. On an error, nothing was submitted.
    ///
    /// The refusals come before the allocation, so that they do not depend on memory.
    pub fn submit(&self, transfer: &Transfer) -> Result<Cookie> {
        transfer.validate()?;
        let mut queue = self.queue.lock();
        if queue.pending.len() >= MAX_PENDING || queue.engine.in_flight() >= RING_ENTRIES {
            return Err(EBUSY);
        }
        // Room for the bookkeeping first, where allocating may sleep: once the device has the
        // descriptor, nothing may fail.
        queue.pending.reserve(1, GFP_KERNEL)?;
        let cookie = {
            let mut hw = self.device.hw.lock();
            let (regs, ring) = hw.dev.views::<C>()?;
            queue.engine.submit(regs, ring, transfer)?
        };
        // Within the room reserved: allocates nothing, cannot fail.
        queue.pending.push(
            Pending {
                cookie,
                bytes: None,
            },
            GFP_KERNEL,
        )?;
        Ok(cookie)
    }

    /// Reads the device (a cycle of the model) and reaps what it completed, for whoever
    /// submitted it: how many transfers it reaped. `EIO` if a descriptor's write-back
    /// disagrees.
    pub fn poll(&self) -> Result<usize> {
        let mut queue = self.queue.lock();
        self.reap(&mut queue).map(|(reaped, _)| reaped)
    }

    /// Waits for the transfer of `cookie`, reading the device every `interval` for at most
    /// `timeout`, and collects it: the bytes it moved. `ETIMEDOUT` if the time runs out (the
    /// transfer stays pending: wait again), the fault's error if the channel halted before
    /// completing it (it is collected), `EINVAL` if `cookie` is not pending here.
    pub fn wait(&self, cookie: Cookie, timeout: Delta, interval: Delta) -> Result<u32> {
        read_poll_timeout(|| self.collect(cookie), Option::is_some, interval, timeout)?
            // `read_poll_timeout` returns only what the condition accepted.
            .ok_or(EIO)
    }

    /// How many submitted transfers the device has not completed (or the driver not reaped).
    pub fn in_flight(&self) -> usize {
        self.queue.lock().engine.in_flight()
    }

    /// How many submitted transfers were not collected by a wait.
    pub fn pending(&self) -> usize {
        self.queue.lock().pending.len()
    }

    /// The device of this channel.
    pub fn device(&self) -> &Arc<DmaDevice> {
        &self.device
    }

    /// One round of a wait for `cookie`: a read of the device and what it reaped; then the
    /// bytes moved if `cookie`'s transfer is done, which collects it.
    fn collect(&self, cookie: Cookie) -> Result<Option<u32>> {
        let mut queue = self.queue.lock();
        let (_, halted) = self.reap(&mut queue)?;
        let index = queue
            .pending
            .iter()
            .position(|p| p.cookie == cookie)
            .ok_or(EINVAL)?;
        match (queue.pending[index].bytes, halted) {
            (None, None) => Ok(None),
            (Some(bytes), _) => {
                queue.pending.remove(index)?;
                Ok(Some(bytes))
            }
            (None, Some(error)) => {
                queue.pending.remove(index)?;
                Err(error)
            }
        }
    }

    /// Reads the channel's status (a cycle of the model) and reaps every completed descriptor
    /// into `queue.pending`: how many, and the fault's error if the channel halted.
    fn reap(&self, queue: &mut Queue<C>) -> Result<(usize, Option<Error>)> {
        let mut hw = self.device.hw.lock();
        let status = hw.dev.poll::<C>()?;
        let (_, ring) = hw.dev.views::<C>()?;
        let mut reaped = 0;
        while let Some(done) = queue.engine.reap(ring, status)? {
            let pending = queue.pending.iter_mut().find(|p| p.cookie == done.cookie);
            pending.ok_or(EIO)?.bytes = Some(done.bytes);
            reaped += 1;
        }
        Ok((reaped, status.halted().then(|| fault_error(status))))
    }
}

/// Stops channel `C` of `device` and releases it.
fn release<C: Channel>(device: &DmaDevice) {
    let mut hw = device.hw.lock();
    if let Ok(regs) = hw.dev.regs() {
        regs::run_channel::<C, _>(regs, false);
    }
    hw.claimed &= !(1 << C::INDEX);
}

#[pinned_drop]
impl<C: Channel> PinnedDrop for DmaChannel<C> {
    fn drop(self: Pin<&mut Self>) {
        release::<C>(&self.device);
    }
}

#[kunit_tests(dma_engine_driver)]
mod tests {
    use super::*;
    use crate::regs::{Channel0, Channel1, Channel3, CH_CTL};
    use kernel_core::error::code::{EBUSY, ETIMEDOUT};
    use kernel_core::io::register::WithBase;
    use kernel_core::io::Io;

    /// Long enough for any wait of these tests, on a loaded machine and under Miri too.
    const TIMEOUT: Delta = Delta::from_secs(30);

    /// A device of latency `latency`, probed, and its channel 0.
    fn probe(latency: u32) -> Result<(Arc<DmaDevice>, Arc<DmaChannel<Channel0>>)> {
        let device = DmaDevice::probe(SimDevice::new(latency)?)?;
        let channel = DmaChannel::new(device.clone())?;
        Ok((device, channel))
    }

    /// Stops or runs channel 0 of `device`, as a test's fault.
    fn run_channel_0(device: &DmaDevice, run: bool) -> Result {
        regs::run_channel::<Channel0, _>(device.hw.lock().dev.regs()?, run);
        Ok(())
    }

    #[test]
    fn a_copy_and_a_fill_are_collected_in_any_order() -> Result {
        let (device, channel) = probe(1)?;
        assert_eq!(device.identity().channels, regs::CHANNELS);
        device.with_data(|data| {
            for (byte, value) in data[..64].iter_mut().zip(0x21_u8..) {
                *byte = value;
            }
        });
        let copy = Transfer::copy(SimDevice::data_address(0), SimDevice::data_address(128), 64);
        let fill = Transfer::fill(SimDevice::data_address(256), 0x0403_0201, 8);
        let copied = channel.submit(&copy)?;
        let filled = channel.submit(&fill)?;
        assert_eq!((channel.in_flight(), channel.pending()), (2, 2));
        // The fill completes after the copy: waiting for it reaps both, and the copy waits
        // collected-to-be.
        assert_eq!(channel.wait(filled, TIMEOUT, Delta::ZERO), Ok(8));
        assert_eq!((channel.in_flight(), channel.pending()), (0, 1));
        assert_eq!(channel.wait(copied, TIMEOUT, Delta::ZERO), Ok(64));
        assert_eq!(channel.pending(), 0);
        assert_eq!(channel.wait(copied, TIMEOUT, Delta::ZERO), Err(EINVAL));
        let fill_ok = device.with_data(|data| {
            data[128..192] == data[..64] && data[256..264] == [1, 2, 3, 4, 1, 2, 3, 4]
        });
        assert!(fill_ok);
        // Two descriptors of two cycles each, and a reset's one.
        assert!(device.cycles() >= 5);
        Ok(())
    }

    #[test]
    fn a_channel_is_claimed_once_and_released_when_dropped() -> Result {
        let (device, channel) = probe(0)?;
        assert_eq!(
            DmaChannel::<Channel0>::new(device.clone()).err(),
            Some(EBUSY)
        );
        // The model has ring memory for channels 0 and 1 only.
        assert_eq!(
            DmaChannel::<Channel3>::new(device.clone()).err(),
            Some(EINVAL)
        );
        let second = DmaChannel::<Channel1>::new(device.clone())?;
        assert_eq!(device.hw.lock().claimed, 0b11);
        drop(channel);
        // Released and stopped.
        assert_eq!(device.hw.lock().claimed, 0b10);
        let ctl = device.hw.lock().dev.regs()?.read(CH_CTL::of::<Channel0>());
        assert!(!ctl.run());
        let again = DmaChannel::<Channel0>::new(device.clone())?;
        drop((again, second));
        assert_eq!(device.hw.lock().claimed, 0);
        device.disable()
    }

    #[test]
    fn a_full_ring_and_uncollected_transfers_are_busy() -> Result {
        let (device, channel) = probe(0)?;
        run_channel_0(&device, false)?;
        let mut cookies = KVec::new();
        loop {
            match channel.submit(&Transfer::NOP) {
                Ok(cookie) => cookies.push(cookie, GFP_KERNEL)?,
                Err(e) if e == EBUSY => break,
                Err(e) => return Err(e),
            }
        }
        assert_eq!(
            (cookies.len(), channel.in_flight()),
            (RING_ENTRIES, RING_ENTRIES)
        );
        run_channel_0(&device, true)?;
        // Completed and reaped, but not collected: MAX_PENDING of them, then busy.
        loop {
            channel.poll()?;
            match channel.submit(&Transfer::NOP) {
                Ok(cookie) => cookies.push(cookie, GFP_KERNEL)?,
                Err(e) if e == EBUSY && channel.pending() == MAX_PENDING => break,
                Err(e) if e == EBUSY => continue,
                Err(e) => return Err(e),
            }
        }
        while channel.in_flight() > 0 {
            channel.poll()?;
        }
        assert_eq!(cookies.len(), MAX_PENDING);
        for cookie in cookies.iter().rev() {
            assert_eq!(channel.wait(*cookie, TIMEOUT, Delta::ZERO), Ok(0));
        }
        assert_eq!(channel.pending(), 0);
        assert!(channel.submit(&Transfer::NOP).is_ok());
        Ok(())
    }

    #[test]
    fn a_fault_fails_the_waiters_of_a_halted_channel() -> Result {
        let (device, channel) = probe(1)?;
        device.inject_bus_error(Some((0, 1)));
        let cookies = [Transfer::NOP, Transfer::NOP, Transfer::NOP].map(|t| channel.submit(&t));
        assert_eq!(channel.wait(cookies[0]?, TIMEOUT, Delta::ZERO), Ok(0));
        assert_eq!(channel.wait(cookies[2]?, TIMEOUT, Delta::ZERO), Err(EIO));
        assert_eq!(channel.wait(cookies[1]?, TIMEOUT, Delta::ZERO), Err(EIO));
        assert_eq!(channel.pending(), 0);
        assert_eq!(channel.submit(&Transfer::NOP), Err(EIO));
        assert_eq!(channel.submit(&Transfer::copy(0, 0, 0)), Err(EINVAL));
        Ok(())
    }

    #[test]
    fn a_stopped_channel_times_out_and_its_transfer_stays_pending() -> Result {
        let (device, channel) = probe(0)?;
        run_channel_0(&device, false)?;
        let cookie = channel.submit(&Transfer::fill(SimDevice::data_address(4), 7, 4))?;
        let waited = channel.wait(cookie, Delta::from_millis(2), Delta::from_micros(100));
        assert_eq!((waited, channel.pending()), (Err(ETIMEDOUT), 1));
        run_channel_0(&device, true)?;
        assert_eq!(channel.wait(cookie, TIMEOUT, Delta::ZERO), Ok(4));
        assert_eq!(device.with_data(|data| data[4]), 7);
        Ok(())
    }

    // Host only: an allocation that fails, by the host's fault injection, submits nothing.
    #[cfg(not(kernel))]
    #[test]
    fn a_failed_allocation_submits_nothing() -> Result {
        use kernel_core::extras::fault;

        let (_device, channel) = probe(0)?;
        // The bookkeeping's room for RING_ENTRIES is there from the start: fill it.
        let mut cookies = KVec::new();
        while cookies.len() < RING_ENTRIES {
            cookies.push(channel.submit(&Transfer::NOP)?, GFP_KERNEL)?;
            while channel.in_flight() > 0 {
                channel.poll()?;
            }
        }
        fault::fail_nth(1);
        if fault::read_fail_nth() == 0 {
            // KERNEL_CORE_DETECTORS=off: nothing fails.
            return Ok(());
        }
        assert_eq!(channel.submit(&Transfer::NOP), Err(ENOMEM));
        assert_eq!((channel.in_flight(), channel.pending()), (0, RING_ENTRIES));
        // Nothing reached the device: the next transfer takes the next index.
        let next = channel.submit(&Transfer::NOP)?;
        assert_eq!(next, Cookie(RING_ENTRIES as u16));
        Ok(())
    }

    /// Host only: the threads of the tests below.
    #[cfg(not(kernel))]
    mod threads {
        use super::*;
        use kernel_core::extras::scope;
        use std::thread::JoinHandle;
        use std::vec::Vec;

        /// Threads per channel.
        pub(super) const THREADS: usize = if cfg!(miri) { 2 } else { 4 };
        /// Transfers per thread.
        pub(super) const ROUNDS: usize = if cfg!(miri) { 4 } else { 2_000 };
        /// The bytes of the data memory each thread has to itself: its source, then its
        /// destination.
        pub(super) const SLICE: usize = DATA_SIZE / (2 * 4);

        /// Starts `work` on a thread of the test's scope (its allocations are the test's).
        pub(super) fn spawn(
            threads: &mut Vec<JoinHandle<Result>>,
            work: impl FnOnce() -> Result + Send + 'static,
        ) {
            threads.push(scope::spawn(work));
        }

        /// Waits for every thread: the first error, or the first thread's panic again.
        pub(super) fn join(threads: Vec<JoinHandle<Result>>) -> Result {
            let mut result = Ok(());
            for thread in threads {
                match thread.join() {
                    Ok(done) => result = result.and(done),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            result
        }

        /// Submits `transfer` on `channel`, reading the device while the ring is full.
        fn submit<C: Channel>(channel: &DmaChannel<C>, transfer: &Transfer) -> Result<Cookie> {
            loop {
                match channel.submit(transfer) {
                    Err(e) if e == EBUSY => {
                        channel.poll()?;
                        std::thread::yield_now();
                    }
                    submitted => return submitted,
                }
            }
        }

        /// Thread `slot`'s work on `channel`: [`ROUNDS`] times, a copy of its source into its
        /// destination and a fill of part of it, submitted together and waited for in the
        /// other order, each checked against the data memory.
        pub(super) fn copy_and_fill<C: Channel>(channel: &DmaChannel<C>, slot: usize) -> Result {
            let (src, dst) = (2 * slot * SLICE, (2 * slot + 1) * SLICE);
            let device = channel.device();
            for round in 0..ROUNDS {
                let seed = (slot * 37 + round) as u8;
                let len = 4 * (1 + round % (SLICE / 4));
                device.with_data(|data| {
                    for (byte, i) in data[src..src + SLICE].iter_mut().zip(0_u8..) {
                        *byte = seed.wrapping_add(i);
                    }
                });
                let copy = Transfer::copy(
                    SimDevice::data_address(src),
                    SimDevice::data_address(dst),
                    len as u32,
                );
                let pattern = u32::from_le_bytes([seed, 0xa5, seed, 0x5a]);
                let fill = Transfer::fill(SimDevice::data_address(dst), pattern, 4);
                let copied = submit(channel, &copy)?;
                let filled = submit(channel, &fill)?;
                assert_eq!(channel.wait(filled, TIMEOUT, Delta::ZERO), Ok(4));
                assert_eq!(channel.wait(copied, TIMEOUT, Delta::ZERO), Ok(len as u32));
                device.with_data(|data| {
                    assert_eq!(data[dst..dst + 4], pattern.to_le_bytes());
                    assert_eq!(data[dst + 4..dst + len], data[src + 4..src + len]);
                });
            }
            Ok(())
        }
    }

    // Host only: threads share a channel, each waiting for its own transfers while any of them
    // reaps the others'.
    #[cfg(not(kernel))]
    #[test]
    fn threads_share_a_channel() -> Result {
        let (device, channel) = probe(1)?;
        let mut threads = std::vec::Vec::new();
        for slot in 0..threads::THREADS {
            let channel = channel.clone();
            threads::spawn(&mut threads, move || threads::copy_and_fill(&channel, slot));
        }
        threads::join(threads)?;
        assert_eq!((channel.in_flight(), channel.pending()), (0, 0));
        // Two descriptors a round, of two cycles each.
        assert!(device.cycles() as usize >= 4 * threads::THREADS * threads::ROUNDS);
        Ok(())
    }

    // Host only: both channels at once, on threads of their own, through one device.
    #[cfg(not(kernel))]
    #[test]
    fn threads_on_two_channels_share_the_device() -> Result {
        let (device, zero) = probe(0)?;
        let one = DmaChannel::<Channel1>::new(device.clone())?;
        let mut threads = std::vec::Vec::new();
        for slot in 0..threads::THREADS {
            if slot % 2 == 0 {
                let zero = zero.clone();
                threads::spawn(&mut threads, move || threads::copy_and_fill(&zero, slot));
            } else {
                let one = one.clone();
                threads::spawn(&mut threads, move || threads::copy_and_fill(&one, slot));
            }
        }
        // The device is also read from here meanwhile: its cycles only go on.
        let mut last = device.cycles();
        for _ in 0..threads::ROUNDS {
            let now = device.cycles();
            assert!(now >= last);
            last = now;
        }
        threads::join(threads)?;
        assert_eq!((zero.pending(), one.pending()), (0, 0));
        Ok(())
    }
}
