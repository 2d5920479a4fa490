// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::str` on the host and on Linux 6.12: kernel-core's own [`BStr`], [`CStrExt`], [`CString`], the
//! formatters and `kstrtobool`, with Linux 7.3's signatures and behaviour; [`CStr`] is
//! `core::ffi::CStr`, as in 7.3.
//!
//! Nothing here depends on the host but `kstrtobool`, which the kernel computes in C
//! (`lib/kstrtox.c`) and which is computed here the same way.

use core::marker::PhantomData;
use core::ops::{Deref, DerefMut, Index};

use crate::alloc::{flags::GFP_KERNEL, AllocError, KVec};
// 7.3's `Vec` methods, on a kernel whose `Vec` lacks them (Linux 6.12).
#[allow(unused_imports)]
use crate::env::alloc::ext::*;
use crate::error::{code::EINVAL, Error, Result};
use crate::ffi::c_char;
use crate::fmt::{self, Write as _};

pub use core::ffi::CStr;

#[path = "str/parse_int.rs"]
pub mod parse_int;

/// A string of bytes, without the UTF-8 guarantee of `str`: what C code hands over.
///
/// It dereferences to `[u8]`; it prints ([`Display`](crate::fmt::Display), for `fmt!` and
/// `pr_info!`) printable ASCII as it is and other bytes escaped (`\t`, `\n`, `\r`, `\xNN`),
/// and `{:?}` quotes it, also escaping `"` and `\`.
///
/// # Examples
///
/// ```
/// use kernel_core::b_str;
/// use kernel_core::macros::fmt;
/// use kernel_core::str::BStr;
///
/// let name: &BStr = b_str!("eth0\n");
/// assert_eq!(name.len(), 5);
/// assert_eq!(&name[..4], b_str!("eth0"));
/// assert_eq!(&*name[4..], b"\n");
/// assert_eq!(format!("{}", fmt!("{name}")), "eth0\\n");
/// assert_eq!(format!("{name:?}"), "\"eth0\\n\"");
/// assert_eq!(BStr::from_bytes(b"\xf0\x9f\xa6\x80").len(), 4);
/// ```
#[repr(transparent)]
pub struct BStr([u8]);

impl BStr {
    /// The length of the string, in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(kernel_core::b_str!("🦀").len(), 4);
    /// ```
    #[inline]
    pub const fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the string has no byte.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(kernel_core::b_str!("").is_empty());
    /// ```
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes `bytes`, as a [`BStr`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::str::BStr;
    ///
    /// const NAME: &BStr = BStr::from_bytes(b"nvme0");
    /// assert_eq!(&**NAME, b"nvme0");
    /// ```
    #[inline]
    pub const fn from_bytes(bytes: &[u8]) -> &Self {
        // SAFETY: `BStr` is `repr(transparent)` over `[u8]`: the same layout and metadata, so
        // the pointer cast keeps the length and the reference is valid for as long as `bytes`.
        unsafe { &*(core::ptr::from_ref(bytes) as *const BStr) }
    }

    /// The string without its prefix `pattern`, or [`None`] if it does not start with it (as
    /// [`slice::strip_prefix`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::b_str;
    ///
    /// assert_eq!(b_str!("foobar").strip_prefix(b_str!("foo")), Some(b_str!("bar")));
    /// assert_eq!(b_str!("foobar").strip_prefix(b_str!("bar")), None);
    /// assert_eq!(b_str!("foobar").strip_prefix(b_str!("")), Some(b_str!("foobar")));
    /// assert_eq!(b_str!("foobar").strip_prefix(b_str!("foobar")), Some(b_str!("")));
    /// ```
    pub fn strip_prefix(&self, pattern: impl AsRef<Self>) -> Option<&BStr> {
        self.0
            .strip_prefix(&pattern.as_ref().0)
            .map(Self::from_bytes)
    }
}

/// Writes the bytes of a [`BStr`] or [`CStr`] printable: ASCII from space to `~` as it is,
/// `\t`, `\n` and `\r` (with `named`) and, in `quoted` strings, `\"` and `\\` as escapes, every
/// other byte as `\xNN`.
fn write_escaped(
    f: &mut fmt::Formatter<'_>,
    bytes: &[u8],
    named: bool,
    quoted: bool,
) -> fmt::Result {
    for &byte in bytes {
        match byte {
            b'\t' if named => f.write_str("\\t")?,
            b'\n' if named => f.write_str("\\n")?,
            b'\r' if named => f.write_str("\\r")?,
            b'"' if quoted => f.write_str("\\\"")?,
            b'\\' if quoted => f.write_str("\\\\")?,
            0x20..=0x7e => f.write_char(char::from(byte))?,
            _ => write!(f, "\\x{byte:02x}")?,
        }
    }
    Ok(())
}

impl fmt::Display for BStr {
    /// Formats printable ASCII as it is and escapes the rest (`\t`, `\n`, `\r`, `\xNN`).
    ///
    /// ```
    /// use kernel_core::b_str;
    /// use kernel_core::macros::fmt;
    ///
    /// let crab = b_str!("🦀");
    /// assert_eq!(format!("{}", fmt!("{crab}")), "\\xf0\\x9f\\xa6\\x80");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_escaped(f, &self.0, true, false)
    }
}

