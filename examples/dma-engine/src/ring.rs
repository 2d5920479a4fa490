// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The descriptor ring: the descriptors' format in memory and the ring's index arithmetic.
//!
//! A channel's ring is `N` descriptors of [`DESC_SIZE`] bytes in memory the device reads and
//! writes (coherent DMA memory in a driver), `N` a power of two, so a slot is an index masked.
//! Indices are free-running 16-bit counters, the width of the device's own (the doorbell's
//! `tail`, the status's `completed`): they wrap at 65536, and since a ring holds at most
//! [`MAX_ENTRIES`], half of that, the distance between two indices tells which is ahead across
//! the wrap too ([`seq_done`]).
//!
//! Why the checks are where they are: the descriptor's size and the ring's limits are facts of
//! the hardware, checked when this file is compiled (`static_assert!`); a ring size is checked
//! for each `Ring<N>` a driver instantiates (`const_assert!`); word offsets are proven at
//! build time at every call (`build_assert!`). Descriptors are little-endian in memory, as the
//! device reads them, whatever the CPU.

use crate::regs::Fault;
use kernel_core::error::code::EINVAL;
use kernel_core::error::{Error, Result};
use kernel_core::io::{Io, IoCapable, Region};
use kernel_core::num::Bounded;
use kernel_core::prelude::*;
use kernel_core::ptr::{const_align_up, Alignment};
use kernel_core::sizes::{SizeConstants, SZ_4K};

/// The size of a descriptor in bytes.
pub const DESC_SIZE: usize = 32;
/// The 32-bit words of a descriptor.
pub const DESC_WORDS: usize = DESC_SIZE / 4;
/// The alignment of a ring's bus address: the base registers ignore the low bits.
pub const RING_ALIGN: Alignment = Alignment::new::<256>();
/// The largest `log2` of a ring's size.
pub const MAX_ORDER: u32 = 15;
/// The most descriptors a ring holds: half the 16-bit index space.
pub const MAX_ENTRIES: usize = 1 << MAX_ORDER;
/// The longest transfer of one descriptor, in bytes.
pub const MAX_LEN: u32 = u32::SZ_16M;
/// The word the device writes its status back into.
pub const STATUS_WORD: usize = 6;
/// The word the device writes the count of bytes it moved into.
pub const DONE_WORD: usize = 7;

static_assert!(
    DESC_SIZE == core::mem::size_of::<[u32; DESC_WORDS]>() && DESC_SIZE.is_power_of_two(),
    "a descriptor is a power of two of 32-bit words"
);
static_assert!(
    RING_ALIGN.as_usize() % DESC_SIZE == 0,
    "a ring starts on a descriptor boundary"
);
static_assert!(
    MAX_ENTRIES * 2 == 1 << u16::BITS,
    "free-running 16-bit indices tell ahead from behind over half their range"
);

/// What a descriptor asks of the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opcode {
    /// Nothing: the descriptor only completes.
    Nop,
    /// Copy `len` bytes from `src` to `dst`.
    Copy,
    /// Fill `len` bytes at `dst` with the 32-bit pattern in `src`, little-endian.
    Fill,
}

impl From<Opcode> for Bounded<u32, 4> {
    fn from(op: Opcode) -> Self {
        match op {
            Opcode::Nop => Bounded::<u32, 4>::new::<0>(),
            Opcode::Copy => Bounded::<u32, 4>::new::<1>(),
            Opcode::Fill => Bounded::<u32, 4>::new::<2>(),
        }
    }
}

impl TryFrom<Bounded<u32, 4>> for Opcode {
    type Error = Error;

    fn try_from(raw: Bounded<u32, 4>) -> Result<Self> {
        match raw.get() {
            0 => Ok(Opcode::Nop),
            1 => Ok(Opcode::Copy),
            2 => Ok(Opcode::Fill),
            _ => Err(EINVAL),
        }
    }
}

pub use words::*;

