// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Differential tests of `kernel_core::str` against Linux 7.3's own `kernel::str`
//! (`linux7_3::str`: the kernel's `rust/kernel/str.rs` and `str/parse_int.rs`, with its
//! `fmt.rs` and `rust/macros/fmt.rs` (`fmt!`), built on the host; see `src/lib.rs`).
//!
//! - `ParseInt::from_str` on every integer width the kernel implements it for: on the text of
//!   each width's edges (`MIN`, `MAX`, one beyond, zero, one) in every radix, prefix case and
//!   sign; on malformed text (empty, a lone sign or prefix, double signs, spaces, underscores,
//!   digits beyond the radix, bytes that are not UTF-8); on random integers written the same
//!   ways; and on random byte strings over the characters that matter. The results (the value,
//!   or the error) must be equal.
//! - What `{}` and `{:?}` of `BStr` and `CStr` print through each side's `fmt!` (with widths,
//!   fills, alignments and precisions, which both ignore), byte for byte, on random byte strings
//!   and on all 256 byte values.
//! - `CString::try_from_fmt(fmt!(...))` on random text, bytes and integers in a dozen kinds of
//!   format strings (inline names, positions, `{:?}`, widths, precisions, nested `fmt!`), with
//!   NULs inside (`EINVAL`), a `Display` that fails or writes differently on the second of the
//!   two passes, and lengths at the edge of `kmalloc()`'s largest size (`ENOMEM` beyond).
//! - The methods of `CStrExt`, `CString` (`TryFrom<&CStr>`, `Deref`, `DerefMut`, `Debug`) and
//!   `BStr` (`strip_prefix`, indexing, equality, `AsRef`), `kstrtobool`, `kstrtobool_bytes` and
//!   `as_char_ptr_in_const_context`, on random byte strings; `kstrtobool` and
//!   `kstrtobool_bytes` on every pair of bytes.
//! - `Formatter` and `NullTerminatedFormatter` under random sequences of writes into buffers
//!   of every small size: each write's result, `bytes_written`, and the buffer's bytes.
//! - `b_str!` and `c_str!`; the signatures of the items, as one template instantiated with each
//!   crate; the standard traits of the types, and which implement the kernel's `Display`.
//!
//! `CStr` is `core::ffi::CStr` on both sides (checked here), so its own methods (`to_bytes`,
//! `to_str`, `from_bytes_with_nul` and its errors, `Debug`) are `core`'s on both, not compared.

#[macro_use]
mod common;

// Linux 7.3's `fmt!` wraps its arguments in `::kernel::fmt::Adapter`, as in a kernel crate.
extern crate linux7_3 as kernel;

use common::same;
use core::{cell::Cell, fmt::Write as _};
use kernel_core::error::Error;
use proptest::prelude::*;

/// Both sides' `from_str` for `$ty` on `bytes`.
macro_rules! both {
    ($ty:ty, $bytes:expr) => {{
        let bytes: &[u8] = $bytes;
        let ours: Result<$ty, Error> = <$ty as kernel_core::str::parse_int::ParseInt>::from_str(
            kernel_core::str::BStr::from_bytes(bytes),
        );
        let theirs: Result<$ty, Error> = <$ty as linux7_3::str::parse_int::ParseInt>::from_str(
            linux7_3::str::BStr::from_bytes(bytes),
        );
        (ours, theirs)
    }};
}

/// Asserts that both sides agree on `bytes` for every width.
fn agree(bytes: &[u8]) {
    macro_rules! each {
        ($($ty:ty),*) => {$(
            let (ours, theirs) = both!($ty, bytes);
            assert_eq!(
                ours,
                theirs,
                "{}::from_str({:?}): kernel-core (left), Linux 7.3 (right)",
                stringify!($ty),
                String::from_utf8_lossy(bytes)
            );
        )*};
    }
    each!(i8, u8, i16, u16, i32, u32, i64, u64, isize, usize);
}

/// `value` written in every radix the parser knows, with each prefix spelling and sign.
fn spellings(value: i128) -> Vec<String> {
    let magnitude = value.unsigned_abs();
    let digits = [
        ("", format!("{magnitude}")),
        ("0x", format!("{magnitude:x}")),
        ("0X", format!("{magnitude:X}")),
        ("0o", format!("{magnitude:o}")),
        ("0O", format!("{magnitude:o}")),
        ("0", format!("{magnitude:o}")),
        ("0b", format!("{magnitude:b}")),
        ("0B", format!("{magnitude:b}")),
    ];
    let mut out = Vec::new();
    for (prefix, digits) in digits {
        for sign in ["", "-", "+", "--", "+-", "-+"] {
            // A negative value keeps at least its own minus sign.
            if value < 0 && !sign.contains('-') {
                continue;
            }
            out.push(format!("{sign}{prefix}{digits}"));
        }
    }
    out
}