impl fmt::Debug for BStr {
    /// Formats as [`Display`](fmt::Display) does, between double quotes, with `"` and `\`
    /// escaped too.
    ///
    /// ```
    /// use kernel_core::b_str;
    ///
    /// assert_eq!(format!("{:?}", b_str!("say \"hi\"")), "\"say \\\"hi\\\"\"");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        write_escaped(f, &self.0, true, true)?;
        f.write_char('"')
    }
}

impl Deref for BStr {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl PartialEq for BStr {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<Idx> Index<Idx> for BStr
where
    [u8]: Index<Idx, Output = [u8]>,
{
    type Output = Self;

    #[inline]
    fn index(&self, index: Idx) -> &Self {
        BStr::from_bytes(&self.0[index])
    }
}

impl AsRef<BStr> for [u8] {
    #[inline]
    fn as_ref(&self) -> &BStr {
        BStr::from_bytes(self)
    }
}

impl AsRef<BStr> for BStr {
    #[inline]
    fn as_ref(&self) -> &BStr {
        self
    }
}

impl AsRef<BStr> for CStr {
    #[inline]
    fn as_ref(&self) -> &BStr {
        BStr::from_bytes(self.to_bytes())
    }
}

/// Creates a [`BStr`] from a string literal, at compile time: `&'static BStr`.
///
/// The literal is UTF-8, so non-ASCII characters become their bytes.
///
/// # Examples
///
/// ```
/// use kernel_core::b_str;
/// use kernel_core::str::BStr;
///
/// const DRIVER: &BStr = b_str!("my-driver");
/// assert_eq!(&DRIVER[..2], b_str!("my"));
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_b_str {
    ($str:literal) => {{
        const S: &'static str = $str;
        const C: &'static $crate::str::BStr = $crate::str::BStr::from_bytes(S.as_bytes());
        C
    }};
}

pub use crate::__kernel_core_b_str as b_str;

/// Seals [`CStrExt`]: only [`CStr`] implements it.
mod private {
    /// Implemented by [`CStr`](super::CStr) alone.
    pub trait Sealed {}

    impl Sealed for super::CStr {}
}

/// The kernel's methods of [`CStr`] (`core::ffi::CStr`): C pointers of the kernel's `c_char`,
/// in-place ASCII case changes, and copies into a [`CString`].
///
/// The prelude imports it (`use kernel_core::prelude::*;` brings `CStrExt as _`), as Linux
/// 7.3's does. Sealed: only `CStr` implements it.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
/// use kernel_core::str::CString;
///
/// let name = c"Tyr-GPU".to_ascii_lowercase()?;
/// assert_eq!(name.to_bytes(), b"tyr-gpu");
/// // SAFETY: `as_char_ptr` points to `name`'s bytes and NUL, alive and unchanged meanwhile.
/// let again = unsafe { CStr::from_char_ptr(name.as_char_ptr()) };
/// assert_eq!(again, &*name);
/// # Ok::<(), kernel_core::alloc::AllocError>(())
/// ```
pub trait CStrExt: private::Sealed {
    /// The C string at `ptr`, a pointer of the kernel's `c_char` (`u8`), not `core`'s.
    ///
    /// # Safety
    ///
    /// `ptr` must point to a NUL-terminated string that is valid, and not changed, for `'a`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::str::{CStr, CStrExt};
    ///
    /// let bytes = [b'h', b'i', 0];
    /// // SAFETY: `bytes` is NUL-terminated and outlives the borrow.
    /// let s = unsafe { CStr::from_char_ptr(bytes.as_ptr()) };
    /// assert_eq!(s, c"hi");
    /// ```
    unsafe fn from_char_ptr<'a>(ptr: *const c_char) -> &'a Self;

