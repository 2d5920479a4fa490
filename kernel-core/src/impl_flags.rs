// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! [`impl_flags!`](crate::impl_flags!): a set-of-flags type and its flag type, in one
//! declaration.
//!
//! Kernel counterpart: `rust/kernel/impl_flags.rs` (Linux 7.3), whose macro the kernel exports at
//! its crate root, `kernel::impl_flags!`; kernel-core does the same, `kernel_core::impl_flags!`,
//! so `use kernel_core::impl_flags;` imports the macro (and this module) as
//! `use kernel::impl_flags;` does.
//!
//! A register or a parameter that holds a combination of named bits is a pair of types: the
//! set, a newtype around the integer, and the single flag, an enum whose discriminants are the
//! bits. The macro declares both and the operators between them, so that `Flag::A | Flag::B`
//! is a set, sets can be masked, toggled and inverted without ever setting a bit that no flag
//! names, and `contains` asks for one flag.
//!
//! # Examples
//!
//! ```
//! use kernel_core::impl_flags;
//!
//! impl_flags!(
//!     /// Which interrupts are enabled.
//!     #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
//!     pub struct Irqs(u16);
//!
//!     /// One interrupt.
//!     #[derive(Debug, Clone, Copy, PartialEq, Eq)]
//!     pub enum Irq {
//!         /// Receive complete.
//!         Rx = 1 << 0,
//!         /// Transmit complete.
//!         Tx = 1 << 1,
//!         /// Error.
//!         Err = 1 << 8,
//!     }
//! );
//!
//! let enabled = Irq::Rx | Irq::Err;
//! assert_eq!(u16::from(enabled), 0x101);
//! assert!(enabled.contains(Irq::Rx) && !enabled.contains(Irq::Tx));
//! // Inverting never sets a bit that no flag names.
//! assert_eq!(u16::from(!enabled), 0x002);
//! assert_eq!(Irqs::all_bits(), 0x103);
//! ```