/// Every width's edges, and one beyond each, in every spelling.
#[test]
fn edges_of_every_width() {
    let mut values: Vec<i128> = vec![0, 1, -1, 7, 8, 9, 10, 15, 16, 17];
    macro_rules! edges {
        ($($ty:ty),*) => {$(
            for edge in [<$ty>::MIN as i128, <$ty>::MAX as i128] {
                values.extend([edge - 2, edge - 1, edge, edge + 1, edge + 2]);
            }
        )*};
    }
    edges!(i8, u8, i16, u16, i32, u32, i64, u64, isize, usize);
    // The ends of the `u64` that the negative path parses into.
    values.extend([
        -(u64::MAX as i128),
        -(u64::MAX as i128) - 1,
        -(1_i128 << 64) - 1,
        1_i128 << 64,
    ]);
    let mut count = 0;
    for value in values {
        for text in spellings(value) {
            agree(text.as_bytes());
            count += 1;
        }
    }
    assert!(count > 1_000, "only {count} spellings compared");
}

/// Text that is not a plain integer.
#[test]
fn malformed_text() {
    let cases: &[&[u8]] = &[
        b"",
        b"-",
        b"+",
        b"--",
        b"0",
        b"00",
        b"-0",
        b"+0",
        b"0x",
        b"0X",
        b"0o",
        b"0b",
        b"-0x",
        b"+0x10",
        b"+017",
        b"-+1",
        b"+-1",
        b"0x-1",
        b"0x+1",
        b"0b2",
        b"0o8",
        b"08",
        b"09",
        b"-08",
        b"0xg",
        b"1a",
        b" 1",
        b"1 ",
        b"1\n",
        b"1_000",
        b"0x_1",
        b"0b1_0",
        b"\xff",
        b"1\xff",
        b"-\xff",
        b"0x\xff",
        b"\xc3\xa9",
        b"\x001",
        b"1\x00",
        b"0x0x1",
        b"00x1",
        b"0xFFFFFFFFFFFFFFFFF",
        b"-0xFFFFFFFFFFFFFFFF",
        b"-0x8000000000000000",
        b"-0x8000000000000001",
        b"99999999999999999999999",
        b"-99999999999999999999999",
    ];
    for case in cases {
        agree(case);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(4096)))]

    /// Random integers over the range of `i64` and `u64`, in every spelling.
    #[test]
    fn random_integers(value in prop_oneof![
        any::<i64>().prop_map(i128::from),
        any::<u64>().prop_map(i128::from),
        (-70_000_i128..70_000),
    ]) {
        for text in spellings(value) {
            agree(text.as_bytes());
        }
    }

    /// Random text over the characters the parser treats specially.
    #[test]
    fn random_text(text in "[-+0-9a-fA-FxXoObB_ ]{0,24}") {
        agree(text.as_bytes());
    }

    /// Random bytes, not necessarily UTF-8.
    #[test]
    fn random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..24)) {
        agree(&bytes);
    }
}

/// The signatures of 7.3's `parse_int` items, as one template instantiated with each crate: each
/// line compiles only if that crate's item coerces to the function pointer type written.
#[test]
fn signatures() {
    macro_rules! probe {
        ($k:ident) => {{
            use $k::str::{parse_int::ParseInt, BStr};
            let _: fn(&BStr) -> $k::error::Result<i8> = <i8 as ParseInt>::from_str;
            let _: fn(&BStr) -> $k::error::Result<u8> = <u8 as ParseInt>::from_str;
            let _: fn(&BStr) -> $k::error::Result<i16> = <i16 as ParseInt>::from_str;
            let _: fn(&BStr) -> $k::error::Result<u16> = <u16 as ParseInt>::from_str;
            let _: fn(&BStr) -> $k::error::Result<i32> = <i32 as ParseInt>::from_str;
            let _: fn(&BStr) -> $k::error::Result<u32> = <u32 as ParseInt>::from_str;
            let _: fn(&BStr) -> $k::error::Result<i64> = <i64 as ParseInt>::from_str;
            let _: fn(&BStr) -> $k::error::Result<u64> = <u64 as ParseInt>::from_str;
            let _: fn(&BStr) -> $k::error::Result<isize> = <isize as ParseInt>::from_str;
            let _: fn(&BStr) -> $k::error::Result<usize> = <usize as ParseInt>::from_str;
            let _: fn(&[u8]) -> &BStr = BStr::from_bytes;
        }};
    }
    probe!(kernel_core);
    probe!(linux7_3);
}

/// `bytes` up to their first NUL (all of them without one), and a NUL: a C string's bytes.
fn nul_terminated(bytes: &[u8]) -> Vec<u8> {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let mut with_nul = bytes[..end].to_vec();
    with_nul.push(0);
    with_nul
}

