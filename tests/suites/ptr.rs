// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::ptr`: alignments, for every power of two and every integer width, and
//! `ptr::project!` on real memory: fields, elements and ranges, with each index flavor.
//!
//! The references here use division and remainder, a different route to the same numbers than
//! the masks under test; `properties.rs` adds random values against 128-bit arithmetic.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_ptr)]
mod tests {
    use kernel_core::ptr::{const_align_up, Alignable, Alignment, KnownSize};
    use kernel_core::sizes::{SZ_128K, SZ_16M, SZ_4K, SZ_8M};

    /// Checks `align_down` and `align_up` of `$ty` against division, for every power-of-two
    /// alignment up to `1 << (usize::BITS - 1)` and values at the edges of each.
    macro_rules! check_width {
        ($ty:ty) => {{
            for shift in 0..usize::BITS {
                let align = Alignment::new_checked(1 << shift).unwrap();
                let fits = shift < <$ty>::BITS;
                let mut values = [
                    0 as $ty,
                    1,
                    2,
                    3,
                    <$ty>::MAX,
                    <$ty>::MAX - 1,
                    <$ty>::MAX / 2,
                    0,
                    0,
                    0,
                ];
                if fits {
                    let a = (1 as $ty) << shift;
                    values[7] = a - 1;
                    values[8] = a;
                    values[9] = a.wrapping_add(1);
                }
                for value in values {
                    let (down, up) = if fits {
                        let a = (1 as $ty) << shift;
                        let down = value - value % a;
                        (
                            down,
                            if down == value {
                                Some(value)
                            } else {
                                down.checked_add(a)
                            },
                        )
                    } else {
                        (0, if value == 0 { Some(0) } else { None })
                    };
                    assert_eq!(value.align_down(align), down);
                    assert_eq!(value.align_up(align), up);
                }
            }
        }};
    }

    #[test]
    fn every_power_of_two_is_an_alignment() {
        for shift in 0..usize::BITS {
            let value = 1_usize << shift;
            let align = Alignment::new_checked(value).unwrap();
            assert_eq!(align.as_usize(), value);
            assert_eq!(align.as_nonzero().get(), value);
            assert_eq!(align.log2(), shift);
            assert_eq!(align.mask(), !(value - 1));
            assert_eq!(align.mask() & value, value);
        }
    }

    #[test]
    fn nothing_else_is_an_alignment() {
        assert_eq!(Alignment::new_checked(0), None);
        assert_eq!(Alignment::new_checked(usize::MAX), None);
        for shift in 1..usize::BITS {
            assert_eq!(Alignment::new_checked((1 << shift) + 1), None);
            if shift >= 2 {
                assert_eq!(Alignment::new_checked((1 << shift) - 1), None);
            }
            assert_eq!(
                Alignment::new_checked((1 << shift) | 1 << (shift - 1)),
                None
            );
        }
    }

    #[test]
    fn compile_time_alignments() {
        assert_eq!(Alignment::new::<1>(), Alignment::new_checked(1).unwrap());
        assert_eq!(Alignment::new::<4096>().log2(), 12);
        assert_eq!(
            Alignment::new::<{ 1 << (usize::BITS - 1) }>().as_usize(),
            1 << (usize::BITS - 1)
        );
        const PAGE: Alignment = Alignment::new::<SZ_4K>();
        const PAGE_MASK: usize = PAGE.mask();
        assert_eq!(PAGE_MASK, !0xfff);
        assert!(Alignment::new::<2>() < Alignment::new::<4>());
    }

    #[test]
    fn alignment_of_types() {
        assert_eq!(Alignment::of::<u8>().as_usize(), 1);
        assert_eq!(Alignment::of::<u16>().as_usize(), 2);
        assert_eq!(Alignment::of::<u32>().as_usize(), 4);
        assert_eq!(
            Alignment::of::<u64>().as_usize(),
            core::mem::align_of::<u64>()
        );
        assert_eq!(Alignment::of::<()>().as_usize(), 1);
        #[repr(C, align(64))]
        struct CacheLine([u8; 64]);
        assert_eq!(Alignment::of::<CacheLine>().as_usize(), 64);
    }

    #[test]
    fn align_u8() {
        check_width!(u8);
    }

    #[test]
    fn align_u16() {
        check_width!(u16);
    }

    #[test]
    fn align_u32() {
        check_width!(u32);
    }

    #[test]
    fn align_u64() {
        check_width!(u64);
    }

    #[test]
    fn align_usize() {
        check_width!(usize);
    }

    #[test]
    fn const_align_up_matches_align_up() {
        for shift in 0..usize::BITS {
            let align = Alignment::new_checked(1 << shift).unwrap();
            let a = 1_usize << shift;
            for value in [
                0,
                1,
                a - 1,
                a,
                a.wrapping_add(1),
                usize::MAX - a + 1,
                usize::MAX,
            ] {
                assert_eq!(const_align_up(value, align), value.align_up(align));
            }
            assert_eq!(
                const_align_up(usize::MAX & align.mask(), align),
                Some(usize::MAX & align.mask())
            );
        }
        assert_eq!(
            const_align_up(usize::MAX, Alignment::new::<1>()),
            Some(usize::MAX)
        );
        assert_eq!(const_align_up(usize::MAX, Alignment::new::<2>()), None);
    }

