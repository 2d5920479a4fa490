// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Byte order, checked byte by byte: what lands in memory on little-endian machines (x86_64,
//! arm64, riscv64, loongarch64, arm) and on the big-endian one (s390), as Linux 7.3 defines it.
//!
//! - A `bitfield!` value is a number: its fields are bits of the integer, whatever the byte
//!   order, and only storing that integer in memory gives it a byte order.
//! - `SysMem` is ordinary memory: a `u32` written through it lands in the CPU's byte order, as
//!   a plain store would put it (`register!` values included).
//! - `Mmio` goes through `readl()`/`writel()` and the other widths, which are little-endian on
//!   every architecture: a `u32` written through it lands as its little-endian bytes, and
//!   reading memory that holds `04 03 02 01` gives `0x0102_0304`, on big-endian machines too.
//!
//! The expected bytes are literals, one array per byte order, so that a byte order flipped
//! anywhere (in `SysMem`, in `Mmio`, in `bitfield!`) fails on the machine where it matters.
//! The `Mmio` case runs on the host and on Linux 7.2 and 7.3, where `Mmio` has accessors, over
//! kernel memory; not on s390, whose `readl()` is a PCI instruction that reaches no RAM.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_byte_order)]
mod tests {
    use kernel_core::bitfield;
    use kernel_core::extras::io::sys_mem;
    use kernel_core::io::{register, Io, Region, SysMem};
    use kernel_core::prelude::Zeroable;

    /// Whether the machine is big-endian (s390).
    const BIG_ENDIAN: bool = cfg!(target_endian = "big");

    /// Picks the bytes expected on this machine.
    fn native<const N: usize>(little: [u8; N], big: [u8; N]) -> [u8; N] {
        if BIG_ENDIAN {
            big
        } else {
            little
        }
    }

    /// The first `N` bytes of `words`, as the memory holds them.
    fn memory<const N: usize>(words: &[u32]) -> [u8; N] {
        let mut bytes = [0; N];
        let mut index = 0;
        while index < N {
            bytes[index] = words[index / 4].to_ne_bytes()[index % 4];
            index += 1;
        }
        bytes
    }

    bitfield! {
        struct Status(u32) {
            31:24 top;
            15:8 second;
            7:0 low;
            0:0 ready => bool;
        }
    }

    register! {
        /// A control register.
        CTL(u32) @ 0x4 {
            31:28 mode;
            7:0 divider;
        }
        /// A 16-bit register.
        HALF(u16) @ 0xa {
            15:8 high;
            7:0 low;
        }
    }

    #[test]
    fn bitfield_values_are_numbers_in_any_byte_order() {
        let status = Status::zeroed()
            .with_top(0x12_u8)
            .with_second(0x34_u8)
            .with_low(0x57_u8);
        // The fields are bits of the number: the same raw value on every machine.
        assert_eq!(status.into_raw(), 0x1200_3457);
        assert!(status.ready());
        assert_eq!(Status::from(0x1200_3457).second().get(), 0x34);
        assert_eq!(Status::from(0x8000_0001).top().get(), 0x80);
        // Only its storage in memory has a byte order.
        assert_eq!(
            status.into_raw().to_ne_bytes(),
            native([0x57, 0x34, 0, 0x12], [0x12, 0, 0x34, 0x57])
        );
    }

