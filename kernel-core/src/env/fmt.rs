// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::fmt` on the host and on Linux 6.12: kernel-core's own [`Display`], [`Pointer`], [`HashedPtr`] and
//! [`Adapter`], with Linux 7.3's signatures and behaviour, and `core::fmt`'s other items.
//!
//! The one primitive that differs is `%p` itself (`env::percent_p`): on the host, SipHash-2-4 of
//! the address under a fixed key, as `lib/vsprintf.c` hashes it under its random one; on 6.12,
//! the kernel's own `scnprintf("%#0*p")`.

use core::ptr::NonNull;

pub use core::fmt::{Arguments, Debug, Error, Formatter, Result, Write};

use core::fmt::{Binary, LowerExp, LowerHex, Octal, UpperExp, UpperHex};

/// Routes the formatting of an argument of [`fmt!`](crate::macros::fmt) to kernel-core's traits
/// ([`Display`], [`Pointer`]) or `core`'s (the others): the macro wraps every argument in one.
///
/// An implementation detail of `fmt!`, not meant to be used directly; Linux 7.3 hides it too.
///
/// # Examples
///
/// ```
/// use kernel_core::fmt::Adapter;
///
/// assert_eq!(format!("{:#x}", Adapter(&255_u8)), "0xff");
/// assert_eq!(format!("{}", Adapter(&"kernel")), "kernel");
/// ```
#[doc(hidden)]
pub struct Adapter<T>(pub T);

/// Implements each of `core`'s formatting traits for `Adapter<T>` where `T` implements it.
macro_rules! forward_to_core {
    ($($name:ident),*) => {$(
        impl<T: $name> $name for Adapter<T> {
            #[inline]
            fn fmt(&self, f: &mut Formatter<'_>) -> Result {
                $name::fmt(&self.0, f)
            }
        }
    )*};
}

forward_to_core!(Debug, LowerHex, UpperHex, Octal, Binary, LowerExp, UpperExp);

/// The kernel's own copy of [`core::fmt::Pointer`], which `{:p}` in [`fmt!`](crate::macros::fmt)
/// (and so in `pr_info!` and its siblings) uses: raw pointers, references and [`NonNull`]
/// implement it through [`HashedPtr`], so that they print as the kernel's `%p` does, hashed,
/// never leaking an address.
///
/// # Examples
///
/// ```
/// use kernel_core::fmt::{Formatter, Pointer, Result};
///
/// struct Handle(*const u8);
///
/// impl Pointer for Handle {
///     fn fmt(&self, f: &mut Formatter<'_>) -> Result {
///         Pointer::fmt(&self.0, f)
///     }
/// }
///
/// let byte = 0_u8;
/// let line = format!("{}", kernel_core::macros::fmt!("{:p}", Handle(&byte)));
/// assert_eq!(line, format!("{}", kernel_core::macros::fmt!("{:p}", &byte))); // hashed alike
/// ```
pub trait Pointer {
    /// Formats the value, as [`core::fmt::Pointer::fmt`] does.
    fn fmt(&self, f: &mut Formatter<'_>) -> Result;
}

/// A pointer that formats as the kernel's `%p`: hashed, so that the log never shows a kernel
/// address.
///
/// As `lib/vsprintf.c` prints it with `%#0*p` (`"0x"`, then zeros up to the width): by default
/// `0x` and `2 * size_of::<usize>()` hexadecimal digits, of which only the last eight vary
/// (`0x00000000c0ffee42` on 64-bit). A width with the `0` flag (`{:024p}`) zero-pads to that
/// width, at most 31 characters; another width (`{:>24p}`) pads the 18 characters with the
/// fill. The null pointer and error pointers (the last 4095 addresses) print unhashed, as in C.
///
/// The hash is the kernel's, SipHash-2-4 of the address (on 64-bit, its low 32 bits), but with
/// a key fixed in kernel-core where the kernel draws a random one at boot: the 16 bytes of
/// `"kernel-core %p!\n"`. On the host the same address always prints the same, in every
/// process, and different addresses almost always differently. Booted with `no_hash_pointers`, the kernel prints real addresses; the host
/// always hashes.
///
/// # Examples
///
/// ```
/// use kernel_core::fmt::HashedPtr;
/// use kernel_core::macros::fmt;
///
/// let value = 0_u64;
/// let ptr: *const u64 = &value;
/// let shown = format!("{}", fmt!("{:p}", HashedPtr(ptr)));
/// assert_eq!(shown.len(), 2 + 2 * size_of::<usize>());
/// assert!(shown.starts_with("0x"));
/// assert_ne!(shown, format!("{:#0w$x}", ptr.addr(), w = shown.len())); // not the address
/// assert_eq!(shown, format!("{}", fmt!("{:p}", ptr))); // what raw pointers print
///
/// let null = format!("{}", fmt!("{:p}", core::ptr::null::<u8>()));
/// assert_eq!(null, format!("0x{:0w$}", 0, w = 2 * size_of::<usize>())); // not hashed
/// ```
pub struct HashedPtr<T: ?Sized>(pub *const T);

impl<T: ?Sized> Pointer for HashedPtr<T> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        /// The size of the kernel's buffer for `scnprintf`, whose output stops one byte short.
        const BUFFER: usize = 32;
        let default_width = 2 * size_of::<usize>() + 2;
        let width = match (f.sign_aware_zero_pad(), f.width()) {
            (true, Some(width)) if width > 0 => width.min(BUFFER - 1),
            _ => default_width,
        };
        let mut buffer = [0_u8; BUFFER];
        let text = crate::env::percent_p::percent_p(self.0.cast::<()>().addr(), width, &mut buffer);
        if f.sign_aware_zero_pad() {
            // The width and the zeros are in `text` already, as `%#0*p` wrote them.
            f.write_str(text)
        } else {
            f.pad(text)
        }
    }
}

