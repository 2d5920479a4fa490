// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::fmt` on the host: kernel-core's own [`Display`], [`Pointer`], [`HashedPtr`] and
//! [`Adapter`], with Linux 7.3's signatures and behaviour, and `core::fmt`'s other items.
//!
//! The one host primitive is the pointer hash of `%p`, [`hash_pointer`]: SipHash-2-4 of the
//! address under a fixed key, as `lib/vsprintf.c` hashes it under its random one.

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
        let text = percent_p(self.0.cast::<()>().addr(), width, &mut buffer);
        if f.sign_aware_zero_pad() {
            // The width and the zeros are in `text` already, as `%#0*p` wrote them.
            f.write_str(text)
        } else {
            f.pad(text)
        }
    }
}

/// `%#0*p` of `addr` at `width` (at most 31), into `buffer`: the hash of the address (or the
/// address itself, if null or an error pointer), in lowercase hexadecimal after `0x`, with
/// zeros between them up to `width` characters.
fn percent_p(addr: usize, width: usize, buffer: &mut [u8; 32]) -> &str {
    /// `MAX_ERRNO` of `include/linux/err.h`: `IS_ERR_OR_NULL()` is true of `0` and of the last
    /// 4095 addresses.
    const MAX_ERRNO: usize = 4095;
    let value = if addr == 0 || addr > usize::MAX - MAX_ERRNO {
        addr
    } else {
        hash_pointer(addr)
    };
    let digits = (usize::BITS - value.leading_zeros()).div_ceil(4).max(1) as usize;
    let len = width.max(2 + digits).min(buffer.len() - 1);
    buffer[0] = b'0';
    buffer[1] = b'x';
    buffer[2..len].fill(b'0');
    let mut rest = value;
    for slot in buffer[len - digits..len].iter_mut().rev() {
        *slot = b"0123456789abcdef"[rest & 0xf];
        rest >>= 4;
    }
    // Only ASCII was written.
    core::str::from_utf8(&buffer[..len]).unwrap_or("")
}

/// The key of [`hash_pointer`]: `ptr_key` of `lib/vsprintf.c`, which the kernel fills from its
/// random number generator at boot, fixed here (the first 16 bytes of SHA-256("kernel-core")
/// would do as well as any: these are the bytes of "kernel-core %p!\n").
const POINTER_KEY: [u64; 2] = [
    u64::from_le_bytes(*b"kernel-c"),
    u64::from_le_bytes(*b"ore %p!\n"),
];

/// The hash that `%p` prints for `addr`: `ptr_to_hashval()` of `lib/vsprintf.c`, which is
/// `siphash_1u64(addr)` masked to its low 32 bits on 64-bit kernels and `siphash_1u32(addr)`
/// on 32-bit ones, under [`POINTER_KEY`].
pub(crate) fn hash_pointer(addr: usize) -> usize {
    #[cfg(target_pointer_width = "64")]
    let hash = siphash_2_4(addr as u64, 8, POINTER_KEY) & 0xffff_ffff;
    #[cfg(not(target_pointer_width = "64"))]
    let hash = siphash_2_4(addr as u64, 4, POINTER_KEY);
    hash as usize
}

/// SipHash-2-4 of a message of `len` (at most 8) bytes, given as the little-endian `u64`
/// `message`: what `siphash_1u64()` (`len` 8) and `siphash_1u32()` (`len` 4) of
/// `lib/siphash.c` compute.
const fn siphash_2_4(message: u64, len: u64, key: [u64; 2]) -> u64 {
    /// One SipRound.
    const fn round(v: &mut [u64; 4]) {
        v[0] = v[0].wrapping_add(v[1]);
        v[1] = v[1].rotate_left(13);
        v[1] ^= v[0];
        v[0] = v[0].rotate_left(32);
        v[2] = v[2].wrapping_add(v[3]);
        v[3] = v[3].rotate_left(16);
        v[3] ^= v[2];
        v[0] = v[0].wrapping_add(v[3]);
        v[3] = v[3].rotate_left(21);
        v[3] ^= v[0];
        v[2] = v[2].wrapping_add(v[1]);
        v[1] = v[1].rotate_left(17);
        v[1] ^= v[2];
        v[2] = v[2].rotate_left(32);
    }

    let mut v = [
        0x736f_6d65_7073_6575 ^ key[0],
        0x646f_7261_6e64_6f6d ^ key[1],
        0x6c79_6765_6e65_7261 ^ key[0],
        0x7465_6462_7974_6573 ^ key[1],
    ];
    // The last block: the message's length in the top byte, its bytes below (a full 8-byte
    // message is a block of its own, compressed first).
    let mut last = len << 56;
    if len == 8 {
        v[3] ^= message;
        round(&mut v);
        round(&mut v);
        v[0] ^= message;
    } else {
        last |= message;
    }
    v[3] ^= last;
    round(&mut v);
    round(&mut v);
    v[0] ^= last;
    v[2] ^= 0xff;
    round(&mut v);
    round(&mut v);
    round(&mut v);
    round(&mut v);
    v[0] ^ v[1] ^ v[2] ^ v[3]
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference vectors of SipHash-2-4 for the bytes `00 01 .. 07` and `00 01 02 03` under
    /// the key `00 01 .. 0f`, as `lib/tests/siphash_kunit.c` checks `siphash_1u64()` and
    /// `siphash_1u32()` (`test_vectors[8]` and `[4]`).
    #[test]
    fn siphash_reference_vector() {
        let key = [
            u64::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7]),
            u64::from_le_bytes([8, 9, 10, 11, 12, 13, 14, 15]),
        ];
        let message = u64::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(siphash_2_4(message, 8, key), 0x93f5_f579_9a93_2462);
        assert_eq!(siphash_2_4(0x0302_0100, 4, key), 0xcf27_94e0_2771_87b7);
    }

    #[test]
    fn percent_p_pads_and_clamps() {
        let mut buffer = [0; 32];
        assert_eq!(percent_p(0, 18, &mut buffer), "0x0000000000000000");
        assert_eq!(
            percent_p(usize::MAX, 4, &mut buffer).len(),
            2 + 2 * size_of::<usize>()
        );
        let hashed = percent_p(0x1000, 40, &mut buffer);
        assert_eq!(hashed.len(), 31);
        assert!(hashed[2..].bytes().all(|b| b.is_ascii_hexdigit()));
    }
}