/// Byte strings that reach every class of byte the escapes treat apart: printable ASCII, the
/// three named escapes, `"` and `\`, the NUL, other control bytes, DEL and the bytes above it.
fn any_bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..max),
        proptest::collection::vec(
            prop_oneof![
                Just(0_u8),
                Just(b'\t'),
                Just(b'\n'),
                Just(b'\r'),
                Just(b'"'),
                Just(b'\\'),
                Just(0x1f_u8),
                Just(0x20_u8),
                Just(0x7e_u8),
                Just(0x7f_u8),
                Just(0x80_u8),
                Just(0xff_u8),
                0x20..0x7f_u8,
            ],
            0..max
        ),
    ]
}

/// What crate `$k`'s `fmt!` makes of `$value` in every kind of format a driver may write: `{}`
/// (positional, inline, with width, fill, alignment, precision) and `{:?}` (plain, pretty,
/// padded).
macro_rules! formats {
    ($k:ident, $value:expr) => {{
        let v = $value;
        vec![
            format!("{}", $k::prelude::fmt!("{}", v)),
            format!("{}", $k::prelude::fmt!("{v}")),
            format!("{}", $k::prelude::fmt!("[{0}|{0:?}]", v)),
            format!("{}", $k::prelude::fmt!("{:>12}", v)),
            format!("{}", $k::prelude::fmt!("{:-^13.2}", v)),
            format!("{}", $k::prelude::fmt!("{:<0}", v)),
            format!("{}", $k::prelude::fmt!("{:?}", v)),
            format!("{}", $k::prelude::fmt!("{:#?}", v)),
            format!("{}", $k::prelude::fmt!("{:>20?}", v)),
            format!("{v:?}"),
        ]
    }};
}

/// Both sides' formats of the `BStr` of `bytes` and of the `CStr` of `bytes` up to their first
/// NUL, and of that C string copied into a `CString` (`{:?}`, its `Debug`).
fn agree_on_formats(bytes: &[u8]) {
    let with_nul = nul_terminated(bytes);
    let c = core::ffi::CStr::from_bytes_with_nul(&with_nul).expect("one NUL, at the end");
    assert_eq!(
        formats!(kernel_core, kernel_core::str::BStr::from_bytes(bytes)),
        formats!(linux7_3, linux7_3::str::BStr::from_bytes(bytes)),
        "BStr {bytes:x?}: kernel-core (left), Linux 7.3 (right)"
    );
    assert_eq!(
        formats!(kernel_core, c),
        formats!(linux7_3, c),
        "CStr {c:?}: kernel-core (left), Linux 7.3 (right)"
    );
    assert_eq!(
        format!("{:?}", kernel_core::str::CString::try_from(c).unwrap()),
        format!("{:?}", linux7_3::str::CString::try_from(c).unwrap()),
        "CString {c:?}: kernel-core (left), Linux 7.3 (right)"
    );
}

/// Every byte value, in a `BStr` and, but for the NUL, in a `CStr` (as 7.3's KUnit suite
/// `rust_kernel_str` prints them); the empty strings; each byte alone.
#[test]
fn formats_of_every_byte() {
    let every: Vec<u8> = (0..=u8::MAX).collect();
    agree_on_formats(&every);
    let but_nul: Vec<u8> = (1..=u8::MAX).collect();
    agree_on_formats(&but_nul);
    agree_on_formats(b"");
    for byte in 0..=u8::MAX {
        agree_on_formats(&[byte]);
        agree_on_formats(&[b'a', byte, b'z']);
    }
    // The escapes of 7.3's own KUnit suite, and non-ASCII UTF-8.
    agree_on_formats(b"_\t_\n_\r_\\_'_\"_");
    agree_on_formats(b"d\xe9j\xe0 vu");
    agree_on_formats("🦀🐧".as_bytes());
}

/// `CString::try_from_fmt` of crate `$k`, as the bytes made with their NUL, or the error.
macro_rules! try_from_fmt {
    ($k:ident, $($args:tt)*) => {
        $k::str::CString::try_from_fmt($k::prelude::fmt!($($args)*))
            .map(|s| s.to_bytes_with_nul().to_vec())
    };
}

/// `try_from_fmt` of crate `$k` in each kind of format string, over `text`, the `BStr` and
/// `CStr` of `bytes`, and `n`.
macro_rules! try_from_fmt_cases {
    ($k:ident, $text:expr, $bytes:expr, $n:expr) => {{
        let text: &str = $text;
        let bytes: &[u8] = $bytes;
        let n: i64 = $n;
        let b = $k::str::BStr::from_bytes(bytes);
        let with_nul = nul_terminated(bytes);
        let c = $k::str::CStr::from_bytes_with_nul(&with_nul).expect("one NUL, at the end");
        vec![
            try_from_fmt!($k, "{}", text),
            try_from_fmt!($k, "{text}"),
            try_from_fmt!($k, "<{b}>"),
            try_from_fmt!($k, "{:?}", b),
            try_from_fmt!($k, "{c}|{c:?}"),
            try_from_fmt!($k, "{0}{n}{0:?}{n:#x}", text),
            try_from_fmt!($k, "{:>40}", text),
            try_from_fmt!($k, "{:.3}|{:^9.1}", text, text),
            try_from_fmt!($k, "{:#010x} {:+} {:o} {:b} {:e} {:X}", n, n, n, n, n, n),
            try_from_fmt!($k, "{}", $k::prelude::fmt!("nested {} {b}", text)),
            try_from_fmt!($k, "{}{}{}{{}}", 'x', true, text.len()),
            try_from_fmt!($k, "{text}\0"),
        ]
    }};
}

