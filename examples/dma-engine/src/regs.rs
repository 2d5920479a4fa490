// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The engine's registers, declared once with `io::register!`, programmed through any `Io`.
//!
//! The window holds [`ID`](struct@ID), [`CTRL`](struct@CTRL) and [`STATUS`](struct@STATUS), a [`DOORBELL`] per channel (8 bytes
//! apart) and a block of registers per channel from [`CHANNEL_BLOCK`] on, [`CHANNEL_STRIDE`]
//! bytes apart: [`CH_CTL`], [`CH_STATUS`], the ring's bus address [`CH_RING_BASE`] (low, then
//! high word) and [`CH_ERR_INDEX`].
//!
//! Why this way: each register is a type that knows its place and its fields, so a value that
//! does not fit a field does not build, and a channel is a type too ([`Channel`]), which places
//! its block and picks its doorbell at build time. The functions take any [`Io`] over the
//! window: the device's `Mmio` mapping in a driver, memory in a test ([`crate::device`]). All
//! registers are 32 bits, accessed in the CPU's order by the `Io`, whatever its endianness.

use crate::ring::{MAX_ORDER, RING_ALIGN};
use kernel_core::error::code::{EFAULT, EINVAL, EIO, ENODEV};
use kernel_core::error::{Error, Result};
use kernel_core::io::register::{Array, RegisterBase, WithBase};
use kernel_core::io::{Io, IoCapable, Region};
use kernel_core::num::Bounded;
use kernel_core::prelude::*;
use kernel_core::ptr::Alignable;

/// The size of the register window in bytes.
pub const REGS_SIZE: usize = 0x100;
/// The register window, as an `Io` sees it.
pub type Regs = Region<REGS_SIZE>;
/// [`ID`](struct@ID)'s magic number.
pub const MAGIC: u32 = 0xd3a5;
/// The number of channels the register map has room for.
pub const CHANNELS: usize = 4;
/// Where channel 0's block of registers starts.
pub const CHANNEL_BLOCK: usize = 0x40;
/// The distance between two channels' blocks.
pub const CHANNEL_STRIDE: usize = 0x20;

static_assert!(
    CHANNEL_BLOCK + CHANNELS * CHANNEL_STRIDE <= REGS_SIZE,
    "every channel's block lies in the window"
);

/// Why a channel halted: [`CH_STATUS`]'s `fault` field, in the order of its codes from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// It did not.
    None,
    /// A descriptor the device does not own, or with an unknown operation, index or length.
    Descriptor,
    /// An address outside the memory the device reaches.
    Address,
    /// A fill whose destination or length is not a multiple of 4.
    Alignment,
    /// The bus failed.
    Bus,
}

impl Fault {
    /// The error a driver reports for the fault; `None` for [`Fault::None`].
    pub fn to_error(self) -> Option<Error> {
        match self {
            Fault::None => None,
            Fault::Descriptor | Fault::Alignment => Some(EINVAL),
            Fault::Address => Some(EFAULT),
            Fault::Bus => Some(EIO),
        }
    }
}

impl From<Fault> for Bounded<u32, 4> {
    fn from(fault: Fault) -> Self {
        match fault {
            Fault::None => Bounded::<u32, 4>::new::<0>(),
            Fault::Descriptor => Bounded::<u32, 4>::new::<1>(),
            Fault::Address => Bounded::<u32, 4>::new::<2>(),
            Fault::Alignment => Bounded::<u32, 4>::new::<3>(),
            Fault::Bus => Bounded::<u32, 4>::new::<4>(),
        }
    }
}

impl TryFrom<Bounded<u32, 4>> for Fault {
    type Error = Error;

    fn try_from(raw: Bounded<u32, 4>) -> Result<Self> {
        match raw.get() {
            0 => Ok(Fault::None),
            1 => Ok(Fault::Descriptor),
            2 => Ok(Fault::Address),
            3 => Ok(Fault::Alignment),
            4 => Ok(Fault::Bus),
            // A code this driver does not know: the device failed all the same.
            _ => Err(EIO),
        }
    }
}

