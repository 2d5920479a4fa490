// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Input and output: the I/O traits ([`Io`] and the traits it builds on), the regions they
//! access ([`SysMem`], [`Mmio`], [`RelaxedMmio`], [`IoSysMap`]), typed registers
//! ([`register!`](crate::io::register!)) and [`poll`]ing.
//!
//! Kernel counterpart: `rust/kernel/io.rs` and `rust/kernel/io/register.rs` of Linux 7.3 (C:
//! `include/asm-generic/io.h`), with the same names, paths and semantics.
//!
//! # How the pieces fit
//!
//! - A *view* is a cheap copyable handle on a region of a given type: [`SysMem<'a, T>`] over
//!   ordinary memory, [`Mmio<'a, T>`] over memory-mapped device memory. Its [`IoBase`]
//!   implementation names its [`IoBackend`], which says how to project a view onto a part of
//!   it, and [`IoCapable<u32>`] (and so on) says which widths the backend can access.
//! - [`Io`], implemented for every [`IoBase`], has the accessors: `read32`/`write32` (and the
//!   other widths) at a byte offset, the generic [`read`](Io::read), [`write`](Io::write),
//!   [`update`](Io::update) and [`write_reg`](Io::write_reg), which take an [`IoLoc`]: a plain
//!   `usize` offset or a register's location from [`register!`](crate::io::register!). Each has
//!   a `try_` twin.
//! - The infallible accessors check the access at build time against the region's known
//!   minimum size ([`Region<SIZE>`](Region)): an offset past `SIZE` fails the build (see
//!   [`build_assert!`](crate::build_assert::build_assert)), and a type aligned more strictly
//!   than the region (a `u64` in a [`Region`], whose alignment is 4) fails the build at once.
//!   The `try_` accessors check at run time against the actual size and alignment, and return
//!   `EINVAL`.
//!
//! # On the host
//!
//! Register code is tested with `cargo` through [`SysMem`], which is Linux 7.3's own [`Io`]
//! over system memory: a test backs a [`Region`] with an array, runs the driver's register
//! code on it and looks at the array. [`extras::io::sys_mem`](crate::extras::io::sys_mem)
//! makes such a view from a `&mut` array without `unsafe`.
//!
//! [`Mmio`] exists on the host too, for code that names it: there its accesses are volatile
//! accesses to memory, with no barriers (there is no device), and little-endian, as the
//! kernel's `readl()` and `writel()` are on every architecture (a `u32` written through `Mmio`
//! on an s390x host lands in memory as its little-endian bytes). An [`MmioRaw`] address on the
//! host is the address of memory the test owns, whose provenance it exposed
//! ([`pointer::expose_provenance`](https://doc.rust-lang.org/core/primitive.pointer.html#method.expose_provenance)).
//! [`SysMem`] is ordinary memory, in the CPU's byte order, on the host as in the kernel.
//!
//! # In the kernel
//!
//! [`SysMem`] works on every kernel. [`Mmio`] and [`RelaxedMmio`] call the kernel's
//! `readl`/`writel` (and the other widths, and the `_relaxed` ones): through the kernel's Rust
//! helpers on Linux 7.2 and 7.3, and on Linux 6.12, where they are `static inline` C with no
//! Rust helper, through kernel-core's own C helpers, one-line wrappers that `kernel-core.mk`
//! compiles into the module with the kernel's headers (so the code that runs is the
//! architecture's own). On Linux 7.3, the kernel's own `kernel::io::Mmio`, `SysMem` and `Region`
//! (from `pci::Bar`, `platform::IoMem`, ...) convert into kernel-core's with `.into()`, so a
//! register declared with kernel-core's `register!` is read through the kernel's mappings.
//!
//! # Byte copies, casts and projections
//!
//! [`Io::copy_read`], [`Io::copy_write`], [`Io::copy_from_slice`] and [`Io::copy_to_slice`]
//! copy bytes between a view and memory ([`IoCopyable`]: `memcpy_fromio()`/`memcpy_toio()` for
//! `Mmio`), [`Io::try_cast`] views a region as a plain-bytes type, and [`io_project!`],
//! [`io_read!`] and [`io_write!`] narrow a view to a field or an element with the projections
//! of [`ptr::project!`](crate::ptr::project). The types moved as bytes implement
//! [`FromBytes`]/[`IntoBytes`](crate::extras::bytes): the kernel's own `zerocopy` traits on 7.2
//! and 7.3, kernel-core's on the host and 6.12. Bad input is an error, never an access outside
//! the region: a cast to a larger or misaligned type is `EINVAL`, an index past an array is
//! `ERANGE` (`[try: i]`), a panic (`[panic: i]`) or a build failure (`[build: i]`).
//!
//! Not provided (they wrap kernel resources, see the
//! [migration guide](crate::guide::migrating)): `PhysAddr`, `ResourceSize`, `io::mem` and
//! `io::resource`.
//!
//! # Examples
//!
//! ```
//! use kernel_core::extras::io::sys_mem;
//! use kernel_core::io::{register, Io, Region};
//! use kernel_core::prelude::*;
//!
//! register! {
//!     /// Interrupt control.
//!     pub IRQ_CTL(u32) @ 0x10 {
//!         /// Enable the interrupt.
//!         0:0 enable => bool;
//!         /// Line the interrupt is routed to.
//!         7:4 line;
//!     }
//! }
//!
//! let mut backing = [0_u32; 64];
//! let io = sys_mem::<0x100, _>(&mut backing)?;
//! io.write32(0x1234_5678, 0x20);
//! assert_eq!(io.read32(0x20), 0x1234_5678);
//!
//! io.write_reg(IRQ_CTL::zeroed().with_enable(true).with_const_line::<3>());
//! io.update(IRQ_CTL, |r| r.with_const_line::<9>());
//! assert_eq!(io.read(IRQ_CTL).line(), 9);
//! assert!(io.try_read32(0x100).is_err());
//! assert_eq!(backing[4], 0x91); // offset 0x10
//! # Ok::<(), kernel_core::error::Error>(())
//! ```

use core::marker::PhantomData;
use core::mem::MaybeUninit;

use crate::build_assert::{build_assert, const_assert};
use crate::error::{code::EINVAL, Result};
use crate::extras::bytes::{FromBytes, IntoBytes};
use crate::ptr::{Alignment, KnownSize};

pub mod poll;
pub mod register;

#[doc(inline)]
pub use crate::register;

use register::LocatedRegister;

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

/// Whether a `U` at `offset` lies inside a region of `size` bytes and, placed at
/// `base + offset`, is aligned for `U` (`base` 0 checks the offset's alignment only).
#[inline]
const fn offset_valid<U>(base: usize, offset: usize, size: usize) -> bool {
    match offset.checked_add(size_of::<U>()) {
        Some(end) if end <= size => base.wrapping_add(offset) % align_of::<U>() == 0,
        _ => false,
    }
}

/// The view of the `U` at `offset` in `io`, checked at build time against the minimum size of
/// `io`'s target type; a `U` aligned more strictly than the target fails the build at once.
// Always inlined, so that the optimizer sees the offset and proves the assertion.
#[inline(always)]
fn view_checked_at_build<'a, IO: Io<'a>, U>(
    io: IO,
    offset: usize,
) -> <IO::Backend as IoBackend>::View<'a, U> {
    // The region's address is not known at build time: its type's alignment stands for it.
    const_assert!(
        Alignment::of::<U>().as_usize() <= IO::Target::MIN_ALIGN.as_usize(),
        "io: the access is aligned more strictly than the region's type guarantees (a `Region` \
         is 4-byte aligned, so a `u64` there is checked at run time only: use `try_read64`, \
         `try_read` and the other `try_` accessors)"
    );
    build_assert!(offset_valid::<U>(0, offset, IO::Target::MIN_SIZE));

    let whole = io.as_view();
    let part = IO::Backend::as_ptr(whole)
        .cast::<U>()
        .wrapping_byte_add(offset);
    // SAFETY: `offset .. offset + size_of::<U>()` lies inside the region (which is at least
    // `MIN_SIZE` bytes) and is aligned for `U`, so `part` is a projection of `whole`.
    unsafe { IO::Backend::project_view(whole, part) }
}

/// The view of the `U` at `offset` in `io`, or `EINVAL` if it does not lie inside `io`'s
/// actual size or is misaligned.
#[inline]
fn view_checked_at_run<'a, IO: Io<'a>, U>(
    io: IO,
    offset: usize,
) -> Result<<IO::Backend as IoBackend>::View<'a, U>> {
    let whole = io.as_view();
    let ptr = IO::Backend::as_ptr(whole);
    let base = ptr.cast::<u8>() as usize;
    if !offset_valid::<U>(base, offset, KnownSize::size(ptr)) {
        return Err(EINVAL);
    }
    let part = ptr.cast::<U>().wrapping_byte_add(offset);
    // SAFETY: Just checked: the `U` at `offset` lies inside the region and is aligned.
    Ok(unsafe { IO::Backend::project_view(whole, part) })
}

