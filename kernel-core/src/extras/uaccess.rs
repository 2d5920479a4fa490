// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! User memory for host tests: what a [`UserSlice`](crate::uaccess::UserSlice) reads and
//! writes under `cargo test`.
//!
//! An addition of kernel-core, for the host alone (feature `std`): in the kernel, user memory
//! is the calling process's, and the kernel crate has nothing like this. A [`UserMemory`] is the
//! user address space of the thread that made it, standing for the process that made a system
//! call: a test maps bytes at user addresses ([`UserMemory::map`]), hands the [`UserPtr`]s to
//! the driver's `ioctl` or `write` path, and reads back what the driver wrote
//! ([`UserMemory::read`]). While it lives, the copies of [`uaccess`](crate::uaccess) on that
//! thread reach it:
//!
//! - a byte that is mapped is read, and written if its mapping is writable (see
//!   [`UserMemory::map_read_only`]);
//! - any other byte faults, and the copy fails with [`EFAULT`](crate::error::code::EFAULT), as
//!   it does in the kernel: the gaps between mappings, the first 64 KiB, the end of user memory
//!   and, unlike in a real process, the rest of a page after a mapping's last byte (mappings
//!   are exact, so a read one byte past a user buffer fails in the test);
//! - the bytes before a fault are copied, the rest not: a read fills them in with zeroes, as
//!   the kernel's `copy_from_user()` does;
//! - a range that is not user memory at all (it wraps around, or ends past `TASK_SIZE_MAX`,
//!   x86_64's `0x7fff_ffff_f000` on 64-bit hosts) is not touched: nothing is copied.
//!
//! Other threads have no user memory, as kernel threads have none: their copies fault. Each
//! thread may have one `UserMemory` at a time; it is `!Send`, and dropping it unmaps everything.
//!
//! # Examples
//!
//! A driver's `ioctl` that reads a request from user space and writes its answer after it:
//!
//! ```
//! use kernel_core::extras::uaccess::UserMemory;
//! use kernel_core::prelude::*;
//! use kernel_core::uaccess::{UserPtr, UserSlice};
//!
//! /// `struct add { u32 a, b, sum; }`: reads `a` and `b`, writes `sum`.
//! fn ioctl_add(arg: UserPtr) -> Result {
//!     let mut reader = UserSlice::new(arg, 8).reader();
//!     let a: u32 = reader.read()?;
//!     let b: u32 = reader.read()?;
//!     let mut writer = UserSlice::new(arg.wrapping_byte_add(8), 4).writer();
//!     writer.write(&a.checked_add(b).ok_or(EOVERFLOW)?)
//! }
//!
//! let mut user = UserMemory::new();
//! let mut request = [0u8; 12];
//! request[..4].copy_from_slice(&2u32.to_ne_bytes());
//! request[4..8].copy_from_slice(&40u32.to_ne_bytes());
//! let arg = user.map(&request);
//! assert_eq!(ioctl_add(arg), Ok(()));
//! assert_eq!(user.read(arg.wrapping_byte_add(8), 4), 42u32.to_ne_bytes());
//!
//! // A read-only request: the answer cannot be written back.
//! let read_only = user.map_read_only(&[0; 12]);
//! assert_eq!(ioctl_add(read_only), Err(EFAULT));
//! // A request cut short: `b` is past the end of the mapping.
//! let short = user.map(&[0; 6]);
//! assert_eq!(ioctl_add(short), Err(EFAULT));
//! ```
//!
//! [`UserPtr`]: crate::uaccess::UserPtr

use core::marker::PhantomData;
use std::vec::Vec;

use crate::env::uaccess::memory;
use crate::uaccess::UserPtr;

/// The end of user memory on the host, `TASK_SIZE_MAX`: x86_64's with 4-level page tables on
/// 64-bit hosts (`0x7fff_ffff_f000`), i386's 3 GiB split on 32-bit ones (`0xc000_0000`).
///
/// An access to a range that ends past it is not user memory: it copies nothing.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::uaccess::{UserMemory, TASK_SIZE_MAX};
/// use kernel_core::prelude::*;
/// use kernel_core::uaccess::UserSlice;
///
/// let mut user = UserMemory::new();
/// let last = user.map_at(TASK_SIZE_MAX - 4, &[1, 2, 3, 4]);
/// let mut out = [0xaa; 5];
/// // One byte past the end: `access_ok()` fails, and nothing is copied (but zeroes).
/// assert_eq!(UserSlice::new(last, 5).reader().read_slice(&mut out), Err(EFAULT));
/// assert_eq!(out, [0; 5]);
/// ```
pub const TASK_SIZE_MAX: usize = crate::env::uaccess::TASK_SIZE_MAX;

