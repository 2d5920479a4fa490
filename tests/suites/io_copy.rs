// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Linux 7.3's byte copies, casts and projections of I/O views: `Io::copy_read`, `copy_write`,
//! `copy_from_slice`, `copy_to_slice`, `Io::try_cast` and `io_project!`, `io_read!`,
//! `io_write!`, over `SysMem` everywhere and over `Mmio` where it has accessors (the host, and
//! Linux 7.2 and 7.3 but on s390, whose `readl()` reaches no RAM).
//!
//! Bad input gets an error, never an access outside the region: a cast to a type larger than
//! the region or misaligned for it is `EINVAL`, an index past an array is `ERANGE`. The types
//! copied are the integers and arrays of them, which implement the kernel's `zerocopy` traits
//! on 7.2 and 7.3 and kernel-core's own elsewhere, so that the switch-back check runs these
//! cases against the kernel's own `kernel::io`.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_io_copy)]
mod tests {
    use kernel_core::error::code::{EINVAL, ERANGE};
    use kernel_core::error::Result;
    use kernel_core::extras::io::sys_mem;
    use kernel_core::io::{io_project, io_read, io_write, Io, SysMem};
    use kernel_core::prelude::{FromBytes, IntoBytes};

    /// Descriptor rings as a device sees them: `#[repr(C)]`, no padding. The derives are the
    /// kernel's `zerocopy` ones on 7.2 and 7.3, kernel-core's own on 6.12 and the host.
    #[derive(FromBytes, IntoBytes)]
    #[repr(C)]
    struct Descriptor {
        addr: u32,
        len: u16,
        flags: u16,
    }

    /// The bytes of `words`, as the memory holds them.
    fn bytes<const N: usize>(words: &[u32]) -> [u8; N] {
        let mut out = [0; N];
        let mut index = 0;
        while index < N {
            out[index] = words[index / 4].to_ne_bytes()[index % 4];
            index += 1;
        }
        out
    }

    #[test]
    fn copies_are_bytes_in_order() {
        let mut words = [0_u32; 4];
        {
            let io = sys_mem::<16, u32>(&mut words);
            assert!(io.is_ok());
            if let Ok(io) = io {
                let mac = io.try_cast::<[u8; 6]>();
                assert!(mac.is_ok());
                if let Ok(mac) = mac {
                    mac.copy_write([0x02, 0x00, 0x5e, 0x10, 0x20, 0x30]);
                    assert_eq!(mac.copy_read(), [0x02, 0x00, 0x5e, 0x10, 0x20, 0x30]);
                }
                let pair = io.try_cast::<[u32; 2]>();
                assert!(pair.is_ok());
                if let Ok(pair) = pair {
                    assert_eq!(
                        pair.copy_read()[0].to_ne_bytes(),
                        [0x02, 0x00, 0x5e, 0x10]
                    );
                }
            }
        }
        assert_eq!(bytes::<8>(&words), [0x02, 0x00, 0x5e, 0x10, 0x20, 0x30, 0, 0]);
    }

    #[test]
    fn slices_copy_whole() {
        let mut fifo = [0_u8; 8];
        {
            // SAFETY: `fifo` is valid memory for as long as the view is used.
            let io = unsafe { SysMem::new(&mut fifo[..]) };
            io.copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
            let mut out = [0_u8; 8];
            io.copy_to_slice(&mut out);
            assert_eq!(out, [1, 2, 3, 4, 5, 6, 7, 8]);
            // A part of it, projected.
            let middle = io_project!(io, [build: 2..6]);
            let mut part = [0_u8; 4];
            middle.copy_to_slice(&mut part);
            assert_eq!(part, [3, 4, 5, 6]);
            middle.copy_from_slice(&[0xa, 0xb, 0xc, 0xd]);
        }
        assert_eq!(fifo, [1, 2, 0xa, 0xb, 0xc, 0xd, 7, 8]);
    }

    #[test]
    fn casts_check_size_and_alignment() {
        let mut words = [0_u32; 4];
        let io = sys_mem::<16, u32>(&mut words);
        assert!(io.is_ok());
        if let Ok(io) = io {
            assert!(io.try_cast::<[u32; 4]>().is_ok());
            assert!(io.try_cast::<u8>().is_ok());
            // Larger than the region.
            assert_eq!(io.try_cast::<[u32; 5]>().err(), Some(EINVAL));
            assert_eq!(io.try_cast::<[u8; 17]>().err(), Some(EINVAL));
            // A view at byte 2 is not aligned for a `u32`, but is for a `u16`.
            let bytes = io.try_cast::<[u8; 16]>();
            assert!(bytes.is_ok());
            if let Ok(bytes) = bytes {
                let at2 = io_project!(bytes, [build: 2..6]);
                assert_eq!(at2.try_cast::<u32>().err(), Some(EINVAL));
                assert!(at2.try_cast::<u16>().is_ok());
                assert_eq!(at2.try_cast::<[u16; 3]>().err(), Some(EINVAL));
            }
        }
    }

