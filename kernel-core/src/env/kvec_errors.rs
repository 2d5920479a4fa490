// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The errors of `Vec`'s methods that do not allocate: kernel-core's own on the host and on
//! Linux 6.12, which has none of these methods (7.1 and later have the kernel's).
//!
//! Kernel counterpart: `rust/kernel/alloc/kvec/errors.rs` (Linux 7.3).

use core::fmt;

use crate::error::{code::EINVAL, Error};

/// The error of [`Vec::push_within_capacity`](super::Vec::push_within_capacity): the vector is
/// full. It hands the value back.
///
/// A driver's `?` turns it into [`EINVAL`], as in the kernel: the vector refuses to grow,
/// memory is not short.
///
/// # Examples
///
/// ```
/// use kernel_core::alloc::kvec::PushError;
/// use kernel_core::prelude::*;
///
/// let mut v = KVec::with_capacity(1, GFP_KERNEL)?;
/// v.push_within_capacity(1_u8)?;
/// let Err(PushError(back)) = v.push_within_capacity(2) else { panic!("full") };
/// assert_eq!(back, 2);
/// assert_eq!(format!("{:?}", PushError(2)), "Not enough capacity");
/// assert_eq!(Error::from(PushError(2)), EINVAL);
/// # Ok::<(), Error>(())
/// ```
pub struct PushError<T>(pub T);

impl<T> fmt::Debug for PushError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Not enough capacity")
    }
}

impl<T> From<PushError<T>> for Error {
    #[inline]
    fn from(_: PushError<T>) -> Error {
        // Not `ENOMEM`: the vector is full, and refuses to grow; memory is not short.
        EINVAL
    }
}

/// The error of [`Vec::remove`](super::Vec::remove): the index is out of bounds.
///
/// A driver's `?` turns it into [`EINVAL`], as in the kernel.
///
/// # Examples
///
/// ```
/// use kernel_core::alloc::kvec::RemoveError;
/// use kernel_core::prelude::*;
///
/// let mut v = kernel_core::kvec![1_u8]?;
/// assert!(matches!(v.remove(1), Err(RemoveError)));
/// assert_eq!(format!("{RemoveError:?}"), "Index out of bounds");
/// assert_eq!(Error::from(RemoveError), EINVAL);
/// # Ok::<(), Error>(())
/// ```
pub struct RemoveError;

impl fmt::Debug for RemoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Index out of bounds")
    }
}

impl From<RemoveError> for Error {
    #[inline]
    fn from(_: RemoveError) -> Error {
        EINVAL
    }
}

/// The error of [`Vec::insert_within_capacity`](super::Vec::insert_within_capacity), which hands
/// the value back.
///
/// A driver's `?` turns it into [`EINVAL`], as in the kernel.
///
/// # Examples
///
/// ```
/// use kernel_core::alloc::kvec::InsertError;
/// use kernel_core::prelude::*;
///
/// let mut v = KVec::with_capacity(1, GFP_KERNEL)?;
/// assert!(matches!(v.insert_within_capacity(1, 'a'), Err(InsertError::IndexOutOfBounds('a'))));
/// v.insert_within_capacity(0, 'b')?;
/// let err = v.insert_within_capacity(0, 'c').unwrap_err();
/// assert_eq!(format!("{err:?}"), "Not enough capacity");
/// assert_eq!(Error::from(err), EINVAL);
/// # Ok::<(), Error>(())
/// ```
pub enum InsertError<T> {
    /// The index is past the length.
    IndexOutOfBounds(T),
    /// The vector is full.
    OutOfCapacity(T),
}

impl<T> fmt::Debug for InsertError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InsertError::IndexOutOfBounds(_) => f.write_str("Index out of bounds"),
            InsertError::OutOfCapacity(_) => f.write_str("Not enough capacity"),
        }
    }
}

impl<T> From<InsertError<T>> for Error {
    #[inline]
    fn from(_: InsertError<T>) -> Error {
        EINVAL
    }
}