    #[test]
    fn sys_mem_is_native_memory() {
        let mut words = [0_u32; 4];
        {
            let io = sys_mem::<16, u32>(&mut words);
            assert!(io.is_ok());
            if let Ok(io) = io {
                io.write32(0x0102_0304, 0);
                io.write_reg(CTL::zeroed().with_const_mode::<0xa>().with_const_divider::<0x5c>());
                io.write16(0x0a0b, 8);
                io.write_reg(HALF::zeroed().with_high(0xc1_u8).with_low(0xd2_u8));
                assert_eq!(io.read32(0), 0x0102_0304);
                assert_eq!(io.read(CTL).into_raw(), 0xa000_005c);
                // Narrower reads see the bytes where the machine put them.
                assert_eq!(io.read8(0), if BIG_ENDIAN { 1 } else { 4 });
                assert_eq!(io.read16(0), if BIG_ENDIAN { 0x0102 } else { 0x0304 });
                assert_eq!(io.read8(4), if BIG_ENDIAN { 0xa0 } else { 0x5c });
                assert_eq!(io.read32(8), if BIG_ENDIAN { 0x0a0b_c1d2 } else { 0xc1d2_0a0b });
            }
        }
        assert_eq!(
            memory::<12>(&words),
            native(
                [4, 3, 2, 1, 0x5c, 0, 0, 0xa0, 0x0b, 0x0a, 0xd2, 0xc1],
                [1, 2, 3, 4, 0xa0, 0, 0, 0x5c, 0x0a, 0x0b, 0xc1, 0xd2]
            )
        );
        // A word written natively reads back whole through `SysMem`.
        words[3] = 0x1122_3344;
        let region = Region::<16>::ptr_try_from_raw_parts_mut(words.as_mut_ptr().cast(), 16);
        assert!(region.is_ok());
        if let Ok(region) = region {
            // SAFETY: `region` covers `words`, valid memory for as long as the view is used.
            let io = unsafe { SysMem::new(region) };
            assert_eq!(io.read32(12), 0x1122_3344);
        }
    }

    // Not on s390, whose `readl()` is a PCI instruction that reaches no memory.
    #[cfg(not(all(kernel, target_arch = "s390x")))]
    #[test]
    fn mmio_is_little_endian() {
        use kernel_core::io::{Mmio, MmioRaw};

        let mut words = [0_u32; 4];
        // The address of `words`, whose provenance the cast exposes: on the host, `Mmio`
        // reaches memory that way; in the kernel, the accessors take the address of kernel
        // memory.
        let addr = words.as_mut_ptr() as usize;
        {
            let raw = MmioRaw::<Region<16>>::new_region(addr, 16);
            assert!(raw.is_ok());
            if let Ok(raw) = raw {
                // SAFETY: `words` is valid memory (exposed on the host), for as long as the view
                // is used, and the accessors only load and store it.
                let io = unsafe { Mmio::from_raw(raw) };
                io.write32(0x0102_0304, 0);
                io.write_reg(CTL::zeroed().with_const_mode::<0xa>().with_const_divider::<0x5c>());
                io.relaxed().write16(0x0a0b, 8);
                io.write_reg(HALF::zeroed().with_high(0xc1_u8).with_low(0xd2_u8));
                assert_eq!(io.read32(0), 0x0102_0304);
                assert_eq!(io.read(CTL).into_raw(), 0xa000_005c);
                // Little-endian on every machine: the low byte first.
                assert_eq!(io.read8(0), 4);
                assert_eq!(io.relaxed().read16(0), 0x0304);
                assert_eq!(io.read32(8), 0xc1d2_0a0b);
            }
        }
        assert_eq!(
            memory::<12>(&words),
            [4, 3, 2, 1, 0x5c, 0, 0, 0xa0, 0x0b, 0x0a, 0xd2, 0xc1]
        );
        // Memory that holds `44 33 22 11` reads as `0x1122_3344`, whatever the CPU's order.
        words[3] = u32::from_ne_bytes([0x44, 0x33, 0x22, 0x11]);
        let addr = words.as_mut_ptr() as usize;
        let raw = MmioRaw::<Region<16>>::new_region(addr, 16);
        assert!(raw.is_ok());
        if let Ok(raw) = raw {
            // SAFETY: As above.
            let io = unsafe { Mmio::from_raw(raw) };
            assert_eq!(io.read32(12), 0x1122_3344);
            assert_eq!(io.relaxed().read16(14), 0x1122);
        }
    }
}
