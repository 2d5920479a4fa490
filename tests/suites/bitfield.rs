// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::bitfield!`: fields at bit 0, at the top bit and over the whole storage of every
//! width, 1-bit fields, overlapping fields and the bits of no field, the constants, the setters
//! (`with_`, `with_const_`, `try_with_`) and the `=>` and `?=>` conversions.
//!
//! The references are shifts of `MAX`, a different route to the same numbers than the masks and
//! shifts of the macro. Nothing here needs an allocator (the `Debug` output is checked on the
//! host, in the module's unit tests).

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_bitfield)]
mod tests {
    use kernel_core::bitfield;
    use kernel_core::error::code::EOVERFLOW;
    use kernel_core::num::Bounded;
    use kernel_core::prelude::Zeroable;

    bitfield! {
        struct Edges8(u8) {
            0:0 low;
            7:7 high;
            7:0 all;
            6:1 inner;
        }
    }

    bitfield! {
        struct Edges16(u16) {
            0:0 low;
            15:15 high;
            15:0 all;
            14:1 inner;
        }
    }

    bitfield! {
        struct Edges32(u32) {
            0:0 low;
            31:31 high;
            31:0 all;
            30:1 inner;
        }
    }

    bitfield! {
        struct Edges64(u64) {
            0:0 low;
            63:63 high;
            63:0 all;
            62:1 inner;
        }
    }

    /// The constants, the 1-bit fields at both ends, the full-width and the inner field of
    /// `$ty` over `$storage`, and every single bit through the full-width field.
    macro_rules! check_edges {
        ($ty:ident, $storage:ty) => {{
            let bits = <$storage>::BITS;
            let top: $storage = <$storage>::MAX ^ (<$storage>::MAX >> 1);
            let inner: $storage = (<$storage>::MAX >> 2) << 1;
            assert_eq!($ty::LOW_MASK, 1);
            assert_eq!($ty::LOW_SHIFT, 0);
            assert!($ty::LOW_RANGE == (0..=0));
            assert_eq!($ty::HIGH_MASK, top);
            assert_eq!($ty::HIGH_SHIFT, bits - 1);
            assert_eq!(u32::from(*$ty::HIGH_RANGE.start()), bits - 1);
            assert_eq!(u32::from(*$ty::HIGH_RANGE.end()), bits - 1);
            assert_eq!($ty::ALL_MASK, <$storage>::MAX);
            assert_eq!($ty::INNER_MASK, inner);
            assert_eq!($ty::INNER_SHIFT, 1);

            let zero = $ty::zeroed();
            assert_eq!(zero.into_raw(), 0);
            assert!(zero == $ty::from_raw(0));

            let ends = zero.with_low(true).with_high(true);
            assert_eq!(ends.into_raw(), top | 1);
            assert!(ends.low().into_bool());
            assert!(ends.high().into_bool());
            assert_eq!(ends.inner(), 0);
            let cleared = ends
                .with_const_low::<0>()
                .with_high(Bounded::<$storage, 1>::new::<0>());
            assert_eq!(cleared.into_raw(), 0);

            let full = zero.with_all(<$storage>::MAX);
            assert_eq!(full.into_raw(), <$storage>::MAX);
            assert_eq!(full.all(), <$storage>::MAX);
            assert_eq!(full.inner(), <$storage>::MAX >> 2);
            assert_eq!(full.with_const_inner::<0>().into_raw(), top | 1);
            assert_eq!(
                zero.with_const_inner::<{ <$storage>::MAX >> 2 }>().into_raw(),
                inner
            );
            assert!(zero.with_const_all::<{ <$storage>::MAX }>() == full);

            assert_eq!(zero.try_with_low(2_u8), Err(EOVERFLOW));
            assert_eq!(zero.try_with_high(-1_i8), Err(EOVERFLOW));
            assert_eq!(zero.try_with_inner(<$storage>::MAX >> 1), Err(EOVERFLOW));
            assert_eq!(zero.try_with_low(1_u8).map(|v| v.into_raw()), Ok(1));
            assert_eq!(
                zero.try_with_all(<$storage>::MAX).map(|v| v.into_raw()),
                Ok(<$storage>::MAX)
            );

            let mut bit: $storage = 1;
            for n in 0..bits {
                let v = $ty::from(bit);
                assert_eq!(<$storage>::from(v), bit);
                assert_eq!(v.all(), bit);
                assert_eq!(v.low().into_bool(), n == 0);
                assert_eq!(v.high().into_bool(), n == bits - 1);
                let expected = if n == 0 || n == bits - 1 { 0 } else { bit >> 1 };
                assert_eq!(v.inner(), expected);
                bit = bit.wrapping_add(bit);
            }
        }};
    }

