// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Memory-mapped I/O: the views [`Mmio`] (the kernel's `readl()`, `writel()` and the other
//! widths) and [`RelaxedMmio`] (their `_relaxed` forms), and their backends.
//!
//! Which functions perform the accesses differs between the host and each kernel: the
//! [`IoCapable`](super::IoCapable) and [`IoCopyable`](super::IoCopyable) implementations of
//! [`MmioBackend`] and [`RelaxedMmioBackend`] live in the environment (`env/host/io.rs`,
//! `env/kernel/io.rs`); what is here is the same everywhere.
//!
//! Kernel counterpart: `Mmio`, `MmioBackend`, `RelaxedMmio` and `RelaxedMmioBackend` in
//! `rust/kernel/io.rs` of Linux 7.3.

use core::marker::PhantomData;

use super::{IoBackend, IoBase, MmioRaw};
use crate::ptr::KnownSize;

/// A view of a memory-mapped I/O region of type `T`, alive for `'a`.
///
/// In the kernel its accesses are `readb()`..`readq()` and `writeb()`..`writeq()`, with the
/// barriers they imply, little-endian on every architecture. On the host they are volatile,
/// little-endian accesses to the memory at the region's address (there is no device and no
/// barrier).
///
/// # Invariants
///
/// `ptr` is a valid, aligned, mapped MMIO region for `'a`.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{Io, Mmio, MmioRaw, Region};
///
/// let mut fake_device = [0_u32; 64];
/// let addr = fake_device.as_mut_ptr().expose_provenance();
/// let raw = MmioRaw::<Region<0x100>>::new_region(addr, 0x100)?;
/// // SAFETY: On the host, `fake_device` is the region: valid, aligned memory whose provenance
/// // is exposed, for as long as the view is used.
/// let mmio = unsafe { Mmio::from_raw(raw) };
/// mmio.write32(0xc0ffee, 0x8);
/// assert_eq!(mmio.read32(0x8), 0xc0ffee);
/// // Little-endian in memory, as `writel()` puts it on the bus, on every CPU.
/// assert_eq!(fake_device[2].to_ne_bytes(), [0xee, 0xff, 0xc0, 0]);
/// # Ok::<(), kernel_core::error::Error>(())
/// ```
pub struct Mmio<'a, T: ?Sized> {
    ptr: *mut T,
    phantom: PhantomData<&'a ()>,
}

impl<T: ?Sized> Clone for Mmio<'_, T> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for Mmio<'_, T> {}

// SAFETY: An `Mmio` is a shared reference to a `T` in I/O memory, so it is `Send` when
// `&T` is.
unsafe impl<T: ?Sized + Sync> Send for Mmio<'_, T> {}

// SAFETY: As for `Send`: a shared reference to a `T` in I/O memory.
unsafe impl<T: ?Sized + Sync> Sync for Mmio<'_, T> {}

impl<'a, T: ?Sized> Mmio<'a, T> {
    /// The view of the mapped region at `raw`.
    ///
    /// # Safety
    ///
    /// `raw` must be a valid, aligned, mapped MMIO region for as long as `'a` lasts (on the
    /// host: valid, aligned memory whose provenance was exposed).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{Io, Mmio, MmioRaw};
    ///
    /// let mut fake_register = 0_u16;
    /// let raw = MmioRaw::<u16>::new((&raw mut fake_register).expose_provenance());
    /// // SAFETY: On the host, `fake_register` is valid memory whose provenance is exposed.
    /// let mmio = unsafe { Mmio::from_raw(raw) };
    /// mmio.write_val(0x1234);
    /// assert_eq!(mmio.read_val(), 0x1234);
    /// ```
    #[inline]
    pub unsafe fn from_raw(raw: MmioRaw<T>) -> Self {
        // INVARIANT: The caller promises that `raw` is a valid mapped region for `'a`.
        Self {
            ptr: raw.ptr,
            phantom: PhantomData,
        }
    }

    /// The same view, accessed with the relaxed accessors (`readl_relaxed()`, ...), which do
    /// not order the access against DMA or other memory accesses.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{Io, Mmio, MmioRaw, Region};
    ///
    /// let mut fake_device = [0_u32; 4];
    /// let addr = fake_device.as_mut_ptr().expose_provenance();
    /// // SAFETY: On the host, `fake_device` is valid memory whose provenance is exposed.
    /// let mmio = unsafe { Mmio::from_raw(MmioRaw::<Region<16>>::new_region(addr, 16)?) };
    /// mmio.relaxed().write32(3, 0xc);
    /// assert_eq!(mmio.relaxed().read32(0xc), 3);
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline]
    pub fn relaxed(self) -> RelaxedMmio<'a, T> {
        RelaxedMmio(self)
    }
}

