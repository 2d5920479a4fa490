// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A false `static_assert!` without a message is a compile error quoting the condition.

kernel_core::static_assert!(1 + 1 == 3);

fn main() {}
