// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Differential tests of `kernel_core::bitfield!` against Linux 7.3's own `bitfield.rs`, built
//! on the host as `linux7_3::bitfield!`.
//!
//! The same declarations go through both macros (one per storage width, with fields at bit 0,
//! at the top bit, over the whole storage, in the middle, overlapping, and converted with `=>`
//! and `?=>`); then, for random raw values and random field values, every constant, getter,
//! setter (`with_`, `with_const_`, `try_with_`), conversion, `Debug` string and `zeroed()`
//! must agree, and every generated function must have the same signature (checked by coercing
//! each to the same `fn` pointer type, with each side's `Bounded`).

// Linux 7.3's macro names the crates a kernel module gets, `::kernel` and `::pin_init`: here
// both are the mock crate.
extern crate linux7_3 as kernel;
extern crate linux7_3 as pin_init;

use kernel_core::num as kc;
use linux7_3::num as lx;
use proptest::prelude::*;

/// A 2-bit field's meaning, with the value 3 invalid: the `?=>` conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Off,
    Slow,
    Fast,
}

/// A 1-bit field's meaning: the `=>` conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Polarity {
    Low,
    High,
}

/// The conversions of [`Mode`] and [`Polarity`] from and into both sides' `Bounded` of `$ty`.
macro_rules! conversions {
    ($($ty:ty)*) => {$(
        conversions!(@side kc, $ty);
        conversions!(@side lx, $ty);
    )*};
    (@side $side:ident, $ty:ty) => {
        impl TryFrom<$side::Bounded<$ty, 2>> for Mode {
            type Error = $ty;

            fn try_from(v: $side::Bounded<$ty, 2>) -> Result<Self, $ty> {
                match v.get() {
                    0 => Ok(Mode::Off),
                    1 => Ok(Mode::Slow),
                    2 => Ok(Mode::Fast),
                    other => Err(other),
                }
            }
        }

        impl From<Mode> for $side::Bounded<$ty, 2> {
            fn from(m: Mode) -> Self {
                match m {
                    Mode::Off => Self::new::<0>(),
                    Mode::Slow => Self::new::<1>(),
                    Mode::Fast => Self::new::<2>(),
                }
            }
        }

        impl From<$side::Bounded<$ty, 1>> for Polarity {
            fn from(v: $side::Bounded<$ty, 1>) -> Self {
                if v.get() == 0 {
                    Polarity::Low
                } else {
                    Polarity::High
                }
            }
        }

        impl From<Polarity> for $side::Bounded<$ty, 1> {
            fn from(p: Polarity) -> Self {
                (p == Polarity::High).into()
            }
        }
    };
}

conversions!(u8 u16 u32 u64);

/// The same declaration through both macros: `ours::$name` and `theirs::$name`.
macro_rules! both {
    ($name:ident($storage:ty) { $($fields:tt)* }) => {
        pub mod ours {
            #[allow(unused_imports)]
            use super::*;

            kernel_core::bitfield! {
                /// kernel-core's.
                pub struct $name($storage) { $($fields)* }
            }
        }

        pub mod theirs {
            #[allow(unused_imports)]
            use super::*;

            linux7_3::bitfield! {
                /// Linux 7.3's.
                pub struct $name($storage) { $($fields)* }
            }
        }
    };
}

