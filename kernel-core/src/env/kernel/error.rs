// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::error` in the kernel: the kernel's own `Error`, `Result` and `to_result`, and its
//! error codes.
//!
//! Its twin, `env/host/error.rs`, defines kernel-core's own `Error` for the host. Here there is
//! one error type, the kernel's, so a driver's `?` crosses between kernel-core and the kernel
//! crate without conversion.
//!
//! The codes: Linux 7.3's `kernel::error::code` has 153, 7.2's 56 and 6.12's 53 (6.12 has no
//! `ETIMEDOUT`). Those the kernel has are re-exported, so that its prelude's `code::*` and
//! kernel-core's name the same items and two globs do not clash; the others are made here, of
//! the kernel's type, with the values of `include/uapi/asm-generic/errno*.h` and
//! `include/linux/errno.h` (the four supported architectures share them). Which is which comes
//! from the table of `env/errno.rs`, the one list of the codes, which the host reads too.

pub use kernel::error::{
    from_err_ptr, from_result, to_result, Error, Result, VTABLE_DEFAULT_ERROR,
};

/// The error codes of Linux 7.3's `kernel::error::code`: on 7.3, that module itself.
#[cfg(kernel_core_linux_7_3)]
pub use kernel::error::code;

/// The table of the codes, which `env/host/error.rs` shares; Linux 7.3 has them all.
#[cfg(not(kernel_core_linux_7_3))]
#[path = "../errno.rs"]
mod errno;

/// The error codes of Linux 7.3's `kernel::error::code`, each an `Error` of the kernel's type:
/// the kernel's own where it has them, made here otherwise.
#[cfg(not(kernel_core_linux_7_3))]
pub mod code {
    use super::Error;
    use core::num::NonZeroI32;

    // `kernel::error::Error` is `struct Error(NonZeroI32)` on 6.12 and 7.2, as on 7.3; its
    // constructors are private, and these codes must be `const`s, as the kernel's are (a `match`
    // pattern needs one).
    const _: () = assert!(
        core::mem::size_of::<Error>() == core::mem::size_of::<NonZeroI32>()
            && core::mem::align_of::<Error>() == core::mem::align_of::<NonZeroI32>()
    );

    /// The kernel's `Error` of `errno`, in `-MAX_ERRNO..=-1`.
    const fn make(errno: i32) -> Error {
        match NonZeroI32::new(errno) {
            // SAFETY: `Error` is a struct whose one field is a `NonZeroI32` (checked for size
            // and alignment above), whose invariant is a value in `-MAX_ERRNO..=-1`, which the
            // table's values are; the test suites compare `to_errno()` of each with its value.
            Some(errno) => unsafe { core::mem::transmute::<NonZeroI32, Error>(errno) },
            None => panic!("not an errno"),
        }
    }

    /// Declares each code of the table: the kernel's own where the running kernel has it,
    /// made here otherwise.
    macro_rules! codes {
        ($($name:ident = $errno:literal since $since:tt,)*) => {$(
            code!($since $name = $errno);
        )*};
    }

    /// Declares one code, by the first kernel whose `kernel::error::code` has it.
    macro_rules! code {
        (6.12 $name:ident = $errno:literal) => {
            pub use kernel::error::code::$name;
        };
        (7.1 $name:ident = $errno:literal) => {
            #[cfg(kernel_core_linux_7_1)]
            pub use kernel::error::code::$name;
            #[cfg(not(kernel_core_linux_7_1))]
            code!(7.3 $name = $errno);
        };
        (7.3 $name:ident = $errno:literal) => {
            #[doc = ::core::concat!("`-", ::core::stringify!($name), "`, errno ", ::core::stringify!($errno), ".")]
            pub const $name: Error = make(-$errno);
        };
    }

    super::errno::errno_table!(codes);
}