/// Asserts that both sides' `try_from_fmt` agree on every case of [`try_from_fmt_cases!`].
fn agree_on_try_from_fmt(text: &str, bytes: &[u8], n: i64) {
    assert_eq!(
        try_from_fmt_cases!(kernel_core, text, bytes, n),
        try_from_fmt_cases!(linux7_3, text, bytes, n),
        "try_from_fmt over {text:?}, {bytes:x?}, {n}: kernel-core (left), Linux 7.3 (right)"
    );
}

/// The edges: empty text and strings, a lone NUL, NULs at each end, every byte value.
#[test]
fn try_from_fmt_edges() {
    let every: Vec<u8> = (0..=u8::MAX).collect();
    let every_char: String = (0..=u8::MAX).map(char::from).collect();
    for (text, bytes) in [
        ("", &b""[..]),
        ("\0", b"\0"),
        ("\0abc", b"abc"),
        ("abc\0", b"\0abc"),
        ("a\0b", b"a\0b"),
        (&*every_char, &every),
        ("🦀", "🦀".as_bytes()),
    ] {
        for n in [0, -1, i64::MIN, i64::MAX] {
            agree_on_try_from_fmt(text, bytes, n);
        }
    }
    // The example of 7.3's documentation, and format strings without arguments.
    assert_eq!(
        try_from_fmt!(kernel_core, "a\0b{}", 123),
        try_from_fmt!(linux7_3, "a\0b{}", 123)
    );
    assert_eq!(try_from_fmt!(kernel_core, ""), try_from_fmt!(linux7_3, ""));
    assert_eq!(
        try_from_fmt!(kernel_core, "\0"),
        try_from_fmt!(linux7_3, "\0")
    );
    assert_eq!(
        try_from_fmt!(kernel_core, "{{}}"),
        try_from_fmt!(linux7_3, "{{}}")
    );
}

/// `KMALLOC_MAX_SIZE` with 4 KiB pages: `kmalloc()`'s largest allocation, which kernel-core's
/// `Kmalloc` and the mock one of `src/lib.rs` both give and neither exceeds.
const KMALLOC_MAX_SIZE: usize = 4 << 20;

/// Strings whose `CString`, with its NUL, is just within `kmalloc()`'s largest size, or just
/// beyond (`ENOMEM`), and one made of many small pieces.
#[test]
fn try_from_fmt_at_the_allocation_limit() {
    for len in [
        KMALLOC_MAX_SIZE - 2,
        KMALLOC_MAX_SIZE - 1,
        KMALLOC_MAX_SIZE,
        KMALLOC_MAX_SIZE + 1,
    ] {
        let text = "x".repeat(len);
        let text = text.as_str();
        // The lengths and the first bytes, not 4 MiB of text in a failure's message.
        let summary = |made: Result<Vec<u8>, Error>| {
            made.map(|bytes| (bytes.len(), bytes[..8].to_vec(), bytes.last().copied()))
        };
        let ours = summary(try_from_fmt!(kernel_core, "{}", text));
        assert_eq!(
            ours,
            summary(try_from_fmt!(linux7_3, "{}", text)),
            "try_from_fmt of {len} bytes: kernel-core (left), Linux 7.3 (right)"
        );
        // Both agree, and on what the limit says: the text and its NUL fit, or `ENOMEM`.
        assert_eq!(
            ours.is_ok(),
            len < KMALLOC_MAX_SIZE,
            "{len} bytes: {ours:?}"
        );
    }
    // Each `\x01` prints as 4 bytes: 2^20 of them are just beyond the limit with the NUL.
    for n in [KMALLOC_MAX_SIZE / 4 - 1, KMALLOC_MAX_SIZE / 4] {
        let ours = try_from_fmt!(
            kernel_core,
            "{}",
            Repeat(kernel_core::str::BStr::from_bytes(b"\x01"), n)
        )
        .map(|bytes| bytes.len());
        let theirs = try_from_fmt!(
            linux7_3,
            "{}",
            Repeat(linux7_3::str::BStr::from_bytes(b"\x01"), n)
        )
        .map(|bytes| bytes.len());
        assert_eq!(
            ours, theirs,
            "{n} escaped bytes: kernel-core (left), Linux 7.3 (right)"
        );
        assert_eq!(
            ours.is_ok(),
            4 * n < KMALLOC_MAX_SIZE,
            "{n} escaped bytes: {ours:?}"
        );
    }
}

