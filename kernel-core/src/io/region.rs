// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Where a view's accesses go: [`Region`], an untyped I/O region of bytes whose type says its
//! minimum size (what the build-time checked accessors check against), and [`MmioRaw`], the
//! address of an MMIO region before a bus maps it into an [`Mmio`] view.
//!
//! Kernel counterpart: `Region` and `MmioRaw` in `rust/kernel/io.rs` of Linux 7.3.

use crate::error::{code::EINVAL, Result};
use crate::extras::bytes::{FromBytes, IntoBytes};
use crate::ptr::{Alignment, KnownSize};

#[cfg(doc)]
use super::Mmio;

/// An I/O region of bytes whose type says only its minimum size, `SIZE` (0 by default); its
/// actual size is known at run time.
///
/// It is a dynamically sized type, used behind views: `SysMem<'_, Region<0x1000>>` is a region
/// of at least 4 KiB.
///
/// # Invariants
///
/// A valid `Region` is at least `SIZE` bytes long, and its address and size are multiples of 4.
///
/// # Examples
///
/// ```
/// use kernel_core::io::Region;
/// use kernel_core::ptr::KnownSize;
///
/// let mut words = [0_u32; 8];
/// let region = Region::<16>::ptr_try_from_raw_parts_mut(words.as_mut_ptr().cast(), 32)?;
/// assert_eq!(KnownSize::size(region), 32);
/// assert!(Region::<64>::ptr_try_from_raw_parts_mut(words.as_mut_ptr().cast(), 32).is_err());
/// assert!(Region::<0>::ptr_try_from_raw_parts_mut(words.as_mut_ptr().cast(), 30).is_err());
/// # Ok::<(), kernel_core::error::Error>(())
/// ```
#[repr(C, align(4))]
pub struct Region<const SIZE: usize = 0> {
    inner: [u8],
}

impl<const SIZE: usize> Region<SIZE> {
    /// A raw pointer to a region of `size` bytes at `base`.
    ///
    /// Nothing is checked: a pointer that breaks the invariants (`size < SIZE`, or `base` or
    /// `size` not a multiple of 4) may be made, as any raw pointer may, but it is not a valid
    /// region.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::Region;
    /// use kernel_core::ptr::KnownSize;
    ///
    /// let mut words = [0_u32; 4];
    /// let region = Region::<16>::ptr_from_raw_parts_mut(words.as_mut_ptr().cast(), 16);
    /// assert_eq!(KnownSize::size(region), 16);
    /// ```
    #[inline]
    pub fn ptr_from_raw_parts_mut(base: *mut u8, size: usize) -> *mut Self {
        core::ptr::slice_from_raw_parts_mut(base, size) as *mut Self
    }

    /// A raw pointer to a region of `size` bytes at `base`, or `EINVAL` if `size` is below
    /// `SIZE` or `base` or `size` is not a multiple of 4.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::error::code::EINVAL;
    /// use kernel_core::io::Region;
    ///
    /// let mut words = [0_u32; 4];
    /// let base: *mut u8 = words.as_mut_ptr().cast();
    /// assert!(Region::<16>::ptr_try_from_raw_parts_mut(base, 16).is_ok());
    /// assert_eq!(Region::<16>::ptr_try_from_raw_parts_mut(base, 12).err(), Some(EINVAL));
    /// assert_eq!(Region::<0>::ptr_try_from_raw_parts_mut(base.wrapping_add(2), 8).err(), Some(EINVAL));
    /// ```
    #[inline]
    pub fn ptr_try_from_raw_parts_mut(base: *mut u8, size: usize) -> Result<*mut Self> {
        let aligned = base.align_offset(4) == 0 && size % 4 == 0;
        if !aligned || size < SIZE {
            return Err(EINVAL);
        }
        Ok(Self::ptr_from_raw_parts_mut(base, size))
    }
}

impl<const SIZE: usize> KnownSize for Region<SIZE> {
    const MIN_SIZE: usize = SIZE;
    const MIN_ALIGN: Alignment = Alignment::new::<4>();

    #[inline(always)]
    fn size(p: *const Self) -> usize {
        (p as *const [u8]).len()
    }
}

// SAFETY: A `Region` is bytes, any of which are valid; what is read from I/O memory is always
// treated as initialized.
unsafe impl<const SIZE: usize> FromBytes for Region<SIZE> {}

