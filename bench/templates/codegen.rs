// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo xtask bench`, part 2: kernel-core's run-time functions next to hand-written code.
//!
//! Copied to `target/bench/codegen/lib.rs` and built with `--release` for each bare-metal
//! target; the xtask counts the instructions of each `ours_*` symbol and of its `ref_*` twin.
//! A reference does the same arithmetic as the function it stands for, with the same results
//! for every input (differences are noted), written as one would without kernel-core.
//!
//! The `*_var` wrappers take the alignment as an argument, the others use a constant one, as
//! most callers do.

#![no_std]
// `Option<T>` is not a C type, but both sides of each pair return the same one, so the
// comparison stays fair.
#![allow(improper_ctypes_definitions)]

use kernel_core::ptr::{const_align_up, Alignable, Alignment};
use kernel_core::time::Delta;

/// `align_down` and `align_up` on one integer type, with a constant alignment and with one
/// passed in.
macro_rules! alignable {
    (
        $ty:ty, $align:literal,
        $ours_down:ident, $ref_down:ident, $ours_up:ident, $ref_up:ident,
        $ours_down_var:ident, $ref_down_var:ident, $ours_up_var:ident, $ref_up_var:ident $(,)?
    ) => {
        #[no_mangle]
        pub extern "C" fn $ours_down(value: $ty) -> $ty {
            value.align_down(Alignment::new::<$align>())
        }

        #[no_mangle]
        pub extern "C" fn $ref_down(value: $ty) -> $ty {
            value & !($align - 1)
        }

        #[no_mangle]
        pub extern "C" fn $ours_up(value: $ty) -> Option<$ty> {
            value.align_up(Alignment::new::<$align>())
        }

        #[no_mangle]
        pub extern "C" fn $ref_up(value: $ty) -> Option<$ty> {
            match value.checked_add($align - 1) {
                Some(bumped) => Some(bumped & !($align - 1)),
                None => None,
            }
        }

        #[no_mangle]
        pub extern "C" fn $ours_down_var(value: $ty, align: Alignment) -> $ty {
            value.align_down(align)
        }

        #[no_mangle]
        pub extern "C" fn $ref_down_var(value: $ty, align: usize) -> $ty {
            // An alignment wider than the type aligns everything down to 0.
            let low = align - 1;
            if low > <$ty>::MAX as usize {
                0
            } else {
                value & !(low as $ty)
            }
        }

        #[no_mangle]
        pub extern "C" fn $ours_up_var(value: $ty, align: Alignment) -> Option<$ty> {
            value.align_up(align)
        }

        #[no_mangle]
        pub extern "C" fn $ref_up_var(value: $ty, align: usize) -> Option<$ty> {
            // An alignment wider than the type aligns only 0 up.
            let low = align - 1;
            if low > <$ty>::MAX as usize {
                return if value == 0 { Some(0) } else { None };
            }
            let low = low as $ty;
            match value.checked_add(low) {
                Some(bumped) => Some(bumped & !low),
                None => None,
            }
        }
    };
}

alignable!(
    u8,
    16,
    ours_align_down_u8,
    ref_align_down_u8,
    ours_align_up_u8,
    ref_align_up_u8,
    ours_align_down_u8_var,
    ref_align_down_u8_var,
    ours_align_up_u8_var,
    ref_align_up_u8_var,
);
alignable!(
    u16,
    4096,
    ours_align_down_u16,
    ref_align_down_u16,
    ours_align_up_u16,
    ref_align_up_u16,
    ours_align_down_u16_var,
    ref_align_down_u16_var,
    ours_align_up_u16_var,
    ref_align_up_u16_var,
);
alignable!(
    u32,
    4096,
    ours_align_down_u32,
    ref_align_down_u32,
    ours_align_up_u32,
    ref_align_up_u32,
    ours_align_down_u32_var,
    ref_align_down_u32_var,
    ours_align_up_u32_var,
    ref_align_up_u32_var,
);
alignable!(
    u64,
    4096,
    ours_align_down_u64,
    ref_align_down_u64,
    ours_align_up_u64,
    ref_align_up_u64,
    ours_align_down_u64_var,
    ref_align_down_u64_var,
    ours_align_up_u64_var,
    ref_align_up_u64_var,
);
alignable!(
    usize,
    4096,
    ours_align_down_usize,
    ref_align_down_usize,
    ours_align_up_usize,
    ref_align_up_usize,
    ours_align_down_usize_var,
    ref_align_down_usize_var,
    ours_align_up_usize_var,
    ref_align_up_usize_var,
);

