// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo xtask bench`, part 3: a module that calls kernel-core's run-time functions.
//!
//! Built twice: as is, and with the `lib` alias below pointing at the kernel crate instead, so
//! that the very same calls go to Linux 7.3's own `kernel::ptr` and `kernel::time`. The inputs
//! go through `black_box` so that nothing is computed at build time.

use core::hint::black_box;
use kernel::prelude::*;
use kernel_core as lib;
use lib::ptr::{const_align_up, Alignable, Alignment};
use lib::time::{Delta, Instant, Monotonic};

module! {
    type: Bench,
    name: "bench_rt_kcore",
    description: "kernel-core bench: run-time functions",
    license: "GPL",
}

struct Bench;

impl kernel::Module for Bench {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let start = Instant::<Monotonic>::now();
        let sixteen = Alignment::new::<16>();
        let page = Alignment::new::<4096>();
        let align = Alignment::new_checked(black_box(64)).ok_or(EINVAL)?;
        let u8s = (
            black_box(0x2f_u8).align_down(sixteen),
            black_box(0x2f_u8).align_up(sixteen),
            black_box(0x2f_u8).align_up(align),
        );
        let u16s = (
            black_box(0x1234_u16).align_down(page),
            black_box(0x1234_u16).align_up(page),
            black_box(0x1234_u16).align_up(align),
        );
        let u32s = (
            black_box(0x1234_5678_u32).align_down(page),
            black_box(0x1234_5678_u32).align_up(page),
            black_box(0x1234_5678_u32).align_up(align),
        );
        let u64s = (
            black_box(0x1_2345_6789_u64).align_down(page),
            black_box(0x1_2345_6789_u64).align_up(page),
            black_box(0x1_2345_6789_u64).align_up(align),
        );
        let usizes = (
            black_box(0x1234_usize).align_down(page),
            black_box(0x1234_usize).align_up(page),
            black_box(0x1234_usize).align_up(align),
            const_align_up(black_box(5000), page),
            const_align_up(black_box(5000), align),
        );
        pr_info!("bench: {u8s:?} {u16s:?} {u32s:?} {u64s:?} {usizes:?}\n");
        let micros = Delta::from_micros(black_box(1_500));
        let secs = Delta::from_secs(black_box(3));
        let span = Delta::from_nanos(black_box(1_234_567_890));
        pr_info!(
            "bench: {} {} {} {} {} {}\n",
            micros.as_nanos(),
            secs.as_nanos(),
            span.as_micros_ceil(),
            span.as_millis(),
            span.rem_nanos(black_box(16_000_000)).as_nanos(),
            start.elapsed().as_nanos()
        );
        Ok(Bench)
    }
}