/// The family of the channels' register blocks.
pub struct ChannelBase;

/// A channel, as a type: it places the channel's registers and picks its doorbell, so that code
/// for one channel cannot touch another's registers by mistake.
pub trait Channel: RegisterBase<ChannelBase> {
    /// The channel's number, the index of its doorbell.
    const INDEX: usize;
}

/// Channel 0.
pub struct Channel0;
impl RegisterBase<ChannelBase> for Channel0 {
    const BASE: usize = CHANNEL_BLOCK;
}
impl Channel for Channel0 {
    const INDEX: usize = 0;
}

/// Channel 1.
pub struct Channel1;
impl RegisterBase<ChannelBase> for Channel1 {
    const BASE: usize = CHANNEL_BLOCK + CHANNEL_STRIDE;
}
impl Channel for Channel1 {
    const INDEX: usize = 1;
}

/// Channel 3, the last.
pub struct Channel3;
impl RegisterBase<ChannelBase> for Channel3 {
    const BASE: usize = CHANNEL_BLOCK + 3 * CHANNEL_STRIDE;
}
impl Channel for Channel3 {
    const INDEX: usize = 3;
}

pub use registers::*;

/// The registers, in a module of their own for one reason: Linux 7.3's `bitfield!` gives each
/// field public `FIELD_RANGE`, `FIELD_MASK` and `FIELD_SHIFT` constants without documentation,
/// which the kernel's `-Wmissing_docs` reports for public registers after switching back to
/// `kernel::` (kernel-core's own macro documents them).
#[allow(missing_docs)]
mod registers {
    use super::{ChannelBase, Fault, CHANNELS};
    use kernel_core::io::register;

    register! {
        /// Identification: [`MAGIC`](super::MAGIC), the version, the number of channels.
        pub ID(u32) @ 0x00 {
            31:16 magic;
            15:12 major;
            11:8 minor;
            3:0 channels;
        }
        /// Global control. The device clears `reset` when the reset is done; `burst` is the log2 of
        /// the bus's burst size over 16 bytes.
        pub CTRL(u32) @ 0x04 {
            0:0 enable => bool;
            1:1 reset => bool;
            6:4 burst;
        }
        /// Global status, written by the device: a channel is busy; none is and a descriptor
        /// completed since the reset; a channel halted; and which, a bit per channel.
        pub STATUS(u32) @ 0x08 {
            0:0 busy => bool;
            1:1 done => bool;
            2:2 error => bool;
            11:8 error_mask;
            19:16 busy_mask;
        }
        /// The doorbells: writing one gives its channel the free-running index one past the last
        /// descriptor written.
        pub DOORBELL(u32)[CHANNELS, stride = 8] @ 0x20 {
            15:0 tail;
        }
        /// A channel's control: it processes descriptors, from a ring of `1 << ring_order`.
        pub CH_CTL(u32) @ ChannelBase + 0x00 {
            0:0 run => bool;
            11:8 ring_order;
        }
        /// A channel's status, written by the device: it has descriptors to process; it halted on a
        /// fault, until the next reset, and why; the free-running count of descriptors completed.
        pub CH_STATUS(u32) @ ChannelBase + 0x04 {
            0:0 active => bool;
            1:1 halted => bool;
            7:4 fault ?=> Fault;
            31:16 completed;
        }
        /// The bus address of a channel's ring: the low word, then the high word.
        pub CH_RING_BASE(u32)[2] @ ChannelBase + 0x08 {
            31:0 value;
        }
        /// The high word of [`CH_RING_BASE`].
        pub CH_RING_BASE_HI(u32) => ChannelBase + CH_RING_BASE[1] {
            31:0 value;
        }
        /// The free-running index of the descriptor a channel halted on.
        pub CH_ERR_INDEX(u32) @ ChannelBase + 0x10 {
            15:0 index;
        }
    }
}

/// What [`identify`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    /// The version, major and minor.
    pub version: (u8, u8),
    /// The number of channels.
    pub channels: usize,
}