    /// The bytes `bytes` as a mutable C string, without checks.
    ///
    /// # Safety
    ///
    /// `bytes` must end with a NUL byte, and should contain no other (the string would end at
    /// the first).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::str::{CStr, CStrExt};
    ///
    /// let mut bytes = *b"loud\0";
    /// // SAFETY: `bytes` ends with its only NUL.
    /// let s = unsafe { CStr::from_bytes_with_nul_unchecked_mut(&mut bytes) };
    /// s.make_ascii_uppercase();
    /// assert_eq!(&bytes, b"LOUD\0");
    /// ```
    unsafe fn from_bytes_with_nul_unchecked_mut(bytes: &mut [u8]) -> &mut Self;

    /// The pointer to the first character, of the kernel's `c_char` (`u8`), as C functions take
    /// it.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::str::CStrExt;
    ///
    /// let ptr = c"ok".as_char_ptr();
    /// // SAFETY: `ptr` points to the static `ok` and its NUL.
    /// assert_eq!(unsafe { *ptr.add(2) }, 0);
    /// ```
    fn as_char_ptr(&self) -> *const c_char;

    /// A copy in a new [`CString`], allocated with `GFP_KERNEL`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::str::CStrExt;
    ///
    /// let owned = c"firmware.bin".to_cstring()?;
    /// assert_eq!(owned.to_bytes_with_nul(), b"firmware.bin\0");
    /// # Ok::<(), kernel_core::alloc::AllocError>(())
    /// ```
    fn to_cstring(&self) -> Result<CString, AllocError>;

    /// Changes the ASCII letters `A` to `Z` into `a` to `z`, in place; other bytes stay.
    ///
    /// [`to_ascii_lowercase`](CStrExt::to_ascii_lowercase) makes a lowercase copy instead.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::str::CStrExt;
    ///
    /// let mut name = c"NVMe-Ünit".to_cstring()?;
    /// name.make_ascii_lowercase();
    /// assert_eq!(name.to_bytes(), "nvme-Ünit".as_bytes());
    /// # Ok::<(), kernel_core::alloc::AllocError>(())
    /// ```
    fn make_ascii_lowercase(&mut self);

    /// Changes the ASCII letters `a` to `z` into `A` to `Z`, in place; other bytes stay.
    ///
    /// [`to_ascii_uppercase`](CStrExt::to_ascii_uppercase) makes an uppercase copy instead.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::str::CStrExt;
    ///
    /// let mut name = c"eth0".to_cstring()?;
    /// name.make_ascii_uppercase();
    /// assert_eq!(name.to_bytes(), b"ETH0");
    /// # Ok::<(), kernel_core::alloc::AllocError>(())
    /// ```
    fn make_ascii_uppercase(&mut self);

    /// A copy with the ASCII letters `A` to `Z` changed into `a` to `z`.
    ///
    /// [`make_ascii_lowercase`](CStrExt::make_ascii_lowercase) changes the string in place
    /// instead.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::str::CStrExt;
    ///
    /// assert_eq!(c"MiXeD".to_ascii_lowercase()?.to_bytes(), b"mixed");
    /// # Ok::<(), kernel_core::alloc::AllocError>(())
    /// ```
    fn to_ascii_lowercase(&self) -> Result<CString, AllocError>;

