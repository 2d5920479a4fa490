// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Differential tests of `kernel_core::sizes` against Linux 7.3's own `kernel::sizes`
//! (`linux7_3::sizes`, the kernel's `rust/kernel/sizes.rs` built on the host).
//!
//! kernel-core promises the same `SZ_*` constants and the same `SizeConstants` trait. These
//! tests compare every top-level `SZ_*` constant, every associated constant of `SizeConstants`
//! for every implementing type, and which integer types implement the trait. The list of names
//! is checked against the constants that the kernel's own `sizes.rs` documents (`build.rs`
//! extracts them), so a kernel that adds a size fails here until it is covered; the same table
//! checks the values of this crate's mock `bindings`, so the comparison does not rest on them.

#[macro_use]
mod common;

use kernel_core::sizes as kc;
use linux7_3::sizes as lx;

include!(concat!(env!("OUT_DIR"), "/sizes_documented.rs"));

/// Calls `$callback!` with every size name of Linux 7.3.
macro_rules! with_sizes {
    ($callback:ident) => {
        $callback!(
            SZ_1K, SZ_2K, SZ_4K, SZ_8K, SZ_16K, SZ_32K, SZ_64K, SZ_128K, SZ_256K, SZ_512K, SZ_1M,
            SZ_2M, SZ_4M, SZ_8M, SZ_16M, SZ_32M, SZ_64M, SZ_128M, SZ_256M, SZ_512M, SZ_1G, SZ_2G
        )
    };
}

/// `(name, kernel-core's value, Linux 7.3's value)` of every top-level constant.
macro_rules! top_level {
    ($($name:ident),*) => {
        [$((stringify!($name), kc::$name, lx::$name)),*]
    };
}

#[test]
fn top_level_constants() {
    let table: [(&str, usize, usize); 22] = with_sizes!(top_level);
    for (name, ours, theirs) in table {
        assert_eq!(
            ours, theirs,
            "{name}: kernel-core (left), Linux 7.3 (right)"
        );
    }
}

/// The names covered here are exactly those the kernel documents, with the documented values.
#[test]
fn documented_by_the_kernel() {
    let table: [(&str, usize, usize); 22] = with_sizes!(top_level);
    let covered: Vec<(&str, u64)> = table
        .iter()
        .map(|(name, _, theirs)| (*name, u64::try_from(*theirs).expect("fits in u64")))
        .collect();
    assert_eq!(
        covered, SIZES_DOCUMENTED,
        "the SZ_* constants (and values) of Linux 7.3 as built here (left) and as its sizes.rs \
         documents them (right)"
    );
}

/// One associated constant of `SizeConstants` for `$t`, on both sides, and against the
/// top-level constant.
macro_rules! compare_associated {
    ($t:ty, $name:ident) => {{
        let ours: $t = <$t as kc::SizeConstants>::$name;
        let theirs: $t = <$t as lx::SizeConstants>::$name;
        assert_eq!(
            ours,
            theirs,
            "<{} as SizeConstants>::{}: kernel-core (left), Linux 7.3 (right)",
            stringify!($t),
            stringify!($name),
        );
        assert_eq!(
            ours as u128,
            lx::$name as u128,
            "<{} as SizeConstants>::{} against the top-level constant",
            stringify!($t),
            stringify!($name),
        );
    }};
}

/// Every associated constant, for every type that implements `SizeConstants` in Linux 7.3.
macro_rules! associated {
    ($($name:ident),*) => {{
        $(
            compare_associated!(u32, $name);
            compare_associated!(u64, $name);
            compare_associated!(usize, $name);
        )*
    }};
}

#[test]
fn associated_constants() {
    with_sizes!(associated);
}

/// The same integer types implement `SizeConstants` on both sides.
#[test]
fn implementing_types() {
    macro_rules! implementors {
        ($module:ident: $($t:ty),*) => {
            [$((stringify!($t), implements!($t: $module::SizeConstants))),*]
        };
    }
    macro_rules! compare {
        ($($t:ty),*) => {
            assert_eq!(
                implementors!(kc: $($t),*),
                implementors!(lx: $($t),*),
                "types implementing SizeConstants: kernel-core (left), Linux 7.3 (right)",
            )
        };
    }
    compare!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);
}
