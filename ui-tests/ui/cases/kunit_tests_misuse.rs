// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `#[kunit_tests]` misuse: not a module, an out-of-line module, a missing or malformed suite
//! name, and a name longer than KUnit's 255 bytes.

use kernel_core::kunit::kunit_tests;

#[kunit_tests(not_a_module)]
fn f() {}

#[kunit_tests(outlined)]
mod elsewhere;

#[kunit_tests]
mod no_name {}

#[kunit_tests(two words)]
mod bad_name {}

#[kunit_tests(a_suite_name_that_goes_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on)]
mod too_long {}

fn main() {}
