// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Suite names that match a neighbour's name: the suite name is KUnit's, and names no Rust
//! item, so `mod regs` next to `#[kunit_tests(regs)]` builds.

use kernel_core::macros::kunit_tests;

/// A module named like the suite below.
mod regs {
    pub(crate) const STATUS: u32 = 0x10;
}

/// A function named like the suite's module.
#[allow(dead_code)]
fn tests() -> u32 {
    regs::STATUS
}

#[kunit_tests(regs)]
mod tests {
    use super::regs;

    #[test]
    fn pass_neighbour_module() {
        assert_eq!(regs::STATUS, 0x10);
    }
}

#[kunit_tests(corpus_names_second)]
mod second {
    #[test]
    fn pass_second_suite_in_one_file() -> Result<(), ()> {
        Ok(())
    }
}
