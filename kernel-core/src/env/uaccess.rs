// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Linux 7.3's `UserPtr`, `UserSlice`, `UserSliceReader` and `UserSliceWriter`, over three
//! primitives of the world that includes this file: `copy_from_user`, `copy_to_user` and
//! `strncpy_from_user`, with the C functions' contracts.
//!
//! The host includes it from `env/host/uaccess.rs`, whose primitives read and write the user
//! memory that a test maps (`extras::uaccess`); a kernel without Linux 7.3's types can include
//! it over the kernel's own functions. Nothing here depends on the world: the bounds checks,
//! the cursor arithmetic and the handling of short copies and strings are those of Linux 7.3's
//! `rust/kernel/uaccess.rs`, so that a driver sees the same results either way.
//!
//! The including module provides, with `super::`:
//!
//! - `fn copy_from_user(to: &mut [MaybeUninit<u8>], from: UserPtr) -> usize`: `copy_from_user()`
//!   of `include/linux/uaccess.h` into all of `to`; the number of bytes *not* copied, whose
//!   places at the end of `to` are zeroed, as the C function zeroes them;
//! - `fn copy_to_user(to: UserPtr, from: &[u8]) -> usize`: `copy_to_user()` of all of `from`;
//!   the number of bytes not copied;
//! - `fn strncpy_from_user(dst: &mut [MaybeUninit<u8>], src: UserPtr) -> isize`:
//!   `strncpy_from_user()` with `count = dst.len()`: the string's length when a NUL is copied
//!   (the NUL is written), `dst.len()` when none is among the first `dst.len()` bytes, a
//!   negative `errno` on a fault.

use core::mem::{size_of, MaybeUninit};

use crate::alloc::{Flags, Vec};
// What bounds `Vec<T, A>`'s allocator (on Linux 6.12, its own `Allocator` trait).
use crate::env::alloc::BoxAllocator as Allocator;
// 7.3's `Vec` methods, on a kernel whose `Vec` lacks them (Linux 6.12).
#[allow(unused_imports)]
use crate::env::alloc::ext::*;
use crate::error::{
    code::{EFAULT, EINVAL},
    Error, Result,
};
use crate::ffi::{c_void, CStr};
use crate::transmute::{AsBytes, FromBytes};

/// A pointer into user space: the Rust form of a C pointer tagged `__user`.
///
/// It is an address in the address space of the process that made the call, which the kernel
/// never dereferences: only the functions of a [`UserSlice`] read or write through it, and they
/// check each access. On the host, the user space is the memory that a test maps with
/// [`UserMemory`](crate::extras::uaccess::UserMemory) (feature `std`).
///
/// # Examples
///
/// ```
/// use kernel_core::uaccess::UserPtr;
///
/// let ptr = UserPtr::from_addr(0x7fff_0000);
/// assert_eq!(ptr.wrapping_byte_add(0x10).as_const_ptr().addr(), 0x7fff_0010);
/// // Wrapping: no overflow panic, even with overflow checks.
/// assert_eq!(UserPtr::from_addr(usize::MAX).wrapping_byte_add(2).as_mut_ptr().addr(), 1);
/// ```
#[repr(transparent)]
#[derive(Copy, Clone, pin_init::Zeroable)]
pub struct UserPtr(*mut c_void);

impl UserPtr {
    /// The user pointer at address `addr`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::uaccess::UserPtr;
    ///
    /// assert_eq!(UserPtr::from_addr(4096).as_const_ptr().addr(), 4096);
    /// ```
    #[inline]
    pub fn from_addr(addr: usize) -> Self {
        // A user address is never dereferenced here: it has no provenance in the kernel either.
        Self(core::ptr::without_provenance_mut(addr))
    }

    /// The user pointer that `addr` holds, as C code hands it over.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::ffi::c_void;
    /// use kernel_core::uaccess::UserPtr;
    ///
    /// let raw: *mut c_void = core::ptr::without_provenance_mut(0x1000);
    /// assert_eq!(UserPtr::from_ptr(raw).as_mut_ptr(), raw);
    /// ```
    #[inline]
    pub fn from_ptr(addr: *mut c_void) -> Self {
        Self(addr)
    }