/// A `BStr` of either side printed `.1` times in a row, with that side's `Display`.
struct Repeat<T>(T, usize);

impl kernel_core::fmt::Display for Repeat<&kernel_core::str::BStr> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        (0..self.1).try_for_each(|_| kernel_core::fmt::Display::fmt(self.0, f))
    }
}

impl linux7_3::fmt::Display for Repeat<&linux7_3::str::BStr> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        (0..self.1).try_for_each(|_| linux7_3::fmt::Display::fmt(self.0, f))
    }
}

/// A value whose `Display` writes `writes[i]` on its `i`-th call (the last of them after
/// that), or fails on call `fail_at`: `try_from_fmt` formats its arguments twice, to measure
/// and then to write, and must cope with a second pass that differs from the first.
struct Fickle {
    writes: Vec<String>,
    fail_at: Option<usize>,
    calls: Cell<usize>,
}

impl Fickle {
    fn new(writes: &[String], fail_at: Option<usize>) -> Self {
        Self {
            writes: writes.to_vec(),
            fail_at,
            calls: Cell::new(0),
        }
    }

    fn write(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let call = self.calls.get();
        self.calls.set(call + 1);
        if self.fail_at == Some(call) {
            return Err(core::fmt::Error);
        }
        f.write_str(&self.writes[call.min(self.writes.len() - 1)])
    }
}

impl kernel_core::fmt::Display for Fickle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.write(f)
    }
}

impl linux7_3::fmt::Display for Fickle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.write(f)
    }
}

/// Both sides' `try_from_fmt` of a [`Fickle`] between two fixed pieces, and how many times
/// each formatted it.
fn agree_on_fickle(writes: &[String], fail_at: Option<usize>) {
    let ours = Fickle::new(writes, fail_at);
    let theirs = Fickle::new(writes, fail_at);
    same(
        &format!("try_from_fmt of a Display writing {writes:?}, failing at {fail_at:?}"),
        || (try_from_fmt!(kernel_core, "<{ours}>"), ours.calls.get()),
        || (try_from_fmt!(linux7_3, "<{theirs}>"), theirs.calls.get()),
    );
}

#[test]
fn try_from_fmt_of_a_fickle_display() {
    let s = |t: &str| t.to_owned();
    for writes in [
        vec![s("abc"), s("abc")],
        vec![s("abc"), s("ab")],
        vec![s("abc"), s("abcd")],
        vec![s("abc"), s("")],
        vec![s(""), s("a")],
        vec![s("abc"), s("a\0")],
        vec![s("a\0"), s("abc")],
    ] {
        for fail_at in [None, Some(0), Some(1)] {
            agree_on_fickle(&writes, fail_at);
        }
    }
}

/// What crate `$k`'s `CStrExt`, `CString` and related functions make of the C string
/// `with_nul`.
macro_rules! c_strings {
    ($k:ident, $with_nul:expr) => {{
        use $k::str::{BStr, CStr, CStrExt, CString};
        let with_nul: &[u8] = $with_nul;
        let c = CStr::from_bytes_with_nul(with_nul).expect("one NUL, at the end");
        let made = |s: Result<CString, _>| s.map(|s| s.to_bytes_with_nul().to_vec()).map_err(drop);
        let mut lower = with_nul.to_vec();
        // SAFETY: `lower` ends with its only NUL.
        unsafe { CStr::from_bytes_with_nul_unchecked_mut(&mut lower) }.make_ascii_lowercase();
        let mut upper = with_nul.to_vec();
        // SAFETY: `upper` ends with its only NUL.
        unsafe { CStr::from_bytes_with_nul_unchecked_mut(&mut upper) }.make_ascii_uppercase();
        let mut copy = CString::try_from(c).expect("a small allocation");
        // Through `DerefMut`.
        copy.make_ascii_uppercase();
        let ptr = c.as_char_ptr();
        // SAFETY: `ptr` points to `c`, alive and unchanged.
        let again = unsafe { CStr::from_char_ptr(ptr) };
        (
            (
                made(c.to_cstring()),
                made(c.to_ascii_lowercase()),
                made(c.to_ascii_uppercase()),
                lower,
                upper,
                copy.to_bytes_with_nul().to_vec(),
                // `Deref` to `CStr`, and `CStr`'s own methods through it.
                (copy.to_bytes().len(), copy.to_str().is_ok()),
            ),
            (
                ptr == c.to_bytes().as_ptr(),
                core::ptr::eq(again, c),
                $k::str::as_char_ptr_in_const_context(c) == ptr,
                <CStr as AsRef<BStr>>::as_ref(c).to_vec(),
                $k::str::kstrtobool(c),
                $k::str::kstrtobool_bytes(with_nul),
            ),
        )
    }};
}

