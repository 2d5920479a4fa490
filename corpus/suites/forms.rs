// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Every form a suite may contain, with cases that pass, fail and are skipped on purpose.
//!
//! The verdict each case must get, in both worlds, is the start of its name.

use kernel_core::macros::kunit_tests;

#[kunit_tests(corpus_forms)]
mod tests {
    // `use` items.
    use core::num::NonZeroU8;

    // Helpers before the first test, plain and const, asserting.
    fn positive(x: i32) -> i32 {
        assert!(x > 0, "{x} is not positive");
        x
    }

    const fn small(x: u32) -> u32 {
        assert!(x < 100);
        x + 1
    }

    // Consts and statics whose initializers assert.
    const CHECKED: u32 = {
        assert!(small(2) == 3);
        small(3)
    };
    const _: () = assert!(CHECKED == 4, "CHECKED is 4");
    static TABLE: [u32; 3] = {
        assert!(CHECKED > 0);
        [1, 2, CHECKED]
    };

    // A nested module and a generic helper.
    mod nested {
        pub(super) fn three() -> u32 {
            assert_eq!(1 + 2, 3);
            3
        }
    }

    fn larger<T: PartialOrd + Copy>(a: T, b: T) -> T {
        if a > b {
            a
        } else {
            b
        }
    }

    /// A type without `Debug`.
    #[derive(PartialEq)]
    struct Opaque(u8);

    #[test]
    fn pass_consts_and_const_fns() {
        assert_eq!(CHECKED, 4);
        const { assert!(small(1) == 2) };
        const LOCAL: u32 = {
            assert!(small(4) == 5);
            small(5)
        };
        assert_eq!(LOCAL, 6);
    }

    #[test]
    fn pass_helpers() {
        assert_eq!(positive(3), 3);
        assert_eq!(larger(2u8, 7), 7);
        assert_eq!(larger(-1i64, -9), -1);
    }

    #[test]
    fn fail_in_a_helper() {
        positive(0);
    }

    #[test]
    fn pass_statics_nested_and_uses() {
        assert_eq!(TABLE, [1, 2, 4]);
        assert_eq!(nested::three(), 3);
        assert_eq!(NonZeroU8::new(1).map(NonZeroU8::get), Some(1));
    }

    #[test]
    fn pass_result_of_any_types() -> Result<u32, i32> {
        Ok(3)
    }

    #[test]
    fn fail_result_err() -> Result<u32, i32> {
        Err(-22)
    }

    #[test]
    fn fail_result_err_without_debug() -> Result<(), Opaque> {
        Err(Opaque(1))
    }

    #[test]
    #[ignore]
    fn skip_ignored() {
        assert_eq!(TABLE[0], 0);
    }

    #[test]
    #[ignore = "with a reason"]
    fn skip_ignored_with_a_reason() {
        assert_eq!(TABLE[0], 0);
    }

    #[test]
    #[cfg(target_pointer_width = "16")]
    fn skip_cfg_off() {
        assert_eq!(TABLE[0], 0);
    }

    // On in every world: the host's verdict is compared with each kernel's, 32-bit arm's too.
    #[test]
    #[cfg(any(target_pointer_width = "32", target_pointer_width = "64"))]
    fn pass_cfg_on() {
        assert_eq!(usize::BITS % 32, 0);
    }

    #[test]
    fn pass_unsized_operands() {
        let s: &str = "ab";
        assert_eq!(*s, *"ab");
        let v = [1, 2, 3];
        assert_eq!(v[..2], [1, 2][..]);
        assert_ne!(*s, *"ba");
    }

    #[test]
    fn fail_unsized_operands() {
        assert_eq!(*"ab", *"ac");
    }

    #[test]
    fn pass_operands_without_debug() {
        assert_eq!(Opaque(1), Opaque(1));
        assert_ne!(Opaque(1), Opaque(2));
    }

    #[test]
    fn fail_operands_without_debug() {
        assert_eq!(Opaque(1), Opaque(2));
    }

    #[test]
    fn fail_assert_with_a_message() {
        let two = 2;
        assert!(1 > two, "one is not more than {two}");
    }

    #[test]
    fn fail_assert_ne() {
        assert_ne!(1, 1, "equal");
    }

    #[test]
    fn fail_stops_at_the_first_failure() {
        assert_eq!(1, 2);
        assert_eq!(TABLE[0], 0, "not reached");
    }

    // Items after the first test: a const that asserts, and a helper.
    const AFTER: u32 = {
        assert!(CHECKED == 4);
        7
    };

    fn after_helper() -> u32 {
        AFTER
    }

    #[test]
    fn pass_items_after_tests() {
        assert_eq!(after_helper(), 7);
    }
}