    /// The pointer as a raw `*const c_void`, for C functions that take one; nothing may
    /// dereference it.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::uaccess::UserPtr;
    ///
    /// assert!(UserPtr::from_addr(0).as_const_ptr().is_null());
    /// ```
    #[inline]
    pub fn as_const_ptr(self) -> *const c_void {
        self.0
    }

    /// The pointer as a raw `*mut c_void`, for C functions that take one; nothing may
    /// dereference it.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::uaccess::UserPtr;
    ///
    /// assert_eq!(UserPtr::from_addr(8).as_mut_ptr().addr(), 8);
    /// ```
    #[inline]
    pub fn as_mut_ptr(self) -> *mut c_void {
        self.0
    }

    /// The pointer `add` bytes further, wrapping around the address space: never an overflow
    /// panic, even with `CONFIG_RUST_OVERFLOW_CHECKS` (a wrapped address is simply one that
    /// faults).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::uaccess::UserPtr;
    ///
    /// let end = UserPtr::from_addr(usize::MAX - 1).wrapping_byte_add(3);
    /// assert_eq!(end.as_const_ptr().addr(), 1);
    /// ```
    #[inline]
    pub fn wrapping_byte_add(self, add: usize) -> UserPtr {
        UserPtr(self.0.wrapping_byte_add(add))
    }
}

/// A region of user memory, `length` bytes from a [`UserPtr`], to read or write once.
///
/// Every access is checked: reading or writing past the region, or at an address the process
/// has not mapped (or may not write), fails with [`EFAULT`]; nothing is `unsafe`. User space
/// may change the memory at any time, so a driver validates its copy after reading it, and never
/// reads the same place twice to check and then use it (a TOCTOU bug): a reader or writer moves
/// past what it read or wrote, and [`reader`](UserSlice::reader), [`writer`](UserSlice::writer)
/// and [`reader_writer`](UserSlice::reader_writer) consume the `UserSlice`. To read a place
/// twice on purpose, take a second reader with [`clone_reader`](UserSliceReader::clone_reader).
///
/// # Examples
///
/// Adding one to every byte of a user buffer, as an `ioctl` might (on the host, the buffer is
/// one a test maps):
///
/// ```
/// use kernel_core::prelude::*;
/// use kernel_core::uaccess::{UserPtr, UserSlice};
///
/// fn bytes_add_one(uptr: UserPtr, len: usize) -> Result {
///     let (read, mut write) = UserSlice::new(uptr, len).reader_writer();
///
///     let mut buf = KVec::new();
///     read.read_all(&mut buf, GFP_KERNEL)?;
///     for b in &mut buf {
///         *b = b.wrapping_add(1);
///     }
///     write.write_slice(&buf)?;
///     Ok(())
/// }
///
/// # #[cfg(feature = "std")] {
/// use kernel_core::extras::uaccess::UserMemory;
///
/// let mut user = UserMemory::new();
/// let buf = user.map(&[1, 2, 255]);
/// assert_eq!(bytes_add_one(buf, 3), Ok(()));
/// assert_eq!(user.read(buf, 3), [2, 3, 0]);
/// # }
/// // An address the process has not mapped.
/// assert_eq!(bytes_add_one(UserPtr::from_addr(0x1000), 3), Err(EFAULT));
/// ```
pub struct UserSlice {
    ptr: UserPtr,
    length: usize,
}

impl UserSlice {
    /// The user slice of `length` bytes at `ptr`.
    ///
    /// Nothing is checked here, so it may be made with no user process at all; each read and
    /// write checks its addresses (`copy_from_user()` and `copy_to_user()` check the process's
    /// mappings and that the range is user memory: no `access_ok()` is needed). Make one
    /// `UserSlice` per region, so that each byte is read once.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// let reader = UserSlice::new(UserPtr::from_addr(0x1000), 16).reader();
    /// assert_eq!(reader.len(), 16);
    /// ```
    pub fn new(ptr: UserPtr, length: usize) -> Self {
        UserSlice { ptr, length }
    }