/// What crate `$k`'s `BStr` methods make of `bytes` and `other`.
macro_rules! b_strings {
    ($k:ident, $bytes:expr, $other:expr) => {{
        use $k::str::BStr;
        let bytes: &[u8] = $bytes;
        let other: &[u8] = $other;
        let s = BStr::from_bytes(bytes);
        let o = BStr::from_bytes(other);
        (
            s.len(),
            s.is_empty(),
            s == o,
            s.strip_prefix(o).map(|rest| rest.to_vec()),
            // `impl AsRef<BStr>` of `[u8]` and of `BStr`.
            s.strip_prefix(other).map(|rest| rest.to_vec()),
            s.strip_prefix(&bytes[..bytes.len() / 2])
                .map(|rest| rest.to_vec()),
            <[u8] as AsRef<BStr>>::as_ref(bytes) == s,
            <BStr as AsRef<BStr>>::as_ref(s) == s,
            s[..].to_vec(),
        )
    }};
}

/// Both sides' `BStr` indexed with the range `$range`, as bytes, or the panic.
macro_rules! index_both {
    ($bytes:expr, $range:expr) => {{
        let bytes: &[u8] = $bytes;
        same(
            &format!("BStr {:x?}[{:?}]", bytes, $range),
            || kernel_core::str::BStr::from_bytes(bytes)[$range].to_vec(),
            || linux7_3::str::BStr::from_bytes(bytes)[$range].to_vec(),
        );
    }};
}

/// What crate `$k`'s `Formatter` does with `writes` into a buffer of `len` bytes: each write's
/// success and `bytes_written` after it, then a `write!`'s, and the buffer's bytes.
macro_rules! formatter {
    ($k:ident, $len:expr, $writes:expr) => {{
        let mut buffer = vec![0xaa_u8; $len];
        let mut results = Vec::new();
        {
            let mut f = $k::str::Formatter::new(&mut buffer);
            for piece in $writes {
                results.push((f.write_str(piece).is_ok(), f.bytes_written()));
            }
            results.push((write!(f, "{}|", 12345).is_ok(), f.bytes_written()));
        }
        (results, buffer)
    }};
}

/// What crate `$k`'s `NullTerminatedFormatter` does with `writes` into a buffer of `len` bytes:
/// `None` if it takes none, each write's success, and the buffer's bytes.
macro_rules! null_terminated {
    ($k:ident, $len:expr, $writes:expr) => {{
        let mut buffer = vec![0xaa_u8; $len];
        let results = $k::str::NullTerminatedFormatter::new(&mut buffer).map(|mut f| {
            let mut results: Vec<bool> = $writes.iter().map(|w| f.write_str(w).is_ok()).collect();
            results.push(write!(f, "{}", 'é').is_ok());
            results
        });
        (results, buffer)
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(1024)))]

    /// `{}` and `{:?}` of random `BStr`s, `CStr`s and `CString`s.
    #[test]
    fn random_formats(bytes in any_bytes(48)) {
        agree_on_formats(&bytes);
    }

    /// `try_from_fmt` of random text (NULs included), bytes and integers.
    #[test]
    fn random_try_from_fmt(
        text in "[a-z\0\t\"\\\\é🦀 ]{0,16}",
        bytes in any_bytes(24),
        n in any::<i64>(),
    ) {
        agree_on_try_from_fmt(&text, &bytes, n);
    }

    /// `try_from_fmt` of a `Display` that writes random, differing text on each pass.
    #[test]
    fn random_fickle_display(
        writes in proptest::collection::vec("[ab\0]{0,6}", 1..4),
        fail_at in proptest::option::of(0..3_usize),
    ) {
        agree_on_fickle(&writes, fail_at);
    }

    /// `CStrExt`, `CString`, `kstrtobool` and `kstrtobool_bytes` on random C strings.
    #[test]
    fn random_c_strings(bytes in prop_oneof![
        any_bytes(24),
        proptest::collection::vec(prop_oneof![
            Just(b'o'), Just(b'O'), Just(b'n'), Just(b'N'), Just(b'f'), Just(b'F'),
            Just(b'y'), Just(b'T'), Just(b'e'), Just(b'D'), Just(b'1'), Just(b'0'),
            Just(b'2'), Just(0), Just(b'\n'), Just(b' '),
        ], 0..4),
    ]) {
        let with_nul = nul_terminated(&bytes);
        let ours = c_strings!(kernel_core, &with_nul);
        let theirs = c_strings!(linux7_3, &with_nul);
        prop_assert_eq!(ours, theirs);
        // `kstrtobool_bytes` of bytes with a NUL anywhere, or none.
        prop_assert_eq!(
            kernel_core::str::kstrtobool_bytes(&bytes),
            linux7_3::str::kstrtobool_bytes(&bytes)
        );
    }

    /// `BStr`'s methods and indexing on random byte strings.
    #[test]
    fn random_b_strings(
        bytes in any_bytes(16),
        other in any_bytes(8),
        start in 0..20_usize,
        end in 0..20_usize,
    ) {
        let prefix = &bytes[..start.min(bytes.len())];
        prop_assert_eq!(
            b_strings!(kernel_core, &bytes, &other),
            b_strings!(linux7_3, &bytes, &other)
        );
        prop_assert_eq!(
            b_strings!(kernel_core, &bytes, prefix),
            b_strings!(linux7_3, &bytes, prefix)
        );
        index_both!(&bytes, start..end);
        index_both!(&bytes, start..);
        index_both!(&bytes, ..end);
        index_both!(&bytes, start..=end);
        index_both!(&bytes, ..=end);
    }

    /// `Formatter` and `NullTerminatedFormatter` under random writes into small buffers,
    /// overflowing them.
    #[test]
    fn random_formatter_writes(
        len in 0..24_usize,
        writes in proptest::collection::vec("[a-z\0é🦀]{0,7}", 0..6),
    ) {
        prop_assert_eq!(formatter!(kernel_core, len, &writes), formatter!(linux7_3, len, &writes));
        prop_assert_eq!(
            null_terminated!(kernel_core, len, &writes),
            null_terminated!(linux7_3, len, &writes)
        );
    }
}