/// A kind of I/O (memory-mapped, system memory, a bus's configuration space, ...): its views
/// and how to narrow a view to a part of it.
///
/// Which widths a backend can read and write is said by [`IoCapable`]; this trait is apart from
/// [`Io`] so that several view types can share one backend.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{IoBackend, SysMem, SysMemBackend};
///
/// let mut word = 7_u32;
/// // SAFETY: `word` is valid, aligned memory for as long as the view is used.
/// let view: SysMem<'_, u32> = unsafe { SysMem::new(&mut word) };
/// assert_eq!(SysMemBackend::as_ptr(view), view.as_ptr());
/// ```
pub trait IoBackend {
    /// The view of a `T` in this kind of I/O.
    type View<'a, T: ?Sized + KnownSize>: IoBase<'a, Backend = Self, Target = T>;

    /// The pointer behind `view`, for computing projections. It is the backend's business and
    /// need not be dereferenceable: never dereference it.
    fn as_ptr<'a, T: ?Sized + KnownSize>(view: Self::View<'a, T>) -> *mut T;

    /// The view of the part of `view` at `ptr`. The result is valid if `view` is.
    ///
    /// # Safety
    ///
    /// `ptr` must be a projection of `Self::as_ptr(view)`: inside it, and aligned.
    unsafe fn project_view<'a, T: ?Sized + KnownSize, U: ?Sized + KnownSize>(
        view: Self::View<'a, T>,
        ptr: *mut U,
    ) -> Self::View<'a, U>;
}

/// An [`IoBackend`] that can read and write values of type `T` (`u8`, `u16`, `u32`, `u64`).
///
/// A backend implements it for the widths it supports: MMIO and system memory for all four on
/// 64-bit targets and all but `u64` on 32-bit ones (as in Linux 7.3, whose 32-bit kernels have
/// no `readq()`), a PCI configuration space for all but `u64`.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{IoCapable, SysMem, SysMemBackend};
///
/// let mut word = 0_u16;
/// // SAFETY: `word` is valid, aligned memory for as long as the view is used.
/// let view = unsafe { SysMem::new(&mut word) };
/// SysMemBackend::io_write(view, 0xbeef_u16);
/// assert_eq!(SysMemBackend::io_read(view), 0xbeef);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot access a `{T}` here",
    note = "64-bit accesses (`u64`) exist on 64-bit targets only, as in Linux 7.3 (`CONFIG_64BIT`)"
)]
pub trait IoCapable<T>: IoBackend {
    /// Reads the `T` that `view` covers.
    fn io_read<'a>(view: Self::View<'a, T>) -> T;

    /// Writes `value` to the `T` that `view` covers.
    fn io_write<'a>(view: Self::View<'a, T>, value: T);
}

/// An [`IoBackend`] that can copy bytes between its views and memory, as `memcpy_fromio()` and
/// `memcpy_toio()` do: byte for byte, in no particular width and with no byte swapping.
///
/// Implemented by [`SysMemBackend`] (a plain copy), [`MmioBackend`] (the kernel's
/// `memcpy_fromio()`/`memcpy_toio()` on Linux 7.3, byte accesses on 6.12 and 7.2; volatile
/// byte accesses on the host) and [`IoSysMapBackend`] where
/// both of its backends are. [`Io::copy_read`], [`Io::copy_write`], [`Io::copy_from_slice`] and
/// [`Io::copy_to_slice`] are the safe ways to use it.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{IoCopyable, SysMem, SysMemBackend};
///
/// let mut bytes = [1_u8, 2, 3, 4];
/// // SAFETY: `bytes` is valid memory for as long as the view is used.
/// let view = unsafe { SysMem::new(&mut bytes[..]) };
/// let mut buffer = [0_u8; 4];
/// // SAFETY: `buffer` is valid for 4 bytes of writes, as many as the view has, and is not
/// // inside it.
/// unsafe { SysMemBackend::copy_from_io(view, buffer.as_mut_ptr()) };
/// assert_eq!(buffer, [1, 2, 3, 4]);
/// ```
pub trait IoCopyable: IoBackend {
    /// Copies the bytes of `view` into `buffer`.
    ///
    /// # Safety
    ///
    /// `buffer` must be valid for writes of as many bytes as `view` has, and must not overlap
    /// with `view`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{IoCopyable, SysMem, SysMemBackend};
    ///
    /// let mut status = [0x5a_u8, 0xa5];
    /// // SAFETY: `status` is valid memory for as long as the view is used.
    /// let view = unsafe { SysMem::new(&mut status[..]) };
    /// let mut copy = [0_u8; 2];
    /// // SAFETY: `copy` is valid for 2 bytes of writes and apart from `status`.
    /// unsafe { SysMemBackend::copy_from_io(view, copy.as_mut_ptr()) };
    /// assert_eq!(copy, [0x5a, 0xa5]);
    /// ```
    unsafe fn copy_from_io(view: Self::View<'_, [u8]>, buffer: *mut u8);

    /// Copies bytes from `buffer` into `view`.
    ///
    /// # Safety
    ///
    /// `buffer` must be valid for reads of as many bytes as `view` has, and must not overlap
    /// with `view`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{IoCopyable, SysMem, SysMemBackend};
    ///
    /// let mut command = [0_u8; 3];
    /// // SAFETY: `command` is valid memory for as long as the view is used.
    /// let view = unsafe { SysMem::new(&mut command[..]) };
    /// let bytes = [1_u8, 2, 3];
    /// // SAFETY: `bytes` is valid for 3 bytes of reads and apart from `command`.
    /// unsafe { SysMemBackend::copy_to_io(view, bytes.as_ptr()) };
    /// assert_eq!(command, [1, 2, 3]);
    /// ```
    unsafe fn copy_to_io(view: Self::View<'_, [u8]>, buffer: *const u8);

    /// Reads the `T` that `view` covers, as a copy of its bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{IoCopyable, SysMem, SysMemBackend};
    ///
    /// let mut mac = [0x02_u8, 0, 0, 0xab, 0xcd, 0xef];
    /// // SAFETY: `mac` is valid memory for as long as the view is used.
    /// let view = unsafe { SysMem::new(&raw mut mac) };
    /// assert_eq!(SysMemBackend::copy_read(view), [0x02, 0, 0, 0xab, 0xcd, 0xef]);
    /// ```
    #[inline]
    fn copy_read<T: FromBytes>(view: Self::View<'_, T>) -> T {
        let bytes =
            core::ptr::slice_from_raw_parts_mut(Self::as_ptr(view).cast::<u8>(), size_of::<T>());
        // SAFETY: The bytes of the `T` that `view` covers are `view` itself.
        let bytes = unsafe { Self::project_view(view, bytes) };
        let mut value = MaybeUninit::<T>::uninit();
        // SAFETY: `value` is valid for `size_of::<T>()` bytes of writes, as many as `bytes` has,
        // and, being local, is not inside it.
        unsafe { Self::copy_from_io(bytes, value.as_mut_ptr().cast()) };
        // SAFETY: Every byte of `value` was written, and any bytes are a `T` (`T: FromBytes`).
        unsafe { value.assume_init() }
    }

    /// Writes `value` into the `T` that `view` covers, as a copy of its bytes. `value` is not
    /// dropped (`FromBytes`/`IntoBytes` types have nothing to drop that its bytes do not say).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{IoCopyable, SysMem, SysMemBackend};
    ///
    /// let mut words = [0_u32; 2];
    /// // SAFETY: `words` is valid memory for as long as the view is used.
    /// let view = unsafe { SysMem::new(&raw mut words) };
    /// SysMemBackend::copy_write(view, [7_u32, 9]);
    /// assert_eq!(words, [7, 9]);
    /// ```
    #[inline]
    fn copy_write<T: IntoBytes>(view: Self::View<'_, T>, value: T) {
        let bytes =
            core::ptr::slice_from_raw_parts_mut(Self::as_ptr(view).cast::<u8>(), size_of::<T>());
        // SAFETY: The bytes of the `T` that `view` covers are `view` itself.
        let bytes = unsafe { Self::project_view(view, bytes) };
        let value = core::mem::ManuallyDrop::new(value);
        // SAFETY: `value` is valid for `size_of::<T>()` bytes of reads, all initialized
        // (`T: IntoBytes`), and, being local, is not inside `bytes`.
        unsafe { Self::copy_to_io(bytes, (&raw const value).cast()) };
    }
}

/// A location in an I/O region of type `Base`, at which a `T` is read or written: an offset,
/// and the primitive type [`IoType`](IoLoc::IoType) that the access reads or writes, which
/// converts from and into `T`.
///
/// A plain `usize` is the location of a primitive (`io.read::<u32, _>(0x10)`); the locations
/// that [`register!`](crate::io::register!) defines carry the register's type, so that
/// [`Io::read`] returns it.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{IoLoc, Region};
///
/// assert_eq!(IoLoc::<Region<0x10>, u32>::offset(0x8_usize), 0x8);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not locate a `{T}` in a `{Base}`",
    note = "locations are `usize` offsets (of `u8`, `u16`, `u32` or `u64`) and the registers and locations that `register!` defines"
)]
pub trait IoLoc<Base: ?Sized, T> {
    /// The primitive that the access reads or writes at [`offset`](IoLoc::offset).
    type IoType: Into<T> + From<T>;

