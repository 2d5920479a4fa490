// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo xtask bench`, part 3: a module that uses only kernel-core's compile-time items.
//!
//! Its twin, `module_const_plain.rs`, computes the same values with literals and no
//! kernel-core; the bytes the two `.ko` files differ by are what kernel-core adds.

use kernel::prelude::*;
use kernel_core::ptr::{const_align_up, Alignment};
use kernel_core::extras::sizes::SizeConstants64;
use kernel_core::sizes::{SizeConstants, SZ_128K, SZ_16M, SZ_4K, SZ_8M};
use kernel_core::time::Delta;
use kernel_core::build_assert::{build_assert, const_assert, static_assert};

module! {
    type: Bench,
    name: "bench_const_kcore",
    description: "kernel-core bench: compile-time items only",
    license: "GPL",
}

const RING_ENTRIES: usize = SZ_4K / 32;
const WINDOW: u32 = u32::SZ_64K;
const APERTURE: u64 = 2 * u64::SZ_4G;
const HEAP: usize = match const_align_up(SZ_8M + SZ_16M, Alignment::new::<SZ_128K>()) {
    Some(bytes) => bytes,
    None => panic!("the heap size overflows"),
};
const PAGE_MASK: usize = Alignment::new::<SZ_4K>().mask();
const TIMEOUT_NS: i64 = Delta::from_millis(250).as_nanos();
const TICK_US: i64 = Delta::from_micros(2).as_nanos() / 1_000;
static_assert!(
    RING_ENTRIES.is_power_of_two(),
    "the ring index wraps with a mask"
);

/// The offset of register `index`, checked at build time.
#[inline(always)]
fn register(index: u32) -> u32 {
    build_assert!(index < WINDOW / 4, "register outside the window");
    index * 4
}

/// The byte size of a ring of `N` entries, checked per instance.
fn ring_bytes<const N: usize>() -> usize {
    const_assert!(N.is_power_of_two());
    N * 32
}

struct Bench;

impl kernel::Module for Bench {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        pr_info!(
            "bench: {} {} {} {} {} {} {} {} {}\n",
            RING_ENTRIES,
            WINDOW,
            APERTURE,
            HEAP,
            PAGE_MASK,
            TIMEOUT_NS,
            TICK_US,
            register(3),
            ring_bytes::<8>()
        );
        Ok(Bench)
    }
}
