// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Differential tests of `kernel_core::build_assert` against Linux 7.3's own
//! `kernel::build_assert` (`linux7_3::build_assert`, the kernel's `rust/kernel/build_assert.rs`
//! built on the host).
//!
//! The assertions act at compile time, so a differential test can only check that the same
//! valid invocations compile on both sides, through the same paths (the module's re-exports and
//! the crate root), in the same positions (items, function bodies, generic functions, `const fn`
//! and constants), and that a passing run-time `build_assert!` returns normally on both sides.
//! Invocations that must be rejected are checked by the ui tests, not here.

use kernel_core::build_assert as kc;
use linux7_3::build_assert as lx;

// At item level, with and without a message, through the module and through the crate root.
kc::static_assert!(core::mem::size_of::<u8>() == 1);
lx::static_assert!(core::mem::size_of::<u8>() == 1);
kc::static_assert!(42 > 24, "forty-two exceeds twenty-four");
lx::static_assert!(42 > 24, "forty-two exceeds twenty-four");
kernel_core::static_assert!(u32::MAX as u64 == (1 << 32) - 1);
linux7_3::static_assert!(u32::MAX as u64 == (1 << 32) - 1);

const fn add_two(x: i32) -> i32 {
    x + 2
}
kc::static_assert!(add_two(40) == 42, "add_two must add 2");
lx::static_assert!(add_two(40) == 42, "add_two must add 2");

/// `const_assert!` on generics, with and without a message.
fn const_asserts<const N: usize, T>() -> usize {
    kc::const_assert!(N > 1);
    lx::const_assert!(N > 1);
    kc::const_assert!(core::mem::size_of::<T>() > 0, "T cannot be a ZST");
    lx::const_assert!(core::mem::size_of::<T>() > 0, "T cannot be a ZST");
    kernel_core::const_assert!(N < 100);
    linux7_3::const_assert!(N < 100);
    N * core::mem::size_of::<T>()
}

#[test]
fn const_assert_compiles_on_both_sides() {
    assert_eq!(const_asserts::<4, u32>(), 16);
    assert_eq!(add_two(40), 42);
}

/// `build_assert!` on an argument the optimizer sees through, in every accepted form.
#[inline(always)]
fn ours(index: usize) -> usize {
    kc::build_assert!(index < 16);
    kc::build_assert!(index < 16,);
    kc::build_assert!(index < 16, "16 registers");
    // The crate root has the macro under its definition name, as the kernel's.
    kernel_core::build_assert_macro!(index < 16, "16 registers");
    0x100 + index * 4
}

#[inline(always)]
fn theirs(index: usize) -> usize {
    lx::build_assert!(index < 16);
    lx::build_assert!(index < 16,);
    lx::build_assert!(index < 16, "16 registers");
    linux7_3::build_assert_macro!(index < 16, "16 registers");
    0x100 + index * 4
}

#[test]
fn passing_build_assert_returns_normally() {
    assert_eq!(ours(3), theirs(3));
    assert_eq!(ours(15), theirs(15));
    assert_eq!(ours(0), 0x100);
}

/// `build_assert!` and `build_error!` in `const fn`s, evaluated in constants.
#[inline(always)]
const fn our_const(n: usize) -> usize {
    kc::build_assert!(n > 1);
    if n > 1000 {
        kc::build_error!("too large");
    }
    if n > 2000 {
        kernel_core::build_error!();
    }
    n
}

#[inline(always)]
const fn their_const(n: usize) -> usize {
    lx::build_assert!(n > 1);
    if n > 1000 {
        lx::build_error!("too large");
    }
    if n > 2000 {
        linux7_3::build_error!();
    }
    n
}

const OURS: usize = our_const(2);
const THEIRS: usize = their_const(2);

#[test]
fn const_fn_build_assert() {
    assert_eq!(OURS, THEIRS);
    assert_eq!(our_const(999), their_const(999));
}

/// `build_error!` as an expression of type `!`, on a path the optimizer removes.
#[inline(always)]
fn our_increment(a: usize) -> usize {
    a.checked_add(1)
        .unwrap_or_else(|| kc::build_error!("overflow"))
}

#[inline(always)]
fn their_increment(a: usize) -> usize {
    a.checked_add(1)
        .unwrap_or_else(|| lx::build_error!("overflow"))
}

#[test]
fn build_error_on_a_dead_path() {
    assert_eq!(
        our_increment(usize::MAX - 1),
        their_increment(usize::MAX - 1)
    );
}
