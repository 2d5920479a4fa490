// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::error` on the host: kernel-core's own [`Error`], with the kernel's error codes.
//!
//! Its twin, `env/kernel/error.rs`, re-exports the kernel's own `Error` and `Result` instead,
//! so that in the kernel there is one error type. What is here is Linux 7.3's `kernel::error`:
//! the codes, `Error::{from_errno, to_errno, to_ptr, name}`, `Debug`, the conversions from
//! `core`'s errors and from `alloc`'s (`AllocError` and `LayoutError`, both `ENOMEM`),
//! `Result`, `to_result`, `from_err_ptr`, `from_result` and `VTABLE_DEFAULT_ERROR`. What the
//! kernel computes in C (`ERR_PTR()`, `IS_ERR()`, `PTR_ERR()` of `include/linux/err.h`,
//! `errname()` of `lib/errname.c`) is computed here the same way. The codes are those of the
//! table in `env/errno.rs`, which the kernel's side reads too.

use core::ffi::{c_int, c_void, CStr};
use core::fmt;
use core::num::NonZeroI32;

/// `MAX_ERRNO` of `include/linux/err.h`: error codes are `-MAX_ERRNO..=-1`.
const MAX_ERRNO: c_int = 4095;

/// A kernel error code, as the C side returns it: a negative `errno`.
///
/// On the host this is kernel-core's own type; in the kernel it is the kernel's own
/// `kernel::error::Error`, so a driver's `?` crosses between kernel-core and the kernel
/// crate without conversion.
///
/// # Invariants
///
/// The value is in `-MAX_ERRNO..=-1`.
///
/// # Examples
///
/// ```
/// use kernel_core::error::{code::ETIMEDOUT, Error};
///
/// assert_eq!(ETIMEDOUT.to_errno(), -110);
/// assert_eq!(Error::from_errno(-110), ETIMEDOUT);
/// assert_eq!(format!("{ETIMEDOUT:?}"), "ETIMEDOUT");
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Error(NonZeroI32);

impl Error {
    /// The error of `errno`, which must be in `-MAX_ERRNO..=-1` (`MAX_ERRNO` is 4095).
    ///
    /// Another value is a bug; as in the kernel, the result is then
    /// [`EINVAL`](code::EINVAL) (the kernel also prints a warning).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::error::{code::{EINVAL, EPERM}, Error};
    ///
    /// assert_eq!(Error::from_errno(-1), EPERM);
    /// assert_eq!(Error::from_errno(0), EINVAL);
    /// assert_eq!(Error::from_errno(-4096), EINVAL);
    /// ```
    pub fn from_errno(errno: c_int) -> Error {
        Self::try_from_errno(errno).unwrap_or(code::EINVAL)
    }

    /// The error of `errno`, or `None` outside `-MAX_ERRNO..=-1`.
    const fn try_from_errno(errno: c_int) -> Option<Error> {
        if errno < -MAX_ERRNO || errno >= 0 {
            return None;
        }
        match NonZeroI32::new(errno) {
            // INVARIANT: checked above.
            Some(errno) => Some(Error(errno)),
            None => None,
        }
    }

    /// The negative `errno`, as C returns it.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::error::code::EINVAL;
    ///
    /// assert_eq!(EINVAL.to_errno(), -22);
    /// ```
    pub fn to_errno(self) -> c_int {
        self.0.get()
    }

    /// The error as an error pointer, as `ERR_PTR()` makes it: the address `errno` (a
    /// negative number, so one of the last 4095 addresses), which `from_err_ptr` turns back
    /// into the error.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::error::{code::ENOMEM, from_err_ptr};
    ///
    /// let ptr: *mut u32 = ENOMEM.to_ptr();
    /// assert_eq!(ptr.addr(), usize::MAX - 11); // -12
    /// assert_eq!(from_err_ptr(ptr), Err(ENOMEM));
    /// ```
    pub fn to_ptr<T>(self) -> *mut T {
        // `(void *)(long)errno`: the sign extends into the address, as in C.
        core::ptr::without_provenance_mut(self.0.get() as isize as usize)
    }

