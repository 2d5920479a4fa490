// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Test forms that no `#[kunit_tests]` suite may contain, rejected with the same message on
//! the host and in the kernel (the proc macro rejects them before either expansion):
//! `#[should_panic]`, arguments, generics and `async`.

use kernel_core::kunit::kunit_tests;

#[kunit_tests(should_panic_suite)]
mod should_panic {
    #[test]
    #[should_panic]
    fn panics() {
        panic!("boom");
    }
}

#[kunit_tests(arguments_suite)]
mod arguments {
    #[test]
    fn takes(x: u32) {
        let _ = x;
    }
}

#[kunit_tests(generic_suite)]
mod generic {
    #[test]
    fn family<T>() {}
}

#[kunit_tests(async_suite)]
mod asynchronous {
    #[test]
    async fn later() {}
}

fn main() {}