    /// What nova-core does: a const generic argument computed by `const_align_up`.
    struct Carveout<const BYTES: usize>;

    impl<const BYTES: usize> Carveout<BYTES> {
        const BYTES: usize = BYTES;
    }

    #[test]
    fn const_align_up_in_const_generic_arguments() {
        type Wpr =
            Carveout<{ const_align_up(SZ_8M + SZ_16M, Alignment::new::<SZ_128K>()).unwrap() }>;
        type Odd = Carveout<{ const_align_up(SZ_4K + 1, Alignment::new::<SZ_4K>()).unwrap() }>;
        assert_eq!(Wpr::BYTES, SZ_8M + SZ_16M);
        assert_eq!(Odd::BYTES, 2 * SZ_4K);
    }

    #[test]
    fn known_size() {
        let words = [0_u32; 7];
        assert_eq!(<[u32] as KnownSize>::size(&words[..]), 28);
        assert_eq!(<[u32] as KnownSize>::size(&words[..0]), 0);
        assert_eq!(<[u64; 3] as KnownSize>::size(&[0; 3]), 24);
        assert_eq!(<() as KnownSize>::size(&()), 0);
    }

    #[repr(C, align(64))]
    struct CacheLine([u8; 64]);

    #[test]
    fn known_size_minimums() {
        assert_eq!(<u8 as KnownSize>::MIN_SIZE, 1);
        assert_eq!(<u64 as KnownSize>::MIN_SIZE, 8);
        assert_eq!(<() as KnownSize>::MIN_SIZE, 0);
        assert_eq!(<[u64; 3] as KnownSize>::MIN_SIZE, 24);
        assert_eq!(<CacheLine as KnownSize>::MIN_SIZE, 64);
        assert_eq!(<[u32] as KnownSize>::MIN_SIZE, 0);
        assert_eq!(<[CacheLine] as KnownSize>::MIN_SIZE, 0);
        assert_eq!(<u8 as KnownSize>::MIN_ALIGN, Alignment::new::<1>());
        assert_eq!(<u16 as KnownSize>::MIN_ALIGN, Alignment::of::<u16>());
        assert_eq!(<u64 as KnownSize>::MIN_ALIGN, Alignment::of::<u64>());
        assert_eq!(<[u64; 3] as KnownSize>::MIN_ALIGN, Alignment::of::<u64>());
        assert_eq!(<CacheLine as KnownSize>::MIN_ALIGN, Alignment::new::<64>());
        assert_eq!(<[u32] as KnownSize>::MIN_ALIGN, Alignment::new::<4>());
        assert_eq!(
            <[CacheLine] as KnownSize>::MIN_ALIGN,
            Alignment::new::<64>()
        );
        assert_eq!(<[()] as KnownSize>::MIN_ALIGN, Alignment::new::<1>());
    }

    #[repr(C)]
    struct Slot {
        len: u16,
        flags: u8,
    }

    #[repr(C)]
    struct Ring {
        head: u32,
        slots: [Slot; 4],
        tail: (u8, u32),
    }

    /// Projects `ring` onto `slots[index].len` with the fallible flavor.
    fn slot_len(
        ring: *mut Ring,
        index: usize,
    ) -> Result<*mut u16, kernel_core::ptr::projection::OutOfBound> {
        Ok(kernel_core::ptr::project!(mut ring, .slots[try: index].len))
    }

    #[test]
    fn projections_reach_fields_and_elements() {
        let mut ring = Ring {
            head: 0,
            slots: [
                Slot { len: 0, flags: 0 },
                Slot { len: 0, flags: 0 },
                Slot { len: 0, flags: 0 },
                Slot { len: 0, flags: 0 },
            ],
            tail: (0, 0),
        };
        let ptr = &raw mut ring;
        let len = slot_len(ptr, 3);
        assert!(len.is_ok());
        if let Ok(len) = len {
            // SAFETY: A projection of a valid pointer is valid.
            unsafe { len.write(0x1234) };
        }
        assert!(slot_len(ptr, 4).is_err());
        let flags = kernel_core::ptr::project!(mut ptr, .slots[panic: 1].flags);
        // SAFETY: As above.
        unsafe { flags.write(0xf0) };
        let tail = kernel_core::ptr::project!(mut ptr, .tail.1);
        // SAFETY: As above.
        unsafe { tail.write(0xdead_beef) };
        let head = kernel_core::ptr::project!(ptr, .head);
        assert_eq!(head.addr(), ptr.addr());
        let middle = kernel_core::ptr::project!(mut ptr, .slots[build: 1..3]);
        assert_eq!(middle.len(), 2);
        assert_eq!(middle.cast::<Slot>().addr(), ptr.addr() + 4 + size_of::<Slot>());
        assert_eq!(ring.slots[3].len, 0x1234);
        assert_eq!(ring.slots[1].flags, 0xf0);
        assert_eq!(ring.tail.1, 0xdead_beef);
        assert_eq!(ring.head, 0);
    }
}
