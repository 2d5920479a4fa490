// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `%p` in the kernel: the kernel's own `scnprintf("%#0*p")`, hashed as the kernel hashes
//! pointers (or plain, booted with `no_hash_pointers`), for kernel-core's `fmt::HashedPtr` on
//! Linux 6.12 and 7.2, whose `kernel::fmt` has no `HashedPtr` of its own.
//!
//! Its twin, `env/host/percent_p.rs`, computes the same on the host.

use kernel::bindings;

/// `%#0*p` of `addr` at `width` (at most 31), into `buffer`: what the kernel prints.
pub(crate) fn percent_p(addr: usize, width: usize, buffer: &mut [u8; 32]) -> &str {
    let width = width.min(buffer.len() - 1);
    // SAFETY: `buffer` is writable for its length, which `scnprintf` never exceeds (its NUL
    // included); the format is NUL-terminated and its `*` and `p` take the `int` and the pointer
    // passed (the address as a pointer: `%p` only prints it).
    let len = unsafe {
        bindings::scnprintf(
            buffer.as_mut_ptr().cast(),
            buffer.len(),
            c"%#0*p".as_ptr().cast(),
            width as core::ffi::c_int,
            core::ptr::without_provenance::<core::ffi::c_void>(addr),
        )
    };
    let len = usize::try_from(len).unwrap_or(0).min(buffer.len());
    // `%p` prints ASCII.
    core::str::from_utf8(&buffer[..len]).unwrap_or("")
}