    /// The offset of the location in bytes.
    fn offset(self) -> usize;
}

/// `usize` offsets locate primitives in a [`Region`].
macro_rules! usize_locates {
    ($($ty:ty)*) => {$(
        impl<const SIZE: usize> IoLoc<Region<SIZE>, $ty> for usize {
            type IoType = $ty;

            #[inline(always)]
            fn offset(self) -> usize {
                self
            }
        }
    )*};
}

usize_locates!(u8 u16 u32 u64);

/// A cheap copyable handle on an I/O region (a view, or a reference to one): its
/// [`IoBackend`], the type of the region, and its view of the whole region.
///
/// The accessors are in [`Io`], which every `IoBase` implements.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{Io, IoBase, SysMem};
///
/// let mut bytes = [1_u8, 2, 3];
/// // SAFETY: `bytes` is valid memory for as long as the view is used.
/// let view: SysMem<'_, [u8]> = unsafe { SysMem::new(&mut bytes[..]) };
/// assert_eq!(view.as_view().size(), 3);
/// ```
pub trait IoBase<'a>: Copy {
    /// The backend that performs the accesses.
    type Backend: IoBackend;

    /// The type of the region: [`Region`] for an untyped one.
    type Target: ?Sized + KnownSize;

    /// The view of the whole region.
    fn as_view(self) -> <Self::Backend as IoBackend>::View<'a, Self::Target>;
}