    /// A copy with the ASCII letters `a` to `z` changed into `A` to `Z`.
    ///
    /// [`make_ascii_uppercase`](CStrExt::make_ascii_uppercase) changes the string in place
    /// instead.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::str::CStrExt;
    ///
    /// assert_eq!(c"MiXeD".to_ascii_uppercase()?.to_bytes(), b"MIXED");
    /// # Ok::<(), kernel_core::alloc::AllocError>(())
    /// ```
    fn to_ascii_uppercase(&self) -> Result<CString, AllocError>;
}

/// The bytes of a mutable C string, its NUL included.
///
/// # Safety
///
/// Until the borrow ends and the [`CStr`] is used again, the bytes must end with a NUL, and
/// have no other.
unsafe fn to_bytes_mut(s: &mut CStr) -> &mut [u8] {
    // SAFETY: `CStr` is a `[c_char]` (which is `[u8]` or `[i8]`) with the NUL: the same layout
    // as `[u8]` of the same length, which the pointer cast keeps (`core` does not promise that
    // layout; Linux 7.3 relies on it the same way). The reference comes from a unique one, valid
    // for reads and writes for its lifetime; the caller keeps the string's invariant.
    unsafe { &mut *(core::ptr::from_mut(s) as *mut [u8]) }
}

impl CStrExt for CStr {
    #[inline]
    unsafe fn from_char_ptr<'a>(ptr: *const c_char) -> &'a Self {
        // SAFETY: The caller promises what `CStr::from_ptr` requires; only the pointer's type
        // differs, and `u8` and `core::ffi::c_char` have the same size.
        unsafe { CStr::from_ptr(ptr.cast()) }
    }

    #[inline]
    unsafe fn from_bytes_with_nul_unchecked_mut(bytes: &mut [u8]) -> &mut Self {
        // SAFETY: The caller promises a final NUL (and, at worst, more before it, which only
        // shortens the string); `CStr` has the layout of the `[u8]` it holds, length included,
        // which the pointer cast keeps (as `to_bytes_mut` relies on); the reference comes from a
        // unique one for the same lifetime.
        unsafe { &mut *(core::ptr::from_mut(bytes) as *mut CStr) }
    }

    #[inline]
    fn as_char_ptr(&self) -> *const c_char {
        self.as_ptr().cast()
    }

    fn to_cstring(&self) -> Result<CString, AllocError> {
        CString::try_from(self)
    }

    fn make_ascii_lowercase(&mut self) {
        // SAFETY: Changing the case of ASCII letters adds and removes no NUL.
        unsafe { to_bytes_mut(self) }.make_ascii_lowercase();
    }

    fn make_ascii_uppercase(&mut self) {
        // SAFETY: Changing the case of ASCII letters adds and removes no NUL.
        unsafe { to_bytes_mut(self) }.make_ascii_uppercase();
    }

    fn to_ascii_lowercase(&self) -> Result<CString, AllocError> {
        let mut copy = self.to_cstring()?;
        copy.make_ascii_lowercase();
        Ok(copy)
    }

