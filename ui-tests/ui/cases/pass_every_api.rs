// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Pass case: every kernel-core API used correctly builds and runs.
//!
//! It is also what makes trybuild run `cargo build` rather than `cargo check` for the whole
//! run, without which the post-monomorphization errors of the `const_assert_*` and
//! `alignment_*` cases would not be reported at all.

use kernel_core::build_assert::{build_assert, build_error, const_assert, static_assert};
use kernel_core::ptr::{const_align_up, Alignable, Alignment};
use kernel_core::extras::sizes::SizeConstants64;
use kernel_core::ptr::KnownSize;
use kernel_core::sizes::{SizeConstants, SZ_128K, SZ_16M, SZ_4K, SZ_8M};
use kernel_core::time::{Delta, Jiffy};

static_assert!(SZ_4K == 4096);
static_assert!(u64::SZ_4G == 1 << 32, "SZ_4G is 2^32");

/// A const generic argument computed by aligning, as nova-core does.
struct Carveout<const SIZE: usize>;

impl<const SIZE: usize> Carveout<SIZE> {
    const BYTES: usize = SIZE;
}

type Wpr = Carveout<{ const_align_up(SZ_8M + SZ_16M + 1, Alignment::new::<SZ_128K>()).unwrap() }>;

/// `const_assert!` on a const generic: checked for each instance used below.
fn ring<const N: usize>() -> [u8; N] {
    const_assert!(N.is_power_of_two(), "ring sizes must be powers of two");
    const_assert!(core::mem::size_of::<[u8; N]>() == N);
    [0; N]
}

/// `build_assert!` on an argument: provable because every caller passes a constant.
#[inline(always)]
fn register_offset(index: usize) -> usize {
    build_assert!(index < 16, "only 16 registers");
    build_assert!(index != 16);
    0x100 + index * 4
}

/// `build_assert!` in a `const fn`, evaluated in a `const` item.
const fn const_register_offset(index: usize) -> usize {
    build_assert!(index < 16, "only 16 registers");
    0x100 + index * 4
}

const LAST: usize = const_register_offset(15);

/// `build_error!` in a branch the compiler can prove dead.
#[inline(always)]
fn increment(a: u32) -> u32 {
    match a.checked_add(1) {
        Some(b) => b,
        None => build_error!("increment overflows"),
    }
}

fn main() {
    static_assert!(u32::BITS == 32);

    assert_eq!(ring::<8>().len(), 8);
    assert_eq!(ring::<1>().len(), 1);
    assert_eq!(register_offset(3), 0x10c);
    assert_eq!(LAST, 0x13c);
    assert_eq!(increment(41), 42);

    const PAGE: Alignment = Alignment::new::<4096>();
    assert_eq!(PAGE.as_usize(), 4096);
    assert_eq!(Alignment::new::<1>().log2(), 0);
    assert_eq!(0x1234_u64.align_up(PAGE), Some(0x2000));
    assert_eq!(0x1234_u32.align_down(PAGE), 0x1000);
    assert_eq!(Wpr::BYTES, SZ_8M + SZ_16M + SZ_128K);

    assert_eq!(u32::SZ_2G, 1 << 31);
    assert_eq!(usize::SZ_1M, 1 << 20);
    assert_eq!(u64::SZ_4G, 1 << 32);
    assert_eq!(u64::SZ_128T, 1 << 47);

    assert_eq!(Delta::from_millis(1_500).as_micros_ceil(), 1_500_000);
    assert_eq!(Delta::from_nanos(1).as_millis_ceil(), 1);
    let ticks: Delta<Jiffy> = Delta::from_jiffies(-3);
    assert_eq!(ticks.as_jiffies(), -3);
    assert_eq!(<[u64] as KnownSize>::MIN_SIZE, 0);
    assert_eq!(<[u64] as KnownSize>::MIN_ALIGN, Alignment::of::<u64>());
    build_assert!(LAST > 0,);
    assert_eq!(
        Delta::from_secs(2) - Delta::from_millis(500),
        Delta::from_micros(1_500_000)
    );
}
