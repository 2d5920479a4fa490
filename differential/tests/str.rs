// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Differential tests of `kernel_core::str::parse_int` against Linux 7.3's own
//! `kernel::str::parse_int` (`linux7_3::str::parse_int`, the kernel's `rust/kernel/str/parse_int.rs`
//! built on the host over a `BStr` declared as 7.3's `str.rs` declares it).
//!
//! `ParseInt::from_str` is compared on every integer width the kernel implements it for: on the
//! text of each width's edges (`MIN`, `MAX`, one beyond, zero, one) in every radix, prefix case and
//! sign; on malformed text (empty, a lone sign or prefix, double signs, spaces, underscores,
//! digits beyond the radix, bytes that are not UTF-8); on random integers written the same ways;
//! and on random byte strings over the characters that matter. The results (the value, or the
//! error) must be equal.

#[macro_use]
mod common;

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