/// Declares a set-of-flags type around an integer, the enum of its flags, and the bitwise
/// operators between them.
///
/// The input is a tuple struct with one integer field (the set) followed by a field-less enum
/// whose variants all have explicit discriminants of that integer type (the flags), each with
/// any attributes and visibility. The macro adds `#[repr(transparent)]` to the struct and
/// `#[repr(<integer>)]` to the enum, and generates:
///
/// - `From<Flag> for Flags` and `From<Flags> for <integer>`;
/// - `|`, `&`, `^` (and `|=`, `&=`, `^=`) between two sets and between a set and a flag, and
///   `|`, `&`, `^` between two flags, which give a set;
/// - `!` on a set and on a flag, which gives a set;
/// - `Flags::empty()` and `Flags::all_bits()` (`const fn`s: no flag, and the union of every
///   flag's bits, as the integer);
/// - `Flags::contains(flag)`, `Flags::contains_any(flags)` and `Flags::contains_all(flags)`.
///
/// `^` and `!` keep only the bits of [`all_bits`](#all_bits), so no operator sets a bit that
/// no flag names; `|` and `&` are the plain integer operations. Both types must be [`Copy`]:
/// the generated code copies them.
///
/// # Examples
///
/// ```
/// use kernel_core::impl_flags;
///
/// impl_flags!(
///     /// Represents multiple permissions.
///     #[derive(Debug, Clone, Default, Copy, PartialEq, Eq)]
///     pub struct Permissions(u32);
///
///     /// Represents a single permission.
///     #[derive(Debug, Clone, Copy, PartialEq, Eq)]
///     pub enum Permission {
///         /// Read permission.
///         Read = 1 << 0,
///         /// Write permission.
///         Write = 1 << 1,
///         /// Execute permission.
///         Execute = 1 << 2,
///     }
/// );
///
/// let mut read_write: Permissions = Permission::Read | Permission::Write;
/// assert!(read_write.contains(Permission::Read));
/// assert!(!read_write.contains(Permission::Execute));
/// assert!(read_write.contains_any(Permission::Read | Permission::Execute));
/// assert!(read_write.contains_all(Permission::Read | Permission::Write));
///
/// read_write |= Permission::Execute;
/// assert!(read_write.contains(Permission::Execute));
///
/// let read_only: Permissions = read_write & Permission::Read;
/// assert_eq!(u32::from(read_only), 0b001);
/// assert_eq!(u32::from(read_only ^ Permission::Read), 0);
/// assert_eq!(u32::from(!read_only), 0b110);
/// assert_eq!(Permissions::empty(), Permissions::default());
/// assert_eq!(Permissions::all_bits(), 0b111);
/// ```
#[macro_export]
macro_rules! impl_flags {
    (
        $(#[$set_meta:meta])*
        $set_vis:vis struct $set:ident($int:ty);

        $(#[$flag_meta:meta])*
        $flag_vis:vis enum $flag:ident {
            $(
                $(#[$variant_meta:meta])*
                $variant:ident = $bits:expr
            ),+ $(,)?
        }
    ) => {
        $(#[$set_meta])*
        #[repr(transparent)]
        $set_vis struct $set($int);

        $(#[$flag_meta])*
        #[repr($int)]
        $flag_vis enum $flag {
            $(
                $(#[$variant_meta])*
                $variant = $bits
            ),+
        }

        impl $set {
            /// The set with no flag.
            #[inline]
            pub const fn empty() -> Self {
                Self(0)
            }

            /// The bits of every flag, together.
            #[inline]
            pub const fn all_bits() -> $int {
                0 $(| $bits)+
            }

            /// Whether every bit of `flag` is in `self`.
            #[inline]
            pub fn contains(self, flag: $flag) -> bool {
                let bits = flag as $int;
                (self.0 & bits) == flag as $int
            }

            /// Whether `self` and `flags` have a bit in common.
            #[inline]
            pub fn contains_any(self, flags: $set) -> bool {
                (self.0 & flags.0) != 0
            }

            /// Whether every bit of `flags` is in `self`.
            #[inline]
            pub fn contains_all(self, flags: $set) -> bool {
                (self.0 & flags.0) == flags.0
            }
        }

        impl ::core::convert::From<$flag> for $set {
            #[inline]
            fn from(flag: $flag) -> Self {
                Self(flag as $int)
            }
        }

        impl ::core::convert::From<$set> for $int {
            #[inline]
            fn from(flags: $set) -> Self {
                flags.0
            }
        }

        $crate::__impl_flags_operator!($set, $flag, $int, BitOr, bitor, BitOrAssign, bitor_assign,
                                       |a, b| a | b);
        $crate::__impl_flags_operator!($set, $flag, $int, BitAnd, bitand, BitAndAssign, bitand_assign,
                                       |a, b| a & b);
        $crate::__impl_flags_operator!($set, $flag, $int, BitXor, bitxor, BitXorAssign, bitxor_assign,
                                       |a, b| (a ^ b) & $set::all_bits());

        impl ::core::ops::Not for $set {
            type Output = Self;

            #[inline]
            fn not(self) -> Self {
                Self(!self.0 & Self::all_bits())
            }
        }

        impl ::core::ops::Not for $flag {
            type Output = $set;

            #[inline]
            fn not(self) -> $set {
                $set(!(self as $int) & $set::all_bits())
            }
        }
    };
}

/// One operator of [`impl_flags!`]: set op set, set op flag, flag op flag, and the two
/// assignments. `$a` and `$b` name the two integers in `$result`.
///
/// Not for direct use; it is public because [`impl_flags!`] expands to it.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_flags_operator {
    ($set:ident, $flag:ident, $int:ty, $op:ident, $method:ident, $op_assign:ident,
     $method_assign:ident, |$a:ident, $b:ident| $result:expr) => {
        impl ::core::ops::$op for $set {
            type Output = Self;

            #[inline]
            fn $method(self, rhs: Self) -> Self {
                let ($a, $b): ($int, $int) = (self.0, rhs.0);
                Self($result)
            }
        }

        impl ::core::ops::$op<$flag> for $set {
            type Output = Self;

            #[inline]
            fn $method(self, rhs: $flag) -> Self {
                ::core::ops::$op::$method(self, $set::from(rhs))
            }
        }

        impl ::core::ops::$op for $flag {
            type Output = $set;

            #[inline]
            fn $method(self, rhs: Self) -> $set {
                let ($a, $b): ($int, $int) = (self as $int, rhs as $int);
                $set($result)
            }
        }

        impl ::core::ops::$op_assign for $set {
            #[inline]
            fn $method_assign(&mut self, rhs: Self) {
                *self = ::core::ops::$op::$method(*self, rhs);
            }
        }

        impl ::core::ops::$op_assign<$flag> for $set {
            #[inline]
            fn $method_assign(&mut self, rhs: $flag) {
                *self = ::core::ops::$op::$method(*self, rhs);
            }
        }
    };
}