/// The descriptor's words, in a module of their own for one reason: Linux 7.3's `bitfield!`
/// gives each field public `FIELD_RANGE`, `FIELD_MASK` and `FIELD_SHIFT` constants without
/// documentation, which the kernel's `-Wmissing_docs` reports after switching back to `kernel::`.
#[allow(missing_docs)]
mod words {
    use super::{Fault, Opcode};
    use kernel_core::bitfield;

    bitfield! {
        /// Word 0 of a descriptor: what to do, and who owns it.
        pub struct DescCtl(u32) {
            /// The device owns the descriptor: set by the driver, cleared by the device when done.
            0:0 valid => bool;
            /// What to do.
            7:4 opcode ?=> Opcode;
            /// The descriptor's free-running index.
            31:16 seq;
        }
    }

    bitfield! {
        /// Word 6 of a descriptor, written back by the device.
        pub struct DescStatus(u32) {
            /// The device processed the descriptor.
            0:0 done => bool;
            /// What went wrong, if anything.
            7:4 fault ?=> Fault;
            /// The free-running index of the descriptor processed.
            31:16 seq;
        }
    }
}

/// A descriptor, as the driver sees it. In memory: [`DESC_WORDS`] little-endian words, `ctl`,
/// `len`, `src` (low, high), `dst` (low, high), the status and the count of bytes moved, which
/// the device writes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Descriptor {
    /// What to do.
    pub ctl: DescCtl,
    /// How many bytes.
    pub len: u32,
    /// The source's bus address (a copy), or the pattern (a fill).
    pub src: u64,
    /// The destination's bus address.
    pub dst: u64,
}

impl Descriptor {
    /// The descriptor's words in the CPU's order, with an empty write-back.
    pub const fn to_words(&self) -> [u32; DESC_WORDS] {
        let (src, dst) = (self.src, self.dst);
        [
            self.ctl.into_raw(),
            self.len,
            src as u32,
            (src >> 32) as u32,
            dst as u32,
            (dst >> 32) as u32,
            0,
            0,
        ]
    }
}

/// The byte offset of word `index` in a descriptor. Every caller passes a constant, so the
/// check costs nothing and a wrong index fails the build.
#[inline(always)]
pub fn word_offset(index: usize) -> usize {
    build_assert!(index < DESC_WORDS, "a descriptor has 8 words");
    index * 4
}

/// The byte range of the descriptor in `slot` of the ring `io` views, or `EINVAL`.
fn slot_offset<'a, IO, const SIZE: usize>(io: IO, slot: usize) -> Result<usize>
where
    IO: Io<'a, Target = Region<SIZE>>,
{
    match slot.checked_mul(DESC_SIZE) {
        Some(start) if start < io.size() && io.size() - start >= DESC_SIZE => Ok(start),
        _ => Err(EINVAL),
    }
}

/// Writes `desc` into `slot` of the ring `io` views, little-endian, word 0 (with `valid`) last:
/// the device may take a descriptor as soon as it sees `valid`. (On real hardware a driver puts
/// the kernel's `dma_wmb()` before that write.) `EINVAL`, with nothing written, if the slot is
/// outside the view.
pub fn write_descriptor<'a, IO, const SIZE: usize>(io: IO, slot: usize, desc: &Descriptor) -> Result
where
    IO: Io<'a, Target = Region<SIZE>>,
    IO::Backend: IoCapable<u32>,
{
    let start = slot_offset(io, slot)?;
    let words = desc.to_words();
    for index in (1..DESC_WORDS).rev() {
        io.try_write32(words[index].to_le(), start + index * 4)?;
    }
    io.try_write32(words[0].to_le(), start)
}

/// What the device wrote back into the descriptor in `slot`: its status and the count of bytes
/// it moved.
pub fn read_writeback<'a, IO, const SIZE: usize>(io: IO, slot: usize) -> Result<(DescStatus, u32)>
where
    IO: Io<'a, Target = Region<SIZE>>,
    IO::Backend: IoCapable<u32>,
{
    let start = slot_offset(io, slot)?;
    let status = io.try_read32(start + word_offset(STATUS_WORD))?;
    let done = io.try_read32(start + word_offset(DONE_WORD))?;
    Ok((
        DescStatus::from_raw(u32::from_le(status)),
        u32::from_le(done),
    ))
}

