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
//! `include/linux/errno.h` (the four supported architectures share them).

pub use kernel::error::{
    from_err_ptr, from_result, to_result, Error, Result, VTABLE_DEFAULT_ERROR,
};

/// The error codes of Linux 7.3's `kernel::error::code`: on 7.3, that module itself.
#[cfg(kernel_core_linux_7_3)]
pub use kernel::error::code;

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
            // values below are; the test suites compare `to_errno()` of each with its value.
            Some(errno) => unsafe { core::mem::transmute::<NonZeroI32, Error>(errno) },
            None => panic!("not an errno"),
        }
    }

    /// Declares the codes the kernel does not have.
    macro_rules! codes {
        ($($name:ident = $errno:literal,)*) => {$(
            #[doc = ::core::concat!("`-", ::core::stringify!($name), "`, errno ", ::core::stringify!($errno), ".")]
            pub const $name: Error = make(-$errno);
        )*};
    }

    #[cfg(kernel_core_linux_7_1)]
    pub use kernel::error::code::{
        E2BIG, EACCES, EAGAIN, EBADCOOKIE, EBADF, EBADHANDLE, EBADTYPE, EBUSY, ECHILD, EDOM,
        EEXIST, EFAULT, EFBIG, EINTR, EINVAL, EIO, EIOCBQUEUED, EISDIR, EJUKEBOX, EMFILE, EMLINK,
        EMSGSIZE, ENFILE, ENODEV, ENOENT, ENOEXEC, ENOGRACE, ENOIOCTLCMD, ENOMEM, ENOPARAM, ENOSPC,
        ENOTBLK, ENOTDIR, ENOTSUPP, ENOTSYNC, ENOTTY, ENXIO, EOPENSTALE, EOVERFLOW, EPERM, EPIPE,
        EPROBE_DEFER, ERANGE, ERECALLCONFLICT, ERESTARTNOHAND, ERESTARTNOINTR, ERESTARTSYS,
        ERESTART_RESTARTBLOCK, EROFS, ESERVERFAULT, ESPIPE, ESRCH, ETIMEDOUT, ETOOSMALL, ETXTBSY,
        EXDEV,
    };

    #[cfg(kernel_core_linux_7_1)]
    codes! {
        EDEADLK = 35,
        ENAMETOOLONG = 36,
        ENOLCK = 37,
        ENOSYS = 38,
        ENOTEMPTY = 39,
        ELOOP = 40,
        ENOMSG = 42,
        EIDRM = 43,
        ECHRNG = 44,
        EL2NSYNC = 45,
        EL3HLT = 46,
        EL3RST = 47,
        ELNRNG = 48,
        EUNATCH = 49,
        ENOCSI = 50,
        EL2HLT = 51,
        EBADE = 52,
        EBADR = 53,
        EXFULL = 54,
        ENOANO = 55,
        EBADRQC = 56,
        EBADSLT = 57,
        EBFONT = 59,
        ENOSTR = 60,
        ENODATA = 61,
        ETIME = 62,
        ENOSR = 63,
        ENONET = 64,
        ENOPKG = 65,
        EREMOTE = 66,
        ENOLINK = 67,
        EADV = 68,
        ESRMNT = 69,
        ECOMM = 70,
        EPROTO = 71,
        EMULTIHOP = 72,
        EDOTDOT = 73,
        EBADMSG = 74,
        EFSBADCRC = 74,
        ENOTUNIQ = 76,
        EBADFD = 77,
        EREMCHG = 78,
        ELIBACC = 79,
        ELIBBAD = 80,
        ELIBSCN = 81,
        ELIBMAX = 82,
        ELIBEXEC = 83,
        EILSEQ = 84,
        ERESTART = 85,
        ESTRPIPE = 86,
        EUSERS = 87,
        ENOTSOCK = 88,
        EDESTADDRREQ = 89,
        EPROTOTYPE = 91,
        ENOPROTOOPT = 92,
        EPROTONOSUPPORT = 93,
        ESOCKTNOSUPPORT = 94,
        EOPNOTSUPP = 95,
        EPFNOSUPPORT = 96,
        EAFNOSUPPORT = 97,
        EADDRINUSE = 98,
        EADDRNOTAVAIL = 99,
        ENETDOWN = 100,
        ENETUNREACH = 101,
        ENETRESET = 102,
        ECONNABORTED = 103,
        ECONNRESET = 104,
        ENOBUFS = 105,
        EISCONN = 106,
        ENOTCONN = 107,
        ESHUTDOWN = 108,
        ETOOMANYREFS = 109,
        ECONNREFUSED = 111,
        EHOSTDOWN = 112,
        EHOSTUNREACH = 113,
        EALREADY = 114,
        EINPROGRESS = 115,
        ESTALE = 116,
        EUCLEAN = 117,
        EFSCORRUPTED = 117,
        ENOTNAM = 118,
        ENAVAIL = 119,
        EISNAM = 120,
        EREMOTEIO = 121,
        EDQUOT = 122,
        ENOMEDIUM = 123,
        EMEDIUMTYPE = 124,
        ECANCELED = 125,
        ENOKEY = 126,
        EKEYEXPIRED = 127,
        EKEYREVOKED = 128,
        EKEYREJECTED = 129,
        EOWNERDEAD = 130,
        ENOTRECOVERABLE = 131,
        ERFKILL = 132,
        EHWPOISON = 133,
        EFTYPE = 134,
    }

    #[cfg(not(kernel_core_linux_7_1))]
    pub use kernel::error::code::{
        E2BIG, EACCES, EAGAIN, EBADCOOKIE, EBADF, EBADHANDLE, EBADTYPE, EBUSY, ECHILD, EDOM,
        EEXIST, EFAULT, EFBIG, EINTR, EINVAL, EIO, EIOCBQUEUED, EISDIR, EJUKEBOX, EMFILE, EMLINK,
        ENFILE, ENODEV, ENOENT, ENOEXEC, ENOGRACE, ENOIOCTLCMD, ENOMEM, ENOPARAM, ENOSPC, ENOTBLK,
        ENOTDIR, ENOTSUPP, ENOTSYNC, ENOTTY, ENXIO, EOPENSTALE, EPERM, EPIPE, EPROBE_DEFER, ERANGE,
        ERECALLCONFLICT, ERESTARTNOHAND, ERESTARTNOINTR, ERESTARTSYS, ERESTART_RESTARTBLOCK, EROFS,
        ESERVERFAULT, ESPIPE, ESRCH, ETOOSMALL, ETXTBSY, EXDEV,
    };

    #[cfg(not(kernel_core_linux_7_1))]
    codes! {
        EDEADLK = 35,
        ENAMETOOLONG = 36,
        ENOLCK = 37,
        ENOSYS = 38,
        ENOTEMPTY = 39,
        ELOOP = 40,
        ENOMSG = 42,
        EIDRM = 43,
        ECHRNG = 44,
        EL2NSYNC = 45,
        EL3HLT = 46,
        EL3RST = 47,
        ELNRNG = 48,
        EUNATCH = 49,
        ENOCSI = 50,
        EL2HLT = 51,
        EBADE = 52,
        EBADR = 53,
        EXFULL = 54,
        ENOANO = 55,
        EBADRQC = 56,
        EBADSLT = 57,
        EBFONT = 59,
        ENOSTR = 60,
        ENODATA = 61,
        ETIME = 62,
        ENOSR = 63,
        ENONET = 64,
        ENOPKG = 65,
        EREMOTE = 66,
        ENOLINK = 67,
        EADV = 68,
        ESRMNT = 69,
        ECOMM = 70,
        EPROTO = 71,
        EMULTIHOP = 72,
        EDOTDOT = 73,
        EBADMSG = 74,
        EFSBADCRC = 74,
        EOVERFLOW = 75,
        ENOTUNIQ = 76,
        EBADFD = 77,
        EREMCHG = 78,
        ELIBACC = 79,
        ELIBBAD = 80,
        ELIBSCN = 81,
        ELIBMAX = 82,
        ELIBEXEC = 83,
        EILSEQ = 84,
        ERESTART = 85,
        ESTRPIPE = 86,
        EUSERS = 87,
        ENOTSOCK = 88,
        EDESTADDRREQ = 89,
        EMSGSIZE = 90,
        EPROTOTYPE = 91,
        ENOPROTOOPT = 92,
        EPROTONOSUPPORT = 93,
        ESOCKTNOSUPPORT = 94,
        EOPNOTSUPP = 95,
        EPFNOSUPPORT = 96,
        EAFNOSUPPORT = 97,
        EADDRINUSE = 98,
        EADDRNOTAVAIL = 99,
        ENETDOWN = 100,
        ENETUNREACH = 101,
        ENETRESET = 102,
        ECONNABORTED = 103,
        ECONNRESET = 104,
        ENOBUFS = 105,
        EISCONN = 106,
        ENOTCONN = 107,
        ESHUTDOWN = 108,
        ETOOMANYREFS = 109,
        ETIMEDOUT = 110,
        ECONNREFUSED = 111,
        EHOSTDOWN = 112,
        EHOSTUNREACH = 113,
        EALREADY = 114,
        EINPROGRESS = 115,
        ESTALE = 116,
        EUCLEAN = 117,
        EFSCORRUPTED = 117,
        ENOTNAM = 118,
        ENAVAIL = 119,
        EISNAM = 120,
        EREMOTEIO = 121,
        EDQUOT = 122,
        ENOMEDIUM = 123,
        EMEDIUMTYPE = 124,
        ECANCELED = 125,
        ENOKEY = 126,
        EKEYEXPIRED = 127,
        EKEYREVOKED = 128,
        EKEYREJECTED = 129,
        EOWNERDEAD = 130,
        ENOTRECOVERABLE = 131,
        ERFKILL = 132,
        EHWPOISON = 133,
        EFTYPE = 134,
    }
}