/// `kstrtobool` and `kstrtobool_bytes` on every pair of bytes, alone, followed by a letter
/// that `o` would read as a second byte past a NUL, and cut at the first NUL as a C string.
#[test]
fn kstrtobool_of_every_pair() {
    for first in 0..=u8::MAX {
        for second in 0..=u8::MAX {
            for bytes in [&[first][..], &[first, second], &[first, second, b'n']] {
                assert_eq!(
                    kernel_core::str::kstrtobool_bytes(bytes),
                    linux7_3::str::kstrtobool_bytes(bytes),
                    "kstrtobool_bytes({bytes:x?}): kernel-core (left), Linux 7.3 (right)"
                );
                let with_nul = nul_terminated(bytes);
                let c =
                    core::ffi::CStr::from_bytes_with_nul(&with_nul).expect("one NUL, at the end");
                assert_eq!(
                    kernel_core::str::kstrtobool(c),
                    linux7_3::str::kstrtobool(c),
                    "kstrtobool({c:?}): kernel-core (left), Linux 7.3 (right)"
                );
            }
        }
    }
}

/// `CStr` is `core::ffi::CStr` on both sides, and the kernel's `c_char` is `u8` on both.
#[test]
fn c_str_is_core_s() {
    let c = c"same";
    let _: &kernel_core::str::CStr = c;
    let _: &linux7_3::str::CStr = c;
    assert_eq!(
        core::any::TypeId::of::<kernel_core::str::CStr>(),
        core::any::TypeId::of::<linux7_3::str::CStr>()
    );
    let _: *const u8 = <core::ffi::CStr as kernel_core::str::CStrExt>::as_char_ptr(c);
    let _: *const u8 = <core::ffi::CStr as linux7_3::str::CStrExt>::as_char_ptr(c);
}

/// `b_str!` and `c_str!` of both sides, at the crate root of each.
#[test]
fn str_macros() {
    assert_eq!(&**kernel_core::b_str!(""), &**linux7_3::b_str!(""));
    assert_eq!(&**kernel_core::b_str!("🦀\t"), &**linux7_3::b_str!("🦀\t"));
    assert_eq!(&**kernel_core::b_str!("a\0b"), &**linux7_3::b_str!("a\0b"));
    assert_eq!(kernel_core::c_str!(""), linux7_3::c_str!(""));
    assert_eq!(kernel_core::c_str!("литерал"), linux7_3::c_str!("литерал"));
    assert_eq!(
        kernel_core::c_str!(concat!(file!(), ":", line!()))
            .to_bytes()
            .len(),
        linux7_3::c_str!(concat!(file!(), ":", line!()))
            .to_bytes()
            .len()
    );
    const OURS: &core::ffi::CStr = kernel_core::c_str!(concat!("x", 1, true));
    const THEIRS: &core::ffi::CStr = linux7_3::c_str!(concat!("x", 1, true));
    assert_eq!(OURS, THEIRS);
}

