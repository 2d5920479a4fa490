// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `ptr::project!` against Linux 7.3's own `rust/kernel/ptr/projection.rs`: every projection
//! (fields, tuple fields, elements and every kind of range, through arrays and slices, nested),
//! with each index flavor (`try`, `panic`, `build`), at and past the bounds: the same pointers
//! (address and slice length), the same `OutOfBound` error (`ERANGE`), the same panic messages.

mod common;

use common::same;
use kernel_core::error::{code::ERANGE, Error, Result};
use linux7_3 as lx;

#[repr(C)]
struct Inner {
    a: u8,
    b: [u16; 5],
}

#[repr(C)]
struct Outer {
    head: u32,
    inner: [Inner; 3],
    pair: (u8, u64),
}

/// A fake address: projections never dereference.
fn base<T>() -> *mut T {
    core::ptr::without_provenance_mut(0x10_0000)
}

/// Address and length of a slice pointer.
fn parts<T>(p: *mut [T]) -> (usize, usize) {
    (p.cast::<u8>().addr(), p.len())
}

#[test]
fn fields_and_elements_land_at_the_same_addresses() {
    let outer = base::<Outer>();
    same(
        "head",
        || kernel_core::ptr::project!(mut outer, .head).addr(),
        || lx::ptr::project!(mut outer, .head).addr(),
    );
    same(
        "pair.1",
        || kernel_core::ptr::project!(outer, .pair.1).addr(),
        || lx::ptr::project!(outer, .pair.1).addr(),
    );
    for i in 0..4 {
        for j in 0..6 {
            same(
                &format!("inner[try: {i}].b[try: {j}]"),
                || -> Result<usize> {
                    Ok(kernel_core::ptr::project!(outer, .inner[try: i].b[try: j]).addr())
                },
                || -> Result<usize> {
                    Ok(lx::ptr::project!(outer, .inner[try: i].b[try: j]).addr())
                },
            );
            same(
                &format!("inner[panic: {i}].b[panic: {j}]"),
                || kernel_core::ptr::project!(outer, .inner[panic: i].b[panic: j]).addr(),
                || lx::ptr::project!(outer, .inner[panic: i].b[panic: j]).addr(),
            );
        }
    }
    same(
        "inner[build: 2].a",
        || kernel_core::ptr::project!(mut outer, .inner[build: 2].a).addr(),
        || lx::ptr::project!(mut outer, .inner[build: 2].a).addr(),
    );
    same(
        "the crate-root name",
        || kernel_core::project_pointer!(outer, .inner[build: 1].b[build: 4]).addr(),
        || lx::project_pointer!(outer, .inner[build: 1].b[build: 4]).addr(),
    );
}