    fn to_ascii_uppercase(&self) -> Result<CString, AllocError> {
        let mut copy = self.to_cstring()?;
        copy.make_ascii_uppercase();
        Ok(copy)
    }
}

/// The pointer to the first character of `c_str`, as a C function takes it, in a constant.
///
/// [`CStrExt::as_char_ptr`] does the same outside constants (trait methods cannot be `const`).
///
/// # Examples
///
/// ```
/// use kernel_core::ffi::c_char;
/// use kernel_core::str::as_char_ptr_in_const_context;
///
/// const NAME: *const c_char = as_char_ptr_in_const_context(c"dma");
/// // SAFETY: `NAME` points to the static string `dma` and its NUL.
/// assert_eq!(unsafe { *NAME.add(3) }, 0);
/// ```
#[inline]
pub const fn as_char_ptr_in_const_context(c_str: &CStr) -> *const c_char {
    c_str.as_ptr().cast()
}

impl fmt::Display for CStr {
    /// Formats printable ASCII as it is and every other byte as `\xNN`.
    ///
    /// ```
    /// use kernel_core::macros::fmt;
    ///
    /// let penguin = c"🐧";
    /// assert_eq!(format!("{}", fmt!("{penguin}")), "\\xf0\\x9f\\x90\\xa7");
    /// let quoted = c"so \"cool\"\n";
    /// assert_eq!(format!("{}", fmt!("{quoted}")), "so \"cool\"\\x0a");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_escaped(f, self.to_bytes(), false, false)
    }
}

/// Creates a [`CStr`] from a string expression known at compile time (a literal, `concat!`,
/// `file!()`, ...): `&'static CStr`.
///
/// Write `c"literal"` for literals; this macro is for C strings that other macros build.
///
/// # Panics
///
/// At compile time, if the string contains a NUL byte.
///
/// # Examples
///
/// ```
/// use kernel_core::c_str;
/// use kernel_core::str::CStr;
///
/// const SITE: &CStr = c_str!(concat!("probe at ", line!()));
/// assert!(SITE.to_bytes().starts_with(b"probe at "));
/// assert_eq!(c_str!("literal"), c"literal");
/// ```
///
/// ```compile_fail,E0080
/// const BAD: &kernel_core::str::CStr = kernel_core::c_str!("a\0b"); // error: interior NUL
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_c_str {
    ($str:expr) => {{
        const S: &str = ::core::concat!($str, "\0");
        const C: &$crate::str::CStr = match $crate::str::CStr::from_bytes_with_nul(S.as_bytes()) {
            ::core::result::Result::Ok(v) => v,
            ::core::result::Result::Err(_) => ::core::panic!("string contains interior NUL"),
        };
        C
    }};
}

pub use crate::__kernel_core_c_str as c_str;

/// Formats into a buffer, and keeps counting past its end, so that a first pass without a
/// buffer measures what a second pass needs.
///
/// [`Formatter`] dereferences to it; [`bytes_written`](RawFormatter::bytes_written) is what it
/// offers besides [`fmt::Write`].
///
/// # Invariants
///
/// If `pos < len`, the `len - pos` bytes from `buf + pos` are valid for writes for as long as
/// the formatter lives.
///
/// # Examples
///
/// ```
/// use core::fmt::Write;
/// use kernel_core::str::Formatter;
///
/// let mut buffer = [0_u8; 4];
/// let mut f = Formatter::new(&mut buffer);
/// assert!(write!(f, "{}", 12345).is_err()); // too long for the buffer
/// assert_eq!(f.bytes_written(), 5); // but counted whole
/// assert_eq!(&buffer, b"1234");
/// ```
pub struct RawFormatter {
    buf: *mut u8,
    pos: usize,
    len: usize,
}

// SAFETY: A `RawFormatter` is a unique writer of its buffer, as a `&mut [u8]` is, and `&mut [u8]`
// is `Send`; Linux 7.3's keeps its addresses as `usize`, which makes it `Send` too.
unsafe impl Send for RawFormatter {}
// SAFETY: A shared `RawFormatter` only reads its counters; as for `&mut [u8]`, which is `Sync`.
unsafe impl Sync for RawFormatter {}

impl RawFormatter {
    /// A formatter without buffer: it only counts.
    pub(crate) fn new() -> Self {
        // INVARIANT: `len` is 0, so no byte needs to be writable.
        Self {
            buf: core::ptr::null_mut(),
            pos: 0,
            len: 0,
        }
    }

    /// A formatter into the `len` bytes at `buf`.
    ///
    /// # Safety
    ///
    /// The `len` bytes at `buf` must be valid for writes for as long as the formatter lives.
    pub(crate) unsafe fn from_buffer(buf: *mut u8, len: usize) -> Self {
        // INVARIANT: As the caller promises.
        Self { buf, pos: 0, len }
    }

    /// The number of bytes written so far, including those that did not fit.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::fmt::Write;
    /// use kernel_core::str::Formatter;
    ///
    /// let mut buffer = [0_u8; 16];
    /// let mut f = Formatter::new(&mut buffer);
    /// write!(f, "{:#x}", 255).unwrap();
    /// assert_eq!(f.bytes_written(), 4);
    /// ```
    #[inline]
    pub fn bytes_written(&self) -> usize {
        self.pos
    }
}

impl fmt::Write for RawFormatter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // Where the position goes, which may be past the end but does not wrap.
        let pos = self.pos.saturating_add(s.len());
        // What fits: nothing once the position is past the end.
        let fits = pos.min(self.len).saturating_sub(self.pos);
        if fits > 0 {
            // SAFETY: `fits > 0` means `self.pos < self.len`, so the `fits` bytes from
            // `buf + self.pos` are within the writable buffer (the type invariant), and `s`
            // has at least `fits` bytes; a `&str` cannot overlap a buffer being written.
            unsafe {
                core::ptr::copy_nonoverlapping(s.as_ptr(), self.buf.add(self.pos), fits);
            }
        }
        self.pos = pos;
        Ok(())
    }
}