impl<T: ?Sized> Pointer for *const T {
    #[inline]
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        Pointer::fmt(&HashedPtr(*self), f)
    }
}

impl<T: ?Sized> Pointer for *mut T {
    #[inline]
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        Pointer::fmt(&HashedPtr(self.cast_const()), f)
    }
}

impl<T: ?Sized> Pointer for &T {
    #[inline]
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        Pointer::fmt(&HashedPtr(core::ptr::from_ref(*self)), f)
    }
}

impl<T: ?Sized> Pointer for &mut T {
    #[inline]
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        Pointer::fmt(&HashedPtr(core::ptr::from_ref(*self)), f)
    }
}

impl<T: ?Sized> Pointer for NonNull<T> {
    #[inline]
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        Pointer::fmt(&HashedPtr(self.as_ptr().cast_const()), f)
    }
}

/// `{:p}` of an [`Adapter`] is kernel-core's [`Pointer`].
impl<T: Pointer> core::fmt::Pointer for Adapter<&T> {
    #[inline]
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        Pointer::fmt(self.0, f)
    }
}

/// The kernel's own copy of [`core::fmt::Display`], which `{}` in [`fmt!`](crate::macros::fmt)
/// (and so in `pr_info!` and its siblings) uses.
///
/// Being the kernel's, it can be implemented for types of other crates (`core`'s [`CStr`],
/// say), which `core::fmt::Display` cannot. A driver implements this trait for its types, not
/// `core`'s, for them to print with `pr_info!`. Implemented for `bool`, `char`, the integers
/// (but `f32`/`f64`: the kernel has no floating point), `str`, [`Arguments`],
/// `core::panic::PanicInfo`, references to any of them, and kernel-core's types that print:
/// [`CStr`], [`BStr`](crate::str::BStr), [`Decimal`](crate::extras::fmt::Decimal).
///
/// [`CStr`]: crate::str::CStr
///
/// # Examples
///
/// ```
/// use kernel_core::fmt::{self, Display};
/// use kernel_core::macros::fmt;
///
/// struct Celsius(i32);
///
/// impl Display for Celsius {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
///         write!(f, "{} °C", self.0)
///     }
/// }
///
/// let temp = Celsius(-4);
/// assert_eq!(format!("{}", fmt!("now {temp}, was {}", Celsius(2))), "now -4 °C, was 2 °C");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not implement `kernel_core::fmt::Display`, which `{{}}` in `fmt!` and `pr_*!` uses",
    note = "implement the kernel's `kernel_core::fmt::Display` for it (as Linux 7.3's `kernel::fmt::Display`), not `core::fmt::Display`"
)]
pub trait Display {
    /// Formats the value, as [`core::fmt::Display::fmt`] does.
    fn fmt(&self, f: &mut Formatter<'_>) -> Result;
}

impl<T: ?Sized + Display> Display for &T {
    #[inline]
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        Display::fmt(*self, f)
    }
}

/// `{}` of an [`Adapter`] is kernel-core's [`Display`].
impl<T: ?Sized + Display> core::fmt::Display for Adapter<&T> {
    #[inline]
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        Display::fmt(self.0, f)
    }
}

/// Implements [`Display`] as `core`'s for each type.
macro_rules! display_as_core {
    ($($({$($generics:tt)*})? $ty:ty),* $(,)?) => {$(
        impl$(<$($generics)*>)? Display for $ty {
            #[inline]
            fn fmt(&self, f: &mut Formatter<'_>) -> Result {
                core::fmt::Display::fmt(self, f)
            }
        }
    )*};
}

// In a Linux 6.12 module (where this file is `kernel::fmt`), the kernel's own `Box`, `Arc` and
// `UniqueArc`, which implement only `core`'s `Display` there: the kernel's too, as Linux 7.3's
// implement it, so that `{}` in `fmt!` and `pr_*!` reads them as on 7.3. On the host they are
// kernel-core's, which implement it where they are defined.
#[cfg(kernel)]
impl<T: ?Sized + Display, A: kernel::alloc::Allocator> Display for kernel::alloc::Box<T, A> {
    #[inline]
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        Display::fmt(&**self, f)
    }
}

#[cfg(kernel)]
impl<T: ?Sized + Display> Display for kernel::sync::Arc<T> {
    #[inline]
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        Display::fmt(&**self, f)
    }
}

#[cfg(kernel)]
impl<T: ?Sized + Display> Display for kernel::sync::UniqueArc<T> {
    #[inline]
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        Display::fmt(&**self, f)
    }
}

display_as_core!(
    bool,
    char,
    core::panic::PanicInfo<'_>,
    Arguments<'_>,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    str,
    crate::extras::fmt::Decimal<u64>,
    crate::extras::fmt::Decimal<i64>,
);
