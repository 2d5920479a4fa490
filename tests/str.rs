// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: `kernel_core::str` against plain references on random input: the `Display` and
//! `Debug` escapes of `BStr` and `CStr`, `CString` and `CStrExt` against `[u8]`'s own methods,
//! the formatters against `String`, `kstrtobool` against a table and `parse_int` against
//! 128-bit arithmetic. Runs under Miri too (fewer cases), for the `unsafe` inside.

use std::fmt::Write as _;

use kernel_core::error::code::EINVAL;
use kernel_core::macros::fmt;
use kernel_core::str::parse_int::ParseInt;
use kernel_core::str::{
    kstrtobool, kstrtobool_bytes, BStr, CStr, CStrExt, CString, Formatter, NullTerminatedFormatter,
};
use proptest::prelude::*;

/// Fewer cases under Miri, which runs a thousand times slower.
fn config() -> ProptestConfig {
    ProptestConfig {
        cases: if cfg!(miri) { 2 } else { 512 },
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// How `BStr` displays `bytes` (with `quoted`, how its `Debug` does, without the quotes).
fn reference_bstr(bytes: &[u8], quoted: bool) -> String {
    let mut out = String::new();
    for &b in bytes {
        match b {
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'"' if quoted => out.push_str("\\\""),
            b'\\' if quoted => out.push_str("\\\\"),
            b' '..=b'~' => out.push(char::from(b)),
            _ => write!(out, "\\x{b:02x}").unwrap(),
        }
    }
    out
}

/// How `CStr` displays `bytes`: printable ASCII, every other byte `\xNN`.
fn reference_cstr(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| match b {
            b' '..=b'~' => char::from(b).to_string(),
            _ => format!("\\x{b:02x}"),
        })
        .collect()
}

/// `bytes` without NUL, and with one.
fn c_string(bytes: &[u8]) -> Vec<u8> {
    let mut owned: Vec<u8> = bytes.iter().copied().filter(|&b| b != 0).collect();
    owned.push(0);
    owned
}

/// `kstrtobool()` of `lib/kstrtox.c`, as a table of the first two bytes.
fn reference_kstrtobool(first: u8, second: u8) -> Option<bool> {
    match first.to_ascii_lowercase() {
        b'y' | b't' | b'1' | b'e' => Some(true),
        b'n' | b'f' | b'0' | b'd' => Some(false),
        b'o' => match second.to_ascii_lowercase() {
            b'n' => Some(true),
            b'f' => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// Bytes that hit the escapes often.
fn interesting_bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![
            any::<u8>(),
            Just(b'\t'),
            Just(b'\n'),
            Just(b'\r'),
            Just(b'"'),
            Just(b'\\'),
            Just(0x7f),
            Just(b' '),
        ],
        0..48,
    )
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn bstr_display_and_debug(bytes in interesting_bytes()) {
        let s = BStr::from_bytes(&bytes);
        prop_assert_eq!(format!("{}", fmt!("{s}")), reference_bstr(&bytes, false));
        prop_assert_eq!(format!("{s:?}"), format!("\"{}\"", reference_bstr(&bytes, true)));
        prop_assert_eq!(s.len(), bytes.len());
        prop_assert_eq!(s.is_empty(), bytes.is_empty());
        prop_assert_eq!(&**s, &bytes[..]);
    }

    #[test]
    fn bstr_prefixes_and_ranges(bytes in interesting_bytes(), cut in 0..64_usize, end in 0..64_usize) {
        let s = BStr::from_bytes(&bytes);
        let cut = cut.min(bytes.len());
        let end = end.min(bytes.len()).max(cut);
        prop_assert!(s[cut..end] == *BStr::from_bytes(&bytes[cut..end]));
        prop_assert!(s[..cut] == *BStr::from_bytes(&bytes[..cut]));
        let prefix = BStr::from_bytes(&bytes[..cut]);
        prop_assert_eq!(s.strip_prefix(prefix).map(|r| &**r), Some(&bytes[cut..]));
        prop_assert_eq!(
            s.strip_prefix(&bytes[cut..end]).map(|r| &**r),
            bytes.strip_prefix(&bytes[cut..end])
        );
    }

    #[test]
    fn cstr_display(bytes in interesting_bytes()) {
        let owned = c_string(&bytes);
        let s = CStr::from_bytes_with_nul(&owned).unwrap();
        let shown = format!("{}", fmt!("{s}"));
        prop_assert_eq!(&shown, &reference_cstr(s.to_bytes()));
        let built = CString::try_from_fmt(fmt!("{s}")).unwrap();
        prop_assert_eq!(built.to_bytes(), shown.as_bytes());
    }

    #[test]
    fn cstring_of_any_text(text in ".{0,40}", nul in any::<bool>(), at in 0..40_usize) {
        let mut text = text;
        if nul && !text.contains('\0') {
            let at = (0..=at.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap();
            text.insert(at, '\0');
        }
        let nul = text.contains('\0');
        let text = text.as_str(); // `String` is no kernel type: no kernel `Display`
        match CString::try_from_fmt(fmt!("{text}")) {
            Ok(s) => {
                prop_assert!(!nul);
                prop_assert_eq!(s.to_bytes(), text.as_bytes());
                prop_assert_eq!(s.to_bytes_with_nul().last(), Some(&0));
                prop_assert_eq!(format!("{s:?}"), format!("{:?}", &*s));
            }
            Err(e) => {
                prop_assert!(nul);
                prop_assert_eq!(e, EINVAL);
            }
        }
    }

    #[test]
    fn cstr_ext_case(bytes in interesting_bytes()) {
        let owned = c_string(&bytes);
        let s = CStr::from_bytes_with_nul(&owned).unwrap();
        let plain = s.to_bytes();
        let lower = s.to_ascii_lowercase().unwrap();
        prop_assert_eq!(lower.to_bytes(), &plain.to_ascii_lowercase()[..]);
        let upper = s.to_ascii_uppercase().unwrap();
        prop_assert_eq!(upper.to_bytes(), &plain.to_ascii_uppercase()[..]);
        let mut copy = s.to_cstring().unwrap();
        prop_assert_eq!(&*copy, s);
        copy.make_ascii_uppercase();
        prop_assert_eq!(copy.to_bytes(), &plain.to_ascii_uppercase()[..]);
        let mut raw = owned.clone();
        // SAFETY: `raw` ends with its only NUL.
        let in_place = unsafe { CStr::from_bytes_with_nul_unchecked_mut(&mut raw) };
        in_place.make_ascii_lowercase();
        prop_assert_eq!(in_place.to_bytes_with_nul(), &owned.to_ascii_lowercase()[..]);
        // SAFETY: `owned` is NUL-terminated and lives through the borrow.
        let again = unsafe { CStr::from_char_ptr(s.as_char_ptr()) };
        prop_assert_eq!(again, s);
    }

    #[test]
    fn formatter_against_string(pieces in proptest::collection::vec(".{0,8}", 0..8), size in 0..40_usize) {
        let mut buffer = vec![0xaa_u8; size];
        let mut f = Formatter::new(&mut buffer);
        let mut whole = String::new();
        for piece in &pieces {
            whole.push_str(piece);
            let result = f.write_str(piece);
            prop_assert_eq!(result.is_ok(), whole.len() <= size);
        }
        prop_assert_eq!(f.bytes_written(), whole.len());
        let kept = whole.len().min(size);
        prop_assert_eq!(&buffer[..kept], &whole.as_bytes()[..kept]);
        prop_assert!(buffer[kept..].iter().all(|&b| b == 0xaa));
    }

    #[test]
    fn null_terminated_formatter_against_string(pieces in proptest::collection::vec(".{0,8}", 0..8), size in 0..40_usize) {
        let mut buffer = vec![0xaa_u8; size];
        let Some(mut f) = NullTerminatedFormatter::new(&mut buffer) else {
            prop_assert_eq!(size, 0);
            return Ok(());
        };
        let mut accepted = String::new();
        for piece in &pieces {
            let fits = accepted.len() + piece.len() < size;
            prop_assert_eq!(f.write_str(piece).is_ok(), fits);
            if fits {
                accepted.push_str(piece);
            }
        }
        prop_assert_eq!(&buffer[..accepted.len()], accepted.as_bytes());
        prop_assert_eq!(buffer[accepted.len()], 0);
    }

    #[test]
    fn kstrtobool_against_the_table(bytes in proptest::collection::vec(any::<u8>(), 0..4)) {
        let first = bytes.first().copied().unwrap_or(0);
        let second = if first == 0 { 0 } else { bytes.get(1).copied().unwrap_or(0) };
        let expected = reference_kstrtobool(first, second).ok_or(EINVAL);
        prop_assert_eq!(kstrtobool_bytes(&bytes), expected);
        let owned = c_string(&bytes);
        let s = CStr::from_bytes_with_nul(&owned).unwrap();
        let (first, second) = (s.to_bytes().first().copied().unwrap_or(0), s.to_bytes().get(1).copied().unwrap_or(0));
        prop_assert_eq!(kstrtobool(s), reference_kstrtobool(first, second).ok_or(EINVAL));
    }

    #[test]
    fn parse_int_round_trips(value in any::<i64>(), radix in 0..5_usize, plus in any::<bool>()) {
        let magnitude = value.unsigned_abs();
        let digits = match radix {
            0 => format!("{magnitude}"),
            1 => format!("0x{magnitude:x}"),
            2 => format!("0O{magnitude:o}"),
            3 => format!("0b{magnitude:b}"),
            _ => format!("0{magnitude:o}"),
        };
        let negative = value < 0;
        let text = match (negative, plus) {
            (true, _) => format!("-{digits}"),
            (false, true) => format!("+{digits}"),
            (false, false) => digits.clone(),
        };
        // Linux 7.3 strips a radix prefix after a `-` only: after a `+` the digits are decimal
        // (Rust's `from_str_radix` takes the `+`), so `+0x10` is no number and `+017` is 17.
        let expected: Option<i128> = if plus && !negative {
            digits.parse::<i128>().ok()
        } else {
            Some(i128::from(value))
        };
        let s = BStr::from_bytes(text.as_bytes());
        let fits = |parsed: Option<i128>, min: i128, max: i128| {
            expected.filter(|v| (min..=max).contains(v)) == parsed
        };
        prop_assert!(fits(i64::from_str(s).ok().map(i128::from), i64::MIN.into(), i64::MAX.into()));
        prop_assert!(fits(i8::from_str(s).ok().map(i128::from), i8::MIN.into(), i8::MAX.into()));
        prop_assert!(fits(u16::from_str(s).ok().map(i128::from), 0, u16::MAX.into()));
        prop_assert!(fits(i32::from_str(s).ok().map(i128::from), i32::MIN.into(), i32::MAX.into()));
        prop_assert!(fits(u64::from_str(s).ok().map(i128::from), 0, u64::MAX.into()));
        if !plus {
            prop_assert_eq!(i64::from_str(s), Ok(value));
        }
    }
}
