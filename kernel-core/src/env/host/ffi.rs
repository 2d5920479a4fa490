// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::ffi` on the host: the C types as the kernel's `ffi` crate maps them. Its kernel
//! twin re-exports the kernel's own `kernel::ffi`.

pub use core::ffi::{c_void, CStr};

/// Declares the C integer types as the kernel's `ffi` crate maps them (`rust/ffi.rs`), which is
/// not always as `core::ffi` does, each checked to have C's size.
macro_rules! c_types {
    ($($(#[$doc:meta])* $name:ident = $ty:ty;)*) => {$(
        $(#[$doc])*
        #[allow(non_camel_case_types)]
        pub type $name = $ty;

        // The same size as C's, as the kernel's `ffi` crate checks.
        const _: () = assert!(size_of::<$name>() == size_of::<core::ffi::$name>());
    )*};
}

c_types! {
    /// C's `char`: unsigned in the kernel (`-funsigned-char`).
    c_char = u8;
    /// C's `signed char`.
    c_schar = i8;
    /// C's `unsigned char`.
    c_uchar = u8;
    /// C's `short`.
    c_short = i16;
    /// C's `unsigned short`.
    c_ushort = u16;
    /// C's `int`.
    c_int = i32;
    /// C's `unsigned int`.
    c_uint = u32;
    /// C's `long`: pointer-sized in the kernel (its `intptr_t` is `long`).
    c_long = isize;
    /// C's `unsigned long`: pointer-sized in the kernel.
    c_ulong = usize;
    /// C's `long long`.
    c_longlong = i64;
    /// C's `unsigned long long`.
    c_ulonglong = u64;
}
