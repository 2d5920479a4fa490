// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::page`: the page constants agree with each other and `page_align` rounds up to
//! whole pages, for whatever page size the kernel was built with (on the host, 4 KiB).

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_page)]
mod tests {
    use kernel_core::page::{page_align, PAGE_MASK, PAGE_SHIFT, PAGE_SIZE};

    #[test]
    fn constants_agree() {
        assert_eq!(1_usize << PAGE_SHIFT, PAGE_SIZE);
        assert!(PAGE_SIZE.is_power_of_two());
        assert!(PAGE_SHIFT >= 12 && PAGE_SHIFT < usize::BITS as usize);
        assert_eq!(!PAGE_MASK, PAGE_SIZE - 1);
        assert_eq!(PAGE_MASK.trailing_zeros() as usize, PAGE_SHIFT);
    }

    #[test]
    fn page_align_rounds_up() {
        assert_eq!(page_align(0), Some(0));
        assert_eq!(page_align(1), Some(PAGE_SIZE));
        assert_eq!(page_align(PAGE_SIZE - 1), Some(PAGE_SIZE));
        assert_eq!(page_align(PAGE_SIZE), Some(PAGE_SIZE));
        assert_eq!(page_align(PAGE_SIZE + 1), Some(2 * PAGE_SIZE));
        assert_eq!(page_align(7 * PAGE_SIZE + 3), Some(8 * PAGE_SIZE));
    }

    #[test]
    fn page_align_at_the_top() {
        let last_page = usize::MAX & PAGE_MASK;
        assert_eq!(page_align(last_page), Some(last_page));
        assert_eq!(page_align(last_page - PAGE_SIZE + 1), Some(last_page));
        assert_eq!(page_align(last_page + 1), None);
        assert_eq!(page_align(usize::MAX), None);
        assert_eq!(page_align(usize::MAX - PAGE_SIZE / 2), None);
    }

    #[test]
    fn page_align_in_constants() {
        const PAGES: usize = match page_align(3 * 1000) {
            Some(bytes) => bytes >> PAGE_SHIFT,
            None => 0,
        };
        assert_eq!(PAGES, 3000_usize.div_ceil(PAGE_SIZE));
        assert_eq!(PAGES, 1);
    }
}
