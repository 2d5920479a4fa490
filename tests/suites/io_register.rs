// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::io` and `io::register!` over `SysMem`, the memory-backed `Io` that a driver's
//! register tests use: every access width at the first and the last offset of a sized region,
//! the run-time checks one byte past them and at misaligned offsets (64-bit accesses on 64-bit
//! targets only, as in Linux 7.3), and every kind of register
//! (fixed, relative, array, strided array, relative array, and the four kinds of alias) through
//! `read`, `write`, `update`, `write_reg` and their `try_` forms.
//!
//! Every register access is checked against a plain `usize` access at an offset computed here
//! by hand, and the bytes of the backing memory are checked once the view is gone: `SysMem` is
//! ordinary memory, so a value lands there in the CPU's byte order, and the expectations follow
//! it (`to_ne_bytes`), on little-endian and big-endian (s390) machines alike. Build-time
//! checked accesses use constant offsets and indices only (in the kernel they must be proven by
//! the optimizer). Written against the mirrored paths and `extras::io::sys_mem` only, with the
//! assertion forms the kernel's own `#[kunit_tests]` accepts: the switch-back check runs it
//! against Linux 7.3's `kernel::io`.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_io_register)]
mod tests {
    use kernel_core::error::code::EINVAL;
    use kernel_core::extras::io::sys_mem;
    use kernel_core::io::register::{Array, RegisterBase, WithBase};
    use kernel_core::io::{register, Io, Region, SysMem};
    use kernel_core::num::Bounded;
    use kernel_core::prelude::Zeroable;

    /// The size of the test region in bytes.
    const SIZE: usize = 0x200;

    /// The backing memory: `u64`s, so that 64-bit accesses are aligned.
    type Backing = [u64; SIZE / 8];