/// Reads [`ID`](struct@ID): `ENODEV` if the window is not this engine's, `EINVAL` if it says it has no
/// channel or more than the register map has room for.
pub fn identify<'a, IO>(io: IO) -> Result<Identity>
where
    IO: Io<'a, Target = Regs>,
    IO::Backend: IoCapable<u32>,
{
    let id = io.read(ID);
    let channels = usize::from(id.channels());
    if id.magic() != MAGIC {
        Err(ENODEV)
    } else if channels == 0 || channels > CHANNELS {
        Err(EINVAL)
    } else {
        let version = (u8::from(id.major()), u8::from(id.minor()));
        Ok(Identity { version, channels })
    }
}

/// Asks the device to reset, or says whether the reset is still going on.
pub fn reset<'a, IO>(io: IO, ask: bool) -> bool
where
    IO: Io<'a, Target = Regs>,
    IO::Backend: IoCapable<u32>,
{
    if ask {
        io.write_reg(CTRL::zeroed().with_reset(true));
    }
    io.read(CTRL).reset()
}

/// Enables (or disables) the engine, with the largest burst the device has, 256 bytes.
pub fn enable<'a, IO>(io: IO, on: bool)
where
    IO: Io<'a, Target = Regs>,
    IO::Backend: IoCapable<u32>,
{
    io.write_reg(CTRL::zeroed().with_enable(on).with_const_burst::<4>());
}

/// Points channel `C` at a ring of `1 << order` descriptors at bus address `base`, and runs it.
/// `EINVAL`, with nothing written, if `base` is not aligned to [`RING_ALIGN`] or `order` is not
/// between 1 and [`MAX_ORDER`].
pub fn program_channel<'a, C, IO>(io: IO, base: u64, order: u32) -> Result
where
    C: Channel,
    IO: Io<'a, Target = Regs>,
    IO::Backend: IoCapable<u32>,
{
    if base.align_down(RING_ALIGN) != base || order == 0 || order > MAX_ORDER {
        return Err(EINVAL);
    }
    let ctl = CH_CTL::zeroed().try_with_ring_order(order)?.with_run(true);
    // The low word through the array, the high word through its alias.
    io.write(
        CH_RING_BASE::of::<C>().at(0),
        CH_RING_BASE::from(base as u32),
    );
    io.write(
        CH_RING_BASE_HI::of::<C>(),
        CH_RING_BASE_HI::from((base >> 32) as u32),
    );
    io.write(CH_CTL::of::<C>(), ctl);
    Ok(())
}

/// Starts or stops channel `C`, which keeps its ring and its count of completed descriptors.
pub fn run_channel<'a, C, IO>(io: IO, run: bool)
where
    C: Channel,
    IO: Io<'a, Target = Regs>,
    IO::Backend: IoCapable<u32>,
{
    io.update(CH_CTL::of::<C>(), |ctl| ctl.with_run(run));
}

/// Rings channel `C`'s doorbell: the descriptors before the free-running index `tail` are ready.
pub fn ring_doorbell<'a, C, IO>(io: IO, tail: u16)
where
    C: Channel,
    IO: Io<'a, Target = Regs>,
    IO::Backend: IoCapable<u32>,
{
    // `C::INDEX` is a constant: the index is checked at build time.
    io.write(DOORBELL::at(C::INDEX), DOORBELL::zeroed().with_tail(tail));
}

/// Channel `C`'s status register.
pub fn channel_status<'a, C, IO>(io: IO) -> CH_STATUS
where
    C: Channel,
    IO: Io<'a, Target = Regs>,
    IO::Backend: IoCapable<u32>,
{
    io.read(CH_STATUS::of::<C>())
}

#[kunit_tests(dma_engine_regs)]
mod tests {
    use super::*;
    use kernel_core::extras::io::sys_mem;

