// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::uaccess` on the host: Linux 7.3's types (`env/uaccess.rs`) over a model of the
//! calling process's user memory.
//!
//! The kernel reaches user memory through the page tables of the current process; here, the
//! process is the calling thread, and its memory is what the thread's
//! [`UserMemory`](crate::extras::uaccess::UserMemory) maps (feature `std`). The three primitives
//! below are `copy_from_user()`, `copy_to_user()` and `strncpy_from_user()` of
//! `include/linux/uaccess.h` and `lib/strncpy_from_user.c`, with their results:
//!
//! - a range that is not user memory (`access_ok()` fails: it wraps, or ends past
//!   [`TASK_SIZE_MAX`]) is not touched at all;
//! - otherwise the bytes are copied in order up to the first one that is not mapped (or, for a
//!   write, not writable), and the copy returns how many were not copied; `copy_from_user()`
//!   zeroes those in the kernel's buffer, as the C function does;
//! - a copy of zero bytes always succeeds, at any address.
//!
//! The model is byte-exact where a real process has whole pages: outside the bytes a test
//! maps, every address faults, so a driver that reads a byte past a user buffer fails here
//! where it might read a neighbour's data in the kernel. A thread without a `UserMemory`, and
//! every thread without feature `std`, is a kernel thread with no user memory: every copy
//! faults, as `copy_from_user()` does in a kthread.

use core::mem::MaybeUninit;

#[path = "../uaccess.rs"]
mod user_slice;

pub use self::user_slice::{UserPtr, UserSlice, UserSliceReader, UserSliceWriter};

use crate::error::code::EFAULT;

/// `TASK_SIZE_MAX`, the end of user memory: x86_64's with 4-level page tables on 64-bit hosts
/// (`(1 << 47) - PAGE_SIZE`, `arch/x86/include/asm/page_64_types.h`), i386's 3 GiB split on
/// 32-bit ones (`PAGE_OFFSET`). No mapping reaches past it.
pub(crate) const TASK_SIZE_MAX: usize = if usize::BITS == 64 {
    (1_usize << (47 % usize::BITS)) - crate::page::PAGE_SIZE
} else {
    0xc000_0000
};

/// `access_ok(addr, size)`: whether `addr..addr + size` is user memory, as the generic
/// `__access_ok()` of `include/asm-generic/access_ok.h` computes it.
fn access_ok(addr: usize, size: usize) -> bool {
    size <= TASK_SIZE_MAX && addr <= TASK_SIZE_MAX - size
}

/// `copy_from_user(to, from, to.len())`: the number of bytes not copied, which are zeroed at
/// the end of `to`.
pub(crate) fn copy_from_user(to: &mut [MaybeUninit<u8>], from: UserPtr) -> usize {
    let n = to.len();
    let copied = if access_ok(from.as_const_ptr().addr(), n) {
        memory::read(from.as_const_ptr().addr(), to)
    } else {
        0
    };
    // As `_copy_from_user()`: the bytes not copied are zeroed, so `to` never holds stale data.
    for byte in &mut to[copied..] {
        byte.write(0);
    }
    n - copied
}

/// `copy_to_user(to, from, from.len())`: the number of bytes not copied.
pub(crate) fn copy_to_user(to: UserPtr, from: &[u8]) -> usize {
    let n = from.len();
    let copied = if access_ok(to.as_mut_ptr().addr(), n) {
        memory::write(to.as_mut_ptr().addr(), from)
    } else {
        0
    };
    n - copied
}

/// `strncpy_from_user(dst, src, dst.len())`: the length of the string copied, its NUL
/// written after it, or `dst.len()` without a NUL among that many bytes, or `-EFAULT`.
///
/// As `do_strncpy_from_user()`: it stops at the first NUL; a byte that cannot be read before
/// the NUL (or before `dst.len()` bytes) is a fault, even past some bytes copied; the end of
/// user memory is such a byte.
pub(crate) fn strncpy_from_user(dst: &mut [MaybeUninit<u8>], src: UserPtr) -> isize {
    let start = src.as_const_ptr().addr();
    for (len, slot) in dst.iter_mut().enumerate() {
        // No overflow: the byte before this one was below `TASK_SIZE_MAX`.
        let addr = start + len;
        let mut byte = [MaybeUninit::uninit()];
        if addr >= TASK_SIZE_MAX || memory::read(addr, &mut byte) != 1 {
            return EFAULT.to_errno() as isize;
        }
        // SAFETY: `memory::read` returned 1: it initialized the byte.
        let byte = unsafe { byte[0].assume_init() };
        slot.write(byte);
        if byte == 0 {
            // A slice's length fits in an `isize`.
            return len as isize;
        }
    }
    dst.len() as isize
}