    /// Reads the whole slice, appending it to `buf`, which grows with `flags`.
    ///
    /// Fails with [`EFAULT`] if a byte cannot be read (then `buf` keeps its length, but may have
    /// grown its capacity), or [`ENOMEM`](crate::error::code::ENOMEM) if `buf` cannot grow.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// let mut buf = KVec::new();
    /// let empty = UserSlice::new(UserPtr::from_addr(0x1000), 0);
    /// assert_eq!(empty.read_all(&mut buf, GFP_KERNEL), Ok(()));
    /// let unmapped = UserSlice::new(UserPtr::from_addr(0x1000), 4);
    /// assert_eq!(unmapped.read_all(&mut buf, GFP_KERNEL), Err(EFAULT));
    /// assert!(buf.is_empty());
    /// ```
    pub fn read_all<A: Allocator>(self, buf: &mut Vec<u8, A>, flags: Flags) -> Result {
        self.reader().read_all(buf, flags)
    }

    /// The reader of the slice.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// assert!(UserSlice::new(UserPtr::from_addr(0x1000), 0).reader().is_empty());
    /// ```
    pub fn reader(self) -> UserSliceReader {
        UserSliceReader {
            ptr: self.ptr,
            length: self.length,
        }
    }

    /// The writer of the slice.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// assert_eq!(UserSlice::new(UserPtr::from_addr(0x1000), 8).writer().len(), 8);
    /// ```
    pub fn writer(self) -> UserSliceWriter {
        UserSliceWriter {
            ptr: self.ptr,
            length: self.length,
        }
    }

    /// A reader and a writer of the same slice: usually to read the data, then overwrite it.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// let (reader, writer) = UserSlice::new(UserPtr::from_addr(0x1000), 8).reader_writer();
    /// assert_eq!((reader.len(), writer.len()), (8, 8));
    /// ```
    pub fn reader_writer(self) -> (UserSliceReader, UserSliceWriter) {
        (
            UserSliceReader {
                ptr: self.ptr,
                length: self.length,
            },
            UserSliceWriter {
                ptr: self.ptr,
                length: self.length,
            },
        )
    }
}

/// Reads a [`UserSlice`] from its start onwards: each read moves past what it read.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
/// use kernel_core::uaccess::{UserPtr, UserSlice};
///
/// let mut reader = UserSlice::new(UserPtr::from_addr(0x1000), 8).reader();
/// assert_eq!(reader.skip(6), Ok(()));
/// // Past the slice's end: nothing is read, and the reader does not move.
/// assert_eq!(reader.read::<u32>(), Err(EFAULT));
/// assert_eq!(reader.len(), 2);
/// ```
pub struct UserSliceReader {
    ptr: UserPtr,
    length: usize,
}

impl UserSliceReader {
    /// Moves `num_skip` bytes on, without reading them; [`EFAULT`] (and no move) if fewer are
    /// left.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// let mut reader = UserSlice::new(UserPtr::from_addr(0x1000), 4).reader();
    /// assert_eq!(reader.skip(3), Ok(()));
    /// assert_eq!(reader.skip(2), Err(EFAULT));
    /// assert_eq!(reader.len(), 1);
    /// ```
    pub fn skip(&mut self, num_skip: usize) -> Result {
        // The length first: it is what can fail.
        self.length = self.length.checked_sub(num_skip).ok_or(EFAULT)?;
        self.ptr = self.ptr.wrapping_byte_add(num_skip);
        Ok(())
    }

    /// A second reader of what this one has left to read, which moves on its own.
    ///
    /// It reads the same user memory again, which may have changed in between: see
    /// [`UserSlice`] on TOCTOU bugs.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// let mut reader = UserSlice::new(UserPtr::from_addr(0x1000), 8).reader();
    /// reader.skip(2).unwrap();
    /// let mut again = reader.clone_reader();
    /// again.skip(6).unwrap();
    /// assert_eq!((reader.len(), again.len()), (6, 0));
    /// ```
    pub fn clone_reader(&self) -> UserSliceReader {
        UserSliceReader {
            ptr: self.ptr,
            length: self.length,
        }
    }

    /// How many bytes are left to read. Reading fewer may still fail, at an address that is
    /// not mapped.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// assert_eq!(UserSlice::new(UserPtr::from_addr(0x1000), 5).reader().len(), 5);
    /// ```
    pub fn len(&self) -> usize {
        self.length
    }

