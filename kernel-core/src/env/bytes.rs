// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The implementations of kernel-core's [`FromBytes`] and [`IntoBytes`] where the kernel has
//! no `zerocopy` to bridge to: on the host, and on Linux 6.12. Both `env/host.rs` and
//! `env/kernel.rs` include this one file; on Linux 7.2 and 7.3 `env/kernel/bytes.rs` implements
//! the traits for every type that implements the kernel's `zerocopy` traits instead.

use crate::extras::bytes::{FromBytes, IntoBytes};

/// Implements both traits for each type: integers and `()`, any bytes of which are a value
/// and which have no padding.
macro_rules! plain {
    ($($ty:ty),*) => {$(
        // SAFETY: Every bit pattern of an integer (or of `()`, which has none) is a value.
        unsafe impl FromBytes for $ty {}
        // SAFETY: An integer has no padding.
        unsafe impl IntoBytes for $ty {}
    )*};
}

plain!(
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    ()
);

// SAFETY: An array of `T` is `N` `T`s with no padding between them.
unsafe impl<T: FromBytes, const N: usize> FromBytes for [T; N] {}
// SAFETY: As above: no padding, and each `T` is all initialized bytes.
unsafe impl<T: IntoBytes, const N: usize> IntoBytes for [T; N] {}
// SAFETY: A slice of `T` is `T`s with no padding between them.
unsafe impl<T: FromBytes> FromBytes for [T] {}
// SAFETY: As above.
unsafe impl<T: IntoBytes> IntoBytes for [T] {}