/// The accessors of every [`IoBase`]: sizes, reads, writes and read-modify-writes, checked at
/// build time (`read`, `write32`, ...) or at run time (`try_read`, `try_write32`, ...).
///
/// Which widths are available follows from the backend's [`IoCapable`] implementations. It is
/// implemented for every [`IoBase`] and for nothing else, so its methods are always these.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::io::sys_mem;
/// use kernel_core::io::Io;
///
/// let mut backing = [0_u64; 2];
/// let io = sys_mem::<16, _>(&mut backing)?;
/// io.write8(0xab, 1);
/// io.write16(0x1234, 2);
/// assert_eq!(io.read16(2), 0x1234);
/// assert_eq!(io.try_read8(1)?, 0xab);
/// # #[cfg(target_pointer_width = "64")] { // 64-bit accesses on 64-bit targets only
/// io.try_write64(u64::MAX, 8)?;
/// assert_eq!(io.try_read64(8)?, u64::MAX);
/// assert!(io.try_read64(12).is_err()); // past the end and misaligned
/// # }
/// # Ok::<(), kernel_core::error::Error>(())
/// ```
pub trait Io<'a>: IoBase<'a> {
    /// The size of the region in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u32; 8];
    /// assert_eq!(sys_mem::<16, _>(&mut backing)?.size(), 32);
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline]
    fn size(self) -> usize {
        KnownSize::size(Self::Backend::as_ptr(self.as_view()))
    }

    /// The number of elements of a region that is a slice.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{Io, SysMem};
    ///
    /// let mut words = [0_u16; 5];
    /// // SAFETY: `words` is valid memory for as long as the view is used.
    /// let io = unsafe { SysMem::new(&mut words[..]) };
    /// assert_eq!((io.len(), io.size()), (5, 10));
    /// ```
    #[inline]
    fn len<T>(self) -> usize
    where
        Self: Io<'a, Target = [T]>,
    {
        Self::Backend::as_ptr(self.as_view()).len()
    }

    /// Whether a region that is a slice has no elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{Io, SysMem};
    ///
    /// let mut words: [u32; 0] = [];
    /// // SAFETY: An empty slice is valid for as long as the view is used.
    /// assert!(unsafe { SysMem::new(&mut words[..]) }.is_empty());
    /// ```
    #[inline]
    fn is_empty<T>(self) -> bool
    where
        Self: Io<'a, Target = [T]>,
    {
        self.len() == 0
    }

    /// Reads the primitive that the view covers.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{Io, SysMem};
    ///
    /// let mut word = 0x55_u32;
    /// // SAFETY: `word` is valid memory for as long as the view is used.
    /// assert_eq!(unsafe { SysMem::new(&mut word) }.read_val(), 0x55);
    /// ```
    #[inline]
    fn read_val(self) -> Self::Target
    where
        Self::Backend: IoCapable<Self::Target>,
        Self::Target: Sized,
    {
        Self::Backend::io_read(self.as_view())
    }

    /// Writes the primitive that the view covers.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{Io, SysMem};
    ///
    /// let mut word = 0_u8;
    /// // SAFETY: `word` is valid memory for as long as the view is used.
    /// unsafe { SysMem::new(&mut word) }.write_val(9);
    /// assert_eq!(word, 9);
    /// ```
    #[inline]
    fn write_val(self, value: Self::Target)
    where
        Self::Backend: IoCapable<Self::Target>,
        Self::Target: Sized,
    {
        Self::Backend::io_write(self.as_view(), value)
    }

    /// The view of the same region as a `U`, or `EINVAL` if `U` is larger than the region or the
    /// region's actual address is not aligned for `U`.
    ///
    /// Both types must be plain bytes ([`FromBytes`] and [`IntoBytes`]): a [`Region`], an
    /// integer, an array of them, or (on the host and Linux 6.12) a type that implements
    /// kernel-core's own traits, (on 7.2 and 7.3) the kernel's.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::error::code::EINVAL;
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::{Io, SysMem};
    ///
    /// let mut backing = [0x0403_0201_u32, 0x0807_0605];
    /// let io = sys_mem::<8, u32>(&mut backing)?;
    /// let words: SysMem<'_, [u32; 2]> = io.try_cast()?;
    /// assert_eq!(words.copy_read(), [0x0403_0201, 0x0807_0605]);
    /// let word: SysMem<'_, u32> = io.try_cast()?;
    /// assert_eq!(word.read_val(), 0x0403_0201);
    /// // Larger than the region.
    /// assert_eq!(io.try_cast::<[u32; 3]>().err(), Some(EINVAL));
    /// // Not aligned: the `u32` at offset 2 is projected first.
    /// let half: SysMem<'_, [u16; 2]> = io.try_cast()?;
    /// let misaligned = kernel_core::io::io_project!(half, [build: 1..2]);
    /// assert_eq!(misaligned.try_cast::<u32>().err(), Some(EINVAL));
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline]
    fn try_cast<U>(self) -> Result<<Self::Backend as IoBackend>::View<'a, U>>
    where
        Self::Target: FromBytes + IntoBytes,
        U: FromBytes + IntoBytes,
    {
        let view = self.as_view();
        let ptr = Self::Backend::as_ptr(view);
        if size_of::<U>() > KnownSize::size(ptr) {
            return Err(EINVAL);
        }
        if ptr.cast::<u8>().addr() % align_of::<U>() != 0 {
            return Err(EINVAL);
        }
        // SAFETY: Just checked: a `U` at the start of the region lies inside it and is aligned.
        Ok(unsafe { Self::Backend::project_view(view, ptr.cast::<U>()) })
    }

    /// Reads the value the view covers as a copy of its bytes, which the backend may read in
    /// any width and order, with no atomicity. No byte is swapped, so on `Mmio` this may differ
    /// from [`read_val`](Io::read_val), which reads a little-endian number.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{Io, SysMem};
    ///
    /// let mut serial = *b"KC-0042";
    /// // SAFETY: `serial` is valid memory for as long as the view is used.
    /// let io = unsafe { SysMem::new(&raw mut serial) };
    /// assert_eq!(&io.copy_read(), b"KC-0042");
    /// ```
    #[inline]
    fn copy_read(self) -> Self::Target
    where
        Self::Backend: IoCopyable,
        Self::Target: Sized + FromBytes,
    {
        Self::Backend::copy_read(self.as_view())
    }

    /// Writes `value` into the view as a copy of its bytes, which the backend may write in any
    /// width and order, with no atomicity. No byte is swapped, so on `Mmio` this may differ
    /// from [`write_val`](Io::write_val), which writes a little-endian number.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{Io, SysMem};
    ///
    /// let mut mac = [0_u8; 6];
    /// // SAFETY: `mac` is valid memory for as long as the view is used.
    /// unsafe { SysMem::new(&raw mut mac) }.copy_write([0x02, 0, 0, 0xab, 0xcd, 0xef]);
    /// assert_eq!(mac, [0x02, 0, 0, 0xab, 0xcd, 0xef]);
    /// ```
    #[inline]
    fn copy_write(self, value: Self::Target)
    where
        Self::Backend: IoCopyable,
        Self::Target: Sized + IntoBytes,
    {
        Self::Backend::copy_write(self.as_view(), value)
    }

    /// Copies `data` into the view, a slice of bytes of the same length.
    ///
    /// # Panics
    ///
    /// If `data` is not as long as the view, as [`<[u8]>::copy_from_slice`] does.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{Io, SysMem};
    ///
    /// let mut fifo = [0_u8; 4];
    /// // SAFETY: `fifo` is valid memory for as long as the view is used.
    /// let io = unsafe { SysMem::new(&mut fifo[..]) };
    /// io.copy_from_slice(b"ping");
    /// assert_eq!(&fifo, b"ping");
    /// ```
    ///
    /// ```should_panic
    /// use kernel_core::io::{Io, SysMem};
    ///
    /// let mut fifo = [0_u8; 4];
    /// // SAFETY: `fifo` is valid memory for as long as the view is used.
    /// let io = unsafe { SysMem::new(&mut fifo[..]) };
    /// io.copy_from_slice(b"pong!"); // 5 bytes into 4: panics
    /// ```
    #[inline]
    fn copy_from_slice(self, data: &[u8])
    where
        Self::Backend: IoCopyable,
        Self: Io<'a, Target = [u8]>,
    {
        assert_eq!(
            self.len(),
            data.len(),
            "io: copy_from_slice of a slice whose length differs from the view's"
        );
        // SAFETY: `data` is valid for reads of `data.len()` bytes, as many as the view has, and
        // a shared slice cannot be inside the view, which may be written.
        unsafe { Self::Backend::copy_to_io(self.as_view(), data.as_ptr()) };
    }

    /// Copies the view, a slice of bytes, into `data`, of the same length.
    ///
    /// # Panics
    ///
    /// If `data` is not as long as the view, as [`<[u8]>::copy_from_slice`] does.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{Io, SysMem};
    ///
    /// let mut fifo = *b"pong";
    /// // SAFETY: `fifo` is valid memory for as long as the view is used.
    /// let io = unsafe { SysMem::new(&mut fifo[..]) };
    /// let mut received = [0_u8; 4];
    /// io.copy_to_slice(&mut received);
    /// assert_eq!(&received, b"pong");
    /// ```
    #[inline]
    fn copy_to_slice(self, data: &mut [u8])
    where
        Self::Backend: IoCopyable,
        Self: Io<'a, Target = [u8]>,
    {
        assert_eq!(
            self.len(),
            data.len(),
            "io: copy_to_slice into a slice whose length differs from the view's"
        );
        // SAFETY: `data` is valid for writes of `data.len()` bytes, as many as the view has,
        // and an exclusive slice is not inside the view.
        unsafe { Self::Backend::copy_from_io(self.as_view(), data.as_mut_ptr()) };
    }

    /// Reads the `u8` at `offset`, or `EINVAL` if it lies outside the region.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [u32::from_ne_bytes([1, 2, 3, 4])];
    /// let io = sys_mem::<4, _>(&mut backing)?;
    /// assert_eq!(io.try_read8(3)?, 4);
    /// assert!(io.try_read8(4).is_err());
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn try_read8(self, offset: usize) -> Result<u8>
    where
        usize: IoLoc<Self::Target, u8, IoType = u8>,
        Self::Backend: IoCapable<u8>,
    {
        self.try_read(offset)
    }

    /// Reads the `u16` at `offset`, or `EINVAL` if it lies outside the region or is
    /// misaligned.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [u32::from_ne_bytes([1, 2, 3, 4])];
    /// let io = sys_mem::<4, _>(&mut backing)?;
    /// assert_eq!(io.try_read16(2)?, u16::from_ne_bytes([3, 4])); // 0x0403 on little-endian CPUs
    /// assert!(io.try_read16(1).is_err());
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn try_read16(self, offset: usize) -> Result<u16>
    where
        usize: IoLoc<Self::Target, u16, IoType = u16>,
        Self::Backend: IoCapable<u16>,
    {
        self.try_read(offset)
    }

    /// Reads the `u32` at `offset`, or `EINVAL` if it lies outside the region or is
    /// misaligned.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [1_u32, 2];
    /// let io = sys_mem::<0, _>(&mut backing)?;
    /// assert_eq!(io.try_read32(4)?, 2);
    /// assert!(io.try_read32(8).is_err());
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn try_read32(self, offset: usize) -> Result<u32>
    where
        usize: IoLoc<Self::Target, u32, IoType = u32>,
        Self::Backend: IoCapable<u32>,
    {
        self.try_read(offset)
    }

    /// Reads the `u64` at `offset`, or `EINVAL` if it lies outside the region or is
    /// misaligned.
    ///
    /// Only on 64-bit targets for [`SysMem`] and [`Mmio`], as in Linux 7.3.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(target_pointer_width = "64")] {
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u64, 7];
    /// let io = sys_mem::<16, _>(&mut backing)?;
    /// assert_eq!(io.try_read64(8)?, 7);
    /// assert!(io.try_read64(2).is_err()); // misaligned
    /// assert!(io.try_read64(12).is_err()); // past the end
    /// # }
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn try_read64(self, offset: usize) -> Result<u64>
    where
        usize: IoLoc<Self::Target, u64, IoType = u64>,
        Self::Backend: IoCapable<u64>,
    {
        self.try_read(offset)
    }

    /// Writes the `u8` at `offset`, or returns `EINVAL` if it lies outside the region.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u32];
    /// let io = sys_mem::<4, _>(&mut backing)?;
    /// io.try_write8(0xff, 3)?;
    /// assert!(io.try_write8(0xff, 4).is_err());
    /// assert_eq!(backing[0].to_ne_bytes(), [0, 0, 0, 0xff]);
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn try_write8(self, value: u8, offset: usize) -> Result
    where
        usize: IoLoc<Self::Target, u8, IoType = u8>,
        Self::Backend: IoCapable<u8>,
    {
        self.try_write(offset, value)
    }

    /// Writes the `u16` at `offset`, or returns `EINVAL` if it lies outside the region or is
    /// misaligned.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u32];
    /// let io = sys_mem::<4, _>(&mut backing)?;
    /// io.try_write16(0xabcd, 2)?;
    /// assert!(io.try_write16(1, 3).is_err());
    /// assert_eq!(backing[0].to_ne_bytes()[2..], 0xabcd_u16.to_ne_bytes());
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn try_write16(self, value: u16, offset: usize) -> Result
    where
        usize: IoLoc<Self::Target, u16, IoType = u16>,
        Self::Backend: IoCapable<u16>,
    {
        self.try_write(offset, value)
    }

    /// Writes the `u32` at `offset`, or returns `EINVAL` if it lies outside the region or is
    /// misaligned.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u32; 2];
    /// let io = sys_mem::<8, _>(&mut backing)?;
    /// io.try_write32(5, 4)?;
    /// assert!(io.try_write32(5, 8).is_err());
    /// assert_eq!(backing, [0, 5]);
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn try_write32(self, value: u32, offset: usize) -> Result
    where
        usize: IoLoc<Self::Target, u32, IoType = u32>,
        Self::Backend: IoCapable<u32>,
    {
        self.try_write(offset, value)
    }

    /// Writes the `u64` at `offset`, or returns `EINVAL` if it lies outside the region or is
    /// misaligned.
    ///
    /// Only on 64-bit targets for [`SysMem`] and [`Mmio`], as in Linux 7.3.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(target_pointer_width = "64")] {
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u64; 2];
    /// let io = sys_mem::<16, _>(&mut backing)?;
    /// io.try_write64(u64::MAX, 8)?;
    /// assert!(io.try_write64(1, 16).is_err());
    /// assert_eq!(backing, [0, u64::MAX]);
    /// # }
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn try_write64(self, value: u64, offset: usize) -> Result
    where
        usize: IoLoc<Self::Target, u64, IoType = u64>,
        Self::Backend: IoCapable<u64>,
    {
        self.try_write(offset, value)
    }

    /// Reads the `u8` at `offset`, which must be proven inside the region's minimum size at
    /// build time (a constant, typically).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// // Memory holding the bytes 1, 2, 3, 4 (`SysMem` is memory in the CPU's byte order).
    /// let mut backing = [u32::from_ne_bytes([1, 2, 3, 4])];
    /// assert_eq!(sys_mem::<4, _>(&mut backing)?.read8(1), 2);
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn read8(self, offset: usize) -> u8
    where
        usize: IoLoc<Self::Target, u8, IoType = u8>,
        Self::Backend: IoCapable<u8>,
    {
        self.read(offset)
    }

    /// Reads the `u16` at `offset`, which must be proven inside the region's minimum size and
    /// aligned at build time.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [u32::from_ne_bytes([1, 2, 3, 4])];
    /// assert_eq!(sys_mem::<4, _>(&mut backing)?.read16(2), u16::from_ne_bytes([3, 4]));
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn read16(self, offset: usize) -> u16
    where
        usize: IoLoc<Self::Target, u16, IoType = u16>,
        Self::Backend: IoCapable<u16>,
    {
        self.read(offset)
    }

    /// Reads the `u32` at `offset`, which must be proven inside the region's minimum size and
    /// aligned at build time.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [3_u32, 4];
    /// assert_eq!(sys_mem::<8, _>(&mut backing)?.read32(4), 4);
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn read32(self, offset: usize) -> u32
    where
        usize: IoLoc<Self::Target, u32, IoType = u32>,
        Self::Backend: IoCapable<u32>,
    {
        self.read(offset)
    }

    /// Reads the `u64` at `offset`, which must be proven inside the region's minimum size and
    /// aligned at build time.
    ///
    /// # Examples
    ///
    /// A [`Region`] is aligned to 4 bytes only, so the build-time check rejects a `u64` there,
    /// as in Linux 7.3; the run-time check looks at the actual address (64-bit targets only:
    /// 32-bit ones have no 64-bit accesses):
    ///
    #[cfg_attr(target_pointer_width = "64", doc = "```compile_fail")]
    #[cfg_attr(not(target_pointer_width = "64"), doc = "```ignore")]
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u64, 1 << 40];
    /// let io = sys_mem::<16, _>(&mut backing)?;
    /// assert_eq!(io.read64(8), 1 << 40); // error: evaluation of constant value failed
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    ///
    /// ```
    /// # #[cfg(target_pointer_width = "64")] {
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u64, 1 << 40];
    /// let io = sys_mem::<16, _>(&mut backing)?;
    /// assert_eq!(io.try_read64(8)?, 1 << 40);
    /// # }
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn read64(self, offset: usize) -> u64
    where
        usize: IoLoc<Self::Target, u64, IoType = u64>,
        Self::Backend: IoCapable<u64>,
    {
        self.read(offset)
    }

    /// Writes the `u8` at `offset`, which must be proven inside the region's minimum size at
    /// build time.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u32];
    /// sys_mem::<4, _>(&mut backing)?.write8(0x80, 0);
    /// assert_eq!(backing[0].to_ne_bytes(), [0x80, 0, 0, 0]);
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn write8(self, value: u8, offset: usize)
    where
        usize: IoLoc<Self::Target, u8, IoType = u8>,
        Self::Backend: IoCapable<u8>,
    {
        self.write(offset, value)
    }

    /// Writes the `u16` at `offset`, which must be proven inside the region's minimum size and
    /// aligned at build time.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u32];
    /// sys_mem::<4, _>(&mut backing)?.write16(0xabcd, 2);
    /// assert_eq!(backing[0].to_ne_bytes()[2..], 0xabcd_u16.to_ne_bytes());
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn write16(self, value: u16, offset: usize)
    where
        usize: IoLoc<Self::Target, u16, IoType = u16>,
        Self::Backend: IoCapable<u16>,
    {
        self.write(offset, value)
    }

    /// Writes the `u32` at `offset`, which must be proven inside the region's minimum size and
    /// aligned at build time.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u32; 2];
    /// sys_mem::<8, _>(&mut backing)?.write32(u32::MAX, 4);
    /// assert_eq!(backing, [0, u32::MAX]);
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn write32(self, value: u32, offset: usize)
    where
        usize: IoLoc<Self::Target, u32, IoType = u32>,
        Self::Backend: IoCapable<u32>,
    {
        self.write(offset, value)
    }

    /// Writes the `u64` at `offset`, which must be proven inside the region's minimum size and
    /// aligned at build time.
    ///
    /// # Examples
    ///
    /// As for [`read64`](Io::read64), a [`Region`] is not aligned for `u64` at build time:
    ///
    #[cfg_attr(target_pointer_width = "64", doc = "```compile_fail")]
    #[cfg_attr(not(target_pointer_width = "64"), doc = "```ignore")]
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u64; 2];
    /// sys_mem::<16, _>(&mut backing)?.write64(u64::MAX, 0); // error
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    ///
    /// ```
    /// # #[cfg(target_pointer_width = "64")] {
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u64; 2];
    /// sys_mem::<16, _>(&mut backing)?.try_write64(u64::MAX, 0)?;
    /// assert_eq!(backing, [u64::MAX, 0]);
    /// # }
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn write64(self, value: u64, offset: usize)
    where
        usize: IoLoc<Self::Target, u64, IoType = u64>,
        Self::Backend: IoCapable<u64>,
    {
        self.write(offset, value)
    }

    /// Reads the `T` at `location`, or `EINVAL` if the access lies outside the region or is
    /// misaligned.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u32; 4];
    /// backing[1] = 0xfeed;
    /// let io = sys_mem::<0, _>(&mut backing)?;
    /// let word: u32 = io.try_read(4)?;
    /// let byte: u8 = io.try_read(15)?;
    /// assert_eq!((word, byte), (0xfeed, 0));
    /// assert!(io.try_read::<u32, _>(14).is_err());
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn try_read<T, L>(self, location: L) -> Result<T>
    where
        L: IoLoc<Self::Target, T>,
        Self::Backend: IoCapable<L::IoType>,
    {
        let view = view_checked_at_run::<Self, L::IoType>(self, location.offset())?;
        Ok(Self::Backend::io_read(view).into())
    }

    /// Writes `value` at `location`, or returns `EINVAL` if the access lies outside the region
    /// or is misaligned.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u32; 2];
    /// let io = sys_mem::<0, _>(&mut backing)?;
    /// io.try_write(4, 3_u32)?;
    /// io.try_write(0, 0xff_u8)?;
    /// assert!(io.try_write(8, 1_u8).is_err());
    /// assert_eq!((backing[0].to_ne_bytes()[0], backing[1]), (0xff, 3));
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn try_write<T, L>(self, location: L, value: T) -> Result
    where
        L: IoLoc<Self::Target, T>,
        Self::Backend: IoCapable<L::IoType>,
    {
        let view = view_checked_at_run::<Self, L::IoType>(self, location.offset())?;
        Self::Backend::io_write(view, value.into());
        Ok(())
    }

    /// Writes a register value at the location it carries (a fixed register's), or returns
    /// `EINVAL` if that lies outside the region.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::{register, Io};
    /// use kernel_core::prelude::*;
    ///
    /// register! {
    ///     MODE(u32) @ 0x40 {
    ///         1:0 speed;
    ///     }
    /// }
    ///
    /// let mut backing = [0_u32; 32];
    /// sys_mem::<0, _>(&mut backing)?.try_write_reg(MODE::zeroed().with_const_speed::<2>())?;
    /// assert_eq!(backing[0x10], 2);
    /// let mut short = [0_u32; 16];
    /// assert!(sys_mem::<0, _>(&mut short)?.try_write_reg(MODE::zeroed()).is_err());
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn try_write_reg<T, L, V>(self, value: V) -> Result
    where
        L: IoLoc<Self::Target, T>,
        V: LocatedRegister<Self::Target, Location = L, Value = T>,
        Self::Backend: IoCapable<L::IoType>,
    {
        let (location, value) = value.into_io_op();
        self.try_write(location, value)
    }

    /// Reads the `T` at `location`, passes it to `f` and writes back what `f` returns, or
    /// returns `EINVAL` (calling nothing) if the access lies outside the region or is
    /// misaligned. Nothing makes the two accesses atomic.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u32, 41];
    /// let io = sys_mem::<0, _>(&mut backing)?;
    /// io.try_update(4, |v: u32| v + 1)?;
    /// assert!(io.try_update(8, |v: u32| v + 1).is_err());
    /// assert_eq!(backing[1], 42);
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn try_update<T, L, F>(self, location: L, f: F) -> Result
    where
        L: IoLoc<Self::Target, T>,
        Self::Backend: IoCapable<L::IoType>,
        F: FnOnce(T) -> T,
    {
        let view = view_checked_at_run::<Self, L::IoType>(self, location.offset())?;
        let old: T = Self::Backend::io_read(view).into();
        Self::Backend::io_write(view, f(old).into());
        Ok(())
    }

    /// Reads the `T` at `location`, which must be proven inside the region's minimum size and
    /// aligned at build time.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u32; 0x400];
    /// backing[4] = 0x1_0000;
    /// let io = sys_mem::<0x1000, _>(&mut backing)?;
    /// let word: u32 = io.read(0x10);
    /// let top: u8 = io.read(0xfff);
    /// assert_eq!((word, top), (0x1_0000, 0));
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn read<T, L>(self, location: L) -> T
    where
        L: IoLoc<Self::Target, T>,
        Self::Backend: IoCapable<L::IoType>,
    {
        let view = view_checked_at_build::<Self, L::IoType>(self, location.offset());
        Self::Backend::io_read(view).into()
    }

    /// Writes `value` at `location`, which must be proven inside the region's minimum size and
    /// aligned at build time.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u32; 0x400];
    /// let io = sys_mem::<0x1000, _>(&mut backing)?;
    /// io.write(0x10, 1_u32);
    /// io.write(0xfff, 0xff_u8);
    /// assert_eq!((backing[4], backing[0x3ff].to_ne_bytes()[3]), (1, 0xff));
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn write<T, L>(self, location: L, value: T)
    where
        L: IoLoc<Self::Target, T>,
        Self::Backend: IoCapable<L::IoType>,
    {
        let view = view_checked_at_build::<Self, L::IoType>(self, location.offset());
        Self::Backend::io_write(view, value.into());
    }

    /// Writes a register value at the location it carries (a fixed register's), which must be
    /// proven inside the region's minimum size at build time.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::{register, Io};
    /// use kernel_core::prelude::*;
    ///
    /// register! {
    ///     VERSION(u32) @ 0x100 {
    ///         15:8 major;
    ///         7:0 minor;
    ///     }
    /// }
    ///
    /// let mut backing = [0_u32; 0x400];
    /// let io = sys_mem::<0x1000, _>(&mut backing)?;
    /// io.write_reg(VERSION::zeroed().with_major(1_u8).with_minor(2_u8));
    /// assert_eq!(backing[0x40], 0x0102);
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn write_reg<T, L, V>(self, value: V)
    where
        L: IoLoc<Self::Target, T>,
        V: LocatedRegister<Self::Target, Location = L, Value = T>,
        Self::Backend: IoCapable<L::IoType>,
    {
        let (location, value) = value.into_io_op();
        self.write(location, value)
    }

    /// Reads the `T` at `location`, passes it to `f` and writes back what `f` returns; the
    /// location must be proven inside the region's minimum size and aligned at build time.
    /// Nothing makes the two accesses atomic.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::io::sys_mem;
    /// use kernel_core::io::Io;
    ///
    /// let mut backing = [0_u32; 0x400];
    /// let io = sys_mem::<0x1000, _>(&mut backing)?;
    /// io.update(0x10, |v: u32| v + 1);
    /// io.update(0x10, |v: u32| v << 4);
    /// assert_eq!(backing[4], 0x10);
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline(always)]
    fn update<T, L, F>(self, location: L, f: F)
    where
        L: IoLoc<Self::Target, T>,
        Self::Backend: IoCapable<L::IoType>,
        F: FnOnce(T) -> T,
    {
        let view = view_checked_at_build::<Self, L::IoType>(self, location.offset());
        let old: T = Self::Backend::io_read(view).into();
        Self::Backend::io_write(view, f(old).into());
    }
}

