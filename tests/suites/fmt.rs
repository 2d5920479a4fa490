// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::fmt` and `fmt!`: every argument goes through the kernel's `Display` (or
//! `core`'s other traits), inline, positional and named arguments alike, and `{:p}` prints as
//! the kernel's `%p` (hashed or, booted with `no_hash_pointers`, raw: the same shape). In the
//! kernel these are the kernel's own items, formatted into a buffer without allocating.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_fmt)]
mod tests {
    use kernel_core::fmt::{self, Display, HashedPtr, Write as _};
    use kernel_core::macros::fmt;
    use kernel_core::str::Formatter;

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

    /// A driver's type with the kernel's `Display`.
    struct Version(u8, u8);

    impl Display for Version {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "v{}.{}", self.0, self.1)
        }
    }

    // No 64-bit or 128-bit integer in decimal: on 32-bit kernels that divides by calling the
    // compiler's runtime, which the kernel does not have (see `kernel_core::extras::fmt`).
    #[test]
    fn primitives_display_as_core() {
        let mut buffer = [0; 64];
        let line = render(
            &mut buffer,
            fmt!("{} {} {} {} {} {}", true, 'k', -5_i8, u32::MAX, "str", i16::MIN),
        );
        assert_eq!(line, "true k -5 4294967295 str -32768");
        let line = render(&mut buffer, fmt!("{:#x} {:x}", u64::MAX, u128::MAX >> 64));
        assert_eq!(line, "0xffffffffffffffff ffffffffffffffff");
    }

    /// `KBox`, `Arc` and `UniqueArc` print through the kernel's `Display`, as Linux 7.3's do
    /// (on 6.12, whose own implement only `core`'s, kernel-core gives them the kernel's).
    #[test]
    fn owning_pointers_print_their_value() -> kernel_core::error::Result {
        use kernel_core::alloc::{flags::GFP_KERNEL, KBox};
        use kernel_core::sync::{Arc, UniqueArc};

        let boxed = KBox::new(Version(6, 12), GFP_KERNEL)?;
        let shared = Arc::new(Version(7, 2), GFP_KERNEL)?;
        let unique = UniqueArc::new(Version(7, 3), GFP_KERNEL)?;
        let mut buffer = [0; 64];
        let line = render(&mut buffer, fmt!("{boxed} {shared} {unique}"));
        assert_eq!(line, "v6.12 v7.2 v7.3");
        Ok(())
    }

    /// `dbg!` (the kernel's on every kernel, kernel-core's on the host) returns what it prints:
    /// one value moved through, several as a tuple.
    #[test]
    fn dbg_returns_its_values() {
        let four = kernel_core::dbg!(2 + 2);
        assert_eq!(four, 4);
        let (a, b) = kernel_core::dbg!(Some(1_u8), -3_i16,);
        assert_eq!((a, b), (Some(1), -3));
        kernel_core::dbg!();
    }

    #[test]
    fn arguments_of_every_kind_are_wrapped() {
        let version = Version(7, 3);
        let count = 3;
        let mut buffer = [0; 64];
        let line = render(
            &mut buffer,
            fmt!("{version} {} {0} {named} {count:>3}", Version(6, 12), named = Version(1, 0)),
        );
        assert_eq!(line, "v7.3 v6.12 v6.12 v1.0   3");
    }

    #[test]
    fn other_traits_are_cores() {
        let mut buffer = [0; 64];
        let line = render(
            &mut buffer,
            fmt!("{:#x} {:X} {:o} {:b} {:?} {:>4}|", 255, 255, 8, 5, Some("a"), "ab"),
        );
        assert_eq!(line, "0xff FF 10 101 Some(\"a\")   ab|");
    }

    #[test]
    fn comparisons_in_parentheses() {
        let (a, b) = (1, 1);
        let mut buffer = [0; 16];
        assert_eq!(render(&mut buffer, fmt!("{}", (a == b))), "true");
    }

    #[test]
    fn arguments_nest() {
        let mut buffer = [0; 32];
        // Nested in one expression: `format_args!`'s temporaries live only for it (on older
        // compilers, 1.85 the kernel's among them, `let inner = fmt!(..);` does not compile).
        assert_eq!(render(&mut buffer, fmt!("[{}]", fmt!("{}-{}", 1, 2))), "[1-2]");
    }

    #[test]
    fn null_and_error_pointers_print_raw() {
        let digits = 2 * size_of::<usize>();
        let mut buffer = [0; 64];
        let null = render(&mut buffer, fmt!("{:p}", core::ptr::null::<u8>()));
        assert_eq!(null.len(), 2 + digits);
        assert!(null.starts_with("0x"));
        assert!(null[2..].bytes().all(|b| b == b'0'));

        // `ERR_PTR(-EINVAL)`, the last addresses: printed as they are.
        let error: *const u8 = core::ptr::without_provenance(usize::MAX - 21);
        let shown = render(&mut buffer, fmt!("{:p}", error));
        assert_eq!(shown.len(), 2 + digits);
        assert!(shown.ends_with("ffea"));

        let padded = render(&mut buffer, fmt!("{:>24p}|", core::ptr::null::<u8>()));
        assert_eq!(padded.len(), 25);
        // 18 characters on 64-bit kernels, 10 on 32-bit ones, padded to 24.
        assert_eq!(padded.trim_start().len(), 2 + digits + 1);
        assert!(padded.trim_start().starts_with("0x"));
        let zeros = render(&mut buffer, fmt!("{:030p}", core::ptr::null::<u8>()));
        assert_eq!(zeros.len(), 30);
        assert!(zeros.starts_with("0x0000"));
    }

    #[test]
    fn pointers_print_as_percent_p() {
        let value = 0_u32;
        let digits = 2 * size_of::<usize>();
        let mut buffer = [0; 64];
        let shown = render(&mut buffer, fmt!("{:p}", &value));
        // Before the kernel's random key is ready, `%p` prints a placeholder.
        if shown.starts_with('(') {
            return;
        }
        assert_eq!(shown.len(), 2 + digits);
        assert!(shown.starts_with("0x"));
        assert!(shown[2..].bytes().all(|b| b.is_ascii_hexdigit()));

        // Every pointer type prints the same for the same address.
        let mut other = [0; 64];
        let ptr: *const u32 = &value;
        assert_eq!(render(&mut other, fmt!("{:p}", ptr)), shown);
        assert_eq!(render(&mut other, fmt!("{:p}", ptr.cast_mut())), shown);
        assert_eq!(render(&mut other, fmt!("{:p}", HashedPtr(ptr))), shown);
        assert_eq!(
            render(&mut other, fmt!("{:p}", core::ptr::NonNull::from(&value))),
            shown
        );

        // A width with `0` zero-pads between `0x` and the digits, at most 31 characters.
        let wide = render(&mut other, fmt!("{:0100p}", ptr));
        assert_eq!(wide.len(), 31);
        assert!(wide.starts_with("0x"));
        assert!(!wide[2..].bytes().all(|b| b == b'0'));
    }
}
