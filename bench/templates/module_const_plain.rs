// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo xtask bench`, part 3: `module_const_kernel_core.rs` without kernel-core: the same
//! values as literals, the same functions without their assertions.

use kernel::prelude::*;

module! {
    type: Bench,
    name: "bench_const_plain",
    description: "kernel-core bench: literal constants, no kernel-core",
    license: "GPL",
}

const RING_ENTRIES: usize = 128;
const WINDOW: u32 = 0x1_0000;
const APERTURE: u64 = 0x2_0000_0000;
const HEAP: usize = 0x180_0000;
const PAGE_MASK: usize = !0xfff;
const TIMEOUT_NS: i64 = 250_000_000;
const TICK_US: i64 = 2;

/// The offset of register `index`.
#[inline(always)]
fn register(index: u32) -> u32 {
    index * 4
}

/// The byte size of a ring of `N` entries.
fn ring_bytes<const N: usize>() -> usize {
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