// The only implementation: no type can override the provided methods, whose checks the
// projections' soundness relies on.
impl<'a, T: IoBase<'a>> Io<'a> for T {}

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

/// A view of a region of ordinary memory of type `T`, alive for `'a`, whose accesses are
/// volatile: memory that a device may also access (DMA), or, on the host, the memory that
/// stands for a device's registers in a test.
///
/// # Invariants
///
/// The `KnownSize::size(ptr)` bytes at `ptr` are valid, aligned memory for `'a`.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{Io, Region, SysMem};
///
/// let mut words = [0_u32; 4];
/// let region = Region::<16>::ptr_try_from_raw_parts_mut(words.as_mut_ptr().cast(), 16)?;
/// // SAFETY: `words` is valid, aligned memory for as long as the view is used.
/// let io = unsafe { SysMem::new(region) };
/// io.write32(0xaa, 12);
/// assert_eq!(words[3], 0xaa);
/// # Ok::<(), kernel_core::error::Error>(())
/// ```
pub struct SysMem<'a, T: ?Sized> {
    ptr: *mut T,
    phantom: PhantomData<&'a ()>,
}

impl<T: ?Sized> Clone for SysMem<'_, T> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for SysMem<'_, T> {}

// SAFETY: A `SysMem` is a shared reference to a `T`, so it is `Send` when `&T` is.
unsafe impl<T: ?Sized + Sync> Send for SysMem<'_, T> {}