/// The user address space of the calling thread, which a test maps bytes into: see the
/// [module](self).
///
/// # Examples
///
/// ```
/// use kernel_core::extras::uaccess::UserMemory;
/// use kernel_core::prelude::*;
/// use kernel_core::uaccess::UserSlice;
///
/// let mut user = UserMemory::new();
/// let ptr = user.map(b"hello");
/// let mut out = [0; 5];
/// UserSlice::new(ptr, 5).reader().read_slice(&mut out)?;
/// assert_eq!(&out, b"hello");
///
/// drop(user); // unmaps everything
/// assert_eq!(UserSlice::new(ptr, 5).reader().read_slice(&mut out), Err(EFAULT));
/// # Ok::<(), Error>(())
/// ```
pub struct UserMemory {
    /// The address space is the calling thread's: the handle stays on it.
    _not_send: PhantomData<*const ()>,
}

impl UserMemory {
    /// Gives the calling thread an empty user address space, until the `UserMemory` is dropped.
    ///
    /// # Panics
    ///
    /// If the thread has one already.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::uaccess::UserMemory;
    ///
    /// let user = UserMemory::new();
    /// let again = std::panic::catch_unwind(UserMemory::new);
    /// assert!(again.is_err()); // one per thread
    /// drop(user);
    /// let _user = UserMemory::new();
    /// ```
    #[track_caller]
    pub fn new() -> Self {
        assert!(
            memory::install(),
            "kernel-core: this thread already has a UserMemory; drop it first"
        );
        Self {
            _not_send: PhantomData,
        }
    }

    /// Maps a copy of `bytes`, readable and writable, at a new user address, which it returns.
    ///
    /// Each mapping starts on a page boundary, and a page that stays unmapped follows it. An
    /// empty `bytes` maps nothing (Linux maps no zero bytes either) but still returns a new
    /// address, where nothing can be read.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::uaccess::UserMemory;
    /// use kernel_core::page::PAGE_SIZE;
    ///
    /// let mut user = UserMemory::new();
    /// let first = user.map(&[1, 2, 3]);
    /// let second = user.map(&[4]);
    /// assert_eq!(first.as_const_ptr().addr() % PAGE_SIZE, 0);
    /// assert!(second.as_const_ptr().addr() >= first.as_const_ptr().addr() + 2 * PAGE_SIZE);
    /// ```
    pub fn map(&mut self, bytes: &[u8]) -> UserPtr {
        UserPtr::from_addr(memory::with_installed(|space| space.map(bytes, true)))
    }

    /// Maps a copy of `bytes` that the kernel may read but not write (`PROT_READ`), at a new
    /// user address, which it returns.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::uaccess::UserMemory;
    /// use kernel_core::prelude::*;
    /// use kernel_core::uaccess::UserSlice;
    ///
    /// let mut user = UserMemory::new();
    /// let ptr = user.map_read_only(&[7; 4]);
    /// let (mut reader, mut writer) = UserSlice::new(ptr, 4).reader_writer();
    /// assert_eq!(reader.read::<[u8; 4]>(), Ok([7; 4]));
    /// assert_eq!(writer.write_slice(&[0; 4]), Err(EFAULT));
    /// ```
    pub fn map_read_only(&mut self, bytes: &[u8]) -> UserPtr {
        UserPtr::from_addr(memory::with_installed(|space| space.map(bytes, false)))
    }

    /// Maps a copy of `bytes`, readable and writable, at user address `addr`, which need not
    /// be aligned: for tests of particular addresses, a mapping right after another, or the
    /// end of user memory. An empty `bytes` maps nothing.
    ///
    /// # Panics
    ///
    /// If the range overlaps a mapping, or is not user memory (it wraps around, or ends past
    /// `TASK_SIZE_MAX`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::uaccess::UserMemory;
    /// use kernel_core::prelude::*;
    /// use kernel_core::uaccess::UserSlice;
    ///
    /// let mut user = UserMemory::new();
    /// let a = user.map_at(0x2_0003, b"ab");
    /// user.map_at(0x2_0005, b"cd"); // right after: one region of user memory
    /// let mut out = [0; 4];
    /// UserSlice::new(a, 4).reader().read_slice(&mut out)?;
    /// assert_eq!(&out, b"abcd");
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    pub fn map_at(&mut self, addr: usize, bytes: &[u8]) -> UserPtr {
        Self::map_fixed(addr, bytes, true)
    }