/// The signatures of 7.3's `str` items besides `parse_int`, as one template instantiated with
/// each crate: each line compiles only if that crate's item has the signature written.
#[test]
fn str_signatures() {
    macro_rules! probe {
        ($k:ident) => {{
            use $k::alloc::AllocError;
            use $k::error::{Error, Result};
            use $k::ffi::c_char;
            use $k::str::{
                BStr, CStr, CStrExt, CString, Formatter, NullTerminatedFormatter, RawFormatter,
            };
            let _: fn(&[u8]) -> &BStr = BStr::from_bytes;
            let _: fn(&BStr) -> usize = BStr::len;
            let _: fn(&BStr) -> bool = BStr::is_empty;
            fn strip<'a>(s: &'a BStr, p: &[u8]) -> Option<&'a BStr> {
                s.strip_prefix(p)
            }
            fn index(s: &BStr) -> (&BStr, &BStr, &BStr) {
                (&s[1..], &s[..1], &s[..])
            }
            fn bytes(s: &BStr) -> &[u8] {
                s
            }
            let _: fn(&BStr, &BStr) -> bool = <BStr as PartialEq>::eq;
            let _: fn(&[u8]) -> &BStr = <[u8] as AsRef<BStr>>::as_ref;
            let _: fn(&CStr) -> &BStr = <CStr as AsRef<BStr>>::as_ref;
            let _: unsafe fn(*const c_char) -> &'static CStr = <CStr as CStrExt>::from_char_ptr;
            let _: unsafe fn(&mut [u8]) -> &mut CStr =
                <CStr as CStrExt>::from_bytes_with_nul_unchecked_mut;
            let _: fn(&CStr) -> *const c_char = <CStr as CStrExt>::as_char_ptr;
            let _: fn(&CStr) -> core::result::Result<CString, AllocError> =
                <CStr as CStrExt>::to_cstring;
            let _: fn(&mut CStr) = <CStr as CStrExt>::make_ascii_lowercase;
            let _: fn(&mut CStr) = <CStr as CStrExt>::make_ascii_uppercase;
            let _: fn(&CStr) -> core::result::Result<CString, AllocError> =
                <CStr as CStrExt>::to_ascii_lowercase;
            let _: fn(&CStr) -> core::result::Result<CString, AllocError> =
                <CStr as CStrExt>::to_ascii_uppercase;
            let _: fn(&CStr) -> *const c_char = $k::str::as_char_ptr_in_const_context;
            const _: *const c_char = $k::str::as_char_ptr_in_const_context(c"const");
            let _: fn(core::fmt::Arguments<'_>) -> core::result::Result<CString, Error> =
                CString::try_from_fmt;
            fn copy(c: &CStr) -> core::result::Result<CString, AllocError> {
                <CString as TryFrom<&CStr>>::try_from(c)
            }
            fn deref(s: &CString) -> &CStr {
                s
            }
            fn deref_mut(s: &mut CString) -> &mut CStr {
                s
            }
            let _: fn(&CStr) -> Result<bool> = $k::str::kstrtobool;
            let _: fn(&[u8]) -> Result<bool> = $k::str::kstrtobool_bytes;
            let _: fn(&RawFormatter) -> usize = RawFormatter::bytes_written;
            fn formatter(buffer: &mut [u8]) -> Formatter<'_> {
                Formatter::new(buffer)
            }
            fn raw<'a>(f: &'a Formatter<'_>) -> &'a RawFormatter {
                f
            }
            fn null_terminated(buffer: &mut [u8]) -> Option<NullTerminatedFormatter<'_>> {
                NullTerminatedFormatter::new(buffer)
            }
            fn writes(
                f: &mut Formatter<'_>,
                r: &mut RawFormatter,
                n: &mut NullTerminatedFormatter<'_>,
            ) -> [core::fmt::Result; 3] {
                [f.write_str(""), r.write_str(""), n.write_str("")]
            }
            let _ = (strip, index, bytes, copy, deref, deref_mut);
            let _ = (formatter, raw, null_terminated, writes);
        }};
    }
    probe!(kernel_core);
    probe!(linux7_3);
}

/// The standard traits of each type, and which types print with each side's own `Display`
/// (`{}` in `fmt!`): `BStr` and `CStr` do, `CString` and the formatters do not.
#[test]
fn str_traits() {
    same_std_traits!(kernel_core::str::BStr, linux7_3::str::BStr);
    same_std_traits!(kernel_core::str::CString, linux7_3::str::CString);
    same_std_traits!(kernel_core::str::RawFormatter, linux7_3::str::RawFormatter);
    same_std_traits!(
        kernel_core::str::Formatter<'static>,
        linux7_3::str::Formatter<'static>
    );
    same_std_traits!(
        kernel_core::str::NullTerminatedFormatter<'static>,
        linux7_3::str::NullTerminatedFormatter<'static>
    );
    macro_rules! displays {
        ($k:ident) => {
            [
                implements!($k::str::BStr: $k::fmt::Display),
                implements!(&$k::str::BStr: $k::fmt::Display),
                implements!($k::str::CStr: $k::fmt::Display),
                implements!($k::str::CString: $k::fmt::Display),
                implements!($k::str::RawFormatter: $k::fmt::Display),
                implements!($k::str::BStr: core::fmt::Display),
                implements!($k::str::CString: core::fmt::Display),
                implements!($k::str::CString: core::ops::DerefMut),
                implements!($k::str::Formatter<'static>: core::ops::Deref),
                implements!($k::str::RawFormatter: core::fmt::Write),
                implements!($k::str::Formatter<'static>: core::fmt::Write),
                implements!($k::str::NullTerminatedFormatter<'static>: core::fmt::Write),
            ]
        };
    }
    assert_eq!(
        displays!(kernel_core),
        displays!(linux7_3),
        "traits of the str types: kernel-core (left), Linux 7.3 (right)"
    );
}