impl<'a, T: ?Sized + KnownSize> IoBase<'a> for Mmio<'a, T> {
    type Backend = MmioBackend;
    type Target = T;

    #[inline]
    fn as_view(self) -> Mmio<'a, T> {
        self
    }
}

/// The [`IoBackend`] of [`Mmio`].
///
/// # Examples
///
/// ```
/// use kernel_core::io::{IoBackend, Mmio, MmioBackend, MmioRaw};
///
/// // SAFETY: Nothing is accessed through the view.
/// let view = unsafe { Mmio::from_raw(MmioRaw::<u32>::new(0x1000)) };
/// assert_eq!(MmioBackend::as_ptr(view) as *mut u8 as usize, 0x1000);
/// ```
pub struct MmioBackend;

impl IoBackend for MmioBackend {
    type View<'a, T: ?Sized + KnownSize> = Mmio<'a, T>;

    #[inline]
    fn as_ptr<'a, T: ?Sized + KnownSize>(view: Self::View<'a, T>) -> *mut T {
        view.ptr
    }

    #[inline]
    unsafe fn project_view<'a, T: ?Sized + KnownSize, U: ?Sized + KnownSize>(
        _view: Self::View<'a, T>,
        ptr: *mut U,
    ) -> Self::View<'a, U> {
        // INVARIANT: The caller promises that `ptr` lies inside `view`'s region, so it is a
        // valid mapped region too.
        Mmio {
            ptr,
            phantom: PhantomData,
        }
    }
}

/// A view of a memory-mapped I/O region accessed with the relaxed accessors; made by
/// [`Mmio::relaxed`].
///
/// # Examples
///
/// ```
/// use kernel_core::io::{Io, Mmio, MmioRaw, RelaxedMmio};
///
/// let mut fake_register = 0_u32;
/// let raw = MmioRaw::<u32>::new((&raw mut fake_register).expose_provenance());
/// // SAFETY: On the host, `fake_register` is valid memory whose provenance is exposed.
/// let relaxed: RelaxedMmio<'_, u32> = unsafe { Mmio::from_raw(raw) }.relaxed();
/// relaxed.write_val(8);
/// assert_eq!(relaxed.read_val(), 8);
/// ```
pub struct RelaxedMmio<'a, T: ?Sized>(Mmio<'a, T>);

impl<T: ?Sized> Clone for RelaxedMmio<'_, T> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for RelaxedMmio<'_, T> {}

impl<'a, T: ?Sized + KnownSize> IoBase<'a> for RelaxedMmio<'a, T> {
    type Backend = RelaxedMmioBackend;
    type Target = T;

    #[inline]
    fn as_view(self) -> RelaxedMmio<'a, T> {
        self
    }
}

/// The [`IoBackend`] of [`RelaxedMmio`].
///
/// # Examples
///
/// ```
/// use kernel_core::io::{IoBackend, Mmio, MmioRaw, RelaxedMmioBackend};
///
/// // SAFETY: Nothing is accessed through the view.
/// let view = unsafe { Mmio::from_raw(MmioRaw::<u32>::new(0x2000)) }.relaxed();
/// assert_eq!(RelaxedMmioBackend::as_ptr(view) as *mut u8 as usize, 0x2000);
/// ```
pub struct RelaxedMmioBackend;

impl IoBackend for RelaxedMmioBackend {
    type View<'a, T: ?Sized + KnownSize> = RelaxedMmio<'a, T>;