// SAFETY: As for `Send`: a shared reference to a `T`.
unsafe impl<T: ?Sized + Sync> Sync for SysMem<'_, T> {}

impl<'a, T: ?Sized> SysMem<'a, T> {
    /// The view of the memory at `ptr`.
    ///
    /// # Safety
    ///
    /// The `KnownSize::size(ptr)` bytes at `ptr` must be valid, aligned memory for as long as
    /// `'a` lasts.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{Io, SysMem};
    ///
    /// let mut flag = 0_u8;
    /// // SAFETY: `flag` is valid memory for as long as the view is used.
    /// let io = unsafe { SysMem::new(&raw mut flag) };
    /// io.write_val(1);
    /// assert_eq!(flag, 1);
    /// ```
    #[inline]
    pub unsafe fn new(ptr: *mut T) -> Self {
        // INVARIANT: The caller promises that `ptr` is valid memory for `'a`.
        Self {
            ptr,
            phantom: PhantomData,
        }
    }

    /// The pointer to the memory.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::SysMem;
    ///
    /// let mut word = 0_u32;
    /// let ptr = &raw mut word;
    /// // SAFETY: `word` is valid memory for as long as the view is used.
    /// assert_eq!(unsafe { SysMem::new(ptr) }.as_ptr(), ptr);
    /// ```
    #[inline]
    pub fn as_ptr(self) -> *mut T {
        self.ptr
    }
}

impl<'a, T: ?Sized + KnownSize> IoBase<'a> for SysMem<'a, T> {
    type Backend = SysMemBackend;
    type Target = T;

    #[inline]
    fn as_view(self) -> SysMem<'a, T> {
        self
    }
}

/// The [`IoBackend`] of [`SysMem`].
///
/// # Examples
///
/// ```
/// use kernel_core::io::{IoBackend, SysMem, SysMemBackend};
///
/// let mut word = 0_u32;
/// // SAFETY: `word` is valid memory for as long as the view is used.
/// let view = unsafe { SysMem::new(&raw mut word) };
/// assert_eq!(SysMemBackend::as_ptr(view), &raw mut word);
/// ```
pub struct SysMemBackend;

impl IoBackend for SysMemBackend {
    type View<'a, T: ?Sized + KnownSize> = SysMem<'a, T>;

    #[inline]
    fn as_ptr<'a, T: ?Sized + KnownSize>(view: Self::View<'a, T>) -> *mut T {
        view.ptr
    }

    #[inline]
    unsafe fn project_view<'a, T: ?Sized + KnownSize, U: ?Sized + KnownSize>(
        view: Self::View<'a, T>,
        ptr: *mut U,
    ) -> Self::View<'a, U> {
        // INVARIANT: The caller promises that `ptr` lies inside `view`'s memory, so it is valid
        // memory for `'a` too. `view` is not otherwise needed: `ptr` derives from its pointer.
        let _ = view;
        SysMem {
            ptr,
            phantom: PhantomData,
        }
    }
}

/// Implements [`IoCapable`] for [`SysMemBackend`]: volatile accesses.
macro_rules! sys_mem_capable {
    ($($ty:ty)*) => {$(
        impl IoCapable<$ty> for SysMemBackend {
            #[inline]
            fn io_read(view: SysMem<'_, $ty>) -> $ty {
                // SAFETY: By the view's invariant, `view.ptr` is valid and aligned for a
                // `$ty`, every bit pattern of which is a value. The access is volatile so that
                // a device writing the memory meanwhile is defined behaviour; a race with
                // another CPU is left to the kernel's memory model, as for any volatile access.
                unsafe { view.ptr.read_volatile() }
            }

            #[inline]
            fn io_write(view: SysMem<'_, $ty>, value: $ty) {
                // SAFETY: As for `io_read`: `view.ptr` is valid and aligned for a `$ty`.
                unsafe { view.ptr.write_volatile(value) }
            }
        }
    )*};
}

sys_mem_capable!(u8 u16 u32);
// 64-bit accesses on 64-bit targets only, as in Linux 7.3 (`CONFIG_64BIT`): a 32-bit kernel
// (or a 32-bit host, which stands for one) has no single 64-bit access.
#[cfg(target_pointer_width = "64")]
sys_mem_capable!(u64);

impl IoCopyable for SysMemBackend {
    #[inline]
    unsafe fn copy_from_io(view: SysMem<'_, [u8]>, buffer: *mut u8) {
        // SAFETY: By the view's invariant `view.ptr` is valid for reads of its length, and the
        // caller promises that `buffer` is valid for writes of as many bytes, apart from it.
        unsafe { crate::env::io::sys_mem_copy(buffer, view.ptr.cast(), view.ptr.len()) }
    }

    #[inline]
    unsafe fn copy_to_io(view: SysMem<'_, [u8]>, buffer: *const u8) {
        // SAFETY: By the view's invariant `view.ptr` is valid for writes of its length, and the
        // caller promises that `buffer` is valid for reads of as many bytes, apart from it.
        unsafe { crate::env::io::sys_mem_copy(view.ptr.cast(), buffer, view.ptr.len()) }
    }

    #[inline]
    fn copy_read<T: FromBytes>(view: SysMem<'_, T>) -> T {
        // SAFETY: By the view's invariant `view.ptr` is valid and aligned for a `T`, any bytes
        // of which are a value (`T: FromBytes`). Volatile, as for the primitives: a device may
        // write the memory meanwhile.
        unsafe { view.ptr.read_volatile() }
    }