/// The bytes the allocation of a ring of `entries` takes: whole pages. `None` on overflow.
pub const fn ring_footprint(entries: usize) -> Option<usize> {
    match entries.checked_mul(DESC_SIZE) {
        Some(bytes) => const_align_up(bytes, Alignment::new::<SZ_4K>()),
        None => None,
    }
}

/// Whether the descriptor of free-running index `seq` is among the first `completed`: whether
/// `completed` is ahead of it, modulo 2^16.
pub const fn seq_done(completed: u16, seq: u16) -> bool {
    completed.wrapping_sub(seq).wrapping_sub(1) < 0x8000
}

/// A ring's indices, both free-running: `head`, the next descriptor to write, and `tail`, the
/// oldest one not reaped yet. Its `N` slots hold the descriptors from `tail` to `head`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ring<const N: usize> {
    head: u16,
    tail: u16,
}

impl<const N: usize> Ring<N> {
    /// `log2(N)`, the channel's `ring_order`.
    pub const ORDER: u32 = N.trailing_zeros();
    /// The bytes of the ring's descriptors.
    pub const BYTES: usize = N * DESC_SIZE;

    /// An empty ring whose first descriptor gets index `seq`.
    pub fn starting_at(seq: u16) -> Self {
        const_assert!(
            N.is_power_of_two() && N >= 2 && N <= MAX_ENTRIES,
            "a ring has a power of two of descriptors, from 2 to MAX_ENTRIES"
        );
        Self {
            head: seq,
            tail: seq,
        }
    }

    /// The slot of the descriptor of index `seq`.
    pub const fn slot(seq: u16) -> usize {
        seq as usize & (N - 1)
    }

    /// The index the next descriptor gets: the tail to tell the device.
    pub fn head(&self) -> u16 {
        self.head
    }

    /// How many descriptors are in the ring.
    pub fn len(&self) -> usize {
        usize::from(self.head.wrapping_sub(self.tail))
    }

    /// Whether the ring holds no descriptor.
    pub fn is_empty(&self) -> bool {
        self.head == self.tail
    }

    /// Takes the slot at the head: the new descriptor's index, or `None` if the ring is full.
    pub fn push(&mut self) -> Option<u16> {
        let seq = self.head;
        (self.len() < N).then(|| {
            self.head = seq.wrapping_add(1);
            seq
        })
    }

    /// The index of the oldest descriptor, if any.
    pub fn peek(&self) -> Option<u16> {
        (!self.is_empty()).then_some(self.tail)
    }

    /// Frees the slot at the tail: the index of the descriptor it held, if any.
    pub fn pop(&mut self) -> Option<u16> {
        let seq = self.peek()?;
        self.tail = seq.wrapping_add(1);
        Some(seq)
    }
}

#[kunit_tests(dma_engine_ring)]
mod tests {
    use super::*;
    use kernel_core::extras::io::sys_mem;

    #[test]
    fn descriptors_are_little_endian_words_in_memory() {
        let mut memory = [0_u32; 2 * DESC_WORDS];
        let ctl = DescCtl::zeroed().with_valid(true).with_opcode(Opcode::Copy);
        let desc = Descriptor {
            ctl: ctl.with_seq(0xbeef_u16),
            len: 0x0012_3456,
            src: 0x0000_0010_8000_0040,
            dst: 0x0000_0020_0000_0100,
        };
        let written = sys_mem::<{ 2 * DESC_SIZE }, _>(&mut memory).and_then(|io| {
            assert_eq!(write_descriptor(io, 2, &desc), Err(EINVAL));
            assert_eq!(read_writeback(io, usize::MAX).err(), Some(EINVAL));
            write_descriptor(io, 1, &desc)
        });
        assert_eq!(written, Ok(()));
        // Slot 0 is untouched; slot 1 holds little-endian words, whatever the CPU.
        let bytes = memory
            .iter()
            .flat_map(|w| w.to_ne_bytes())
            .skip(DESC_SIZE - 4);
        let expected = [
            0, 0, 0, 0, 0x11, 0, 0xef, 0xbe, 0x56, 0x34, 0x12, 0, 0x40, 0, 0, 0x80,
        ];
        assert!(bytes.take(16).eq(expected));
        assert_eq!(u32::from_le(memory[DESC_WORDS + 5]), 0x20);

        memory[DESC_WORDS + STATUS_WORD] = 0x0007_0031_u32.to_le();
        memory[DESC_WORDS + DONE_WORD] = 4096_u32.to_le();
        let back =
            sys_mem::<{ 2 * DESC_SIZE }, _>(&mut memory).and_then(|io| read_writeback(io, 1));
        assert!(back.is_ok_and(|(status, n)| status.done() && status.seq() == 7 && n == 4096));
        assert_eq!(
            back.map(|(status, _)| status.fault()),
            Ok(Ok(Fault::Alignment))
        );
        assert_eq!(DescCtl::from_raw(0x30).opcode(), Err(EINVAL));
    }