    #[test]
    fn derived_structs_cast_and_copy_whole() {
        let mut words = [0_u32; 4];
        {
            let io = sys_mem::<16, u32>(&mut words);
            assert!(io.is_ok());
            if let Ok(io) = io {
                let pair = io.try_cast::<[Descriptor; 2]>();
                assert!(pair.is_ok());
                if let Ok(pair) = pair {
                    let second = io_project!(pair, [build: 1]);
                    second.copy_write(Descriptor {
                        addr: 0x1000_2000,
                        len: 0x40,
                        flags: 3,
                    });
                    let read = second.copy_read();
                    assert_eq!((read.addr, read.len, read.flags), (0x1000_2000, 0x40, 3));
                }
                // One descriptor past the region's 16 bytes.
                assert_eq!(io.try_cast::<[Descriptor; 3]>().err(), Some(EINVAL));
            }
        }
        assert_eq!(words[2], 0x1000_2000);
        assert_eq!(words[0], 0);
    }

    /// Writes `len` into descriptor `index` of `ring`, or `ERANGE` past its end.
    fn set_len(ring: SysMem<'_, [Descriptor]>, index: usize, len: u16) -> Result {
        io_write!(ring, [try: index].len, len);
        Ok(())
    }

    /// Reads the length of descriptor `index` of `ring`, or `ERANGE` past its end.
    fn len_of(ring: SysMem<'_, [Descriptor]>, index: usize) -> Result<u16> {
        Ok(io_read!(ring, [try: index].len))
    }

    #[test]
    fn projections_reach_fields_and_stop_at_the_end() {
        let mut ring = [
            Descriptor { addr: 0, len: 0, flags: 0 },
            Descriptor { addr: 0, len: 0, flags: 0 },
            Descriptor { addr: 0, len: 0, flags: 0 },
        ];
        {
            // SAFETY: `ring` is valid memory for as long as the view is used.
            let io = unsafe { SysMem::new(&mut ring[..]) };
            assert_eq!(io.len(), 3);
            assert_eq!(set_len(io, 2, 1500), Ok(()));
            assert_eq!(set_len(io, 3, 1500), Err(ERANGE));
            assert_eq!(len_of(io, 2), Ok(1500));
            assert_eq!(len_of(io, usize::MAX), Err(ERANGE));
            io_write!(io, [build: 0].addr, 0x1000);
            io_write!(io, [panic: 1].flags, 3);
            let first = io_project!(io, [build: 0]);
            assert_eq!(io_read!(first, .addr), 0x1000);
            let flags = io_project!(io, [build: 1].flags);
            assert_eq!(flags.read_val(), 3);
        }
        assert_eq!((ring[0].addr, ring[1].flags, ring[2].len), (0x1000, 3, 1500));
    }

    // Not on s390, whose `readl()` is a PCI instruction that reaches no memory.
    #[cfg(not(all(kernel, target_arch = "s390x")))]
    #[test]
    fn mmio_copies_bytes_and_reads_little_endian() {
        use kernel_core::io::{Mmio, MmioRaw, Region};

        let mut words = [0_u32; 4];
        let addr = words.as_mut_ptr() as usize;
        {
            let raw = MmioRaw::<Region<16>>::new_region(addr, 16);
            assert!(raw.is_ok());
            if let Ok(raw) = raw {
                // SAFETY: `words` is valid memory (exposed on the host), for as long as the view
                // is used, and the accessors only load and store it.
                let io = unsafe { Mmio::from_raw(raw) };
                let bytes = io.try_cast::<[u8; 8]>();
                assert!(bytes.is_ok());
                if let Ok(bytes) = bytes {
                    bytes.copy_write([4, 3, 2, 1, 0xd, 0xc, 0xb, 0xa]);
                    assert_eq!(bytes.copy_read(), [4, 3, 2, 1, 0xd, 0xc, 0xb, 0xa]);
                }
                // The accessors read those bytes as little-endian numbers.
                assert_eq!(io.read32(0), 0x0102_0304);
                assert_eq!(io.read32(4), 0x0a0b_0c0d);
                // A copy of a number's bytes is not swapped: it is the memory's order.
                let word = io.try_cast::<u32>();
                assert!(word.is_ok());
                if let Ok(word) = word {
                    assert_eq!(word.copy_read(), u32::from_ne_bytes([4, 3, 2, 1]));
                    assert_eq!(word.read_val(), 0x0102_0304);
                }
                let all = io.try_cast::<[u8; 16]>();
                assert!(all.is_ok());
                if let Ok(all) = all {
                    let tail = io_project!(all, [build: 8..16]);
                    tail.copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
                    let mut back = [0_u8; 8];
                    tail.copy_to_slice(&mut back);
                    assert_eq!(back, [1, 2, 3, 4, 5, 6, 7, 8]);
                }
            }
        }
        assert_eq!(
            bytes::<16>(&words),
            [4, 3, 2, 1, 0xd, 0xc, 0xb, 0xa, 1, 2, 3, 4, 5, 6, 7, 8]
        );
    }
}