    #[inline]
    fn copy_write<T: IntoBytes>(view: SysMem<'_, T>, value: T) {
        // SAFETY: By the view's invariant `view.ptr` is valid and aligned for a `T`.
        unsafe { view.ptr.write_volatile(value) }
    }
}

/// A view that is either [`Mmio`] or [`SysMem`], for code that handles both without being
/// generic over the backend, as `struct iosys_map` (`include/linux/iosys-map.h`) in C.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{Io, IoSysMap, SysMem};
///
/// let mut word = 0_u32;
/// // SAFETY: `word` is valid memory for as long as the view is used.
/// let map: IoSysMap<'_, u32> = unsafe { SysMem::new(&raw mut word) }.into();
/// map.write_val(0x77);
/// assert_eq!(map.read_val(), 0x77);
/// assert!(matches!(map, IoSysMap::Sys(_)));
/// ```
pub enum IoSysMap<'a, T: ?Sized> {
    /// I/O memory.
    Io(Mmio<'a, T>),
    /// System memory.
    Sys(SysMem<'a, T>),
}

impl<T: ?Sized> Clone for IoSysMap<'_, T> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for IoSysMap<'_, T> {}

impl<'a, T: ?Sized> From<Mmio<'a, T>> for IoSysMap<'a, T> {
    #[inline]
    fn from(view: Mmio<'a, T>) -> Self {
        Self::Io(view)
    }
}

impl<'a, T: ?Sized> From<SysMem<'a, T>> for IoSysMap<'a, T> {
    #[inline]
    fn from(view: SysMem<'a, T>) -> Self {
        Self::Sys(view)
    }
}

impl<'a, T: ?Sized + KnownSize> IoBase<'a> for IoSysMap<'a, T> {
    type Backend = IoSysMapBackend;
    type Target = T;

    #[inline]
    fn as_view(self) -> IoSysMap<'a, T> {
        self
    }
}

/// The [`IoBackend`] of [`IoSysMap`]: each access goes to the backend of the variant.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{IoBackend, IoSysMap, IoSysMapBackend, SysMem};
///
/// let mut word = 0_u32;
/// // SAFETY: `word` is valid memory for as long as the view is used.
/// let map = IoSysMap::from(unsafe { SysMem::new(&raw mut word) });
/// assert_eq!(IoSysMapBackend::as_ptr(map), &raw mut word);
/// ```
pub struct IoSysMapBackend;

impl IoBackend for IoSysMapBackend {
    type View<'a, T: ?Sized + KnownSize> = IoSysMap<'a, T>;

    #[inline]
    fn as_ptr<'a, T: ?Sized + KnownSize>(view: Self::View<'a, T>) -> *mut T {
        match view {
            IoSysMap::Io(view) => MmioBackend::as_ptr(view),
            IoSysMap::Sys(view) => SysMemBackend::as_ptr(view),
        }
    }

    #[inline]
    unsafe fn project_view<'a, T: ?Sized + KnownSize, U: ?Sized + KnownSize>(
        view: Self::View<'a, T>,
        ptr: *mut U,
    ) -> Self::View<'a, U> {
        match view {
            // SAFETY: The caller promises that `ptr` is a projection of the variant's view.
            IoSysMap::Io(view) => IoSysMap::Io(unsafe { MmioBackend::project_view(view, ptr) }),
            // SAFETY: As above.
            IoSysMap::Sys(view) => IoSysMap::Sys(unsafe { SysMemBackend::project_view(view, ptr) }),
        }
    }
}

impl<T> IoCapable<T> for IoSysMapBackend
where
    MmioBackend: IoCapable<T>,
    SysMemBackend: IoCapable<T>,
{
    #[inline]
    fn io_read(view: IoSysMap<'_, T>) -> T {
        match view {
            IoSysMap::Io(view) => MmioBackend::io_read(view),
            IoSysMap::Sys(view) => SysMemBackend::io_read(view),
        }
    }

    #[inline]
    fn io_write(view: IoSysMap<'_, T>, value: T) {
        match view {
            IoSysMap::Io(view) => MmioBackend::io_write(view, value),
            IoSysMap::Sys(view) => SysMemBackend::io_write(view, value),
        }
    }
}

/// Implements [`IoCopyable`] for [`IoSysMapBackend`]: the environments invoke it where
/// [`MmioBackend`] copies (everywhere).
macro_rules! io_sys_map_copyable {
    () => {
        impl $crate::io::IoCopyable for $crate::io::IoSysMapBackend {
            #[inline]
            unsafe fn copy_from_io(view: $crate::io::IoSysMap<'_, [u8]>, buffer: *mut u8) {
                match view {
                    // SAFETY: The caller's promises hold for the variant's view.
                    $crate::io::IoSysMap::Io(view) => unsafe {
                        <$crate::io::MmioBackend as $crate::io::IoCopyable>::copy_from_io(
                            view, buffer,
                        )
                    },
                    // SAFETY: As above.
                    $crate::io::IoSysMap::Sys(view) => unsafe {
                        <$crate::io::SysMemBackend as $crate::io::IoCopyable>::copy_from_io(
                            view, buffer,
                        )
                    },
                }
            }

            #[inline]
            unsafe fn copy_to_io(view: $crate::io::IoSysMap<'_, [u8]>, buffer: *const u8) {
                match view {
                    // SAFETY: The caller's promises hold for the variant's view.
                    $crate::io::IoSysMap::Io(view) => unsafe {
                        <$crate::io::MmioBackend as $crate::io::IoCopyable>::copy_to_io(
                            view, buffer,
                        )
                    },
                    // SAFETY: As above.
                    $crate::io::IoSysMap::Sys(view) => unsafe {
                        <$crate::io::SysMemBackend as $crate::io::IoCopyable>::copy_to_io(
                            view, buffer,
                        )
                    },
                }
            }

            #[inline]
            fn copy_read<T: $crate::extras::bytes::FromBytes>(
                view: $crate::io::IoSysMap<'_, T>,
            ) -> T {
                match view {
                    $crate::io::IoSysMap::Io(view) => {
                        <$crate::io::MmioBackend as $crate::io::IoCopyable>::copy_read(view)
                    }
                    $crate::io::IoSysMap::Sys(view) => {
                        <$crate::io::SysMemBackend as $crate::io::IoCopyable>::copy_read(view)
                    }
                }
            }

            #[inline]
            fn copy_write<T: $crate::extras::bytes::IntoBytes>(
                view: $crate::io::IoSysMap<'_, T>,
                value: T,
            ) {
                match view {
                    $crate::io::IoSysMap::Io(view) => {
                        <$crate::io::MmioBackend as $crate::io::IoCopyable>::copy_write(view, value)
                    }
                    $crate::io::IoSysMap::Sys(view) => {
                        <$crate::io::SysMemBackend as $crate::io::IoCopyable>::copy_write(
                            view, value,
                        )
                    }
                }
            }
        }
    };
}
pub(crate) use io_sys_map_copyable;

/// Turns the backend's associated functions into methods, for [`io_project!`]: not an API.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct ProjectHelper<T>(pub T);

impl<'a, T> ProjectHelper<T>
where
    T: Io<'a, Backend: IoBackend<View<'a, T::Target> = T>>,
{
    /// The pointer behind the view.
    #[inline(always)]
    pub fn as_ptr(self) -> *mut T::Target {
        T::Backend::as_ptr(self.0)
    }

    /// The view of the part at `ptr`.
    ///
    /// # Safety
    ///
    /// As for [`IoBackend::project_view`]: `ptr` must be a projection of [`as_ptr`](Self::as_ptr).
    #[inline(always)]
    pub unsafe fn project_view<U: ?Sized + KnownSize>(
        self,
        ptr: *mut U,
    ) -> <T::Backend as IoBackend>::View<'a, U> {
        // SAFETY: The caller promises that `ptr` is a projection of the view's pointer.
        unsafe { T::Backend::project_view::<T::Target, U>(self.0, ptr) }
    }
}