    /// The code's name, `"ETIMEDOUT"`, as the kernel's `errname()` gives it (with
    /// `CONFIG_SYMBOLIC_ERRNAME=y`), or `None` for a value without one.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::error::{code::ETIMEDOUT, Error};
    ///
    /// assert_eq!(ETIMEDOUT.name(), Some(c"ETIMEDOUT"));
    /// assert_eq!(Error::from_errno(-4000).name(), None);
    /// ```
    pub fn name(&self) -> Option<&'static CStr> {
        code::name(-self.0.get())
    }
}

/// The code's name, `ETIMEDOUT`, as in the kernel with `CONFIG_SYMBOLIC_ERRNAME=y`; without a
/// name, `Error(110)`, as the kernel prints every code without that option.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name().and_then(|name| name.to_str().ok()) {
            Some(name) => f.debug_tuple(name).finish(),
            None => f.debug_tuple("Error").field(&-self.0.get()).finish(),
        }
    }
}

/// A failed integer conversion is [`EINVAL`](code::EINVAL), as in the kernel.
impl From<core::num::TryFromIntError> for Error {
    #[inline]
    fn from(_: core::num::TryFromIntError) -> Error {
        code::EINVAL
    }
}

/// Invalid UTF-8 is [`EINVAL`](code::EINVAL), as in the kernel.
impl From<core::str::Utf8Error> for Error {
    #[inline]
    fn from(_: core::str::Utf8Error) -> Error {
        code::EINVAL
    }
}

/// A failed allocation is [`ENOMEM`](code::ENOMEM), as in the kernel.
///
/// # Examples
///
/// ```
/// use core::alloc::Layout;
/// use kernel_core::alloc::{allocator::Kmalloc, flags::*, Allocator, NumaNode};
/// use kernel_core::error::{code::ENOMEM, Result};
///
/// fn buffer(layout: Layout) -> Result<core::ptr::NonNull<[u8]>> {
///     Ok(Kmalloc::alloc(layout, GFP_KERNEL | __GFP_NOWARN, NumaNode::NO_NODE)?)
/// }
/// let huge = Layout::new::<[u8; 16 << 20]>();
/// assert_eq!(buffer(huge).err(), Some(ENOMEM));
/// ```
impl From<crate::alloc::AllocError> for Error {
    #[inline]
    fn from(_: crate::alloc::AllocError) -> Error {
        code::ENOMEM
    }
}

/// An array too large for an allocation ([`ArrayLayout::new`]'s error) is
/// [`ENOMEM`](code::ENOMEM), as in the kernel.
///
/// [`ArrayLayout::new`]: crate::alloc::layout::ArrayLayout::new
impl From<crate::alloc::layout::LayoutError> for Error {
    #[inline]
    fn from(_: crate::alloc::layout::LayoutError) -> Error {
        code::ENOMEM
    }
}

/// A formatting error is [`EINVAL`](code::EINVAL), as in the kernel.
impl From<fmt::Error> for Error {
    #[inline]
    fn from(_: fmt::Error) -> Error {
        code::EINVAL
    }
}

impl From<core::convert::Infallible> for Error {
    #[inline]
    fn from(e: core::convert::Infallible) -> Error {
        match e {}
    }
}

/// A [`Result`](core::result::Result) whose error is an [`Error`], by default.
pub type Result<T = (), E = Error> = core::result::Result<T, E>;

/// `Ok(())` for a C return value that is not negative, the [`Error`] of `err` otherwise (as
/// [`Error::from_errno`] makes it).
///
/// # Examples
///
/// ```
/// use kernel_core::error::{code::EBUSY, to_result};
///
/// assert_eq!(to_result(0), Ok(()));
/// assert_eq!(to_result(3), Ok(()));
/// assert_eq!(to_result(-16), Err(EBUSY));
/// ```
pub fn to_result(err: c_int) -> Result {
    if err < 0 {
        Err(Error::from_errno(err))
    } else {
        Ok(())
    }
}

