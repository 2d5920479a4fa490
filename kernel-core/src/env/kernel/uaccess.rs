// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::uaccess` in the kernel: the kernel's own from Linux 7.1 on. Linux 6.12's `UserPtr`
//! is a `usize` and its readers lack `strcpy_into_buf` and the `_partial`/`_file` copies: there
//! kernel-core's `UserSlice` (the host's file, `env/uaccess.rs`) runs over 6.12's own
//! `copy_from_user()`, `copy_to_user()` and `strncpy_from_user()`.
//!
//! C header: [`include/linux/uaccess.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/uaccess.h).

#[cfg(kernel_core_linux_7_1)]
pub use kernel::uaccess::{UserPtr, UserSlice, UserSliceReader, UserSliceWriter};

#[cfg(not(kernel_core_linux_7_1))]
pub use user_slice::{UserPtr, UserSlice, UserSliceReader, UserSliceWriter};

/// Linux 7.3's types on 6.12, over the primitives of [`own`].
#[cfg(not(kernel_core_linux_7_1))]
#[path = "../uaccess.rs"]
mod user_slice;

#[cfg(not(kernel_core_linux_7_1))]
use own::{copy_from_user, copy_to_user, strncpy_from_user};

/// 6.12's own copies between kernel and user memory.
#[cfg(not(kernel_core_linux_7_1))]
mod own {
    use super::UserPtr;
    use core::mem::MaybeUninit;
    use kernel::bindings;

    /// `copy_from_user()` into all of `to`: the number of bytes not copied (whose places the C
    /// function zeroes).
    pub(crate) fn copy_from_user(to: &mut [MaybeUninit<u8>], from: UserPtr) -> usize {
        // SAFETY: `to` is valid for writes of its length; `from` is a user address, which the
        // kernel's function checks and faults on as it must.
        let left = unsafe {
            bindings::copy_from_user(to.as_mut_ptr().cast(), from.as_const_ptr(), to.len() as _)
        };
        left as usize
    }

    /// `copy_to_user()` of all of `from`: the number of bytes not copied.
    pub(crate) fn copy_to_user(to: UserPtr, from: &[u8]) -> usize {
        // SAFETY: `from` is valid for reads of its length; `to` is a user address, which the
        // kernel's function checks.
        let left = unsafe {
            bindings::copy_to_user(to.as_mut_ptr(), from.as_ptr().cast(), from.len() as _)
        };
        left as usize
    }

    /// `strncpy_from_user()` of at most `dst.len()` bytes: the string's length, `dst.len()` if
    /// it did not end within them, or a negative `errno`.
    pub(crate) fn strncpy_from_user(dst: &mut [MaybeUninit<u8>], src: UserPtr) -> isize {
        // SAFETY: `dst` is valid for writes of its length; `src` is a user address.
        let res = unsafe {
            bindings::strncpy_from_user(
                dst.as_mut_ptr().cast(),
                src.as_const_ptr().cast(),
                dst.len() as _,
            )
        };
        res as isize
    }
}