/// The view of a field or an element of an I/O view: `io_project!(io, .field[try: index])`,
/// with the projections of [`ptr::project!`](crate::ptr::project) (`.field`, `[try: i]`,
/// `[panic: i]`, `[build: i]`, and ranges).
///
/// Kernel counterpart: `kernel::io::io_project!` (Linux 7.3).
///
/// The projected view reads and writes the part of the region it covers, with the backend of
/// the view it comes from; an index out of bounds returns `ERANGE` (`try`), panics (`panic`) or
/// fails the build (`build`), never reaching outside the region.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{io_project, Io, SysMem};
/// use kernel_core::prelude::*;
///
/// #[repr(C)]
/// struct Descriptor {
///     addr: u32,
///     len: u16,
///     flags: u16,
/// }
///
/// fn set_len(ring: SysMem<'_, [Descriptor]>, index: usize, len: u16) -> Result {
///     io_project!(ring, [try: index].len).write_val(len);
///     Ok(())
/// }
///
/// let mut ring = [const { Descriptor { addr: 0, len: 0, flags: 0 } }; 4];
/// // SAFETY: `ring` is valid memory for as long as the view is used.
/// let io = unsafe { SysMem::new(&mut ring[..]) };
/// set_len(io, 2, 1500)?;
/// assert_eq!(set_len(io, 4, 1500), Err(ERANGE));
/// let whole: SysMem<'_, Descriptor> = io_project!(io, [build: 2]);
/// io_project!(whole, .flags).write_val(1);
/// assert_eq!((ring[2].len, ring[2].flags), (1500, 1));
/// # Ok::<(), Error>(())
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! io_project {
    ($io:expr, $($projection:tt)*) => {{
        #[allow(unused_imports)]
        use $crate::io::IoBase as _;
        let view = $crate::io::ProjectHelper($io.as_view());
        let ptr = $crate::ptr::project!(mut view.as_ptr(), $($projection)*);
        #[allow(unused_unsafe)]
        // SAFETY: `ptr` is a projection of the view's pointer, inside it and aligned.
        unsafe {
            view.project_view(ptr)
        }
    }};
}
#[doc(inline)]
pub use crate::io_project;

/// Reads a field or an element of an I/O view: `io_read!(io, .field[try: index])` is
/// `io_project!(io, ...).read_val()`.
///
/// Kernel counterpart: `kernel::io::io_read!` (Linux 7.3).
///
/// # Examples
///
/// ```
/// use kernel_core::io::{io_read, SysMem};
/// use kernel_core::prelude::*;
///
/// #[repr(C)]
/// struct Status {
///     code: u32,
///     count: [u16; 2],
/// }
///
/// let mut status = Status { code: 7, count: [3, 4] };
/// // SAFETY: `status` is valid memory for as long as the view is used.
/// let io = unsafe { SysMem::new(&raw mut status) };
/// let code: u32 = io_read!(io, .code);
/// let second = (|| -> Result<u16> { Ok(io_read!(io, .count[try: 1])) })()?;
/// assert_eq!((code, second), (7, 4));
/// # Ok::<(), Error>(())
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! io_read {
    ($io:expr, $($projection:tt)*) => {
        $crate::io::Io::read_val($crate::io_project!($io, $($projection)*))
    };
}
#[doc(inline)]
pub use crate::io_read;

/// Writes a field or an element of an I/O view: `io_write!(io, .field[try: index], value)` is
/// `io_project!(io, ...).write_val(value)`.
///
/// Kernel counterpart: `kernel::io::io_write!` (Linux 7.3).
///
/// # Examples
///
/// ```
/// use kernel_core::io::{io_write, SysMem};
/// use kernel_core::prelude::*;
///
/// #[repr(C)]
/// struct Doorbells {
///     queue: [u32; 4],
/// }
///
/// let mut doorbells = Doorbells { queue: [0; 4] };
/// // SAFETY: `doorbells` is valid memory for as long as the view is used.
/// let io = unsafe { SysMem::new(&raw mut doorbells) };
/// io_write!(io, .queue[build: 3], 0x10);
/// assert_eq!((|| -> Result { io_write!(io, .queue[try: 4], 1); Ok(()) })(), Err(ERANGE));
/// assert_eq!(doorbells.queue, [0, 0, 0, 0x10]);
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! io_write {
    // Collects the projection, one `.field` or `[flavor: index]` at a time, up to the value.
    (@collect [$io:expr] [$($projection:tt)*] [, $value:expr]) => {
        $crate::io::Io::write_val($crate::io_project!($io, $($projection)*), $value)
    };
    (@collect [$io:expr] [$($projection:tt)*] [. $field:tt $($rest:tt)*]) => {
        $crate::io_write!(@collect [$io] [$($projection)* . $field] [$($rest)*])
    };
    (@collect [$io:expr] [$($projection:tt)*] [[$flavor:ident: $index:expr] $($rest:tt)*]) => {
        $crate::io_write!(@collect [$io] [$($projection)* [$flavor: $index]] [$($rest)*])
    };
    ($io:expr, $($rest:tt)*) => {
        $crate::io_write!(@collect [$io] [] [$($rest)*])
    };
}
#[doc(inline)]
pub use crate::io_write;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extras::io::sys_mem;

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

    #[test]
    fn views_of_sized_and_slice_targets() {
        let mut words = [1_u32, 2, 3];
        // SAFETY: `words` is valid memory for as long as the views are used.
        let slice = unsafe { SysMem::new(&mut words[..]) };
        assert_eq!(
            (slice.len(), slice.size(), slice.is_empty()),
            (3, 12, false)
        );
        let map: IoSysMap<'_, [u32]> = slice.into();
        assert_eq!(map.len(), 3);
        let mut one = 5_u16;
        // SAFETY: `one` is valid memory for as long as the view is used.
        let single = unsafe { SysMem::new(&raw mut one) };
        single.write_val(single.read_val() + 1);
        assert_eq!(one, 6);
    }

    #[test]
    fn an_unsized_region_is_checked_at_run_time_only() {
        let mut words = [0_u32; 3];
        let io = sys_mem::<0, _>(&mut words).expect("12 bytes are a valid region");
        assert_eq!(io.size(), 12);
        assert_eq!(io.try_write32(9, 8), Ok(()));
        assert_eq!(io.try_read32(8), Ok(9));
        assert_eq!(io.try_read32(12), Err(EINVAL));
        assert_eq!(io.try_update(8, |v: u32| v * 2), Ok(()));
        assert_eq!(words[2], 18);
    }

    #[test]
    fn run_time_checks_look_at_the_actual_address() {
        let mut words = [0_u64; 3];
        // A region that starts 4 bytes into 8-aligned words: 4-aligned, not 8-aligned.
        let base = words.as_mut_ptr().cast::<u8>().wrapping_add(4);
        let region = Region::<16>::ptr_try_from_raw_parts_mut(base, 16).expect("4-aligned");
        // SAFETY: The 16 bytes at `base` lie inside `words`, valid for as long as the view is
        // used.
        let io = unsafe { SysMem::new(region) };
        assert_eq!(io.try_write32(7, 12), Ok(()));
        assert_eq!(io.try_read32(12), Ok(7));
        // The `u64` at offset 4 is 8-aligned in memory, the one at offset 0 is not.
        #[cfg(target_pointer_width = "64")]
        {
            assert_eq!(io.try_write64(u64::MAX, 4), Ok(()));
            assert_eq!(io.try_read64(0), Err(EINVAL));
        }
        #[cfg(not(target_pointer_width = "64"))]
        {
            io.write32(u32::MAX, 4);
            io.write32(u32::MAX, 8);
        }
        // The `u32` at offset 12 is the first half of `words[2]` in memory: its low half on
        // little-endian hosts, its high half on big-endian ones.
        let seven_in_words_2 = u64::from_ne_bytes({
            let mut bytes = [0; 8];
            bytes[..4].copy_from_slice(&7_u32.to_ne_bytes());
            bytes
        });
        assert_eq!(words, [0, u64::MAX, seven_in_words_2]);
        assert_eq!(
            seven_in_words_2,
            if cfg!(target_endian = "big") {
                7 << 32
            } else {
                7
            }
        );
    }

    /// `true` if `$ty` implements `$tr`, decided at compile time (an inherent constant that
    /// needs the trait shadows the fallback trait's).
    macro_rules! implements {
        ($ty:ty: $tr:path) => {{
            struct Probe<T: ?Sized>(PhantomData<T>);
            #[allow(dead_code)]
            trait Fallback {
                const YES: bool = false;
            }
            impl<T: ?Sized> Fallback for Probe<T> {}
            #[allow(dead_code)]
            impl<T: ?Sized + $tr> Probe<T> {
                const YES: bool = true;
            }
            <Probe<$ty>>::YES
        }};
    }

    #[test]
    fn sixty_four_bit_accesses_on_sixty_four_bit_targets_only() {
        let wide = cfg!(target_pointer_width = "64");
        assert_eq!(implements!(SysMemBackend: IoCapable<u64>), wide);
        assert_eq!(implements!(MmioBackend: IoCapable<u64>), wide);
        assert_eq!(implements!(RelaxedMmioBackend: IoCapable<u64>), wide);
        assert_eq!(implements!(IoSysMapBackend: IoCapable<u64>), wide);
        assert!(implements!(SysMemBackend: IoCapable<u32>));
        assert!(implements!(MmioBackend: IoCapable<u32>));
        assert!(!implements!(SysMemBackend: IoCapable<u128>));
    }

    #[test]
    fn regions_and_raw_addresses() {
        assert!(offset_valid::<u32>(0, 0, 4));
        assert!(!offset_valid::<u32>(0, 1, 8));
        assert!(offset_valid::<u32>(2, 2, 8));
        assert!(!offset_valid::<u32>(2, 0, 8));
        assert!(!offset_valid::<u8>(0, usize::MAX, usize::MAX));
        assert!(!offset_valid::<u16>(0, 7, 8));
        assert!(offset_valid::<u16>(0, 6, 8));
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