    /// Whether nothing is left to read.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// assert!(!UserSlice::new(UserPtr::from_addr(0x1000), 5).reader().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.length == 0
    }

    /// Reads `out.len()` bytes into `out`, which need not be initialized.
    ///
    /// Fails with [`EFAULT`] if that is more than is left, or a byte cannot be read; then the
    /// reader does not move, and `out` may have been written (by `copy_from_user()`: the bytes
    /// before the fault, zeroes after it). [`read_slice`](Self::read_slice) takes a `&mut [u8]`.
    ///
    /// # Guarantees
    ///
    /// After `Ok(())`, every byte of `out` is initialized.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::mem::MaybeUninit;
    /// use kernel_core::prelude::*;
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// let mut out = [MaybeUninit::<u8>::uninit(); 4];
    /// let mut reader = UserSlice::new(UserPtr::from_addr(0x1000), 4).reader();
    /// assert_eq!(reader.read_raw(&mut out[..0]), Ok(())); // nothing to read: no access
    /// assert_eq!(reader.read_raw(&mut out), Err(EFAULT)); // not mapped
    /// assert_eq!(reader.len(), 4);
    /// ```
    pub fn read_raw(&mut self, out: &mut [MaybeUninit<u8>]) -> Result {
        let len = out.len();
        if len > self.length {
            return Err(EFAULT);
        }
        if super::copy_from_user(out, self.ptr) != 0 {
            return Err(EFAULT);
        }
        self.ptr = self.ptr.wrapping_byte_add(len);
        self.length -= len;
        Ok(())
    }

    /// Reads `out.len()` bytes into `out`.
    ///
    /// Fails with [`EFAULT`] if that is more than is left, or a byte cannot be read; then the
    /// reader does not move, and `out` may have been written.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// let mut out = [0xaa; 2];
    /// let mut reader = UserSlice::new(UserPtr::from_addr(0x1000), 1).reader();
    /// assert_eq!(reader.read_slice(&mut out), Err(EFAULT)); // 2 bytes from a slice of 1
    /// assert_eq!(out, [0xaa; 2]);
    /// ```
    pub fn read_slice(&mut self, out: &mut [u8]) -> Result {
        // SAFETY: `[u8]` and `[MaybeUninit<u8>]` have the same layout, and `read_raw` writes only
        // initialized bytes, so `out` stays a valid `[u8]`.
        let out = unsafe { &mut *(core::ptr::from_mut(out) as *mut [MaybeUninit<u8>]) };
        self.read_raw(out)
    }

    /// Reads what fits into `out` from `offset` on: `min(self.len(), out.len() - offset)`
    /// bytes, into `out[offset..]`; the number of bytes read.
    ///
    /// An `offset` at or past the end of `out` reads nothing and returns `Ok(0)`. Fails as
    /// [`read_slice`](Self::read_slice) does.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// let mut out = [0; 4];
    /// let mut reader = UserSlice::new(UserPtr::from_addr(0x1000), 8).reader();
    /// assert_eq!(reader.read_slice_partial(&mut out, 4), Ok(0));
    /// assert_eq!(reader.read_slice_partial(&mut out, 9), Ok(0));
    /// ```
    pub fn read_slice_partial(&mut self, out: &mut [u8], offset: usize) -> Result<usize> {
        let end = offset.saturating_add(self.len()).min(out.len());
        let Some(dst) = out.get_mut(offset..end) else {
            return Ok(0);
        };
        self.read_slice(dst)?;
        Ok(dst.len())
    }

    /// [`read_slice_partial`](Self::read_slice_partial) at a file offset (the kernel's
    /// `kernel::fs::file::Offset`, an `i64`), which moves on by the number of bytes read: C's
    /// `simple_write_to_buffer()`.
    ///
    /// A negative offset is [`EINVAL`]; one past `usize::MAX` reads nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// let mut out = [0; 4];
    /// let mut reader = UserSlice::new(UserPtr::from_addr(0x1000), 8).reader();
    /// let mut offset = -1;
    /// assert_eq!(reader.read_slice_file(&mut out, &mut offset), Err(EINVAL));
    /// offset = 4;
    /// assert_eq!(reader.read_slice_file(&mut out, &mut offset), Ok(0));
    /// assert_eq!(offset, 4);
    /// ```
    pub fn read_slice_file(&mut self, out: &mut [u8], offset: &mut i64) -> Result<usize> {
        if offset.is_negative() {
            return Err(EINVAL);
        }
        let Ok(offset_index) = usize::try_from(*offset) else {
            return Ok(0);
        };
        let read = self.read_slice_partial(out, offset_index)?;
        // OVERFLOW: `offset + read <= out.len() <= isize::MAX <= i64::MAX`.
        *offset += read as i64;
        Ok(read)
    }

    /// Reads a `T`: any bytes are a valid one.
    ///
    /// Fails with [`EFAULT`] if fewer than `size_of::<T>()` bytes are left, or one cannot be
    /// read; then the reader does not move.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// let mut reader = UserSlice::new(UserPtr::from_addr(0x1000), 8).reader();
    /// assert_eq!(reader.read::<u64>(), Err(EFAULT)); // not mapped
    /// assert_eq!(reader.read::<[u8; 0]>(), Ok([]));  // nothing to read
    /// ```
    pub fn read<T: FromBytes>(&mut self) -> Result<T> {
        let len = size_of::<T>();
        if len > self.length {
            return Err(EFAULT);
        }
        let mut out = MaybeUninit::<T>::uninit();
        // SAFETY: `out` is valid for writes of `size_of::<T>()` bytes, which may hold anything
        // while it is a `MaybeUninit`, and nothing else refers to it while the slice lives.
        let bytes = unsafe {
            core::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<MaybeUninit<u8>>(), len)
        };
        if super::copy_from_user(bytes, self.ptr) != 0 {
            return Err(EFAULT);
        }
        self.ptr = self.ptr.wrapping_byte_add(len);
        self.length -= len;
        // SAFETY: The copy initialized all of `out`'s bytes, and any bytes are a valid `T`,
        // which is `FromBytes`.
        Ok(unsafe { out.assume_init() })
    }

    /// Reads all that is left, appending it to `buf`, which grows with `flags`.
    ///
    /// Fails with [`EFAULT`] if a byte cannot be read (then `buf` keeps its length, but may have
    /// grown its capacity), or [`ENOMEM`](crate::error::code::ENOMEM) if `buf` cannot grow.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// let mut buf = KVec::from_elem(7u8, 2, GFP_KERNEL)?;
    /// let mut reader = UserSlice::new(UserPtr::from_addr(0x1000), 3).reader();
    /// reader.skip(3)?;
    /// reader.read_all(&mut buf, GFP_KERNEL)?; // nothing left: nothing to read
    /// assert_eq!(buf, [7, 7]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_all<A: Allocator>(mut self, buf: &mut Vec<u8, A>, flags: Flags) -> Result {
        let len = self.length;
        buf.reserve(len, flags)?;
        // `reserve` succeeded: at least `len` bytes of spare capacity.
        self.read_raw(&mut buf.spare_capacity_mut()[..len])?;
        // SAFETY: `read_raw` succeeded, so it initialized the `len` bytes after the vector's
        // length, within its capacity.
        unsafe { buf.inc_len(len) };
        Ok(())
    }

    /// Reads a NUL-terminated string into `buf` and returns it, as a `&CStr` into `buf`
    /// (`strncpy_from_user()`).
    ///
    /// It reads at most `min(buf.len(), self.len())` bytes. A string that fills `buf` without
    /// its NUL is cut short: its last byte becomes the NUL. A string that ends neither within
    /// `buf` nor within the slice (`self.len() < buf.len()`, and no NUL in the slice) is
    /// [`EFAULT`], as a read past the slice's end is. An empty `buf` is [`EINVAL`], since it has
    /// no room for the NUL. A byte that cannot be read is [`EFAULT`] (some bytes may have been
    /// copied into `buf`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// let name = UserSlice::new(UserPtr::from_addr(0x1000), 16).reader();
    /// assert_eq!(name.strcpy_into_buf(&mut []).err(), Some(EINVAL));
    /// let name = UserSlice::new(UserPtr::from_addr(0x1000), 16).reader();
    /// assert_eq!(name.strcpy_into_buf(&mut [0; 8]).err(), Some(EFAULT)); // not mapped
    /// # #[cfg(feature = "std")] {
    /// use kernel_core::extras::uaccess::UserMemory;
    ///
    /// let mut user = UserMemory::new();
    /// let ptr = user.map(b"eth0\0junk");
    /// let mut buf = [0; 16];
    /// let name = UserSlice::new(ptr, 9).reader().strcpy_into_buf(&mut buf)?;
    /// assert_eq!(name, c"eth0");
    /// let mut short = [0; 3];
    /// let cut = UserSlice::new(ptr, 9).reader().strcpy_into_buf(&mut short)?;
    /// assert_eq!(cut, c"et");
    /// # }
    /// # Ok::<(), Error>(())
    /// ```
    #[doc(alias = "strncpy_from_user")]
    #[allow(clippy::needless_lifetimes)] // Spelled out as in Linux 7.3.
    pub fn strcpy_into_buf<'buf>(self, buf: &'buf mut [u8]) -> Result<&'buf CStr> {
        if buf.is_empty() {
            return Err(EINVAL);
        }
        let buf_len = buf.len();
        // Never more than the slice's length.
        let dst_len = buf_len.min(self.length);
        // SAFETY: `[u8]` and `[MaybeUninit<u8>]` have the same layout, and `strncpy_from_user`
        // writes only initialized bytes, so `buf` stays a valid `[u8]`.
        let dst =
            unsafe { &mut *(core::ptr::from_mut(&mut buf[..dst_len]) as *mut [MaybeUninit<u8>]) };
        let mut len = raw_strncpy_from_user(dst, self.ptr)?;
        if len < dst_len {
            // A NUL at `buf[len]`: the string ends there, its NUL included.
            len += 1;
        } else if len < buf_len {
            // `len == dst_len < buf.len()`: the slice ended before the string or the buffer
            // did, which is a read past the slice's end.
            return Err(EFAULT);
        } else {
            // `len == buf.len()`: the string filled the buffer. Its last byte becomes the NUL,
            // and `len` already counts it.
            buf[buf_len - 1] = 0;
        }
        // `self` is consumed: there is no length to update.
        match CStr::from_bytes_with_nul(&buf[..len]) {
            Ok(string) => Ok(string),
            // `raw_strncpy_from_user` guarantees the one NUL at the end, checked here anyway.
            Err(_) => Err(EFAULT),
        }
    }
}