/// The calling thread's user memory: the address space that
/// [`UserMemory`](crate::extras::uaccess::UserMemory) maps.
#[cfg(feature = "std")]
pub(crate) mod memory {
    use core::cell::RefCell;
    use core::mem::MaybeUninit;
    use std::collections::BTreeMap;
    use std::vec::Vec;

    /// One mapping: `bytes.len()` bytes from its start address (the key of its map).
    struct Mapping {
        bytes: Vec<u8>,
        writable: bool,
    }

    /// A thread's user address space.
    pub(crate) struct Space {
        /// The mappings, by start address; none overlaps another.
        mappings: BTreeMap<usize, Mapping>,
        /// Where the next mapping without an address goes.
        next: usize,
    }

    std::thread_local! {
        static SPACE: RefCell<Option<Space>> = const { RefCell::new(None) };
    }

    /// The first address `map` hands out: the default `vm.mmap_min_addr`, 64 KiB.
    const FIRST: usize = 0x1_0000;

    /// Gives the calling thread an empty address space; `false` if it has one.
    pub(crate) fn install() -> bool {
        SPACE.with(|space| {
            let mut space = space.borrow_mut();
            if space.is_some() {
                return false;
            }
            *space = Some(Space {
                mappings: BTreeMap::new(),
                next: FIRST,
            });
            true
        })
    }

    /// Takes the calling thread's address space away.
    pub(crate) fn uninstall() {
        // Dropped outside the borrow; `try_with`: this may run while the thread ends.
        let _space = SPACE.try_with(|space| space.borrow_mut().take());
    }

    /// Runs `f` on the calling thread's address space, `None` without one.
    fn with<R>(f: impl FnOnce(&mut Space) -> R) -> Option<R> {
        SPACE
            .try_with(|space| space.borrow_mut().as_mut().map(f))
            .ok()
            .flatten()
    }

    /// Runs `f` on the calling thread's address space, which the caller installed.
    pub(crate) fn with_installed<R>(f: impl FnOnce(&mut Space) -> R) -> R {
        with(f).expect("kernel-core: this thread's UserMemory is gone")
    }

    impl Space {
        /// The mapping that holds `addr`, with its start.
        fn find(&self, addr: usize) -> Option<(usize, &Mapping)> {
            let (&start, mapping) = self.mappings.range(..=addr).next_back()?;
            (addr - start < mapping.bytes.len()).then_some((start, mapping))
        }

        /// The mapping that holds `addr`, with its start, to write.
        fn find_mut(&mut self, addr: usize) -> Option<(usize, &mut Mapping)> {
            let (&start, mapping) = self.mappings.range_mut(..=addr).next_back()?;
            (addr - start < mapping.bytes.len()).then_some((start, mapping))
        }

        /// Maps `bytes` at `addr`: `Err` with a reason if it overlaps a mapping or does not fit
        /// in user memory. Zero bytes map nothing.
        pub(crate) fn map_at(
            &mut self,
            addr: usize,
            bytes: &[u8],
            writable: bool,
        ) -> Result<(), &'static str> {
            let len = bytes.len();
            if !super::access_ok(addr, len) {
                return Err("it does not fit below TASK_SIZE_MAX");
            }
            if len == 0 {
                // Nothing to map: no mapping of zero bytes is kept.
                return Ok(());
            }
            let end = addr + len;
            let before = self.mappings.range(..addr).next_back();
            let overlaps = self.mappings.contains_key(&addr)
                || before.is_some_and(|(&start, m)| start + m.bytes.len() > addr)
                || self.mappings.range(addr..end).next().is_some();
            if overlaps {
                return Err("it overlaps a mapping");
            }
            self.mappings.insert(
                addr,
                Mapping {
                    bytes: bytes.to_vec(),
                    writable,
                },
            );
            Ok(())
        }

