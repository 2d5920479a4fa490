// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! [`bitfield!`](crate::bitfield!): an integer split into named bit fields, each read and
//! written as a [`Bounded`].
//!
//! Kernel counterpart: `rust/kernel/bitfield.rs` (Linux 7.3, also in 7.2), whose macro the
//! kernel exports at its crate root, `kernel::bitfield!`; kernel-core does the same,
//! `kernel_core::bitfield!`, so `use kernel_core::bitfield;` imports the macro (and this
//! module) as `use kernel::bitfield;` does.
//!
//! A register is an integer whose bit ranges mean different things. The macro declares a
//! newtype around the integer (its *storage*: `u8`, `u16`, `u32` or `u64`) with, for each
//! field `hi:lo name`, a getter that returns the field as a [`Bounded`] of `hi - lo + 1` bits
//! and setters that take only values which fit, so a value is never silently truncated.
//!
//! # Examples
//!
//! ```
//! use kernel_core::bitfield;
//! use kernel_core::num::Bounded;
//! use kernel_core::prelude::*; // `Zeroable`, for `zeroed()`
//!
//! bitfield! {
//!     /// A DMA control register.
//!     pub struct DmaCtrl(u32) {
//!         /// Start the transfer.
//!         31:31 start;
//!         /// Burst length.
//!         7:4 burst;
//!         /// Channel.
//!         2:0 channel;
//!     }
//! }
//!
//! let ctrl = DmaCtrl::zeroed()
//!     .with_start(true)
//!     .with_const_burst::<0xa>()
//!     .with_channel(Bounded::<u32, 3>::new::<5>());
//! assert_eq!(ctrl.into_raw(), 0x8000_00a5);
//! assert_eq!(ctrl.burst(), 0xa);
//! assert!(ctrl.start().into_bool());
//!
//! // A value known only at run time is checked at run time.
//! assert!(ctrl.try_with_channel(8_u32).is_err());
//! assert_eq!(DmaCtrl::CHANNEL_MASK, 0b111);
//! assert_eq!(DmaCtrl::BURST_SHIFT, 4);
//! assert_eq!(DmaCtrl::START_RANGE, 31..=31);
//! ```
//!
//! # What the macro generates
//!
//! For `$vis struct Name(storage) { ... }`, with `$vis` on every generated public item:
//!
//! - the type, `#[repr(transparent)]` around the storage in a private field named `inner`,
//!   deriving `Clone`, `Copy`, `PartialEq` and `Eq` besides the attributes given;
//! - `const fn from_raw(storage) -> Name` and `const fn into_raw(self) -> storage`, and
//!   [`From`] in both directions;
//! - [`Zeroable`](crate::prelude::Zeroable) (so `Name::zeroed()` is all zero bits) and
//!   [`Debug`](core::fmt::Debug), which prints `Name { <raw>: 0x.., field: .., ... }`;
//! - for each field `hi:lo field` (bits `lo` to `hi`, both included, `hi >= lo`) the constants
//!   `FIELD_RANGE` (a `RangeInclusive<u8>`, `lo..=hi`), `FIELD_MASK` (the field's bits in the
//!   storage type) and `FIELD_SHIFT` (`lo`, a `u32`), and:
//!   - plain, `hi:lo field;`: `field(self) -> Bounded<storage, W>` (`W = hi - lo + 1`),
//!     `const fn with_const_field::<VALUE>(self)` (a `VALUE` that does not fit in `W` bits
//!     fails the build), `with_field(self, value: impl Into<Bounded<storage, W>>)` and
//!     `try_with_field(self, value: impl TryIntoBounded<storage, W>) -> Result<Self>`, which
//!     fails with `EOVERFLOW`;
//!   - converted, `hi:lo field => Type;`: `field(self) -> Type` through
//!     `From<Bounded<storage, W>>` and `with_field(self, Type)` through
//!     `Into<Bounded<storage, W>>`;
//!   - fallibly converted, `hi:lo field ?=> Type;`: `field(self) -> Result<Type, E>` through
//!     `TryFrom<Bounded<storage, W>>` (with its `E`) and `with_field(self, Type)` through
//!     `Into<Bounded<storage, W>>`.
//!
//! Fields may overlap, and bits of no field keep their value through every setter. Fields
//! take `///` documentation only (no other attribute), as in the kernel. The names `with_*`,
//! `const_*`, `try_with_*` and `__*`, and `from_raw`, `into_raw` and `into`, are reserved for
//! field names: the macro also generates the private methods `__field` and `__with_field`.
//!
//! A field past the storage type's width, or whose `hi` is below its `lo`, fails the build.
//!
//! # Conversions
//!
//! ```
//! use kernel_core::bitfield;
//! use kernel_core::num::Bounded;
//! use kernel_core::prelude::*;
//!
//! #[derive(Debug, Clone, Copy, PartialEq)]
//! enum Mode {
//!     Off,
//!     Slow,
//!     Fast,
//! }
//!
//! impl TryFrom<Bounded<u8, 2>> for Mode {
//!     type Error = u8;
//!
//!     fn try_from(v: Bounded<u8, 2>) -> Result<Self, u8> {
//!         match v.get() {
//!             0 => Ok(Mode::Off),
//!             1 => Ok(Mode::Slow),
//!             2 => Ok(Mode::Fast),
//!             other => Err(other),
//!         }
//!     }
//! }
//!
//! impl From<Mode> for Bounded<u8, 2> {
//!     fn from(m: Mode) -> Self {
//!         match m {
//!             Mode::Off => Bounded::<u8, 2>::new::<0>(),
//!             Mode::Slow => Bounded::<u8, 2>::new::<1>(),
//!             Mode::Fast => Bounded::<u8, 2>::new::<2>(),
//!         }
//!     }
//! }
//!
//! bitfield! {
//!     struct Fan(u8) {
//!         1:0 mode ?=> Mode;
//!         7:7 on => bool;
//!     }
//! }
//!
//! let fan = Fan::zeroed().with_mode(Mode::Fast).with_on(true);
//! assert_eq!(fan.into_raw(), 0x82);
//! assert_eq!(fan.mode(), Ok(Mode::Fast));
//! assert!(fan.on());
//! assert_eq!(Fan::from_raw(0b11).mode(), Err(3));
//! ```
//!
//! [`Bounded`]: crate::num::Bounded