/// Writes a [`UserSlice`] from its start onwards: each write moves past what it wrote.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
/// use kernel_core::uaccess::{UserPtr, UserSlice};
///
/// let mut writer = UserSlice::new(UserPtr::from_addr(0x1000), 2).writer();
/// assert_eq!(writer.write(&0u32), Err(EFAULT)); // 4 bytes into 2
/// assert_eq!(writer.write_slice(&[]), Ok(()));  // nothing to write: no access
/// assert_eq!(writer.len(), 2);
/// ```
pub struct UserSliceWriter {
    ptr: UserPtr,
    length: usize,
}

impl UserSliceWriter {
    /// How many bytes are left to write. Writing fewer may still fail, at an address that is
    /// not mapped or not writable.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// assert_eq!(UserSlice::new(UserPtr::from_addr(0x1000), 5).writer().len(), 5);
    /// ```
    pub fn len(&self) -> usize {
        self.length
    }

    /// Whether nothing is left to write.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// assert!(UserSlice::new(UserPtr::from_addr(0x1000), 0).writer().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.length == 0
    }

    /// Writes all of `data`.
    ///
    /// Fails with [`EFAULT`] if that is more than is left, or a byte cannot be written; then the
    /// writer does not move, and the user memory may have been written (up to the fault).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// let mut writer = UserSlice::new(UserPtr::from_addr(0x1000), 4).writer();
    /// assert_eq!(writer.write_slice(&[1, 2, 3, 4, 5]), Err(EFAULT)); // past the end
    /// assert_eq!(writer.write_slice(&[1, 2]), Err(EFAULT));          // not mapped
    /// ```
    pub fn write_slice(&mut self, data: &[u8]) -> Result {
        let len = data.len();
        if len > self.length {
            return Err(EFAULT);
        }
        if super::copy_to_user(self.ptr, data) != 0 {
            return Err(EFAULT);
        }
        self.ptr = self.ptr.wrapping_byte_add(len);
        self.length -= len;
        Ok(())
    }

    /// Writes what fits of `data[offset..]`: `min(self.len(), data.len() - offset)` bytes; the
    /// number of bytes written.
    ///
    /// An `offset` at or past the end of `data` writes nothing and returns `Ok(0)`. Fails as
    /// [`write_slice`](Self::write_slice) does.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// let mut writer = UserSlice::new(UserPtr::from_addr(0x1000), 8).writer();
    /// assert_eq!(writer.write_slice_partial(b"abc", 3), Ok(0));
    /// assert_eq!(writer.len(), 8);
    /// ```
    pub fn write_slice_partial(&mut self, data: &[u8], offset: usize) -> Result<usize> {
        let end = offset.saturating_add(self.len()).min(data.len());
        let Some(src) = data.get(offset..end) else {
            return Ok(0);
        };
        self.write_slice(src)?;
        Ok(src.len())
    }

    /// [`write_slice_partial`](Self::write_slice_partial) from a file offset (the kernel's
    /// `kernel::fs::file::Offset`, an `i64`), which moves on by the number of bytes written:
    /// C's `simple_read_from_buffer()`.
    ///
    /// A negative offset is [`EINVAL`]; one past `usize::MAX` writes nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// let mut writer = UserSlice::new(UserPtr::from_addr(0x1000), 8).writer();
    /// let mut offset = -4;
    /// assert_eq!(writer.write_slice_file(b"abc", &mut offset), Err(EINVAL));
    /// offset = i64::MAX;
    /// assert_eq!(writer.write_slice_file(b"abc", &mut offset), Ok(0));
    /// ```
    pub fn write_slice_file(&mut self, data: &[u8], offset: &mut i64) -> Result<usize> {
        if offset.is_negative() {
            return Err(EINVAL);
        }
        let Ok(offset_index) = usize::try_from(*offset) else {
            return Ok(0);
        };
        let written = self.write_slice_partial(data, offset_index)?;
        // OVERFLOW: `offset + written <= data.len() <= isize::MAX <= i64::MAX`.
        *offset += written as i64;
        Ok(written)
    }

    /// Writes the bytes of `value`.
    ///
    /// Fails with [`EFAULT`] if fewer than `size_of::<T>()` bytes are left, or one cannot be
    /// written; then the writer does not move, and the user memory may have been written.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::uaccess::{UserPtr, UserSlice};
    ///
    /// let mut writer = UserSlice::new(UserPtr::from_addr(0x1000), 8).writer();
    /// assert_eq!(writer.write(&0x1234_u64), Err(EFAULT)); // not mapped
    /// assert_eq!(writer.write(&[0u8; 0]), Ok(()));        // nothing to write
    /// ```
    pub fn write<T: AsBytes>(&mut self, value: &T) -> Result {
        let len = size_of::<T>();
        if len > self.length {
            return Err(EFAULT);
        }
        if super::copy_to_user(self.ptr, value.as_bytes()) != 0 {
            return Err(EFAULT);
        }
        self.ptr = self.ptr.wrapping_byte_add(len);
        self.length -= len;
        Ok(())
    }
}

/// Copies a NUL-terminated string from `src` into `dst`: its length without the NUL, which is
/// then at `dst[len]`, or `dst.len()` if the first `dst.len()` bytes have no NUL (and `dst` then
/// has none). [`EFAULT`] if a byte cannot be read (some may have been copied).
///
/// # Guarantees
///
/// After `Ok(len)`, the first `len` bytes of `dst` are initialized and not zero, and if
/// `len < dst.len()`, `dst[len]` is an initialized zero.
fn raw_strncpy_from_user(dst: &mut [MaybeUninit<u8>], src: UserPtr) -> Result<usize> {
    let res = super::strncpy_from_user(dst, src);
    if res < 0 {
        // A negative `errno`, in `-MAX_ERRNO..=-1`.
        return Err(Error::from_errno(res as i32));
    }
    // A slice's length is at most `isize::MAX`, so `strncpy_from_user` returns at most that.
    let len = res.unsigned_abs();
    debug_assert!(len <= dst.len());
    Ok(len)
}