/// Formats into a buffer, and fails once the output does not fit.
///
/// It dereferences to [`RawFormatter`], for [`bytes_written`](RawFormatter::bytes_written).
///
/// # Examples
///
/// ```
/// use core::fmt::Write;
/// use kernel_core::str::Formatter;
///
/// let mut buffer = [0_u8; 8];
/// let mut f = Formatter::new(&mut buffer);
/// write!(f, "id={}", 42).unwrap();
/// let written = f.bytes_written();
/// assert_eq!(&buffer[..written], b"id=42");
/// ```
pub struct Formatter<'a>(RawFormatter, PhantomData<&'a mut ()>);

impl<'a> Formatter<'a> {
    /// A formatter into the `len` bytes at `buf`.
    ///
    /// # Safety
    ///
    /// The `len` bytes at `buf` must be valid for writes for `'a`.
    pub(crate) unsafe fn from_buffer(buf: *mut u8, len: usize) -> Self {
        // SAFETY: As the caller promises, for as long as the formatter (of lifetime `'a`) lives.
        Self(unsafe { RawFormatter::from_buffer(buf, len) }, PhantomData)
    }

    /// A formatter into `buffer`.
    ///
    /// Linux 7.3's signature is `new(buffer: &mut [u8]) -> Self` in an `impl Formatter<'_>`
    /// block, which does not tie `buffer`'s lifetime to the formatter's: a formatter could
    /// outlive its buffer. Here it is tied, `&'a mut [u8]` (every sound use builds with both).
    ///
    /// # Examples
    ///
    /// ```
    /// use core::fmt::Write;
    /// use kernel_core::str::Formatter;
    ///
    /// let mut buffer = [0_u8; 2];
    /// let mut f = Formatter::new(&mut buffer);
    /// assert!(f.write_str("ok").is_ok());
    /// assert!(f.write_str("!").is_err());
    /// ```
    pub fn new(buffer: &'a mut [u8]) -> Self {
        // SAFETY: `buffer` is valid for writes of its length for `'a`.
        unsafe { Formatter::from_buffer(buffer.as_mut_ptr(), buffer.len()) }
    }
}

impl Deref for Formatter<'_> {
    type Target = RawFormatter;

    #[inline]
    fn deref(&self) -> &RawFormatter {
        &self.0
    }
}

impl fmt::Write for Formatter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.write_str(s)?;
        if self.0.pos > self.0.len {
            Err(fmt::Error)
        } else {
            Ok(())
        }
    }
}

/// Formats into a byte buffer, keeping it a C string: a NUL always follows what was written.
///
/// A write that would leave no room for the NUL fails, and writes nothing.
///
/// # Invariants
///
/// `buffer` (the part not written yet) has at least one byte, and its first byte is zero.
///
/// # Examples
///
/// ```
/// use core::fmt::Write;
/// use kernel_core::str::NullTerminatedFormatter;
///
/// let mut name = [0xff_u8; 8];
/// let mut f = NullTerminatedFormatter::new(&mut name).unwrap();
/// write!(f, "dev{}", 3).unwrap();
/// assert!(f.write_str("-long").is_err());
/// assert_eq!(&name[..5], b"dev3\0");
/// assert!(NullTerminatedFormatter::new(&mut []).is_none());
/// ```
pub struct NullTerminatedFormatter<'a> {
    buffer: &'a mut [u8],
}

