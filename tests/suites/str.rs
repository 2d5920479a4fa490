// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::str`: `BStr`, the `Display` of `CStr` and `BStr` (printable ASCII, the rest
//! escaped), `c_str!`, `b_str!`, `CStrExt`'s methods, `CString`, the formatters into buffers,
//! `kstrtobool` and `parse_int`. In the kernel these are the kernel's own items.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_str)]
mod tests {
    use kernel_core::error::code::EINVAL;
    use kernel_core::fmt::{self, Write as _};
    use kernel_core::macros::fmt;
    use kernel_core::str::parse_int::ParseInt;
    use kernel_core::str::{
        as_char_ptr_in_const_context, kstrtobool, kstrtobool_bytes, BStr, CStr, CStrExt, CString,
        Formatter, NullTerminatedFormatter,
    };
    use kernel_core::{b_str, c_str};

    /// What `args` prints, in `buffer`; empty if it does not fit.
    fn render<'a>(buffer: &'a mut [u8], args: fmt::Arguments<'_>) -> &'a str {
        let mut f = Formatter::new(buffer);
        let fits = f.write_fmt(args).is_ok();
        let len = f.bytes_written();
        if !fits {
            return "";
        }
        core::str::from_utf8(&buffer[..len]).unwrap_or("")
    }

    #[test]
    fn bstr_basics() {
        let s: &BStr = b_str!("foobar");
        assert_eq!(s.len(), 6);
        assert!(!s.is_empty());
        assert!(b_str!("").is_empty());
        assert_eq!(&**s, b"foobar");
        assert!(s[..3] == *b_str!("foo"));
        assert!(*BStr::from_bytes(b"bar") == s[3..]);
        assert!(s.strip_prefix(b_str!("foo")) == Some(b_str!("bar")));
        assert!(s.strip_prefix(b_str!("bar")).is_none());
        assert!(s.strip_prefix(&b"foobar"[..]) == Some(b_str!("")));
        let from_cstr: &BStr = c"foo".as_ref();
        assert!(from_cstr == b_str!("foo"));
    }

    #[test]
    fn bstr_display_and_debug() {
        let mut buffer = [0; 64];
        let escapes = BStr::from_bytes(b"_\t_\n_\r_\\_'_\"_");
        assert_eq!(render(&mut buffer, fmt!("{escapes}")), "_\\t_\\n_\\r_\\_'_\"_");
        assert_eq!(
            render(&mut buffer, fmt!("{escapes:?}")),
            "\"_\\t_\\n_\\r_\\\\_'_\\\"_\""
        );
        let bytes = BStr::from_bytes(b"d\xe9j\xe0 vu\x01\x7f");
        assert_eq!(render(&mut buffer, fmt!("{bytes}")), "d\\xe9j\\xe0 vu\\x01\\x7f");
        assert_eq!(
            render(&mut buffer, fmt!("{:?}", b_str!("🦀"))),
            "\"\\xf0\\x9f\\xa6\\x80\""
        );
    }

    #[test]
    fn cstr_display_escapes_all_but_printable_ascii() {
        let mut buffer = [0; 64];
        assert_eq!(render(&mut buffer, fmt!("{}", c"hello, world!")), "hello, world!");
        assert_eq!(render(&mut buffer, fmt!("{}", c"\x01\x09\x0a")), "\\x01\\x09\\x0a");
        assert_eq!(render(&mut buffer, fmt!("{}", c"d\xe9j\xe0 vu")), "d\\xe9j\\xe0 vu");
        assert_eq!(render(&mut buffer, fmt!("{}", c"\"\\~\x7f")), "\"\\~\\x7f");
        // `{:?}` is `core`'s.
        assert_eq!(render(&mut buffer, fmt!("{:?}", c"\x01\x09\x0a")), "\"\\x01\\t\\n\"");
    }

    #[test]
    fn cstr_display_all_bytes() {
        let mut bytes = [0_u8; 256];
        for (i, byte) in bytes.iter_mut().take(255).enumerate() {
            *byte = i as u8 + 1;
        }
        let cstr = CStr::from_bytes_with_nul(&bytes).unwrap_or(c"");
        let mut buffer = [0; 1024];
        let shown = render(&mut buffer, fmt!("{cstr}"));
        assert_eq!(shown.len(), 95 + 160 * 4);
        assert!(shown.starts_with("\\x01\\x02"));
        assert!(shown.contains("\\x1f !\"#"));
        assert!(shown.contains("}~\\x7f\\x80"));
        assert!(shown.ends_with("\\xfe\\xff"));
    }

