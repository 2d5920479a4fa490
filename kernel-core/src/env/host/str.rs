// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::str` on the host: kernel-core's own [`BStr`], [`CStrExt`], [`CString`], the
//! formatters and `kstrtobool`, with Linux 7.3's signatures and behaviour; [`CStr`] is
//! `core::ffi::CStr`, as in 7.3.
//!
//! Nothing here depends on the host but `kstrtobool`, which the kernel computes in C
//! (`lib/kstrtox.c`) and which is computed here the same way.

use core::marker::PhantomData;
use core::ops::{Deref, Index};

use crate::error::{code::EINVAL, Result};
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
    #[allow(dead_code)] // `CString` uses it.
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
    #[allow(dead_code)] // `CString` uses it.
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
