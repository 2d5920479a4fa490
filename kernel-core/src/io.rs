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

use crate::build_assert::{build_assert, const_assert};
use crate::error::{code::EINVAL, Result};
use crate::extras::bytes::{FromBytes, IntoBytes};
use crate::ptr::{Alignment, KnownSize};

pub mod poll;
pub mod register;

// What Linux 7.3's `io.rs` holds besides the traits below, a file per concept. The modules are
// private: their items are re-exported here, at the paths of `kernel::io`.
mod backend;
mod mmio;
mod project;
mod region;
mod sys_map;
mod sys_mem;

pub use backend::{IoBackend, IoCapable, IoCopyable};
pub use mmio::{Mmio, MmioBackend, RelaxedMmio, RelaxedMmioBackend};
pub use project::ProjectHelper;
pub use region::{MmioRaw, Region};
pub use sys_map::{IoSysMap, IoSysMapBackend};
pub use sys_mem::{SysMem, SysMemBackend};

#[doc(inline)]
pub use crate::register;

#[doc(inline)]
pub use crate::io_project;

#[doc(inline)]
pub use crate::io_read;

#[doc(inline)]
pub use crate::io_write;

pub(crate) use sys_map::io_sys_map_copyable;

use register::LocatedRegister;

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

/// Writes [`Io`]'s width accessors, `try_read8` .. `write64`, each the generic accessor of its
/// name at one primitive: `fn read32 = read::<u32>;` is `read32(self, offset: usize) -> u32`,
/// which is `self.read(offset)`, with the bounds that say that a `usize` locates a `u32` in the
/// region and the backend can access one. Each entry brings its own documentation.
///
/// Passed through the macro, an entry's `///` lines become `#[doc]` attributes, each line
/// with the space that follows `///`, which rustdoc strips from every line as their common
/// indentation; a `doc` attribute written out among them (the `compile_fail` fences of
/// `read64` and `write64`) starts with a space too, or nothing would be stripped.
///
/// Linux 7.3 writes the sixteen out one by one. They differ only in their name, their width
/// and the generic accessor they call, which is all an entry says besides its documentation.
macro_rules! width_accessors {
    () => {};
    ($(#[$attr:meta])* fn $name:ident = try_read::<$ty:ty>; $($rest:tt)*) => {
        $(#[$attr])*
        #[inline(always)]
        fn $name(self, offset: usize) -> Result<$ty>
        where
            usize: IoLoc<Self::Target, $ty, IoType = $ty>,
            Self::Backend: IoCapable<$ty>,
        {
            self.try_read(offset)
        }

        width_accessors! { $($rest)* }
    };
    ($(#[$attr:meta])* fn $name:ident = try_write::<$ty:ty>; $($rest:tt)*) => {
        $(#[$attr])*
        #[inline(always)]
        fn $name(self, value: $ty, offset: usize) -> Result
        where
            usize: IoLoc<Self::Target, $ty, IoType = $ty>,
            Self::Backend: IoCapable<$ty>,
        {
            self.try_write(offset, value)
        }

        width_accessors! { $($rest)* }
    };
    ($(#[$attr:meta])* fn $name:ident = read::<$ty:ty>; $($rest:tt)*) => {
        $(#[$attr])*
        #[inline(always)]
        fn $name(self, offset: usize) -> $ty
        where
            usize: IoLoc<Self::Target, $ty, IoType = $ty>,
            Self::Backend: IoCapable<$ty>,
        {
            self.read(offset)
        }

        width_accessors! { $($rest)* }
    };
    ($(#[$attr:meta])* fn $name:ident = write::<$ty:ty>; $($rest:tt)*) => {
        $(#[$attr])*
        #[inline(always)]
        fn $name(self, value: $ty, offset: usize)
        where
            usize: IoLoc<Self::Target, $ty, IoType = $ty>,
            Self::Backend: IoCapable<$ty>,
        {
            self.write(offset, value)
        }

        width_accessors! { $($rest)* }
    };
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

    // The width accessors: `try_read8` is `try_read::<u8, usize>` and so on, the same sixteen
    // as Linux 7.3's, generated from one pattern each (see `width_accessors!`).
    width_accessors! {
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
        fn try_read8 = try_read::<u8>;

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
        fn try_read16 = try_read::<u16>;

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
        fn try_read32 = try_read::<u32>;

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
        fn try_read64 = try_read::<u64>;

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
        fn try_write8 = try_write::<u8>;

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
        fn try_write16 = try_write::<u16>;

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
        fn try_write32 = try_write::<u32>;

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
        fn try_write64 = try_write::<u64>;

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
        fn read8 = read::<u8>;

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
        fn read16 = read::<u16>;

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
        fn read32 = read::<u32>;

        /// Reads the `u64` at `offset`, which must be proven inside the region's minimum size and
        /// aligned at build time.
        ///
        /// # Examples
        ///
        /// A [`Region`] is aligned to 4 bytes only, so the build-time check rejects a `u64` there,
        /// as in Linux 7.3; the run-time check looks at the actual address (64-bit targets only:
        /// 32-bit ones have no 64-bit accesses):
        ///
        // ` ```compile_fail`: a space first, as the `///` lines have (see `width_accessors!`).
        #[cfg_attr(target_pointer_width = "64", doc = " ```compile_fail")]
        #[cfg_attr(not(target_pointer_width = "64"), doc = " ```ignore")]
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
        fn read64 = read::<u64>;

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
        fn write8 = write::<u8>;

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
        fn write16 = write::<u16>;

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
        fn write32 = write::<u32>;

        /// Writes the `u64` at `offset`, which must be proven inside the region's minimum size and
        /// aligned at build time.
        ///
        /// # Examples
        ///
        /// As for [`read64`](Io::read64), a [`Region`] is not aligned for `u64` at build time:
        ///
        #[cfg_attr(target_pointer_width = "64", doc = " ```compile_fail")]
        #[cfg_attr(not(target_pointer_width = "64"), doc = " ```ignore")]
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
        fn write64 = write::<u64>;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extras::io::sys_mem;
    use core::marker::PhantomData;

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
    fn offsets_are_checked_for_bounds_and_alignment() {
        assert!(offset_valid::<u32>(0, 0, 4));
        assert!(!offset_valid::<u32>(0, 1, 8));
        assert!(offset_valid::<u32>(2, 2, 8));
        assert!(!offset_valid::<u32>(2, 0, 8));
        assert!(!offset_valid::<u8>(0, usize::MAX, usize::MAX));
        assert!(!offset_valid::<u16>(0, 7, 8));
        assert!(offset_valid::<u16>(0, 6, 8));
    }
}