    #[test]
    fn macros_make_static_strings() {
        const SITE: &CStr = c_str!(concat!("line ", 12));
        assert_eq!(SITE, c"line 12");
        assert_eq!(c_str!("").to_bytes_with_nul(), b"\0");
        const NAME: &BStr = b_str!("n\u{e9}");
        assert_eq!(&**NAME, b"n\xc3\xa9");
    }

    #[test]
    fn char_pointers() {
        const PTR: *const kernel_core::ffi::c_char = as_char_ptr_in_const_context(c"ab");
        // SAFETY: `PTR` points to the static bytes `a`, `b`, NUL.
        assert_eq!(unsafe { *PTR.add(1) }, b'b');
        // SAFETY: As above.
        assert_eq!(unsafe { *PTR.add(2) }, 0);
    }

    #[test]
    fn formatter_fails_past_the_end_but_counts() {
        let mut buffer = [0_u8; 4];
        let mut f = Formatter::new(&mut buffer);
        assert!(f.write_str("ab").is_ok());
        assert!(f.write_str("cde").is_err());
        assert_eq!(f.bytes_written(), 5);
        assert!(f.write_str("f").is_err());
        assert_eq!(f.bytes_written(), 6);
        assert_eq!(&buffer, b"abcd");

        let mut empty = [0_u8; 0];
        let mut f = Formatter::new(&mut empty);
        assert!(f.write_str("").is_ok());
        assert!(f.write_str("x").is_err());
    }

    #[test]
    fn null_terminated_formatter_keeps_a_nul() {
        let mut buffer = [0xff_u8; 6];
        let mut f = NullTerminatedFormatter::new(&mut buffer).unwrap_or_else(|| unreachable!());
        assert!(f.write_str("ab").is_ok());
        assert!(f.write_fmt(fmt!("{}", 12)).is_ok());
        assert!(f.write_str("xy").is_err()); // only one byte left, kept for the NUL
        assert!(f.write_str("z").is_ok());
        assert!(f.write_str("").is_ok());
        assert!(f.write_str("!").is_err());
        assert_eq!(&buffer, b"ab12z\0");
        assert!(NullTerminatedFormatter::new(&mut []).is_none());
    }

    #[test]
    fn kstrtobool_reads_two_characters() {
        for yes in [c"1", c"y", c"Y", c"t", c"T", c"e", c"E", c"on", c"On", c"ON", c"yolo"] {
            assert_eq!(kstrtobool(yes), Ok(true));
        }
        for no in [c"0", c"n", c"N", c"f", c"F", c"d", c"D", c"off", c"oF", c"false"] {
            assert_eq!(kstrtobool(no), Ok(false));
        }
        for neither in [c"", c"o", c"ox", c"2", c"x", c" y", c"-1"] {
            assert_eq!(kstrtobool(neither), Err(EINVAL));
        }
        assert_eq!(kstrtobool_bytes(b"on\n"), Ok(true));
        assert_eq!(kstrtobool_bytes(b"of"), Ok(false));
        assert_eq!(kstrtobool_bytes(b"o"), Err(EINVAL));
        assert_eq!(kstrtobool_bytes(b""), Err(EINVAL));
        assert_eq!(kstrtobool_bytes(b"\0y"), Err(EINVAL));
    }

    #[test]
    fn parse_int_radixes_and_signs() {
        assert_eq!(u8::from_str(b_str!("0")), Ok(0));
        assert_eq!(u8::from_str(b_str!("0xa2")), Ok(0xa2));
        assert_eq!(u8::from_str(b_str!("0XA2")), Ok(0xa2));
        assert_eq!(i32::from_str(b_str!("-0xa2")), Ok(-0xa2));
        assert_eq!(i8::from_str(b_str!("-0o57")), Ok(-0o57));
        assert_eq!(i8::from_str(b_str!("057")), Ok(0o57));
        assert_eq!(i16::from_str(b_str!("-0b1001")), Ok(-0b1001));
        assert_eq!(u32::from_str(b_str!("+17")), Ok(17));
        assert_eq!(usize::from_str(b_str!("4096")), Ok(4096));
        assert_eq!(isize::from_str(b_str!("-1")), Ok(-1));
    }