#[no_mangle]
pub extern "C" fn ours_const_align_up(value: usize) -> Option<usize> {
    const_align_up(value, Alignment::new::<4096>())
}

#[no_mangle]
pub extern "C" fn ref_const_align_up(value: usize) -> Option<usize> {
    match value.checked_add(4095) {
        Some(bumped) => Some(bumped & !4095),
        None => None,
    }
}

#[no_mangle]
pub extern "C" fn ours_const_align_up_var(value: usize, align: Alignment) -> Option<usize> {
    const_align_up(value, align)
}

#[no_mangle]
pub extern "C" fn ref_const_align_up_var(value: usize, align: usize) -> Option<usize> {
    match value.checked_add(align - 1) {
        Some(bumped) => Some(bumped & !(align - 1)),
        None => None,
    }
}

#[no_mangle]
pub extern "C" fn ours_delta_from_micros(micros: i64) -> i64 {
    Delta::from_micros(micros).as_nanos()
}

#[no_mangle]
pub extern "C" fn ref_delta_from_micros(micros: i64) -> i64 {
    micros.saturating_mul(1_000)
}

#[no_mangle]
pub extern "C" fn ours_delta_from_secs(secs: i64) -> i64 {
    Delta::from_secs(secs).as_nanos()
}

#[no_mangle]
pub extern "C" fn ref_delta_from_secs(secs: i64) -> i64 {
    secs.saturating_mul(1_000_000_000)
}

#[no_mangle]
pub extern "C" fn ours_delta_as_micros_ceil(nanos: i64) -> i64 {
    Delta::from_nanos(nanos).as_micros_ceil()
}

#[no_mangle]
pub extern "C" fn ref_delta_as_micros_ceil(nanos: i64) -> i64 {
    // Signed ceiling division as the standard library's (unstable) `div_ceil` does it.
    let quotient = nanos / 1_000;
    if nanos % 1_000 > 0 {
        quotient + 1
    } else {
        quotient
    }
}

#[no_mangle]
pub extern "C" fn ours_delta_as_millis(nanos: i64) -> i64 {
    Delta::from_nanos(nanos).as_millis()
}

#[no_mangle]
pub extern "C" fn ref_delta_as_millis(nanos: i64) -> i64 {
    nanos / 1_000_000
}

#[no_mangle]
pub extern "C" fn ours_delta_as_millis_ceil(nanos: i64) -> i64 {
    Delta::from_nanos(nanos).as_millis_ceil()
}

#[no_mangle]
pub extern "C" fn ref_delta_as_millis_ceil(nanos: i64) -> i64 {
    // As the kernel's `as_millis_ceil` writes it.
    if nanos > 0 {
        (nanos - 1) / 1_000_000 + 1
    } else {
        nanos / 1_000_000
    }
}

#[no_mangle]
pub extern "C" fn ours_delta_rem_nanos(nanos: i64, divisor: i32) -> i64 {
    Delta::from_nanos(nanos).rem_nanos(divisor).as_nanos()
}

#[no_mangle]
pub extern "C" fn ref_delta_rem_nanos(nanos: i64, divisor: i32) -> i64 {
    // What the kernel crate and most hand-written code do; like `rem_nanos`, it panics for
    // `i64::MIN % -1`.
    nanos % i64::from(divisor)
}
