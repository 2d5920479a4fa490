// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! [`FromBytes`] and [`IntoBytes`]: the types that [`Io::try_cast`](crate::io::Io::try_cast),
//! [`Io::copy_read`](crate::io::Io::copy_read) and [`Io::copy_write`](crate::io::Io::copy_write)
//! move to and from I/O memory as bytes.
//!
//! In Linux 7.3 these bounds are the `zerocopy` crate's traits, which the kernel vendors and
//! its prelude exports with their derive macros (`#[derive(FromBytes, IntoBytes)]`). kernel-core
//! builds where no `zerocopy` exists (the host without crates.io dependencies, Linux 6.12), so
//! the traits here are its own, an addition:
//!
//! - **on Linux 7.2 and 7.3** every type that implements the kernel's `zerocopy` traits
//!   implements these (a blanket implementation): a driver derives the kernel's
//!   `FromBytes`/`IntoBytes` from its prelude, and kernel-core's `Io` takes the type;
//! - **on the host and Linux 6.12** they are implemented for the integer types, `()`, arrays and
//!   slices of them and [`Region`](crate::io::Region), and `kernel_core::prelude` exports them
//!   with kernel-core's own derive macros, as Linux 7.3's prelude exports `zerocopy`'s: a
//!   driver writes `#[derive(FromBytes, IntoBytes)]` in every world. kernel-core's derives take
//!   the structs `zerocopy`'s take, by its rules, and check at compile time what the traits'
//!   safety sections ask: every field plain bytes; for `IntoBytes` no padding (the size is the
//!   sum of the fields' sizes, whatever the `repr`; a generic struct needs a layout that rules
//!   padding out: `#[repr(transparent)]`, `#[repr(packed)]`, or one `#[repr(C)]` field).
//!   Enums and unions are still an `unsafe impl`.
//!
//! # Examples
//!
//! ```
//! use kernel_core::prelude::*;
//!
//! /// A firmware header: any bytes are a valid one, and it has no padding.
//! #[derive(FromBytes, IntoBytes)]
//! #[repr(C)]
//! struct Header {
//!     magic: u32,
//!     version: u16,
//!     flags: u16,
//! }
//!
//! /// A mode to write: all its bytes are initialized, but not every byte is a mode, so it is
//! /// `IntoBytes` only, an enum, which kernel-core's derive does not take.
//! #[repr(u8)]
//! enum Mode {
//!     Off = 0,
//!     On = 1,
//! }
//! // SAFETY: `Mode` is one initialized byte.
//! unsafe impl kernel_core::extras::bytes::IntoBytes for Mode {}
//!
//! fn transferable<T: FromBytes + IntoBytes>() -> usize {
//!     size_of::<T>()
//! }
//! fn writable<T: IntoBytes>(_: &T) -> usize {
//!     size_of::<T>()
//! }
//! assert_eq!(transferable::<Header>(), 8);
//! assert_eq!(transferable::<[u16; 3]>(), 6);
//! assert_eq!(writable(&Mode::On) + writable(&Mode::Off), 2);
//! ```

/// The derive macros of [`FromBytes`] and [`IntoBytes`], where the traits are kernel-core's own
/// (on Linux 7.2 and 7.3 the kernel's prelude has `zerocopy`'s, whose impls this module's traits
/// follow).
#[cfg(not(kernel_core_linux_7_1))]
#[doc(inline)]
pub use kernel_core_macros::{FromBytes, IntoBytes};

/// A type for which every sequence of bytes of its size is a valid value: reading one from I/O
/// memory, whatever it holds, is sound.
///
/// Linux 7.3 bounds its `Io::try_cast` and `Io::copy_read` by `zerocopy::FromBytes`; see the
/// [module documentation](self) for how this trait relates to it on each kernel.
///
/// # Safety
///
/// Every initialized bit pattern of `size_of::<Self>()` bytes (for a slice type, of any multiple
/// of its element's size) must be a valid `Self`.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::bytes::FromBytes;
///
/// fn zero<T: FromBytes>() -> T {
///     // SAFETY: All zero bytes are a valid `T`, since any bytes are.
///     unsafe { core::mem::zeroed() }
/// }
/// assert_eq!(zero::<[u32; 2]>(), [0, 0]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not plain bytes: it does not implement `FromBytes`",
    label = "not every sequence of bytes is a valid `{Self}`",
    note = "the integers, arrays and slices of them and `Region` are `FromBytes`; for a struct of them, `#[derive(FromBytes)]` from the prelude (the kernel's on Linux 7.2 and 7.3, kernel-core's on the host and 6.12)"
)]
pub unsafe trait FromBytes {}

/// A type whose values are all initialized bytes, with no padding: writing one to I/O memory
/// as bytes is sound.
///
/// Linux 7.3 bounds its `Io::try_cast` and `Io::copy_write` by `zerocopy::IntoBytes`; see the
/// [module documentation](self) for how this trait relates to it on each kernel.
///
/// # Safety
///
/// Every byte of every value of `Self` must be initialized: no padding, no uninitialized
/// fields.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::bytes::IntoBytes;
///
/// fn byte_len<T: IntoBytes + ?Sized>(value: &T) -> usize {
///     size_of_val(value)
/// }
/// assert_eq!(byte_len(&[1_u16, 2, 3][..]), 6);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not plain bytes: it does not implement `IntoBytes`",
    label = "`{Self}` may have padding or uninitialized bytes",
    note = "the integers, arrays and slices of them and `Region` are `IntoBytes`; for a struct of them without padding, `#[derive(IntoBytes)]` from the prelude (the kernel's on Linux 7.2 and 7.3, kernel-core's on the host and 6.12)"
)]
pub unsafe trait IntoBytes {}