// SAFETY: By the type's invariant a valid `Region` is 4-aligned and a multiple of 4 bytes long,
// so it has no padding: all its bytes are initialized.
unsafe impl<const SIZE: usize> IntoBytes for Region<SIZE> {}

/// The address of an MMIO region of type `T`, as `T __iomem *` is in C: nothing more.
///
/// It says nothing about whether the region is mapped; the bus code that maps a region turns
/// it into an [`Mmio`] view with [`Mmio::from_raw`], which is where validity is promised.
///
/// On the host, the address is that of memory whose provenance the caller exposed
/// (`pointer::expose_provenance`), so that [`Mmio`]'s volatile accesses may reach it.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{MmioRaw, Region};
///
/// let raw = MmioRaw::<Region<0x100>>::new_region(0x1000_0000, 0x200)?;
/// assert_eq!((raw.addr(), raw.size()), (0x1000_0000, 0x200));
/// assert!(MmioRaw::<Region<0x100>>::new_region(0x1000_0000, 0x80).is_err());
/// let word = MmioRaw::<u32>::new(0x1000_0010);
/// assert_eq!((word.addr(), word.size()), (0x1000_0010, 4));
/// # Ok::<(), kernel_core::error::Error>(())
/// ```
pub struct MmioRaw<T: ?Sized> {
    // Only the address and the metadata matter: the kernel accesses it through `readl()` and
    // friends, never by dereferencing.
    pub(crate) ptr: *mut T,
}

impl<T: ?Sized> Clone for MmioRaw<T> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for MmioRaw<T> {}

// SAFETY: An `MmioRaw` is an address; sending or sharing it across threads accesses nothing.
unsafe impl<T: ?Sized> Send for MmioRaw<T> {}

// SAFETY: As for `Send`: it is only an address.
unsafe impl<T: ?Sized> Sync for MmioRaw<T> {}

impl<T> MmioRaw<T> {
    /// The MMIO location of a `T` at `addr`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::MmioRaw;
    ///
    /// assert_eq!(MmioRaw::<u64>::new(0xfe00_0000).addr(), 0xfe00_0000);
    /// ```
    #[inline]
    pub fn new(addr: usize) -> Self {
        Self {
            ptr: crate::env::io::ptr_from_addr(addr),
        }
    }
}

impl<const SIZE: usize> MmioRaw<Region<SIZE>> {
    /// The MMIO region of `size` bytes at `addr`, or `EINVAL` if `size` is below `SIZE` or
    /// `addr` or `size` is not a multiple of 4.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{MmioRaw, Region};
    ///
    /// assert!(MmioRaw::<Region<8>>::new_region(0x4000, 8).is_ok());
    /// assert!(MmioRaw::<Region<8>>::new_region(0x4002, 8).is_err());
    /// ```
    #[inline]
    pub fn new_region(addr: usize, size: usize) -> Result<Self> {
        let base = crate::env::io::ptr_from_addr::<u8>(addr);
        Ok(Self {
            ptr: Region::ptr_try_from_raw_parts_mut(base, size)?,
        })
    }
}

impl<T: ?Sized + KnownSize> MmioRaw<T> {
    /// The address of the region.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::MmioRaw;
    ///
    /// assert_eq!(MmioRaw::<u8>::new(0x10).addr(), 0x10);
    /// ```
    #[inline]
    pub fn addr(&self) -> usize {
        self.ptr.cast::<u8>() as usize
    }

    /// The size of the region in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::MmioRaw;
    ///
    /// assert_eq!(MmioRaw::<u16>::new(0x10).size(), 2);
    /// ```
    #[inline]
    pub fn size(&self) -> usize {
        KnownSize::size(self.ptr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_and_raw_addresses() {
        let raw = MmioRaw::<Region<8>>::new_region(0x1000, 16).expect("a valid region");
        assert_eq!((raw.addr(), raw.size()), (0x1000, 16));
        assert_eq!(
            MmioRaw::<Region<8>>::new_region(0x1000, 4).err(),
            Some(EINVAL)
        );
        assert_eq!(
            MmioRaw::<Region<8>>::new_region(0x1001, 8).err(),
            Some(EINVAL)
        );
        assert_eq!(
            MmioRaw::<Region<8>>::new_region(0x1000, 10).err(),
            Some(EINVAL)
        );
        assert_eq!(<Region<0x20> as KnownSize>::MIN_SIZE, 0x20);
        assert_eq!(<Region as KnownSize>::MIN_ALIGN.as_usize(), 4);
    }
}