#[test]
fn ranges_of_arrays_and_slices() {
    let array = base::<[u32; 8]>();
    let slice: *mut [u32] = core::ptr::slice_from_raw_parts_mut(base::<u32>(), 8);
    let ends = [0_usize, 1, 7, 8, 9, usize::MAX];
    for &a in &ends {
        for &b in &ends {
            same(
                &format!("[try: {a}..{b}] of an array"),
                || -> Result<(usize, usize)> {
                    Ok(parts(kernel_core::ptr::project!(mut array, [try: a..b])))
                },
                || -> Result<(usize, usize)> {
                    Ok(parts(lx::ptr::project!(mut array, [try: a..b])))
                },
            );
            same(
                &format!("[panic: {a}..{b}] of a slice"),
                || parts(kernel_core::ptr::project!(mut slice, [panic: a..b])),
                || parts(lx::ptr::project!(mut slice, [panic: a..b])),
            );
        }
        same(
            &format!("[try: ..{a}]"),
            || -> Result<(usize, usize)> {
                Ok(parts(kernel_core::ptr::project!(mut slice, [try: ..a])))
            },
            || -> Result<(usize, usize)> { Ok(parts(lx::ptr::project!(mut slice, [try: ..a]))) },
        );
        same(
            &format!("[panic: ..{a}]"),
            || parts(kernel_core::ptr::project!(mut array, [panic: ..a])),
            || parts(lx::ptr::project!(mut array, [panic: ..a])),
        );
        same(
            &format!("[try: {a}..]"),
            || -> Result<(usize, usize)> {
                Ok(parts(kernel_core::ptr::project!(mut array, [try: a..])))
            },
            || -> Result<(usize, usize)> { Ok(parts(lx::ptr::project!(mut array, [try: a..]))) },
        );
        same(
            &format!("[panic: {a}..]"),
            || parts(kernel_core::ptr::project!(mut slice, [panic: a..])),
            || parts(lx::ptr::project!(mut slice, [panic: a..])),
        );
        same(
            &format!("[try: {a}] of a slice"),
            || -> Result<usize> { Ok(kernel_core::ptr::project!(mut slice, [try: a]).addr()) },
            || -> Result<usize> { Ok(lx::ptr::project!(mut slice, [try: a]).addr()) },
        );
        same(
            &format!("[panic: {a}] of an array"),
            || kernel_core::ptr::project!(mut array, [panic: a]).addr(),
            || lx::ptr::project!(mut array, [panic: a]).addr(),
        );
    }
    same(
        "[try: ..]",
        || -> Result<(usize, usize)> {
            Ok(parts(kernel_core::ptr::project!(mut slice, [try: ..])))
        },
        || -> Result<(usize, usize)> { Ok(parts(lx::ptr::project!(mut slice, [try: ..]))) },
    );
    same(
        "[build: 2..5]",
        || parts(kernel_core::ptr::project!(mut array, [build: 2..5])),
        || parts(lx::ptr::project!(mut array, [build: 2..5])),
    );
}

#[test]
fn out_of_bounds_is_erange() {
    let array = base::<[u8; 4]>();
    let ours = || -> Result<*const u8> { Ok(kernel_core::ptr::project!(array, [try: 4])) };
    let theirs = || -> Result<*const u8> { Ok(lx::ptr::project!(array, [try: 4])) };
    assert_eq!(ours(), Err(ERANGE));
    assert_eq!(theirs(), Err(ERANGE));
    assert_eq!(
        Error::from(kernel_core::ptr::projection::OutOfBound),
        Error::from(lx::ptr::projection::OutOfBound)
    );
}

/// Under debug assertions a `[build: index]` the compiler cannot prove panics, on both sides
/// with the same message; optimized builds fail to link instead (see `build_assert`), so this
/// runs in debug builds only.
#[cfg(debug_assertions)]
#[test]
fn build_index_out_of_bounds_panics_in_debug_builds() {
    let array = base::<[u8; 4]>();
    for i in [4_usize, usize::MAX] {
        same(
            &format!("[build: {i}]"),
            || kernel_core::ptr::project!(array, [build: std::hint::black_box(i)]).addr(),
            || lx::ptr::project!(array, [build: std::hint::black_box(i)]).addr(),
        );
    }
}

/// Projections of valid pointers are valid: writing through them reaches the fields.
#[test]
fn projections_of_valid_pointers_are_valid() {
    let mut value = Outer {
        head: 0,
        inner: [
            Inner { a: 0, b: [0; 5] },
            Inner { a: 0, b: [0; 5] },
            Inner { a: 0, b: [0; 5] },
        ],
        pair: (0, 0),
    };
    let ptr = &raw mut value;
    let ours = (|| -> Result<*mut u16> {
        Ok(kernel_core::ptr::project!(mut ptr, .inner[try: 1].b[try: 3]))
    })()
    .expect("in bounds");
    // SAFETY: A projection of a valid pointer is valid.
    unsafe { ours.write(0xbeef) };
    let theirs = lx::ptr::project!(mut ptr, .pair.1);
    // SAFETY: As above.
    unsafe { theirs.write(7) };
    assert_eq!(value.inner[1].b[3], 0xbeef);
    assert_eq!(value.pair.1, 7);
    assert_eq!(value.head, 0);
}
