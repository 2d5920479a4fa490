// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! 64-bit integers in decimal, on 32-bit kernels too.
//!
//! Rust's `{}` of a `u64` or `i64` divides 64-bit values by powers of ten, and on a 32-bit
//! target that division is a call to the compiler's runtime (`__aeabi_uldivmod` on arm). The
//! kernel has none: its `rust/compiler_builtins.rs` defines those functions to panic ("`u64`
//! division/modulo should not be used"), so on 32-bit arm `pr_info!("{}", nanos)` with a `u64`
//! or `i64` stops the kernel with an Oops (`undefined instruction`), where the kernel's C
//! prints `%llu` through `do_div()`. [`Decimal`] prints the same digits with 32-bit arithmetic
//! and shifts only where `usize` has 32 bits, and is plain `{}` elsewhere.
//!
//! (Hexadecimal, `{:#x}`, needs no division and works everywhere.)
//!
//! # Examples
//!
//! ```
//! use kernel_core::extras::fmt::Decimal;
//!
//! let nanos: i64 = -1_234_567_890_123;
//! assert_eq!(format!("{}", Decimal(nanos)), "-1234567890123");
//! assert_eq!(format!("{:>8}", Decimal(42_u64)), "      42");
//! assert_eq!(format!("{}", Decimal(u64::MAX)), "18446744073709551615");
//! ```

use core::fmt;

/// A `u64` or `i64` that formats in decimal without 64-bit division (see the
/// [module documentation](self)): `pr_info!("{} ns\n", Decimal(delta.as_nanos()))`.
///
/// Width, fill, alignment, `+` and `0` flags work as for the integer itself.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::fmt::Decimal;
///
/// assert_eq!(format!("{}", Decimal(i64::MIN)), i64::MIN.to_string());
/// assert_eq!(format!("{:+06}", Decimal(42_i64)), "+00042");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decimal<T>(pub T);

/// `n / d` and `n % d` with shifts, comparisons and subtractions of 64-bit values, which
/// 32-bit targets do inline: no call to the compiler's runtime.
#[inline]
const fn div_rem(n: u64, d: u32) -> (u64, u32) {
    let d = d as u64;
    let mut quotient = 0_u64;
    let mut remainder = 0_u64;
    let mut bit = 64;
    while bit > 0 {
        bit -= 1;
        remainder = (remainder << 1) | ((n >> bit) & 1);
        if remainder >= d {
            remainder -= d;
            quotient |= 1 << bit;
        }
    }
    (quotient, remainder as u32)
}

/// The decimal digits of `n`, in the end of `buf`: the slice that holds them.
///
/// `#[inline]` so that its code lands only in the modules that print a [`Decimal`], not in
/// `kernel_core.o`, which every module links whole.
#[inline]
fn digits(mut n: u64, buf: &mut [u8; 20]) -> &str {
    let mut at = buf.len();
    loop {
        // Nine digits at a time: the remainder fits a `u32`, divided by 10 natively.
        let (rest, mut chunk) = div_rem(n, 1_000_000_000);
        n = rest;
        let mut written = 0;
        while written < 9 && (chunk != 0 || n != 0) {
            at -= 1;
            buf[at] = b'0' + (chunk % 10) as u8;
            chunk /= 10;
            written += 1;
        }
        if n == 0 {
            break;
        }
    }
    if at == buf.len() {
        at -= 1;
        buf[at] = b'0';
    }
    // Only ASCII digits were written.
    core::str::from_utf8(&buf[at..]).unwrap_or("")
}

impl fmt::Display for Decimal<u64> {
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if cfg!(target_pointer_width = "64") {
            return fmt::Display::fmt(&self.0, f);
        }
        let mut buf = [0; 20];
        f.pad_integral(true, "", digits(self.0, &mut buf))
    }
}

impl fmt::Display for Decimal<i64> {
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if cfg!(target_pointer_width = "64") {
            return fmt::Display::fmt(&self.0, f);
        }
        let mut buf = [0; 20];
        f.pad_integral(self.0 >= 0, "", digits(self.0.unsigned_abs(), &mut buf))
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::format;
    use std::string::{String, ToString};

    /// The 32-bit path, whatever the host's width.
    fn decimal_u64(n: u64) -> String {
        let mut buf = [0; 20];
        String::from(digits(n, &mut buf))
    }

    #[test]
    fn division_matches_the_operators() {
        let divisors = [1, 2, 3, 7, 10, 1_000_000_000, u32::MAX];
        let mut values = std::vec![
            0,
            1,
            9,
            10,
            999_999_999,
            1_000_000_000,
            u64::MAX,
            u64::MAX - 1
        ];
        for shift in 0..64 {
            values.push(1 << shift);
            values.push((1 << shift) - 1);
        }
        for &n in &values {
            for &d in &divisors {
                let wide = u64::from(d);
                assert_eq!(div_rem(n, d), (n / wide, (n % wide) as u32), "{n} / {d}");
            }
        }
    }

    #[test]
    fn digits_match_std_at_the_edges() {
        for n in [
            0,
            1,
            9,
            10,
            99,
            100,
            999_999_999,
            1_000_000_000,
            1_000_000_001,
            u64::MAX,
        ] {
            assert_eq!(decimal_u64(n), n.to_string());
        }
        for power in 0..20 {
            let n = 10_u64.pow(power);
            assert_eq!(decimal_u64(n), n.to_string());
            assert_eq!(decimal_u64(n - 1), (n - 1).to_string());
        }
    }

    #[test]
    fn signs_and_flags_are_the_integers() {
        for n in [i64::MIN, i64::MIN + 1, -1_000_000_000, -1, 0, 1, i64::MAX] {
            assert_eq!(format!("{}", Decimal(n)), n.to_string());
            assert_eq!(format!("{:+025}", Decimal(n)), format!("{:+025}", n));
            assert_eq!(format!("{:<24}|", Decimal(n)), format!("{:<24}|", n));
        }
    }
}