impl<'a> NullTerminatedFormatter<'a> {
    /// A formatter into `buffer`, which it makes an empty C string; [`None`] if `buffer` has no
    /// byte for the NUL.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::str::NullTerminatedFormatter;
    ///
    /// let mut buffer = [1_u8];
    /// assert!(NullTerminatedFormatter::new(&mut buffer).is_some());
    /// assert_eq!(buffer, [0]);
    /// ```
    pub fn new(buffer: &'a mut [u8]) -> Option<NullTerminatedFormatter<'a>> {
        *buffer.first_mut()? = 0;
        // INVARIANT: `buffer` has a first byte, now zero.
        Some(Self { buffer })
    }
}

impl fmt::Write for NullTerminatedFormatter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let bytes = s.as_bytes();
        // The invariant keeps one byte, so this does not underflow.
        if bytes.len() > self.buffer.len() - 1 {
            return Err(fmt::Error);
        }
        let buffer = core::mem::take(&mut self.buffer);
        let (written, rest) = buffer.split_at_mut(bytes.len());
        written.copy_from_slice(bytes);
        // INVARIANT: `rest` has at least the byte kept above, set to zero.
        rest[0] = 0;
        self.buffer = rest;
        Ok(())
    }
}

/// `kstrtobool()` of `lib/kstrtox.c` on the first two bytes of a string (a missing one is NUL).
fn kstrtobool_raw(first: u8, second: u8) -> Result<bool> {
    match (first, second) {
        (b'e' | b'E' | b'y' | b'Y' | b't' | b'T' | b'1', _) => Ok(true),
        (b'd' | b'D' | b'n' | b'N' | b'f' | b'F' | b'0', _) => Ok(false),
        (b'o' | b'O', b'n' | b'N') => Ok(true),
        (b'o' | b'O', b'f' | b'F') => Ok(false),
        _ => Err(EINVAL),
    }
}

/// Reads a user's yes or no, as the kernel's `kstrtobool()` does.
///
/// True if the string starts with one of `e` (enable), `y`, `t`, `1` or with `on`; false if
/// with `d` (disable), `n`, `f`, `0` or `off`; case does not matter, and only the first two
/// characters are read. [`EINVAL`] otherwise.
///
/// # Examples
///
/// ```
/// use kernel_core::error::code::EINVAL;
/// use kernel_core::str::kstrtobool;
///
/// assert_eq!(kstrtobool(c"true"), Ok(true));
/// assert_eq!(kstrtobool(c"Yes"), Ok(true));
/// assert_eq!(kstrtobool(c"twrong"), Ok(true));
/// assert_eq!(kstrtobool(c"ON"), Ok(true));
/// assert_eq!(kstrtobool(c"off"), Ok(false));
/// assert_eq!(kstrtobool(c"0"), Ok(false));
/// assert_eq!(kstrtobool(c"disable"), Ok(false));
/// assert_eq!(kstrtobool(c"o"), Err(EINVAL));
/// assert_eq!(kstrtobool(c"2"), Err(EINVAL));
/// ```
pub fn kstrtobool(string: &CStr) -> Result<bool> {
    let bytes = string.to_bytes();
    kstrtobool_raw(
        bytes.first().copied().unwrap_or(0),
        bytes.get(1).copied().unwrap_or(0),
    )
}

/// [`kstrtobool`] of the bytes `bytes` (only the first two count; a NUL ends the string).
///
/// # Examples
///
/// ```
/// use kernel_core::str::kstrtobool_bytes;
///
/// assert_eq!(kstrtobool_bytes(b"on\n"), Ok(true));
/// assert_eq!(kstrtobool_bytes(b"N"), Ok(false));
/// assert!(kstrtobool_bytes(b"").is_err());
/// assert!(kstrtobool_bytes(b"o\0n").is_err());
/// ```
pub fn kstrtobool_bytes(bytes: &[u8]) -> Result<bool> {
    kstrtobool_raw(
        bytes.first().copied().unwrap_or(0),
        bytes.get(1).copied().unwrap_or(0),
    )
}