        /// Maps `bytes` at a new page-aligned address, after the previous one and a page that
        /// stays unmapped: an overrun of one mapping faults rather than reaching the next.
        pub(crate) fn map(&mut self, bytes: &[u8], writable: bool) -> usize {
            let page = crate::page::PAGE_SIZE;
            loop {
                let addr = self.next;
                let pages = bytes.len().div_ceil(page).max(1);
                self.next = addr
                    .checked_add((pages + 1) * page)
                    .filter(|&next| next < super::TASK_SIZE_MAX)
                    .expect("kernel-core: UserMemory is out of addresses");
                if self.map_at(addr, bytes, writable).is_ok() {
                    return addr;
                }
            }
        }

        /// Unmaps the mapping that starts at `addr`; `false` if none does.
        pub(crate) fn unmap(&mut self, addr: usize) -> bool {
            self.mappings.remove(&addr).is_some()
        }

        /// Copies `out.len()` bytes from `addr` into `out`; `None` if one is not mapped.
        pub(crate) fn peek(&self, addr: usize, out: &mut [u8]) -> Option<()> {
            let mut at = addr;
            let mut done = 0;
            while done < out.len() {
                let (start, mapping) = self.find(at)?;
                let from = &mapping.bytes[at - start..];
                let n = from.len().min(out.len() - done);
                out[done..done + n].copy_from_slice(&from[..n]);
                done += n;
                at += n;
            }
            Some(())
        }

        /// Copies `bytes` to `addr`, whether it is writable or not; `None` if a byte is not
        /// mapped (then nothing is written).
        pub(crate) fn poke(&mut self, addr: usize, bytes: &[u8]) -> Option<()> {
            let mut probe = std::vec![0; bytes.len()];
            self.peek(addr, &mut probe)?;
            let mut at = addr;
            let mut done = 0;
            while done < bytes.len() {
                let (start, mapping) = self.find_mut(at)?;
                let to = &mut mapping.bytes[at - start..];
                let n = to.len().min(bytes.len() - done);
                to[..n].copy_from_slice(&bytes[done..done + n]);
                done += n;
                at += n;
            }
            Some(())
        }
    }

    /// Copies from user memory at `addr` into `out`, in order, up to the first byte that is not
    /// mapped: the number of bytes copied.
    pub(crate) fn read(addr: usize, out: &mut [MaybeUninit<u8>]) -> usize {
        with(|space| {
            let mut done = 0;
            while done < out.len() {
                let Some((start, mapping)) = space.find(addr + done) else {
                    break;
                };
                let from = &mapping.bytes[addr + done - start..];
                let n = from.len().min(out.len() - done);
                for (slot, byte) in out[done..done + n].iter_mut().zip(from) {
                    slot.write(*byte);
                }
                done += n;
            }
            done
        })
        .unwrap_or(0)
    }

    /// Copies `from` to user memory at `addr`, in order, up to the first byte that is not
    /// mapped or not writable: the number of bytes copied.
    pub(crate) fn write(addr: usize, from: &[u8]) -> usize {
        with(|space| {
            let mut done = 0;
            while done < from.len() {
                let Some((start, mapping)) = space.find_mut(addr + done) else {
                    break;
                };
                if !mapping.writable {
                    break;
                }
                let to = &mut mapping.bytes[addr + done - start..];
                let n = to.len().min(from.len() - done);
                to[..n].copy_from_slice(&from[done..done + n]);
                done += n;
            }
            done
        })
        .unwrap_or(0)
    }
}

/// Without `std` there are no threads to give memory to: the host is a kernel thread, and
/// every copy faults.
#[cfg(not(feature = "std"))]
mod memory {
    use core::mem::MaybeUninit;

    /// Copies nothing: no byte is mapped.
    pub(super) fn read(_addr: usize, _out: &mut [MaybeUninit<u8>]) -> usize {
        0
    }

    /// Copies nothing: no byte is mapped.
    pub(super) fn write(_addr: usize, _from: &[u8]) -> usize {
        0
    }
}
