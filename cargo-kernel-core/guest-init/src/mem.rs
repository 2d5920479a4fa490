// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `memcpy`, `memmove`, `memset`, `memcmp`, `bcmp` and `strlen`, for the PowerPC builds only.
//!
//! The compiler calls these C functions for copies, fills and comparisons of memory, and `core`
//! calls `strlen` (for `CStr::from_ptr`). On the bare-metal targets `compiler_builtins` defines
//! them; on the Linux targets PowerPC's `/init` is built for (see `build.rs`), it leaves them to
//! the C library, which a freestanding `/init` does not link. So they are here, as plain byte
//! loops: `/init` moves a few kilobytes in all.
//!
//! Every access is volatile, so that the optimizer cannot recognize a loop as the very function
//! it implements and replace it with a call to itself.

/// `memcpy(dest, src, n)`: copies `n` bytes; the ranges do not overlap.
///
/// # Safety
///
/// `src` must be valid for reads and `dest` for writes of `n` bytes.
#[no_mangle]
unsafe extern "C" fn memcpy(dest: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    // SAFETY: the caller's guarantee; `memmove` allows overlap, so no overlap is fine too.
    unsafe { memmove(dest, src, n) }
}

/// `memmove(dest, src, n)`: copies `n` bytes; the ranges may overlap.
///
/// # Safety
///
/// `src` must be valid for reads and `dest` for writes of `n` bytes.
#[no_mangle]
unsafe extern "C" fn memmove(dest: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    if (dest as usize) <= (src as usize) {
        // Forward: every byte is read before a later write could reach it.
        let mut i = 0;
        while i < n {
            // SAFETY: `i < n`, within both ranges.
            unsafe { dest.add(i).write_volatile(src.add(i).read_volatile()) };
            i += 1;
        }
    } else {
        // Backward, for a destination above the source.
        let mut i = n;
        while i > 0 {
            i -= 1;
            // SAFETY: `i < n`, within both ranges.
            unsafe { dest.add(i).write_volatile(src.add(i).read_volatile()) };
        }
    }
    dest
}

/// `memset(dest, c, n)`: fills `n` bytes with the low byte of `c`.
///
/// # Safety
///
/// `dest` must be valid for writes of `n` bytes.
#[no_mangle]
unsafe extern "C" fn memset(dest: *mut u8, c: i32, n: usize) -> *mut u8 {
    let mut i = 0;
    while i < n {
        // SAFETY: `i < n`, within the range. The C function takes the byte as an `int`.
        unsafe { dest.add(i).write_volatile(c as u8) };
        i += 1;
    }
    dest
}

/// `memcmp(a, b, n)`: the difference of the first differing bytes (as unsigned), or 0.
///
/// # Safety
///
/// `a` and `b` must be valid for reads of `n` bytes.
#[no_mangle]
unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    let mut i = 0;
    while i < n {
        // SAFETY: `i < n`, within both ranges.
        let (x, y) = unsafe { (a.add(i).read_volatile(), b.add(i).read_volatile()) };
        if x != y {
            return i32::from(x) - i32::from(y);
        }
        i += 1;
    }
    0
}

/// `bcmp(a, b, n)`: 0 if the bytes are equal, something else otherwise.
///
/// # Safety
///
/// `a` and `b` must be valid for reads of `n` bytes.
#[no_mangle]
unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: the caller's guarantee.
    unsafe { memcmp(a, b, n) }
}

/// `strlen(s)`: the number of bytes before the first NUL.
///
/// # Safety
///
/// `s` must point at a NUL-terminated string.
#[no_mangle]
unsafe extern "C" fn strlen(s: *const u8) -> usize {
    let mut n = 0;
    // SAFETY: the string is NUL-terminated, so every byte up to the NUL is readable.
    while unsafe { s.add(n).read_volatile() } != 0 {
        n += 1;
    }
    n
}