/// An owned C string: bytes with exactly one NUL, at the end, in a `KVec<u8>` allocated with
/// `GFP_KERNEL`. What a driver builds to hand a name to a C API.
///
/// It dereferences to [`CStr`] (mutably too). [`CString::try_from_fmt`] builds one from
/// [`fmt!`](crate::macros::fmt)'s arguments, and `CString::try_from(&CStr)` copies one.
///
/// # Invariants
///
/// `buf` ends with a NUL and has no other.
///
/// # Examples
///
/// ```
/// use kernel_core::macros::fmt;
/// use kernel_core::str::CString;
///
/// let s = CString::try_from_fmt(fmt!("{}{}{}", "abc", 10, 20))?;
/// assert_eq!(s.to_bytes_with_nul(), b"abc1020\0");
///
/// let tmp = "testing";
/// let s = CString::try_from_fmt(fmt!("{tmp}{}", 123))?;
/// assert_eq!(s.to_bytes_with_nul(), b"testing123\0");
///
/// // A NUL inside is refused.
/// assert!(CString::try_from_fmt(fmt!("a\0b{}", 123)).is_err());
/// # Ok::<(), kernel_core::error::Error>(())
/// ```
pub struct CString {
    buf: KVec<u8>,
}

impl CString {
    /// Formats `args` into a new C string; [`EINVAL`] if the text contains a NUL (or if a
    /// `Display` fails), `ENOMEM` if the allocation does.
    ///
    /// It formats twice: once to measure, once into an allocation of exactly that size.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::b_str;
    /// use kernel_core::macros::fmt;
    /// use kernel_core::str::CString;
    ///
    /// let unit = 3;
    /// let name = CString::try_from_fmt(fmt!("card{unit}-{}", b_str!("hdmi")))?;
    /// assert_eq!(name.to_str(), Ok("card3-hdmi"));
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    pub fn try_from_fmt(args: fmt::Arguments<'_>) -> Result<Self, Error> {
        // The size of the text and its NUL.
        let mut measure = RawFormatter::new();
        measure.write_fmt(args)?;
        measure.write_str("\0")?;
        let size = measure.bytes_written();

        let mut buf = KVec::with_capacity(size, GFP_KERNEL)?;
        // SAFETY: `buf` has room for `size` bytes, valid for writes while `f` lives (`buf` is
        // not touched meanwhile).
        let mut f = unsafe { Formatter::from_buffer(buf.as_mut_ptr(), size) };
        // A `Display` that writes more the second time fails here, within the `size` bytes.
        f.write_fmt(args)?;
        f.write_str("\0")?;
        let len = f.bytes_written();
        // SAFETY: `f` wrote (initialized) the first `len` bytes, and `len <= size`, the
        // capacity: `Formatter` fails rather than go past its buffer.
        unsafe { buf.inc_len(len) };

        // The NUL written last is at `len - 1` (`len >= 1`); there must be no other.
        if buf[..len - 1].contains(&0) {
            return Err(EINVAL);
        }
        // INVARIANT: The bytes end with the NUL written last, and have no other.
        Ok(Self { buf })
    }
}

impl Deref for CString {
    type Target = CStr;

    #[inline]
    fn deref(&self) -> &CStr {
        // SAFETY: By the type invariant, `buf` ends with its only NUL.
        unsafe { CStr::from_bytes_with_nul_unchecked(self.buf.as_slice()) }
    }
}

impl DerefMut for CString {
    #[inline]
    fn deref_mut(&mut self) -> &mut CStr {
        // SAFETY: By the type invariant, `buf` ends with its only NUL; what `CStr`'s methods
        // change keeps it so.
        unsafe { CStr::from_bytes_with_nul_unchecked_mut(self.buf.as_mut_slice()) }
    }
}

impl<'a> TryFrom<&'a CStr> for CString {
    type Error = AllocError;

    /// Copies `cstr`, its NUL included, into a new allocation.
    ///
    /// ```
    /// use kernel_core::str::CString;
    ///
    /// let copy = CString::try_from(c"dev")?;
    /// assert_eq!(&*copy, c"dev");
    /// # Ok::<(), kernel_core::alloc::AllocError>(())
    /// ```
    fn try_from(cstr: &'a CStr) -> Result<CString, AllocError> {
        let mut buf = KVec::new();
        buf.extend_from_slice(cstr.to_bytes_with_nul(), GFP_KERNEL)?;
        // INVARIANT: The bytes of a `CStr`, which end with its only NUL.
        Ok(CString { buf })
    }
}

impl fmt::Debug for CString {
    /// Formats as the [`CStr`] does (`core`'s `Debug`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}
