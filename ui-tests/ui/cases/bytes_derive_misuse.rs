// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! kernel-core's `#[derive(FromBytes, IntoBytes)]` (the host and Linux 6.12) proves the traits'
//! safety sections at compile time: each misuse is an error naming the struct or the field.

use kernel_core::prelude::*;

/// A `bool` is not plain bytes: 2 is no `bool`.
#[derive(FromBytes)]
#[repr(C)]
struct HasBool {
    ready: bool,
    code: u8,
}

/// Three bytes of padding after `state`.
#[derive(IntoBytes)]
#[repr(C)]
struct HasPadding {
    state: u8,
    count: u32,
}

/// Rust's own layout with padding: the compiler chose where it goes, but it is there.
#[derive(IntoBytes)]
struct NoReprPadding {
    count: u32,
    state: u8,
}

/// A raw pointer is no bytes to write to a device: its provenance is not in them.
#[derive(IntoBytes)]
#[repr(transparent)]
struct HasPointer(*const u32);

/// Generic, with a field that is not plain bytes whatever `T` is.
#[derive(FromBytes)]
#[repr(C)]
struct Generic<T> {
    value: T,
    ready: bool,
}

/// Generic, `#[repr(C)]` with two fields: whether there is padding depends on `T`.
#[derive(IntoBytes)]
#[repr(C)]
struct GenericPair<T> {
    value: T,
    tag: u8,
}

/// Generic and `packed(2)`: padding up to 2-byte alignment depends on `T`.
#[derive(IntoBytes)]
#[repr(C, packed(2))]
struct GenericPacked2<T> {
    value: T,
    tag: u8,
}

#[derive(FromBytes)]
#[repr(u8)]
enum Mode {
    Off,
    On,
}

/// Trailing padding from the alignment.
#[derive(IntoBytes)]
#[repr(C, align(8))]
struct Aligned(u32);

/// A function pointer is not plain bytes (the `->` closes no `<`: the error names the whole
/// type, then the next field is checked on its own).
#[derive(FromBytes)]
#[repr(C)]
struct HasCallback {
    hook: Option<fn(u32) -> Option<u32>>,
    flag: bool,
}

fn main() {}