    #[test]
    fn parse_int_limits() {
        assert_eq!(i8::from_str(b_str!("127")), Ok(127));
        assert_eq!(i8::from_str(b_str!("128")), Err(EINVAL));
        assert_eq!(i8::from_str(b_str!("-128")), Ok(-128));
        assert_eq!(i8::from_str(b_str!("-129")), Err(EINVAL));
        assert_eq!(u8::from_str(b_str!("256")), Err(EINVAL));
        assert_eq!(u8::from_str(b_str!("-0")), Ok(0));
        assert_eq!(u8::from_str(b_str!("-1")), Err(EINVAL));
        assert_eq!(i64::from_str(b_str!("-9223372036854775808")), Ok(i64::MIN));
        assert_eq!(i64::from_str(b_str!("-9223372036854775809")), Err(EINVAL));
        assert_eq!(u64::from_str(b_str!("0xffffffffffffffff")), Ok(u64::MAX));
        assert_eq!(u64::from_str(b_str!("")), Err(EINVAL));
        assert_eq!(u64::from_str(b_str!("0x")), Err(EINVAL));
        assert_eq!(u64::from_str(b_str!("08")), Err(EINVAL));
        assert_eq!(u64::from_str(b_str!("1 ")), Err(EINVAL));
        assert_eq!(i32::from_str(BStr::from_bytes(b"\xff")), Err(EINVAL));
    }

    #[test]
    fn cstring_from_fmt() {
        let s = CString::try_from_fmt(fmt!("{}{}{}", "abc", 10, 20));
        assert_eq!(s.map(|s| s.to_bytes_with_nul() == b"abc1020\0"), Ok(true));
        let tmp = "testing";
        let s = CString::try_from_fmt(fmt!("{tmp}{}", 123));
        assert_eq!(s.map(|s| s.to_str() == Ok("testing123")), Ok(true));
        let empty = CString::try_from_fmt(fmt!(""));
        assert_eq!(empty.map(|s| s.to_bytes_with_nul().len()), Ok(1));
        assert_eq!(CString::try_from_fmt(fmt!("a\0b{}", 123)).err(), Some(EINVAL));
        assert_eq!(CString::try_from_fmt(fmt!("{}\0", 1)).err(), Some(EINVAL));
        let escaped = CString::try_from_fmt(fmt!("{}", c"\xf0\x9f\x90\xa7"));
        assert_eq!(
            escaped.map(|s| s.to_bytes_with_nul() == b"\\xf0\\x9f\\x90\\xa7\0"),
            Ok(true)
        );
    }

    #[test]
    fn cstring_derefs_to_cstr() {
        let s = CString::try_from(c"Mixed-Case 42");
        assert!(s.is_ok());
        let Ok(mut s) = s else { return };
        assert_eq!(&*s, c"Mixed-Case 42");
        s.make_ascii_uppercase();
        assert_eq!(s.to_bytes(), b"MIXED-CASE 42");
        s.make_ascii_lowercase();
        assert_eq!(s.to_bytes(), b"mixed-case 42");
        let mut buffer = [0; 32];
        assert_eq!(render(&mut buffer, fmt!("{s:?}")), "\"mixed-case 42\"");
    }

    #[test]
    fn cstr_ext_copies() {
        let lower = c"\xc3\x89T\xc3\x89 Z".to_ascii_lowercase();
        assert_eq!(lower.map(|s| s.to_bytes() == b"\xc3\x89t\xc3\x89 z"), Ok(true));
        let upper = c"a-z_0".to_ascii_uppercase();
        assert_eq!(upper.map(|s| s.to_bytes() == b"A-Z_0"), Ok(true));
        let copy = c"".to_cstring();
        assert_eq!(copy.map(|s| s.is_empty()), Ok(true));
        let original = c"keep";
        assert_eq!(original.to_ascii_uppercase().map(|s| s.count_bytes() == 4), Ok(true));
        assert_eq!(original, c"keep");
    }

    #[test]
    fn cstr_ext_pointers() {
        let name = c"kernel";
        let ptr = name.as_char_ptr();
        assert_eq!(ptr, as_char_ptr_in_const_context(name));
        // SAFETY: `ptr` points to `name`, static and NUL-terminated.
        let again = unsafe { CStr::from_char_ptr(ptr) };
        assert_eq!(again, name);
        assert_eq!(again.as_ptr(), name.as_ptr());

        let mut bytes = *b"ab\0";
        // SAFETY: `bytes` ends with its only NUL.
        let s = unsafe { CStr::from_bytes_with_nul_unchecked_mut(&mut bytes) };
        s.make_ascii_uppercase();
        assert_eq!(s.to_bytes_with_nul(), b"AB\0");
        assert_eq!(&bytes, b"AB\0");
    }
}