/// One storage width: fields at bit 0 (`low`, 1 bit), at the top (`high`), over everything
/// (`all`), in the middle (`mid`, from bit 1 to the bit below the top), a 1-bit `=>` field
/// (`pol`, bit `$pol`) and a 2-bit `?=>` field (`mode`, bits `$mode_hi:$mode_lo`), all
/// overlapping `all` and some each other.
macro_rules! width {
    (
        $module:ident, $name:ident, $storage:ident,
        top $top:literal, below $below:literal,
        pol $pol:literal, mode $mode_hi:literal : $mode_lo:literal
    ) => {
        mod $module {
            use super::*;

            both!($name($storage) {
                /// Bit 0.
                0:0 low;
                /// The top bit.
                $top:$top high;
                /// Every bit.
                $top:0 all;
                /// All but both ends.
                $below:1 mid;
                /// Polarity.
                $pol:$pol pol => Polarity;
                /// Mode.
                $mode_hi:$mode_lo mode ?=> Mode;
            });

            type Ours = ours::$name;
            type Theirs = theirs::$name;

            /// Every generated function, coerced to one `fn` type per side: the same signature.
            #[test]
            fn signatures() {
                const W_MID: u32 = $below;
                let _: [(fn($storage) -> Ours, fn($storage) -> Theirs); 1] =
                    [(Ours::from_raw, Theirs::from_raw)];
                let _: (fn(Ours) -> $storage, fn(Theirs) -> $storage) =
                    (Ours::into_raw, Theirs::into_raw);
                let _: (fn(Ours) -> kc::Bounded<$storage, 1>, fn(Theirs) -> lx::Bounded<$storage, 1>) =
                    (Ours::low, Theirs::low);
                let _: (
                    fn(Ours) -> kc::Bounded<$storage, { <$storage>::BITS }>,
                    fn(Theirs) -> lx::Bounded<$storage, { <$storage>::BITS }>,
                ) = (Ours::all, Theirs::all);
                let _: (fn(Ours) -> kc::Bounded<$storage, W_MID>, fn(Theirs) -> lx::Bounded<$storage, W_MID>) =
                    (Ours::mid, Theirs::mid);
                let _: (fn(Ours, bool) -> Ours, fn(Theirs, bool) -> Theirs) =
                    (Ours::with_low::<bool>, Theirs::with_low::<bool>);
                let _: (fn(Ours, u8) -> kernel_core::error::Result<Ours>, fn(Theirs, u8) -> kernel_core::error::Result<Theirs>) =
                    (Ours::try_with_mid::<u8>, Theirs::try_with_mid::<u8>);
                let _: (fn(Ours) -> Ours, fn(Theirs) -> Theirs) =
                    (Ours::with_const_high::<1>, Theirs::with_const_high::<1>);
                let _: (fn(Ours) -> Polarity, fn(Theirs) -> Polarity) = (Ours::pol, Theirs::pol);
                let _: (fn(Ours, Polarity) -> Ours, fn(Theirs, Polarity) -> Theirs) =
                    (Ours::with_pol, Theirs::with_pol);
                let _: (fn(Ours) -> Result<Mode, $storage>, fn(Theirs) -> Result<Mode, $storage>) =
                    (Ours::mode, Theirs::mode);
                let _: (fn(Ours, Mode) -> Ours, fn(Theirs, Mode) -> Theirs) =
                    (Ours::with_mode, Theirs::with_mode);

                // The `const fn`s, in const context on both sides.
                const OURS: $storage = Ours::from_raw(0).with_const_low::<1>().with_const_high::<1>().into_raw();
                const THEIRS: $storage = Theirs::from_raw(0).with_const_low::<1>().with_const_high::<1>().into_raw();
                assert_eq!(OURS, THEIRS);
            }

            #[test]
            fn constants() {
                assert_eq!(Ours::LOW_MASK, Theirs::LOW_MASK);
                assert_eq!(Ours::HIGH_MASK, Theirs::HIGH_MASK);
                assert_eq!(Ours::ALL_MASK, Theirs::ALL_MASK);
                assert_eq!(Ours::MID_MASK, Theirs::MID_MASK);
                assert_eq!(Ours::POL_MASK, Theirs::POL_MASK);
                assert_eq!(Ours::MODE_MASK, Theirs::MODE_MASK);
                assert_eq!(Ours::LOW_SHIFT, Theirs::LOW_SHIFT);
                assert_eq!(Ours::HIGH_SHIFT, Theirs::HIGH_SHIFT);
                assert_eq!(Ours::ALL_SHIFT, Theirs::ALL_SHIFT);
                assert_eq!(Ours::MID_SHIFT, Theirs::MID_SHIFT);
                assert_eq!(Ours::POL_SHIFT, Theirs::POL_SHIFT);
                assert_eq!(Ours::MODE_SHIFT, Theirs::MODE_SHIFT);
                assert_eq!(Ours::LOW_RANGE, Theirs::LOW_RANGE);
                assert_eq!(Ours::HIGH_RANGE, Theirs::HIGH_RANGE);
                assert_eq!(Ours::ALL_RANGE, Theirs::ALL_RANGE);
                assert_eq!(Ours::MID_RANGE, Theirs::MID_RANGE);
                assert_eq!(Ours::POL_RANGE, Theirs::POL_RANGE);
                assert_eq!(Ours::MODE_RANGE, Theirs::MODE_RANGE);

                assert_eq!(
                    <Ours as kernel_core::prelude::Zeroable>::zeroed().into_raw(),
                    <Theirs as linux7_3::Zeroable>::zeroed().into_raw()
                );
                assert_eq!(
                    format!("{:?}", Ours::from_raw(0)),
                    format!("{:?}", Theirs::from_raw(0))
                );
            }

            /// Both sides' results for one raw value and one value per field.
            fn compare(raw: $storage, value: u64, polarity: bool, mode: u8) {
                let ours = Ours::from(raw);
                let theirs = Theirs::from(raw);
                assert_eq!($storage::from(ours), $storage::from(theirs));
                assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));

                // Getters.
                assert_eq!(ours.low().get(), theirs.low().get());
                assert_eq!(ours.high().get(), theirs.high().get());
                assert_eq!(ours.all().get(), theirs.all().get());
                assert_eq!(ours.mid().get(), theirs.mid().get());
                assert_eq!(ours.pol(), theirs.pol());
                assert_eq!(ours.mode(), theirs.mode());

                // Setters, with a value that may or may not fit.
                let raw_of = |r: kernel_core::error::Result<$storage>| r;
                assert_eq!(
                    raw_of(ours.try_with_low(value).map(Ours::into_raw)),
                    raw_of(theirs.try_with_low(value).map(Theirs::into_raw))
                );
                assert_eq!(
                    raw_of(ours.try_with_high(value).map(Ours::into_raw)),
                    raw_of(theirs.try_with_high(value).map(Theirs::into_raw))
                );
                assert_eq!(
                    raw_of(ours.try_with_all(value).map(Ours::into_raw)),
                    raw_of(theirs.try_with_all(value).map(Theirs::into_raw))
                );
                assert_eq!(
                    raw_of(ours.try_with_mid(value).map(Ours::into_raw)),
                    raw_of(theirs.try_with_mid(value).map(Theirs::into_raw))
                );
                assert_eq!(
                    raw_of(ours.try_with_mid(value as i64).map(Ours::into_raw)),
                    raw_of(theirs.try_with_mid(value as i64).map(Theirs::into_raw))
                );

                // Infallible setters.
                let truncated = value as $storage;
                assert_eq!(
                    ours.with_all(truncated).into_raw(),
                    theirs.with_all(truncated).into_raw()
                );
                assert_eq!(
                    ours.with_low(polarity).with_high(!polarity).into_raw(),
                    theirs.with_low(polarity).with_high(!polarity).into_raw()
                );
                assert_eq!(
                    ours.with_mid(kc::Bounded::<$storage, $below>::try_new(truncated >> 2).unwrap())
                        .into_raw(),
                    theirs
                        .with_mid(lx::Bounded::<$storage, $below>::try_new(truncated >> 2).unwrap())
                        .into_raw()
                );
                let pol = if polarity { Polarity::High } else { Polarity::Low };
                assert_eq!(ours.with_pol(pol).into_raw(), theirs.with_pol(pol).into_raw());
                let mode = [Mode::Off, Mode::Slow, Mode::Fast][usize::from(mode % 3)];
                assert_eq!(ours.with_mode(mode).into_raw(), theirs.with_mode(mode).into_raw());

                // Constant setters.
                assert_eq!(
                    ours.with_const_mid::<{ <$storage>::MAX >> 2 }>().into_raw(),
                    theirs.with_const_mid::<{ <$storage>::MAX >> 2 }>().into_raw()
                );
                assert_eq!(
                    ours.with_const_all::<0>().with_const_high::<1>().into_raw(),
                    theirs.with_const_all::<0>().with_const_high::<1>().into_raw()
                );
                assert_eq!(
                    ours.with_const_low::<0>().into_raw(),
                    theirs.with_const_low::<0>().into_raw()
                );
            }

            #[test]
            fn edges() {
                for raw in [0, 1, <$storage>::MAX, <$storage>::MAX >> 1, !(<$storage>::MAX >> 1)] {
                    for value in [0, 1, 2, 3, u64::from(<$storage>::MAX) >> 2, u64::from(<$storage>::MAX) >> 1, u64::from(<$storage>::MAX), u64::MAX] {
                        compare(raw, value, value & 1 == 0, value as u8);
                    }
                }
                for n in 0..<$storage>::BITS {
                    compare(1 << n, 1 << n, true, n as u8);
                }
            }

            proptest! {
                #[test]
                fn random(raw in any::<$storage>(), value in prop_oneof![any::<u64>(), 0..=u64::from(<$storage>::MAX)], polarity in any::<bool>(), mode in any::<u8>()) {
                    compare(raw, value, polarity, mode);
                }
            }
        }
    };
}

width!(u8_storage, R8, u8, top 7, below 6, pol 4, mode 3:2);
width!(u16_storage, R16, u16, top 15, below 14, pol 15, mode 1:0);
width!(u32_storage, R32, u32, top 31, below 30, pol 0, mode 31:30);
width!(u64_storage, R64, u64, top 63, below 62, pol 40, mode 62:61);
