// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The types that are atomic out of the box: `bool`, `i8`, `i16`, `i32`, `i64`, `u32`, `u64`,
//! `isize`, `usize`, `*const T` and `*mut T`, and which of them can be added to.
//!
//! Kernel counterpart: `rust/kernel/sync/atomic/predefine.rs` (Linux 7.3).

use core::ffi::c_void;

use super::{AtomicAdd, AtomicType};

// What the `bool` impl relies on.
const _: () = assert!(size_of::<bool>() == size_of::<i8>());
const _: () = assert!(align_of::<bool>() == align_of::<i8>());

// SAFETY: A `bool` is an `i8` in size and alignment, and its two values, 0 and 1, are `i8`s that
// read back as themselves.
unsafe impl AtomicType for bool {
    type Repr = i8;
}

// SAFETY: Its own representation.
unsafe impl AtomicType for i8 {
    type Repr = i8;
}

// SAFETY: Its own representation.
unsafe impl AtomicType for i16 {
    type Repr = i16;
}

// SAFETY: A thin `*mut T` is a `*const c_void` in size, alignment and values, and may move
// between contexts (using it takes `unsafe` code).
unsafe impl<T: Sized> AtomicType for *mut T {
    type Repr = *const c_void;
}

// SAFETY: As for `*mut T`.
unsafe impl<T: Sized> AtomicType for *const T {
    type Repr = *const c_void;
}

// SAFETY: Its own representation.
unsafe impl AtomicType for i32 {
    type Repr = i32;
}

// SAFETY: Adding an `i32`, wrapping, gives an `i32`.
unsafe impl AtomicAdd<i32> for i32 {
    fn rhs_into_delta(rhs: i32) -> i32 {
        rhs
    }
}

// SAFETY: Its own representation.
unsafe impl AtomicType for i64 {
    type Repr = i64;
}

// SAFETY: Adding an `i64`, wrapping, gives an `i64`.
unsafe impl AtomicAdd<i64> for i64 {
    fn rhs_into_delta(rhs: i64) -> i64 {
        rhs
    }
}

/// The integer with the size and alignment of `isize` and `usize`. The kernel chooses it by
/// `CONFIG_64BIT`, which is the target's pointer width (`env/kernel.rs` checks that they agree).
#[allow(non_camel_case_types)]
#[cfg(target_pointer_width = "32")]
type isize_atomic_repr = i32;
/// The integer with the size and alignment of `isize` and `usize`.
#[allow(non_camel_case_types)]
#[cfg(target_pointer_width = "64")]
type isize_atomic_repr = i64;

const _: () = assert!(size_of::<isize>() == size_of::<isize_atomic_repr>());
const _: () = assert!(align_of::<isize>() == align_of::<isize_atomic_repr>());
const _: () = assert!(size_of::<usize>() == size_of::<isize_atomic_repr>());
const _: () = assert!(align_of::<usize>() == align_of::<isize_atomic_repr>());

// SAFETY: An `isize` is an `isize_atomic_repr` in size, alignment and values (checked above).
unsafe impl AtomicType for isize {
    type Repr = isize_atomic_repr;
}

// SAFETY: Adding, wrapping, gives an `isize_atomic_repr`, which is an `isize`.
unsafe impl AtomicAdd<isize> for isize {
    fn rhs_into_delta(rhs: isize) -> isize_atomic_repr {
        rhs as isize_atomic_repr
    }
}

// SAFETY: A `u32` is an `i32` in size and alignment, and reads back from one unchanged.
unsafe impl AtomicType for u32 {
    type Repr = i32;
}

// SAFETY: Adding, wrapping, gives an `i32`, which is a `u32`.
unsafe impl AtomicAdd<u32> for u32 {
    fn rhs_into_delta(rhs: u32) -> i32 {
        rhs as i32
    }
}

// SAFETY: A `u64` is an `i64` in size and alignment, and reads back from one unchanged.
unsafe impl AtomicType for u64 {
    type Repr = i64;
}

// SAFETY: Adding, wrapping, gives an `i64`, which is a `u64`.
unsafe impl AtomicAdd<u64> for u64 {
    fn rhs_into_delta(rhs: u64) -> i64 {
        rhs as i64
    }
}

// SAFETY: A `usize` is an `isize_atomic_repr` in size and alignment (checked above), and reads
// back from one unchanged.
unsafe impl AtomicType for usize {
    type Repr = isize_atomic_repr;
}

// SAFETY: Adding, wrapping, gives an `isize_atomic_repr`, which is a `usize`.
unsafe impl AtomicAdd<usize> for usize {
    fn rhs_into_delta(rhs: usize) -> isize_atomic_repr {
        rhs as isize_atomic_repr
    }
}