/// The pointer itself, or the [`Error`] it encodes: an error pointer (`IS_ERR()`, one of the
/// last `MAX_ERRNO` addresses, which `ERR_PTR()` and [`Error::to_ptr`] make) is the error
/// `PTR_ERR()` gives; any other pointer, null included, is returned as is.
///
/// # Examples
///
/// ```
/// use kernel_core::error::{code::{EBUSY, EINVAL}, from_err_ptr};
///
/// assert_eq!(from_err_ptr(EBUSY.to_ptr::<u8>()), Err(EBUSY));
/// assert_eq!(from_err_ptr(core::ptr::null_mut::<u8>()), Ok(core::ptr::null_mut()));
/// let mut value = 7;
/// assert_eq!(from_err_ptr(&raw mut value), Ok(&raw mut value));
/// // The last address that is not an error pointer, and the first that is.
/// assert!(from_err_ptr(core::ptr::without_provenance_mut::<u8>(usize::MAX - 4095)).is_ok());
/// let last = from_err_ptr(core::ptr::without_provenance_mut::<u8>(usize::MAX - 4094));
/// assert_eq!(last.map_err(|e| e.to_errno()), Err(-4095));
/// # let _ = EINVAL;
/// ```
pub fn from_err_ptr<T>(ptr: *mut T) -> Result<*mut T> {
    // `IS_ERR()`: `(unsigned long)ptr >= (unsigned long)-MAX_ERRNO`.
    let addr = ptr.cast::<c_void>().addr();
    if addr >= (-(MAX_ERRNO as isize)) as usize {
        // `PTR_ERR()`: `(long)ptr`, in `-MAX_ERRNO..=-1` here, so it fits in a `c_int`.
        let errno = addr as isize as c_int;
        return Err(Error::try_from_errno(errno).unwrap_or(code::EINVAL));
    }
    Ok(ptr)
}

/// Calls `f` and returns its value, or its error's negative `errno` as a `T`: what an
/// `extern "C"` callback returns to C.
///
/// # Examples
///
/// ```
/// use kernel_core::error::{code::ENODEV, from_result, Result};
///
/// fn probe(present: bool) -> Result<i32> {
///     if present { Ok(3) } else { Err(ENODEV) }
/// }
///
/// assert_eq!(from_result(|| probe(true)), 3);
/// assert_eq!(from_result(|| probe(false)), -19);
/// ```
pub fn from_result<T, F>(f: F) -> T
where
    T: From<i16>,
    F: FnOnce() -> Result<T>,
{
    match f() {
        Ok(value) => value,
        // An `errno` is in `-MAX_ERRNO..=-1`, so it fits in an `i16`.
        Err(e) => T::from(e.to_errno() as i16),
    }
}

/// The message of a default method of a `#[vtable]` trait that must not be called.
///
/// # Examples
///
/// ```
/// assert!(kernel_core::error::VTABLE_DEFAULT_ERROR.contains("#[vtable]"));
/// ```
pub const VTABLE_DEFAULT_ERROR: &str =
    "This function must not be called, see the #[vtable] documentation.";

/// The table of the codes, which `env/kernel/error.rs` shares.
#[path = "../errno.rs"]
mod errno;

/// The kernel's error codes, each an [`Error`]: the values of
/// `include/uapi/asm-generic/errno-base.h`, `errno.h` and `include/linux/errno.h`, which the
/// four 64-bit architectures kernel-core supports share.
pub mod code {
    use super::Error;

    /// Declares each code of the table, and the table of their names.
    macro_rules! codes {
        ($($name:ident = $errno:literal since $since:tt,)*) => {
            $(
                #[doc = ::core::concat!("`-", ::core::stringify!($name), "`, errno ", ::core::stringify!($errno), ".")]
                pub const $name: Error = match Error::try_from_errno(-$errno) {
                    Some(error) => error,
                    None => panic!("not an errno"),
                };
            )*

            /// The name of `errno` (positive), the first of the codes that have its value.
            pub(super) fn name(errno: i32) -> Option<&'static ::core::ffi::CStr> {
                const NAMES: &[(i32, &::core::ffi::CStr)] = &[$(
                    ($errno, match ::core::ffi::CStr::from_bytes_with_nul(
                        ::core::concat!(::core::stringify!($name), "\0").as_bytes(),
                    ) {
                        Ok(name) => name,
                        Err(_) => panic!("a code's name has no NUL"),
                    }),
                )*];
                NAMES.iter().find(|(value, _)| *value == errno).map(|(_, name)| *name)
            }
        };
    }

    super::errno::errno_table!(codes);
}