    #[test]
    fn sizes_and_footprints() {
        assert_eq!((Ring::<8>::ORDER, Ring::<8>::BYTES), (3, 256));
        assert_eq!(Ring::<MAX_ENTRIES>::ORDER, MAX_ORDER);
        assert_eq!((word_offset(STATUS_WORD), word_offset(DONE_WORD)), (24, 28));
        assert_eq!(
            [8, 129, MAX_ENTRIES].map(ring_footprint),
            [Some(4096), Some(8192), Some(1 << 20)]
        );
        assert_eq!(ring_footprint(usize::MAX / 16), None);
    }

    #[test]
    fn a_ring_fills_empties_and_wraps() {
        let mut ring = Ring::<4>::starting_at(0xfffe);
        let pushed = [
            ring.push(),
            ring.push(),
            ring.push(),
            ring.push(),
            ring.push(),
        ];
        assert_eq!(pushed, [Some(0xfffe), Some(0xffff), Some(0), Some(1), None]);
        assert_eq!((ring.len(), ring.head()), (4, 2));
        assert_eq!(
            [0xfffe, 0xffff, 0, 1, 2].map(Ring::<4>::slot),
            [2, 3, 0, 1, 2]
        );
        assert_eq!(
            (ring.pop(), ring.peek(), ring.push()),
            (Some(0xfffe), Some(0xffff), Some(2))
        );
        while ring.pop().is_some() {}
        assert!(ring.is_empty() && ring.head() == 3);
        assert!(seq_done(1, 0) && seq_done(0, 0xffff) && seq_done(0x8000, 0));
        assert!(!seq_done(0, 0) && !seq_done(0xfff0, 5) && !seq_done(0x8001, 0));
    }

    // Host only: every index at every distance in a ring, and three laps of the index space
    // at random: far too slow under QEMU's emulation. Under Miri, every 1021st index and a
    // thousand random steps.
    #[cfg(not(kernel))]
    #[test]
    fn every_index_and_distance() {
        let step = if cfg!(miri) { 1021 } else { 1 };
        for seq in (0..=u16::MAX).step_by(step) {
            for distance in 0..=64_u16 {
                let completed = seq.wrapping_add(distance);
                assert_eq!(seq_done(completed, seq), distance > 0);
                assert!(!seq_done(seq, completed));
            }
            assert_eq!(Ring::<64>::slot(seq), usize::from(seq) % 64);
        }
    }

    #[cfg(not(kernel))]
    #[test]
    fn three_random_laps_of_the_index_space() {
        let mut ring = Ring::<32>::starting_at(0);
        let (mut pushed, mut popped, mut state) = (0_u32, 0_u32, 0x1234_5678_u32);
        let laps = if cfg!(miri) { 1_000 } else { 3 << 16 };
        while pushed < laps {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let full = ring.len() == 32;
            if state % 3 != 0 {
                assert_eq!(
                    ring.push().map(u32::from),
                    (!full).then_some(pushed % 65536)
                );
                pushed += u32::from(!full);
            } else if let Some(seq) = ring.pop() {
                assert_eq!(u32::from(seq), popped % 65536);
                popped += 1;
            }
            assert_eq!(ring.len() as u32, pushed - popped);
        }
    }
}
