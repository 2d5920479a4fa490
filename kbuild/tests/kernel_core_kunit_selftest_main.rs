// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A KUnit suite that fails on purpose, to prove that kernel-core's `#[kunit_tests]` reports
//! failures through KUnit: each assertion macro, an `Err` result, skipped cases, and that a
//! failed assertion stops its case.
//!
//! `cargo xtask qemu` loads it and checks each case's outcome and message against what is
//! written here; the host never builds it (on the host these would be ordinary failing tests).

use kernel::prelude::*;

module! {
    type: KunitSelftest,
    name: "kernel_core_kunit_selftest",
    description: "kernel-core's #[kunit_tests] failure reporting, failing on purpose",
    license: "GPL",
}

#[kernel_core::kunit::kunit_tests(kernel_core_kunit_selftest)]
mod tests {
    use core::sync::atomic::{AtomicBool, Ordering};

    /// Set by code after a failed assertion, which must never run.
    static REACHED_AFTER_FAILURE: AtomicBool = AtomicBool::new(false);

    #[test]
    fn a_passes() {
        assert!(1 + 1 == 2);
        assert_eq!(2 + 2, 4);
        assert_ne!(1, 2);
    }

    #[test]
    fn b_assert_fails() {
        assert!(1 + 1 == 3);
    }

    #[test]
    fn c_assert_eq_fails() {
        assert_eq!(2 + 2, 5);
    }

    #[test]
    fn d_assert_ne_fails_with_message() {
        assert_ne!(7, 7, "values must differ: {}", 42);
    }

    #[test]
    fn e_returns_err() -> Result<(), i32> {
        Err(7)
    }

    #[test]
    #[cfg(any())]
    fn f_cfg_disabled() {
        assert!(false);
    }

    #[test]
    #[ignore]
    fn g_ignored() {
        assert!(false);
    }

    #[test]
    fn h_failure_stops_the_case() {
        assert!(REACHED_AFTER_FAILURE.load(Ordering::SeqCst), "stop here");
        REACHED_AFTER_FAILURE.store(true, Ordering::SeqCst);
    }

    #[test]
    fn i_nothing_ran_after_the_failure() {
        assert!(!REACHED_AFTER_FAILURE.load(Ordering::SeqCst));
    }
}

struct KunitSelftest;

impl kernel::Module for KunitSelftest {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(KunitSelftest)
    }
}