    /// Runs `f` on a view of `backing` as a region of at least `SIZE` bytes.
    fn with_io(backing: &mut Backing, f: impl FnOnce(SysMem<'_, Region<SIZE>>)) {
        let io = sys_mem::<SIZE, u64>(backing);
        assert!(io.is_ok());
        if let Ok(io) = io {
            f(io);
        }
    }

    /// Byte `offset` of `backing`, as the memory holds it.
    fn byte(backing: &Backing, offset: usize) -> u8 {
        backing[offset / 8].to_ne_bytes()[offset % 8]
    }

    /// Whether the `N` bytes of `backing` at `offset` are `expected`.
    fn bytes_are<const N: usize>(backing: &Backing, offset: usize, expected: [u8; N]) -> bool {
        let mut index = 0;
        while index < N {
            if byte(backing, offset + index) != expected[index] {
                return false;
            }
            index += 1;
        }
        true
    }

    /// Whether the machine is big-endian (s390): `SysMem` is native memory there too.
    const BIG_ENDIAN: bool = cfg!(target_endian = "big");

    /// The family of bases of the engine registers, and two engines.
    struct EngineBase;
    struct Engine0;
    impl RegisterBase<EngineBase> for Engine0 {
        const BASE: usize = 0x100;
    }
    struct Engine1;
    impl RegisterBase<EngineBase> for Engine1 {
        const BASE: usize = 0x180;
    }

    register! {
        /// A byte register at the very start of the region.
        FIRST8(u8) @ 0x0 {
            7:7 top;
            0:0 bottom;
        }
        /// A byte register at the very end of the region.
        LAST8(u8) @ 0x1ff {
            7:0 all;
        }
        /// A 16-bit register at the last aligned offset.
        LAST16(u16) @ 0x1fe {
            15:8 high;
            7:0 low;
        }
        /// A 32-bit register at the last aligned offset.
        LAST32(u32) @ 0x1fc {
            31:31 top;
            30:1 inner;
            0:0 bottom;
        }
        /// A register past the end of the region, for the run-time checks.
        BEYOND(u32) @ 0x200 {
            31:0 all;
        }
        /// A misaligned 32-bit register, for the run-time checks.
        CROOKED(u32) @ 0x2 {
            31:0 all;
        }
        /// A control register.
        CTL(u32) @ 0x10 {
            /// Enable.
            0:0 enable => bool;
            /// Mode.
            5:4 mode;
            /// Divider.
            15:8 divider;
        }
        /// `CTL` seen as one number.
        CTL_RAW(u32) => CTL {
            31:0 value;
        }
        /// Scratch words, contiguous.
        SCRATCH(u32)[8] @ 0x20 {
            31:0 value;
        }
        /// Byte mailboxes, 4 bytes apart.
        MBOX(u8)[4, stride = 4] @ 0x40 {
            7:0 data;
        }
        /// The firmware's status, in `SCRATCH[7]`.
        FW_STATUS(u32) => SCRATCH[7] {
            7:0 code;
        }
        /// An engine's control register.
        ENGINE_CTL(u16) @ EngineBase + 0x2 {
            0:0 run => bool;
            15:8 priority;
        }
        /// `ENGINE_CTL` with another view of its bits.
        ENGINE_CTL_ALT(u16) => EngineBase + ENGINE_CTL {
            15:0 raw;
        }
        /// An engine's queue doorbells, 16 bytes apart.
        ENGINE_DOORBELL(u32)[4, stride = 16] @ EngineBase + 0x20 {
            31:0 tail;
        }
        /// An engine's contiguous counters.
        ENGINE_COUNTER(u16)[8] @ EngineBase + 0x60 {
            15:0 count;
        }
        /// The last doorbell of an engine.
        ENGINE_LAST_DOORBELL(u32) => EngineBase + ENGINE_DOORBELL[3] {
            31:0 tail;
        }
    }

    // 64-bit accesses exist on 64-bit targets only, as in Linux 7.3 (`CONFIG_64BIT`).
    #[cfg(target_pointer_width = "64")]
    register! {
        /// A 64-bit register: 64-bit accesses to a `Region` are checked at run time only.
        WIDE(u64) @ 0x1f0 {
            63:32 high;
            31:0 low;
        }
    }

    #[test]
    fn primitives_at_the_edges_of_the_region() {
        let mut backing: Backing = [0; SIZE / 8];
        with_io(&mut backing, |io| {
            assert_eq!(io.size(), SIZE);

            io.write8(0x11, 0);
            io.write8(0x22, SIZE - 1);
            io.write16(0x3344, 2);
            io.write16(0x5566, SIZE - 4);
            io.write32(0x7788_99aa, 4);
            io.write32(0xbbcc_ddee, SIZE - 8);
            assert_eq!(io.read8(0), 0x11);
            assert_eq!(io.read8(SIZE - 1), 0x22);
            assert_eq!(io.read16(2), 0x3344);
            assert_eq!(io.read16(SIZE - 4), 0x5566);
            assert_eq!(io.read32(4), 0x7788_99aa);
            assert_eq!(io.read32(SIZE - 8), 0xbbcc_ddee);

            // The generic forms, and the run-time checked ones at the same offsets.
            let first: u8 = io.read(0);
            let last: u32 = io.read(SIZE - 8);
            assert_eq!(u32::from(first), 0x11);
            assert_eq!(last, 0xbbcc_ddee);
            assert_eq!(io.try_read8(SIZE - 1), Ok(0x22));
            assert_eq!(io.try_read16(SIZE - 4), Ok(0x5566));
            assert_eq!(io.try_read32(SIZE - 8), Ok(0xbbcc_ddee));

            // 64-bit accesses at the first and the last aligned offsets.
            #[cfg(target_pointer_width = "64")]
            {
                assert!(io.try_write64(0x0102_0304_0506_0708, 8).is_ok());
                assert!(io.try_write64(u64::MAX, SIZE - 16).is_ok());
                assert_eq!(io.try_read64(8), Ok(0x0102_0304_0506_0708));
                assert_eq!(io.try_read64(SIZE - 16), Ok(u64::MAX));
            }
        });
        assert_eq!(byte(&backing, 0), 0x11);
        assert_eq!(byte(&backing, SIZE - 1), 0x22);
        #[cfg(target_pointer_width = "64")]
        {
            assert_eq!(backing[1], 0x0102_0304_0506_0708);
            assert_eq!(backing[SIZE / 8 - 2], u64::MAX);
        }
    }

    #[test]
    fn run_time_checks_reject_what_lies_outside_or_is_misaligned() {
        let mut backing: Backing = [0; SIZE / 8];
        with_io(&mut backing, |io| {
            // One byte past the end, for every width.
            assert_eq!(io.try_read8(SIZE), Err(EINVAL));
            assert_eq!(io.try_read16(SIZE - 1), Err(EINVAL));
            assert_eq!(io.try_read32(SIZE - 3), Err(EINVAL));
            #[cfg(target_pointer_width = "64")]
            assert_eq!(io.try_read64(SIZE - 7), Err(EINVAL));
            assert_eq!(io.try_write8(1, SIZE), Err(EINVAL));
            assert_eq!(io.try_write16(1, SIZE), Err(EINVAL));
            assert_eq!(io.try_write32(1, SIZE), Err(EINVAL));
            #[cfg(target_pointer_width = "64")]
            assert_eq!(io.try_write64(1, SIZE), Err(EINVAL));
            assert_eq!(io.try_read32(usize::MAX), Err(EINVAL));
            assert_eq!(io.try_read8(usize::MAX), Err(EINVAL));

            // Misaligned, inside the region.
            assert_eq!(io.try_read16(1), Err(EINVAL));
            assert_eq!(io.try_read32(2), Err(EINVAL));
            #[cfg(target_pointer_width = "64")]
            assert_eq!(io.try_read64(2), Err(EINVAL));
            assert_eq!(io.try_write32(1, 6), Err(EINVAL));
            assert_eq!(io.try_update(3, |v: u16| v + 1), Err(EINVAL));

            // Registers in the same places.
            assert!(io.try_read(BEYOND).is_err());
            assert!(io.try_read(CROOKED).is_err());
            assert!(io.try_write_reg(BEYOND::zeroed()).is_err());
            assert!(io.try_update(CROOKED, |r| r).is_err());
        });
        // Nothing was written.
        assert!(backing.iter().all(|&word| word == 0));
    }

    #[test]
    fn registers_of_every_width_at_the_edges() {
        let mut backing: Backing = [0; SIZE / 8];
        with_io(&mut backing, |io| {
            // Each narrower register at the end overlaps the wider one written before it.
            io.write_reg(FIRST8::zeroed().with_top(true).with_bottom(true));
            io.write_reg(LAST32::zeroed().with_top(true).with_bottom(true));
            io.write_reg(LAST16::zeroed().with_high(0xbe_u8).with_low(0xef_u8));
            io.write_reg(LAST8::zeroed().with_const_all::<0xa5>());
            #[cfg(target_pointer_width = "64")]
            assert!(io
                .try_write_reg(WIDE::zeroed().with_high(0xdead_beef_u32).with_low(1_u32))
                .is_ok());

            // Each narrower register at the end overlaps the wider one in memory: on a
            // little-endian machine `LAST8` is `LAST16`'s high byte and `LAST16` is `LAST32`'s
            // high half; on a big-endian one they are the low byte and the low half.
            let (last16, last32) = if BIG_ENDIAN {
                (0xbea5, 0x8000_bea5)
            } else {
                (0xa5ef, 0xa5ef_0001)
            };
            assert_eq!(io.read8(0x0), 0x81);
            assert_eq!(io.read8(0x1ff), 0xa5);
            assert_eq!(io.read16(0x1fe), last16);
            assert_eq!(io.read32(0x1fc), last32);
            #[cfg(target_pointer_width = "64")]
            assert_eq!(io.try_read64(0x1f0), Ok(0xdead_beef_0000_0001));

            let read32 = io.read(LAST32);
            assert!(read32.top().into_bool() == (last32 >> 31 == 1));
            assert!(read32.bottom().into_bool());
            assert_eq!(read32.inner().get(), (last32 >> 1) & 0x3fff_ffff);
            assert_eq!(read32.into_raw(), last32);
            assert_eq!(io.read(LAST16).low().get(), last16 & 0xff);
            assert_eq!(io.read(LAST16).high().get(), last16 >> 8);
            assert_eq!(io.read(FIRST8).into_raw(), 0x81);
            #[cfg(target_pointer_width = "64")]
            {
                assert_eq!(io.try_read(WIDE).map(|r| r.high().get()), Ok(0xdead_beef));
                assert!(io.try_update(WIDE, |r| r.with_const_low::<7>()).is_ok());
                assert_eq!(io.try_read64(0x1f0), Ok(0xdead_beef_0000_0007));
            }
        });
        // The memory, byte by byte, in the machine's order.
        assert_eq!(byte(&backing, 0), 0x81);
        if BIG_ENDIAN {
            assert!(bytes_are(&backing, 0x1fc, [0x80, 0x00, 0xbe, 0xa5]));
        } else {
            assert!(bytes_are(&backing, 0x1fc, [0x01, 0x00, 0xef, 0xa5]));
        }
        #[cfg(target_pointer_width = "64")]
        {
            if BIG_ENDIAN {
                assert!(bytes_are(&backing, 0x1f0, [0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 7]));
            } else {
                assert!(bytes_are(&backing, 0x1f0, [7, 0, 0, 0, 0xef, 0xbe, 0xad, 0xde]));
            }
            assert_eq!(backing[0x1f0 / 8], 0xdead_beef_0000_0007);
        }
    }

    #[test]
    fn fixed_register_locations_and_write_forms() {
        let mut backing: Backing = [0; SIZE / 8];
        with_io(&mut backing, |io| {
            let ctl = CTL::zeroed()
                .with_enable(true)
                .with_const_mode::<2>()
                .with_divider(Bounded::<u32, 8>::new::<0x40>());
            // The location constant, `()`, the value itself, and `write_reg`.
            io.write(CTL, ctl);
            assert_eq!(io.read32(0x10), 0x4021);
            io.write((), ctl.with_const_mode::<3>());
            assert_eq!(io.read32(0x10), 0x4031);
            io.write(ctl, ctl);
            assert_eq!(io.read32(0x10), 0x4021);
            io.write_reg(ctl.with_enable(false));
            assert_eq!(io.read32(0x10), 0x4020);
            assert!(io.try_write((), ctl).is_ok());
            assert!(io.try_write_reg(ctl).is_ok());
            assert_eq!(io.try_read(CTL), Ok(ctl));

            io.update(CTL, |r| r.with_const_divider::<0xff>());
            assert_eq!(io.read32(0x10), 0xff21);
            assert!(io.try_update(CTL, |r| r.with_enable(false)).is_ok());
            let read = io.read(CTL);
            assert!(!read.enable());
            assert_eq!(read.mode().get(), 2);
            assert_eq!(read.divider().get(), 0xff);

            // The alias reads and writes the same place.
            assert_eq!(io.read(CTL_RAW).value().get(), 0xff20);
            io.write_reg(CTL_RAW::from(0x1234_5601));
            assert!(io.read(CTL).enable());
            assert_eq!(io.read(CTL).divider().get(), 0x56);

            // Bits of no field keep their value through updates.
            io.update(CTL, |r| r.with_enable(false));
            assert_eq!(io.read32(0x10), 0x1234_5600);
        });
        assert_eq!(backing[0x10 / 8].to_ne_bytes()[..4], 0x1234_5600_u32.to_ne_bytes());
    }

    #[test]
    fn arrays_and_their_aliases() {
        let mut backing: Backing = [0; SIZE / 8];
        with_io(&mut backing, |io| {
            io.write(SCRATCH::at(0), SCRATCH::from(0x100));
            io.write(Array::at(7), SCRATCH::from(0x1ee7));
            assert_eq!(io.read32(0x20), 0x100);
            assert_eq!(io.read32(0x20 + 7 * 4), 0x1ee7);
            assert_eq!(io.read(SCRATCH::at(7)).value().get(), 0x1ee7);
            assert_eq!(io.read(FW_STATUS).code().get(), 0xe7);
            io.update(SCRATCH::at(0), |r| r.with_value(0x200_u32));
            assert_eq!(io.read32(0x20), 0x200);

            // Run-time indices.
            let mut index = 0;
            while index < 8 {
                let loc = SCRATCH::try_at(index);
                assert!(loc.is_some());
                if let Some(loc) = loc {
                    assert!(io.try_write(loc, SCRATCH::from(index as u32)).is_ok());
                }
                index += 1;
            }
            assert!(SCRATCH::try_at(8).is_none());
            assert!(SCRATCH::try_at(usize::MAX).is_none());
            assert_eq!(io.try_read32(0x20 + 5 * 4), Ok(5));
            assert_eq!(io.read(FW_STATUS).code().get(), 7);

            // Strided byte registers.
            io.write(MBOX::at(0), MBOX::from(0xa0));
            io.write(MBOX::at(3), MBOX::from(0xa3));
            assert_eq!(io.read8(0x40), 0xa0);
            assert_eq!(io.read8(0x40 + 3 * 4), 0xa3);
            assert_eq!(io.read8(0x41), 0);
            assert!(MBOX::try_at(4).is_none());
        });
        assert_eq!(byte(&backing, 0x40 + 3 * 4), 0xa3);
        // `SCRATCH[7]`, the `u32` 7: its low byte comes first on little-endian machines only.
        assert!(bytes_are(&backing, 0x20 + 7 * 4, 7_u32.to_ne_bytes()));
        assert_eq!(byte(&backing, 0x20 + 7 * 4 + if BIG_ENDIAN { 3 } else { 0 }), 7);
    }

    #[test]
    fn relative_registers_arrays_and_aliases() {
        let mut backing: Backing = [0; SIZE / 8];
        with_io(&mut backing, |io| {
            io.write(
                ENGINE_CTL::of::<Engine0>(),
                ENGINE_CTL::zeroed().with_run(true),
            );
            io.write(
                WithBase::of::<Engine1>(),
                ENGINE_CTL::zeroed().with_const_priority::<9>(),
            );
            assert_eq!(io.read16(0x102), 1);
            assert_eq!(io.read16(0x182), 0x900);
            assert!(io.read(ENGINE_CTL::of::<Engine0>()).run());
            assert_eq!(io.read(ENGINE_CTL_ALT::of::<Engine1>()).raw().get(), 0x900);
            io.update(ENGINE_CTL::of::<Engine1>(), |r| r.with_run(true));
            assert_eq!(io.read16(0x182), 0x901);
            assert!(io
                .try_update(ENGINE_CTL_ALT::of::<Engine0>(), |r| r
                    .with_raw(0xffff_u16))
                .is_ok());
            assert_eq!(io.read16(0x102), 0xffff);

            io.write(
                ENGINE_DOORBELL::of::<Engine0>().at(0),
                ENGINE_DOORBELL::from(10),
            );
            io.write(
                ENGINE_DOORBELL::of::<Engine1>().at(3),
                ENGINE_DOORBELL::from(13),
            );
            assert_eq!(io.read32(0x100 + 0x20), 10);
            assert_eq!(io.read32(0x180 + 0x20 + 3 * 16), 13);
            assert_eq!(
                io.read(ENGINE_LAST_DOORBELL::of::<Engine1>()).tail().get(),
                13
            );
            assert!(ENGINE_DOORBELL::of::<Engine0>().try_at(4).is_none());
            let loc = ENGINE_DOORBELL::of::<Engine0>().try_at(2);
            assert!(loc.is_some());
            if let Some(loc) = loc {
                assert!(io.try_write(loc, ENGINE_DOORBELL::from(12)).is_ok());
            }
            assert_eq!(io.read32(0x100 + 0x20 + 2 * 16), 12);

            io.write(
                ENGINE_COUNTER::of::<Engine1>().at(7),
                ENGINE_COUNTER::from(0x7777),
            );
            assert_eq!(io.read16(0x180 + 0x60 + 7 * 2), 0x7777);
            io.update(ENGINE_COUNTER::of::<Engine1>().at(7), |r| {
                r.with_count(0x8888_u16)
            });
            assert_eq!(
                io.read(ENGINE_COUNTER::of::<Engine1>().at(7)).count().get(),
                0x8888
            );
        });
        assert_eq!(byte(&backing, 0x180 + 0x60 + 7 * 2), 0x88);
        // `ENGINE_CTL` of engine 1, 0x901, in the machine's order.
        assert!(bytes_are(&backing, 0x182, 0x0901_u16.to_ne_bytes()));
        assert_eq!(byte(&backing, 0x182), if BIG_ENDIAN { 0x09 } else { 0x01 });
    }
}
