// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A false `static_assert!` with a message is a compile error carrying that message.

use kernel_core::sizes::SZ_4K;

const RING_BYTES: usize = 256 * 32;

kernel_core::static_assert!(RING_BYTES <= SZ_4K, "the ring must fit in one page");

fn main() {}