    #[test]
    fn edges_of_every_width() {
        check_edges!(Edges8, u8);
        check_edges!(Edges16, u16);
        check_edges!(Edges32, u32);
        check_edges!(Edges64, u64);
    }

    // `Debug`: the generated `Debug` prints every field.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Lanes {
        One = 1,
        Two = 2,
        Four = 4,
    }

    impl TryFrom<Bounded<u32, 3>> for Lanes {
        type Error = u32;

        fn try_from(v: Bounded<u32, 3>) -> Result<Self, u32> {
            match v.get() {
                1 => Ok(Lanes::One),
                2 => Ok(Lanes::Two),
                4 => Ok(Lanes::Four),
                other => Err(other),
            }
        }
    }

    impl From<Lanes> for Bounded<u32, 3> {
        fn from(l: Lanes) -> Self {
            match l {
                Lanes::One => Bounded::<u32, 3>::new::<1>(),
                Lanes::Two => Bounded::<u32, 3>::new::<2>(),
                Lanes::Four => Bounded::<u32, 3>::new::<4>(),
            }
        }
    }

    bitfield! {
        struct Link(u32) {
            /// At bit 0, as a `bool`.
            0:0 fast => bool;
            /// At the top, converted fallibly.
            31:29 lanes ?=> Lanes;
            /// Overlaps `lanes`.
            31:31 lanes_top;
            /// A byte.
            15:8 id => u8;
        }
    }

    #[test]
    fn conversions() {
        let link = Link::zeroed();
        assert!(!link.fast());
        assert!(link.lanes() == Err(0));

        let link = link.with_fast(true).with_lanes(Lanes::Four).with_id(0xa5);
        assert_eq!(link.into_raw(), 0x8000_a501);
        assert!(link.fast());
        assert!(link.lanes() == Ok(Lanes::Four));
        assert!(link.lanes_top().into_bool());
        assert_eq!(link.id(), 0xa5);

        let link = link.with_lanes_top(false);
        assert!(link.lanes() == Err(0));
        let link = link.with_lanes(Lanes::Two);
        assert_eq!(link.into_raw(), 0x4000_a501);
        assert!(Link::from_raw(0xe000_0000).lanes() == Err(7));
        assert!(Link::from_raw(0x2000_0000).lanes() == Ok(Lanes::One));
    }

    bitfield! {
        struct Sparse(u16) {
            12:9 mid;
            3:3 one;
        }
    }

    #[test]
    fn bits_of_no_field_are_kept() {
        let gaps: u16 = !(Sparse::MID_MASK | Sparse::ONE_MASK);
        assert_eq!(gaps, 0xe1f7);
        for raw in [0, gaps, u16::MAX] {
            let v = Sparse::from_raw(raw).with_const_mid::<0x9>().with_one(false);
            assert_eq!(v.into_raw() & gaps, raw & gaps);
            assert_eq!(v.into_raw() & !gaps, 0x9 << 9);
        }
    }

    #[test]
    fn const_setters_in_const_context() {
        const RAW: u64 = Edges64::from_raw(0)
            .with_const_high::<1>()
            .with_const_inner::<{ (1 << 62) - 1 }>()
            .into_raw();
        assert_eq!(RAW, u64::MAX - 1);
    }
}
