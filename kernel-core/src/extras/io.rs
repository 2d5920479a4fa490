// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What kernel-core adds to [`kernel::io`](crate::io): [`sys_mem`], a register region backed by
//! an array, without `unsafe`.
//!
//! A driver's register code takes any [`Io`](crate::io::Io) over a
//! [`Region`]; a test hands it a [`SysMem`] view of an
//! array of words and then looks at the array. This file is written against the mirrored
//! `io` API alone, so it also builds on top of the kernel's own `kernel::io` (Linux 7.3;
//! kernel-core's switch-back check builds it that way).

use crate::error::Result;
use crate::io::{Region, SysMem};

mod sealed {
    /// Implemented by the word types whose arrays may back a region.
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

/// The words an array backing a [`Region`] may have: `u32` or `u64`, whose alignment (at
/// least 4) and lack of padding make any array of them a valid region, readable at every
/// width. `u64` words give the 8-byte alignment that `try_read64` and `try_write64` need.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::io::{sys_mem, Word};
///
/// fn backed<W: Word + Default + Copy>() -> usize {
///     let mut words = [W::default(); 4];
///     sys_mem::<0, W>(&mut words).map(kernel_core::io::Io::size).unwrap_or(0)
/// }
/// assert_eq!(backed::<u32>(), 16);
/// assert_eq!(backed::<u64>(), 32);
/// ```
pub trait Word: sealed::Sealed {}
impl Word for u32 {}
impl Word for u64 {}

/// A view of `words` as an I/O region of at least `SIZE` bytes, for as long as they are
/// borrowed, or `EINVAL` if they are fewer than `SIZE` bytes.
///
/// # Examples
///
/// ```
/// use kernel_core::error::code::EINVAL;
/// use kernel_core::extras::io::sys_mem;
/// use kernel_core::io::Io;
///
/// let mut backing = [0_u32; 16];
/// let io = sys_mem::<0x40, _>(&mut backing)?;
/// io.write32(0xdead_beef, 0x3c);
/// assert_eq!(backing[15], 0xdead_beef);
///
/// let mut small = [0_u32; 2];
/// assert_eq!(sys_mem::<0x40, _>(&mut small).err(), Some(EINVAL));
/// # Ok::<(), kernel_core::error::Error>(())
/// ```
#[inline]
pub fn sys_mem<const SIZE: usize, W: Word>(words: &mut [W]) -> Result<SysMem<'_, Region<SIZE>>> {
    let region =
        Region::<SIZE>::ptr_try_from_raw_parts_mut(words.as_mut_ptr().cast(), size_of_val(words))?;
    // SAFETY: `region` covers exactly `words`, which are valid, initialized, 4-aligned memory
    // (`Word` types have no padding and an alignment of at least 4), exclusively borrowed for
    // as long as the view lives.
    Ok(unsafe { SysMem::new(region) })
}