    #[inline]
    fn as_ptr<'a, T: ?Sized + KnownSize>(view: Self::View<'a, T>) -> *mut T {
        MmioBackend::as_ptr(view.0)
    }

    #[inline]
    unsafe fn project_view<'a, T: ?Sized + KnownSize, U: ?Sized + KnownSize>(
        view: Self::View<'a, T>,
        ptr: *mut U,
    ) -> Self::View<'a, U> {
        // SAFETY: The caller promises that `ptr` is a projection of `view`, hence of `view.0`.
        RelaxedMmio(unsafe { MmioBackend::project_view(view.0, ptr) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::code::EINVAL;
    use crate::io::{Io, IoSysMap, Region, SysMem};

    /// The host's `Mmio` over `words`, whose provenance is exposed.
    fn mmio(words: &mut [u64]) -> Mmio<'_, Region<0x40>> {
        let addr = words.as_mut_ptr().expose_provenance();
        let raw = MmioRaw::<Region<0x40>>::new_region(addr, size_of_val(words));
        // SAFETY: `words` is valid, aligned memory whose provenance was just exposed, borrowed
        // for as long as the view lives.
        unsafe { Mmio::from_raw(raw.expect("the words are a valid region")) }
    }

    /// The bytes of `words`, as the memory holds them.
    fn bytes(words: &[u64]) -> impl Iterator<Item = u8> + '_ {
        words.iter().flat_map(|word| word.to_ne_bytes())
    }

    #[test]
    fn mmio_on_the_host_is_memory() {
        let mut words = [0_u64; 8];
        let io = mmio(&mut words);
        io.write8(0xaa, 0x3f);
        io.write16(0xbbcc, 0x3c);
        io.write32(0x1122_3344, 0);
        #[cfg(target_pointer_width = "64")]
        assert_eq!(io.try_write64(0x5566_7788_99aa_bbcc, 8), Ok(()));
        #[cfg(not(target_pointer_width = "64"))]
        {
            // No 64-bit accesses on 32-bit targets: two 32-bit ones, low half first.
            io.write32(0x99aa_bbcc, 8);
            io.write32(0x5566_7788, 12);
        }
        assert_eq!(io.read32(0x3c), 0xaa00_bbcc);
        assert_eq!(io.relaxed().read32(0), 0x1122_3344);
        io.relaxed().write32(7, 0x10);
        #[cfg(target_pointer_width = "64")]
        assert_eq!(io.relaxed().try_read64(8), Ok(0x5566_7788_99aa_bbcc));
        assert_eq!(io.try_read8(0x40), Err(EINVAL));
        assert_eq!(io.relaxed().try_read16(0x3f), Err(EINVAL));
        let map = IoSysMap::from(io);
        assert_eq!(map.read32(0x10), 7);
        assert_eq!(map.size(), 0x40);
        // Little-endian in memory, as `writel()` puts it on the bus, whatever the host's byte
        // order: what a device (or a test looking at the memory) sees.
        let memory: [u8; 0x40] = core::array::from_fn({
            let mut bytes = bytes(&words);
            move |_| bytes.next().unwrap_or_default()
        });
        assert_eq!(memory[..4], [0x44, 0x33, 0x22, 0x11]);
        assert_eq!(
            memory[8..16],
            [0xcc, 0xbb, 0xaa, 0x99, 0x88, 0x77, 0x66, 0x55]
        );
        assert_eq!(memory[0x10..0x14], [7, 0, 0, 0]);
        assert_eq!(memory[0x3c..], [0xcc, 0xbb, 0, 0xaa]);
    }

    #[test]
    fn mmio_is_little_endian_and_sys_mem_native_endian() {
        let mut mmio_words = [0_u64; 8];
        let mut sys_words = [0_u64; 8];
        let io = mmio(&mut mmio_words);
        io.write32(0x0102_0304, 0);
        io.write16(0x0506, 4);
        // SAFETY: `sys_words` is valid, aligned memory, borrowed for as long as the view lives.
        let sys = unsafe {
            SysMem::new(Region::<0x40>::ptr_from_raw_parts_mut(
                sys_words.as_mut_ptr().cast(),
                0x40,
            ))
        };
        sys.write32(0x0102_0304, 0);
        sys.write16(0x0506, 4);
        assert_eq!(io.read32(0), 0x0102_0304);
        assert_eq!(sys.read32(0), 0x0102_0304);
        let mmio_bytes: [u8; 6] = core::array::from_fn(|i| mmio_words[0].to_ne_bytes()[i]);
        let sys_bytes: [u8; 6] = core::array::from_fn(|i| sys_words[0].to_ne_bytes()[i]);
        assert_eq!(mmio_bytes, [4, 3, 2, 1, 6, 5]);
        if cfg!(target_endian = "big") {
            assert_eq!(sys_bytes, [1, 2, 3, 4, 5, 6]);
        } else {
            assert_eq!(sys_bytes, [4, 3, 2, 1, 6, 5]);
        }
    }
}