    #[test]
    fn registers_sit_where_the_datasheet_says() {
        let mut words = [0_u32; REGS_SIZE / 4];
        let base = 0x0000_0012_3456_7800_u64;
        let mut results = [Ok(()); 3];
        if let Ok(io) = sys_mem::<REGS_SIZE, _>(&mut words) {
            results = [
                program_channel::<Channel3, _>(io, base + 0x80, 3),
                program_channel::<Channel3, _>(io, base, MAX_ORDER + 1),
                program_channel::<Channel3, _>(io, base, 3),
            ];
            ring_doorbell::<Channel3, _>(io, 0xfffe);
            io.write(CH_ERR_INDEX::of::<Channel3>(), CH_ERR_INDEX::from(0x3e));
            io.write_reg(STATUS::zeroed().with_const_busy_mask::<0xf>());
            enable(io, true);
        }
        assert_eq!(results, [Err(EINVAL), Err(EINVAL), Ok(())]);
        assert_eq!(
            words[0xa0 / 4..0xb4 / 4],
            [0x301, 0, 0x3456_7800, 0x12, 0x3e]
        );
        assert_eq!(
            (words[0x38 / 4], words[0x08 / 4], words[0x04 / 4]),
            (0xfffe, 0xf_0000, 0x41)
        );
        assert_eq!(words.iter().filter(|&&w| w != 0).count(), 7);
        if let Ok(io) = sys_mem::<REGS_SIZE, _>(&mut words) {
            assert!(!reset(io, false) && reset(io, true));
            run_channel::<Channel3, _>(io, false);
        }
        assert_eq!((words[1], words[0xa0 / 4]), (0x2, 0x300));
    }

    #[test]
    fn identify_checks_the_magic_and_the_channels() {
        let mut words = [0_u32; REGS_SIZE / 4];
        let mut found = [Err(EINVAL); 3];
        for (id, found) in [0xd3a5_1204, 0xd3a6_1204, 0xd3a5_1205]
            .iter()
            .zip(&mut found)
        {
            words[0] = *id;
            *found = sys_mem::<REGS_SIZE, _>(&mut words).and_then(identify);
        }
        let expected = Identity {
            version: (1, 2),
            channels: 4,
        };
        assert_eq!(found, [Ok(expected), Err(ENODEV), Err(EINVAL)]);
    }

    #[test]
    fn status_fields_and_faults() {
        let status = CH_STATUS::from(0x0007_0022);
        assert!(status.halted() && !status.active());
        assert_eq!(
            (status.fault(), status.completed().get()),
            (Ok(Fault::Address), 7)
        );
        assert_eq!(CH_STATUS::from(0xf0).fault(), Err(EIO));
        assert_eq!(Fault::Address.to_error(), Some(EFAULT));
        assert_eq!(Fault::None.to_error(), None);
    }

    // Host only: a million values, too slow under QEMU's emulation (and under Miri, which takes
    // every 4099th).
    #[cfg(not(kernel))]
    #[test]
    fn every_channel_status_decodes_as_its_bits_say() {
        let step = if cfg!(miri) { 4099 } else { 1 };
        for raw in (0..1_u32 << 20).step_by(step) {
            let value = (raw & 0xff) | ((raw >> 8) << 20);
            let status = CH_STATUS::from(value);
            assert_eq!(
                (status.active(), status.halted()),
                (value & 1 != 0, value & 2 != 0)
            );
            assert_eq!(status.completed(), value >> 16);
            match status.fault() {
                Ok(fault) => assert_eq!(Bounded::<u32, 4>::from(fault), (value >> 4) & 0xf),
                Err(e) => assert_eq!((e, (value >> 4) & 0xf > 4), (EIO, true)),
            }
        }
    }

    // In the kernel: the faults are the kernel's own errors.
    #[cfg(kernel)]
    #[test]
    fn faults_are_the_kernels_errors() {
        let address = kernel::error::Error::from_errno(-14);
        assert_eq!(Fault::Address.to_error(), Some(address));
        assert_eq!(Fault::Bus.to_error().map(|e| e.to_errno()), Some(-5));
    }
}