/// Declares an integer type split into bit fields, with checked accessors for each field.
///
/// The syntax is Linux 7.3's:
///
/// ```text
/// bitfield! {
///     #[attributes]
///     $vis struct Name(storage) {
///         /// Documentation.
///         hi:lo field;
///         hi:lo field => Type;
///         hi:lo field ?=> Type;
///     }
/// }
/// ```
///
/// See the [module documentation](mod@crate::bitfield) for what it generates.
///
/// # Examples
///
/// ```
/// use kernel_core::bitfield;
/// use kernel_core::prelude::*;
///
/// bitfield! {
///     /// A 16-bit colour.
///     pub struct Rgb565(u16) {
///         /// Red.
///         15:11 red;
///         /// Green.
///         10:5 green;
///         /// Blue.
///         4:0 blue;
///     }
/// }
///
/// let white = Rgb565::zeroed()
///     .with_const_red::<0x1f>()
///     .with_const_green::<0x3f>()
///     .with_const_blue::<0x1f>();
/// assert_eq!(u16::from(white), 0xffff);
/// assert_eq!(Rgb565::from(0xf800).red(), 0x1f);
/// assert_eq!(Rgb565::GREEN_MASK, 0x07e0);
/// assert_eq!(
///     format!("{:?}", Rgb565::from_raw(0x0821)),
///     "Rgb565 { <raw>: 0x821, red: Bounded(1), green: Bounded(1), blue: Bounded(1) }"
/// );
/// ```
#[macro_export]
macro_rules! bitfield {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident($storage:ty) {
            $(
                $(#[doc = $doc:expr])*
                $hi:literal : $lo:literal $field:ident
                $(?=> $fallible:ty)?
                $(=> $infallible:ty)?
                ;
            )*
        }
    ) => {
        #[allow(non_camel_case_types)]
        $(#[$meta])*
        #[repr(transparent)]
        #[derive(Clone, Copy, PartialEq, Eq)]
        $vis struct $name {
            inner: $storage,
        }

        #[allow(dead_code)]
        impl $name {
            /// The value whose bits are `value`'s.
            #[inline(always)]
            $vis const fn from_raw(value: $storage) -> Self {
                Self { inner: value }
            }

            /// The bits of `self`, as the storage type (as its [`From`] conversion).
            #[inline(always)]
            $vis const fn into_raw(self) -> $storage {
                self.inner
            }

            $(
                $crate::bitfield!(@field $vis $name $storage, $hi, $lo, $field);
                $crate::bitfield!(
                    @accessors [$(#[doc = $doc])*] $vis $name $storage, $hi, $lo, $field
                    $(?=> $fallible)? $(=> $infallible)?
                );
            )*
        }

        // SAFETY: The type is `#[repr(transparent)]` around an unsigned integer, for which all
        // zero bits are the value 0.
        unsafe impl $crate::prelude::Zeroable for $name {}

        impl ::core::convert::From<$storage> for $name {
            #[inline(always)]
            fn from(value: $storage) -> Self {
                Self::from_raw(value)
            }
        }

        impl ::core::convert::From<$name> for $storage {
            #[inline(always)]
            fn from(value: $name) -> Self {
                value.into_raw()
            }
        }

        impl ::core::fmt::Debug for $name {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut out = f.debug_struct(::core::stringify!($name));
                out.field("<raw>", &::core::format_args!("{:#x}", self.inner));
                $(
                    out.field(::core::stringify!($field), &self.$field());
                )*
                out.finish()
            }
        }
    };

    // The field's width in bits, `hi - lo + 1`: a reversed range fails the build here.
    (@width $hi:literal, $lo:literal) => {
        match ($hi + 1_u32).checked_sub($lo) {
            ::core::option::Option::Some(width) => width,
            ::core::option::Option::None => {
                ::core::panic!("bitfield!: a field's high bit is below its low bit")
            }
        }
    };

    // The constants of a field and its two private accessors, on its exact `Bounded`.
    (@field $vis:vis $name:ident $storage:ty, $hi:literal, $lo:literal, $field:ident) => {
        $crate::macros::paste! {
            /// The bits of this field, `lo..=hi`.
            $vis const [<$field:upper _RANGE>]: ::core::ops::RangeInclusive<u8> = $lo..=$hi;
            /// The bits of this field, set, in the storage type.
            $vis const [<$field:upper _MASK>]: $storage =
                ((<$storage>::MAX >> (<$storage>::BITS - 1 - $hi)) >> $lo) << $lo;
            /// The position of this field's lowest bit.
            $vis const [<$field:upper _SHIFT>]: u32 = $lo;

            #[inline(always)]
            fn [<__ $field>](self) -> $crate::num::Bounded<
                $storage,
                { $crate::bitfield!(@width $hi, $lo) },
            > {
                // Shifting left drops the bits above the field; shifting right then drops
                // those below it, and leaves a value of the field's width.
                const ABOVE: u32 = match <$storage>::BITS.checked_sub($hi + 1) {
                    ::core::option::Option::Some(bits) => bits,
                    ::core::option::Option::None => ::core::panic!(
                        "bitfield!: a field's high bit is past the storage type's width"
                    ),
                };
                const BELOW: u32 = ABOVE + $lo;
                $crate::num::Bounded::<$storage, { <$storage>::BITS }>::from(self.inner << ABOVE)
                    .shr::<BELOW, { $crate::bitfield!(@width $hi, $lo) }>()
            }

            #[inline(always)]
            const fn [<__with_ $field>](
                self,
                value: $crate::num::Bounded<$storage, { $crate::bitfield!(@width $hi, $lo) }>,
            ) -> Self {
                let others = self.inner & !Self::[<$field:upper _MASK>];
                Self {
                    inner: others | (value.get() << Self::[<$field:upper _SHIFT>]),
                }
            }
        }
    };

    // A field converted infallibly, `=> Type`.
    (
        @accessors [$($doc:tt)*] $vis:vis $name:ident $storage:ty, $hi:literal, $lo:literal,
        $field:ident => $infallible:ty
    ) => {
        $crate::macros::paste! {
            $($doc)*
            #[doc = ""]
            #[doc = "Reads this field."]
            #[inline(always)]
            $vis fn $field(self) -> $infallible {
                ::core::convert::Into::into(self.[<__ $field>]())
            }

            $($doc)*
            #[doc = ""]
            #[doc = "Returns `self` with this field set to `value`."]
            #[inline(always)]
            $vis fn [<with_ $field>](self, value: $infallible) -> Self {
                self.[<__with_ $field>](::core::convert::Into::into(value))
            }
        }
    };

    // A field converted fallibly, `?=> Type`.
    (
        @accessors [$($doc:tt)*] $vis:vis $name:ident $storage:ty, $hi:literal, $lo:literal,
        $field:ident ?=> $fallible:ty
    ) => {
        $crate::macros::paste! {
            $($doc)*
            #[doc = ""]
            #[doc = "Reads this field, or the error of its conversion."]
            #[inline(always)]
            $vis fn $field(self) -> ::core::result::Result<
                $fallible,
                <$fallible as ::core::convert::TryFrom<
                    $crate::num::Bounded<$storage, { $crate::bitfield!(@width $hi, $lo) }>,
                >>::Error,
            > {
                <$fallible as ::core::convert::TryFrom<_>>::try_from(self.[<__ $field>]())
            }

            $($doc)*
            #[doc = ""]
            #[doc = "Returns `self` with this field set to `value`."]
            #[inline(always)]
            $vis fn [<with_ $field>](self, value: $fallible) -> Self {
                self.[<__with_ $field>](::core::convert::Into::into(value))
            }
        }
    };

    // A field read and written as its `Bounded`.
    (
        @accessors [$($doc:tt)*] $vis:vis $name:ident $storage:ty, $hi:literal, $lo:literal,
        $field:ident
    ) => {
        $crate::macros::paste! {
            $($doc)*
            #[doc = ""]
            #[doc = "Reads this field."]
            #[inline(always)]
            $vis fn $field(self) -> $crate::num::Bounded<
                $storage,
                { $crate::bitfield!(@width $hi, $lo) },
            > {
                self.[<__ $field>]()
            }

            $($doc)*
            #[doc = ""]
            #[doc = "Returns `self` with this field set to the constant `VALUE`, which must fit: \
                     otherwise the build fails."]
            #[inline(always)]
            $vis const fn [<with_const_ $field>]<const VALUE: $storage>(self) -> Self {
                self.[<__with_ $field>](
                    $crate::num::Bounded::<
                        $storage,
                        { $crate::bitfield!(@width $hi, $lo) },
                    >::new::<VALUE>(),
                )
            }

            $($doc)*
            #[doc = ""]
            #[doc = "Returns `self` with this field set to `value`, whose type guarantees that \
                     it fits."]
            #[inline(always)]
            $vis fn [<with_ $field>]<T>(self, value: T) -> Self
            where
                T: ::core::convert::Into<
                    $crate::num::Bounded<$storage, { $crate::bitfield!(@width $hi, $lo) }>,
                >,
            {
                self.[<__with_ $field>](::core::convert::Into::into(value))
            }

            $($doc)*
            #[doc = ""]
            #[doc = "Returns `self` with this field set to `value`, or `EOVERFLOW` if `value` \
                     does not fit."]
            #[inline(always)]
            $vis fn [<try_with_ $field>]<T>(self, value: T) -> $crate::error::Result<Self>
            where
                T: $crate::num::TryIntoBounded<$storage, { $crate::bitfield!(@width $hi, $lo) }>,
            {
                match $crate::num::TryIntoBounded::try_into_bounded(value) {
                    ::core::option::Option::Some(value) => {
                        ::core::result::Result::Ok(self.[<__with_ $field>](value))
                    }
                    ::core::option::Option::None => {
                        ::core::result::Result::Err($crate::error::code::EOVERFLOW)
                    }
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use crate::error::code::EOVERFLOW;
    use crate::num::Bounded;
    use crate::prelude::Zeroable;

    crate::bitfield! {
        /// Every edge of a `u8`: bit 0, the top bit, a full-width field over them.
        struct Edges8(u8) {
            0:0 bit0;
            7:7 top;
            7:0 all;
            6:1 middle;
        }
    }

    crate::bitfield! {
        struct Edges16(u16) {
            0:0 bit0;
            15:15 top;
            15:0 all;
            14:1 middle;
        }
    }

    crate::bitfield! {
        struct Edges32(u32) {
            0:0 bit0;
            31:31 top;
            31:0 all;
            30:1 middle;
        }
    }

    crate::bitfield! {
        pub(crate) struct Edges64(u64) {
            0:0 bit0;
            63:63 top;
            63:0 all;
            62:1 middle;
        }
    }

    /// For each width: the constants, every 1-bit field position through the full-width
    /// field, setters keeping the other bits, and the raw conversions.
    macro_rules! edges {
        ($test:ident, $ty:ident, $storage:ident) => {
            #[test]
            fn $test() {
                const BITS: u32 = <$storage>::BITS;
                const TOP: $storage = 1 << (BITS - 1);
                assert_eq!($ty::BIT0_MASK, 1);
                assert_eq!($ty::BIT0_SHIFT, 0);
                assert_eq!($ty::BIT0_RANGE, 0..=0);
                assert_eq!($ty::TOP_MASK, TOP);
                assert_eq!($ty::TOP_SHIFT, BITS - 1);
                assert_eq!($ty::TOP_RANGE, (BITS - 1) as u8..=(BITS - 1) as u8);
                assert_eq!($ty::ALL_MASK, <$storage>::MAX);
                assert_eq!($ty::ALL_SHIFT, 0);
                assert_eq!($ty::MIDDLE_MASK, <$storage>::MAX & !TOP & !1);
                assert_eq!($ty::MIDDLE_SHIFT, 1);

                let zero = $ty::zeroed();
                assert_eq!(zero.into_raw(), 0);
                assert_eq!(zero, $ty::from_raw(0));

                // 1-bit fields at both ends, as `bool`, as `Bounded` and as constants.
                let v = zero.with_bit0(true);
                assert_eq!(v.into_raw(), 1);
                assert!(v.bit0().into_bool() && !v.top().into_bool());
                let v = v.with_top(true);
                assert_eq!(v.into_raw(), TOP | 1);
                assert_eq!(v.middle(), 0);
                let v = v
                    .with_const_bit0::<0>()
                    .with_top(Bounded::<$storage, 1>::new::<1>());
                assert_eq!(v.into_raw(), TOP);
                assert!(v.top().into_bool());
                assert_eq!(v.with_const_top::<0>().into_raw(), 0);

                // The full-width field takes and gives every bit.
                let all = zero.with_all(<$storage>::MAX);
                assert_eq!(all.into_raw(), <$storage>::MAX);
                assert_eq!(all.all(), <$storage>::MAX);
                assert_eq!(all.middle(), <$storage>::MAX >> 2);
                assert_eq!(zero.with_const_all::<{ <$storage>::MAX }>(), all);
                assert_eq!(zero.try_with_all(<$storage>::MAX), Ok(all));

                // The middle field leaves both ends alone, set or clear.
                let middle = all.with_const_middle::<0>();
                assert_eq!(middle.into_raw(), TOP | 1);
                let middle = zero.with_const_middle::<{ <$storage>::MAX >> 2 }>();
                assert_eq!(middle.into_raw(), <$storage>::MAX & !TOP & !1);
                assert!(!middle.bit0().into_bool() && !middle.top().into_bool());

                // Out of range at run time: `EOVERFLOW`, and `self` is not changed.
                assert_eq!(zero.try_with_bit0(2_u8), Err(EOVERFLOW));
                assert_eq!(zero.try_with_middle(<$storage>::MAX >> 1), Err(EOVERFLOW));
                assert_eq!(zero.try_with_bit0(1_u8).map($ty::into_raw), Ok(1));
                assert_eq!(zero.try_with_top(-1_i8), Err(EOVERFLOW));

                // Every single bit through the full-width field and back.
                for n in 0..BITS {
                    let bit: $storage = 1 << n;
                    let v = $ty::from(bit);
                    assert_eq!(<$storage>::from(v), bit);
                    assert_eq!(v.all(), bit);
                    assert_eq!(v.bit0().into_bool(), n == 0);
                    assert_eq!(v.top().into_bool(), n == BITS - 1);
                    let inner = if n == 0 || n == BITS - 1 { 0 } else { bit >> 1 };
                    assert_eq!(v.middle(), inner);
                }
            }
        };
    }

    edges!(edges_u8, Edges8, u8);
    edges!(edges_u16, Edges16, u16);
    edges!(edges_u32, Edges32, u32);
    edges!(edges_u64, Edges64, u64);

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Speed {
        Slow,
        Fast,
    }

    impl From<Bounded<u32, 1>> for Speed {
        fn from(v: Bounded<u32, 1>) -> Self {
            if v.into_bool() {
                Speed::Fast
            } else {
                Speed::Slow
            }
        }
    }

    impl From<Speed> for Bounded<u32, 1> {
        fn from(s: Speed) -> Self {
            (s == Speed::Fast).into()
        }
    }

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

    crate::bitfield! {
        #[derive(Default)]
        struct Link(u32) {
            /// At bit 0.
            0:0 speed => Speed;
            /// At the top.
            31:29 lanes ?=> Lanes;
            /// Overlaps `lanes`.
            31:31 lanes_top;
            15:8 id => u8;
        }
    }

    #[test]
    fn conversions() {
        let link = Link::default();
        assert_eq!(link.speed(), Speed::Slow);
        // No lanes is not a `Lanes`.
        assert_eq!(link.lanes(), Err(0));

        let link = link
            .with_speed(Speed::Fast)
            .with_lanes(Lanes::Four)
            .with_id(0xa5);
        assert_eq!(link.into_raw(), 0x8000_a501);
        assert_eq!(link.speed(), Speed::Fast);
        assert_eq!(link.lanes(), Ok(Lanes::Four));
        assert!(link.lanes_top().into_bool());
        assert_eq!(link.id(), 0xa5_u8);

        // Setting one field through another that overlaps it.
        let link = link.with_lanes_top(false);
        assert_eq!(link.lanes(), Err(0));
        let link = link.with_lanes(Lanes::Two);
        assert_eq!(link.into_raw(), 0x4000_a501);
        assert_eq!(Link::from_raw(0xe000_0000).lanes(), Err(7));
        assert_eq!(Link::from_raw(0x2000_0000).lanes(), Ok(Lanes::One));
    }

    crate::bitfield! {
        struct Sparse(u16) {
            12:9 mid;
            3:3 one;
        }
    }

    #[test]
    fn other_bits_are_kept() {
        let gaps = !(Sparse::MID_MASK | Sparse::ONE_MASK);
        assert_eq!(gaps, 0xe1f7);
        for raw in [0, gaps, u16::MAX] {
            let v = Sparse::from_raw(raw)
                .with_const_mid::<0x9>()
                .with_one(false);
            assert_eq!(v.into_raw() & gaps, raw & gaps);
            assert_eq!(v.into_raw() & !gaps, 0x9 << 9);
        }
    }

    #[test]
    fn const_setters_in_const_context() {
        const V: Edges64 = Edges64::from_raw(0)
            .with_const_top::<1>()
            .with_const_middle::<{ (1 << 62) - 1 }>();
        const RAW: u64 = V.into_raw();
        assert_eq!(RAW, u64::MAX - 1);
    }

    #[test]
    fn debug() {
        extern crate std;
        use std::format;

        let link = Link::from_raw(0x4000_0201);
        assert_eq!(
            format!("{link:?}"),
            "Link { <raw>: 0x40000201, speed: Fast, lanes: Ok(Two), lanes_top: Bounded(0), \
             id: 2 }"
        );
        assert_eq!(
            format!("{:?}", Edges8::from_raw(0)),
            "Edges8 { <raw>: 0x0, bit0: Bounded(0), top: Bounded(0), all: Bounded(0), \
             middle: Bounded(0) }"
        );
    }
}