    /// Maps a copy of `bytes` that the kernel may read but not write, at user address `addr`.
    ///
    /// # Panics
    ///
    /// As [`map_at`](Self::map_at).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::uaccess::UserMemory;
    /// use kernel_core::prelude::*;
    /// use kernel_core::uaccess::UserSlice;
    ///
    /// let mut user = UserMemory::new();
    /// let ptr = user.map_read_only_at(0x4_0000, &[1, 2]);
    /// assert_eq!(UserSlice::new(ptr, 2).writer().write(&0u16), Err(EFAULT));
    /// ```
    #[track_caller]
    pub fn map_read_only_at(&mut self, addr: usize, bytes: &[u8]) -> UserPtr {
        Self::map_fixed(addr, bytes, false)
    }

    #[track_caller]
    fn map_fixed(addr: usize, bytes: &[u8], writable: bool) -> UserPtr {
        if let Err(why) = memory::with_installed(|space| space.map_at(addr, bytes, writable)) {
            panic!(
                "kernel-core: cannot map {} bytes at user address {addr:#x}: {why}",
                bytes.len()
            );
        }
        UserPtr::from_addr(addr)
    }

    /// Unmaps the mapping that starts at `ptr` (`munmap()`): its bytes fault from now on.
    ///
    /// # Panics
    ///
    /// If no mapping starts at `ptr`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::uaccess::UserMemory;
    /// use kernel_core::prelude::*;
    /// use kernel_core::uaccess::UserSlice;
    ///
    /// let mut user = UserMemory::new();
    /// let ptr = user.map(&[1]);
    /// user.unmap(ptr);
    /// assert_eq!(UserSlice::new(ptr, 1).reader().read::<u8>(), Err(EFAULT));
    /// ```
    #[track_caller]
    pub fn unmap(&mut self, ptr: UserPtr) {
        let addr = ptr.as_const_ptr().addr();
        assert!(
            memory::with_installed(|space| space.unmap(addr)),
            "kernel-core: no user mapping starts at {addr:#x}"
        );
    }

    /// The `len` bytes of user memory at `ptr`, as user space sees them (what the kernel wrote,
    /// read-only mappings included).
    ///
    /// # Panics
    ///
    /// If one of them is not mapped.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::uaccess::UserMemory;
    /// use kernel_core::uaccess::UserSlice;
    ///
    /// let mut user = UserMemory::new();
    /// let ptr = user.map(&[0; 4]);
    /// UserSlice::new(ptr.wrapping_byte_add(1), 2).writer().write_slice(&[8, 9]).unwrap();
    /// assert_eq!(user.read(ptr, 4), [0, 8, 9, 0]);
    /// ```
    #[track_caller]
    pub fn read(&self, ptr: UserPtr, len: usize) -> Vec<u8> {
        let addr = ptr.as_const_ptr().addr();
        let mut out = std::vec![0; len];
        if memory::with_installed(|space| space.peek(addr, &mut out)).is_none() {
            panic!("kernel-core: the {len} bytes at user address {addr:#x} are not all mapped");
        }
        out
    }

    /// Writes `bytes` to user memory at `ptr`, as user space would (read-only mappings
    /// included): for data that changes between the kernel's reads.
    ///
    /// # Panics
    ///
    /// If one of the bytes is not mapped; then nothing is written.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::uaccess::UserMemory;
    /// use kernel_core::uaccess::UserSlice;
    ///
    /// let mut user = UserMemory::new();
    /// let ptr = user.map_read_only(&[1; 2]);
    /// let reader = UserSlice::new(ptr, 2).reader();
    /// user.write(ptr, &[5, 6]); // user space changes it before the kernel reads
    /// assert_eq!(reader.clone_reader().read::<[u8; 2]>(), Ok([5, 6]));
    /// # drop(reader);
    /// ```
    #[track_caller]
    pub fn write(&mut self, ptr: UserPtr, bytes: &[u8]) {
        let addr = ptr.as_const_ptr().addr();
        if memory::with_installed(|space| space.poke(addr, bytes)).is_none() {
            panic!(
                "kernel-core: the {} bytes at user address {addr:#x} are not all mapped",
                bytes.len()
            );
        }
    }
}

/// The same as [`UserMemory::new`].
impl Default for UserMemory {
    #[track_caller]
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for UserMemory {
    fn drop(&mut self) {
        memory::uninstall();
    }
}
