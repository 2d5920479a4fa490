// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Alignments, and aligning integers and addresses to them.
//!
//! Kernel counterpart: `rust/kernel/ptr.rs` (Linux 7.3); C header:
//! [`include/linux/align.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/align.h)
//! (`ALIGN()`, `ALIGN_DOWN()`).
//!
//! - [`Alignment`] is a power of two, checked when it is made: at compile time with
//!   [`Alignment::new`], at run time with [`Alignment::new_checked`].
//! - [`Alignable`] aligns `u8`, `u16`, `u32`, `u64` and `usize` down and up; aligning up
//!   returns `None` instead of overflowing.
//! - [`const_align_up`] is the `usize` version for const contexts, const generic arguments
//!   included.
//! - [`KnownSize`] is `size_of` extended to slices.
//! - [`project!`] projects a raw pointer onto a field or an element of what it points to,
//!   without dereferencing it: valid pointers stay valid, and pointers into I/O memory (which
//!   must not be dereferenced) too; [`io_project!`](crate::io::io_project) builds on it.
//!
//! # Examples
//!
//! ```
//! use kernel_core::ptr::{const_align_up, Alignable, Alignment};
//! use kernel_core::sizes::{SZ_128K, SZ_16M, SZ_8M};
//!
//! struct Carveout<const SIZE: usize>;
//! impl<const SIZE: usize> Carveout<SIZE> {
//!     const BYTES: usize = SIZE;
//! }
//!
//! // As nova-core does: a const generic argument computed by aligning.
//! type Wpr = Carveout<{ const_align_up(SZ_8M + SZ_16M, Alignment::new::<SZ_128K>()).unwrap() }>;
//! assert_eq!(Wpr::BYTES, SZ_8M + SZ_16M);
//!
//! let page = Alignment::new::<4096>();
//! assert_eq!(0x1234_u64.align_down(page), 0x1000);
//! assert_eq!(0x1234_u64.align_up(page), Some(0x2000));
//! assert_eq!(u64::MAX.align_up(page), None);
//! ```

use core::mem::{align_of, size_of};
use core::num::NonZero;

pub mod projection;

#[doc(inline)]
pub use crate::project_pointer as project;

/// A power of two, usable as an alignment.
///
/// A stand-in for the standard library's unstable `core::ptr::Alignment`.
///
/// # Invariants
///
/// The value is a power of two (so it is not zero).
///
/// # Examples
///
/// ```
/// use kernel_core::ptr::Alignment;
///
/// let align = Alignment::new::<64>();
/// assert_eq!(align.as_usize(), 64);
/// assert_eq!(align.log2(), 6);
/// assert_eq!(align.mask(), !63);
/// assert_eq!(Alignment::new_checked(48), None);
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Alignment(NonZero<usize>);

// Written out, not derived, only to be `#[inline]`: a derived `Debug` is compiled into
// kernel-core's own object, which Kbuild links whole into every module (`cargo xtask bench`).
impl core::fmt::Debug for Alignment {
    #[inline]
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("Alignment").field(&self.0).finish()
    }
}

impl Alignment {
    /// The alignment `ALIGN`, checked to be a power of two at compile time.
    ///
    /// A non-power-of-two `ALIGN`, zero included, is a compile error that says so.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::ptr::Alignment;
    ///
    /// const PAGE: Alignment = Alignment::new::<4096>();
    /// assert_eq!(PAGE.as_usize(), 4096);
    /// ```
    ///
    /// ```compile_fail
    /// let _ = kernel_core::ptr::Alignment::new::<24>();
    /// ```
    #[inline(always)]
    pub const fn new<const ALIGN: usize>() -> Self {
        crate::const_assert!(
            ALIGN.is_power_of_two(),
            "Alignment::new::<ALIGN>(): ALIGN must be a power of two (1, 2, 4, 8, ...)"
        );
        // INVARIANT: checked at compile time just above.
        // SAFETY: a power of two is not zero.
        Self(unsafe { NonZero::new_unchecked(ALIGN) })
    }

    /// The alignment `align` if it is a power of two, `None` otherwise (zero included).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::ptr::Alignment;
    ///
    /// assert_eq!(Alignment::new_checked(1), Some(Alignment::new::<1>()));
    /// const TOP: usize = 1 << (usize::BITS - 1);
    /// assert_eq!(Alignment::new_checked(TOP), Some(Alignment::new::<TOP>()));
    /// assert_eq!(Alignment::new_checked(0), None);
    /// assert_eq!(Alignment::new_checked(12), None);
    /// ```
    #[inline(always)]
    pub const fn new_checked(align: usize) -> Option<Self> {
        if align.is_power_of_two() {
            // INVARIANT: checked just above.
            // SAFETY: a power of two is not zero.
            Some(Self(unsafe { NonZero::new_unchecked(align) }))
        } else {
            None
        }
    }

    /// The alignment of `T`, like [`align_of`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::ptr::Alignment;
    ///
    /// assert_eq!(Alignment::of::<u8>().as_usize(), 1);
    /// assert_eq!(Alignment::of::<u32>().as_usize(), core::mem::align_of::<u32>());
    /// ```
    #[inline(always)]
    pub const fn of<T>() -> Self {
        // Alignments of types are always powers of two, so this cannot fail; it is evaluated
        // once per `T`, at compile time.
        const {
            match Self::new_checked(align_of::<T>()) {
                Some(align) => align,
                None => panic!("align_of is always a power of two"),
            }
        }
    }

    /// The alignment as a `usize`, a power of two.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::ptr::Alignment;
    ///
    /// assert_eq!(Alignment::new::<8>().as_usize(), 8);
    /// ```
    #[inline(always)]
    pub const fn as_usize(self) -> usize {
        self.as_nonzero().get()
    }

    /// The alignment as a [`NonZero<usize>`], a power of two.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::ptr::Alignment;
    ///
    /// assert_eq!(Alignment::new::<2>().as_nonzero().get(), 2);
    /// ```
    #[inline(always)]
    pub const fn as_nonzero(self) -> NonZero<usize> {
        // Telling the optimizer that the value is a power of two lets it turn divisions and
        // remainders by it into shifts and masks.
        if !self.0.is_power_of_two() {
            // SAFETY: by the type invariant the value is a power of two, so this is unreachable.
            unsafe { core::hint::unreachable_unchecked() }
        }
        self.0
    }

    /// The base-2 logarithm: `log2()` is `n` for an alignment of `1 << n`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::ptr::Alignment;
    ///
    /// assert_eq!(Alignment::new::<1>().log2(), 0);
    /// assert_eq!(Alignment::new::<4096>().log2(), 12);
    /// ```
    #[inline(always)]
    pub const fn log2(self) -> u32 {
        self.0.trailing_zeros()
    }

    /// The mask that clears the bits below the alignment: `!(self.as_usize() - 1)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::ptr::Alignment;
    ///
    /// assert_eq!(Alignment::new::<16>().mask(), !0xf);
    /// assert_eq!(Alignment::new::<1>().mask(), usize::MAX);
    /// ```
    #[inline(always)]
    pub const fn mask(self) -> usize {
        // Cannot underflow: the alignment is at least 1.
        !(self.as_usize() - 1)
    }
}

/// Integers that can be aligned to an [`Alignment`].
///
/// Implemented for `u8`, `u16`, `u32`, `u64` and `usize`. An alignment wider than the type
/// (`Alignment::new::<0x100>()` for a `u8`) aligns everything down to 0, and only 0 up.
///
/// # Examples
///
/// ```
/// use kernel_core::ptr::{Alignable, Alignment};
///
/// let sixteen = Alignment::new::<16>();
/// assert_eq!(0x2f_u8.align_down(sixteen), 0x20);
/// assert_eq!(0x2f_u8.align_up(sixteen), Some(0x30));
/// assert_eq!(0xf1_u8.align_up(sixteen), None);
/// ```
pub trait Alignable: Sized {
    /// `self` rounded down to a multiple of `alignment`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::ptr::{Alignable, Alignment};
    ///
    /// assert_eq!(0x1fff_usize.align_down(Alignment::new::<0x1000>()), 0x1000);
    /// assert_eq!(0x2000_usize.align_down(Alignment::new::<0x1000>()), 0x2000);
    /// assert_eq!(0xff_u8.align_down(Alignment::new::<0x1000>()), 0);
    /// ```
    fn align_down(self, alignment: Alignment) -> Self;

    /// `self` rounded up to a multiple of `alignment`, or `None` if that does not fit in
    /// `Self`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::ptr::{Alignable, Alignment};
    ///
    /// assert_eq!(0x1001_u32.align_up(Alignment::new::<0x1000>()), Some(0x2000));
    /// assert_eq!(0x1000_u32.align_up(Alignment::new::<0x1000>()), Some(0x1000));
    /// assert_eq!(0_u8.align_up(Alignment::new::<0x100>()), Some(0));
    /// assert_eq!(1_u8.align_up(Alignment::new::<0x100>()), None);
    /// assert_eq!(u16::MAX.align_up(Alignment::new::<2>()), None);
    /// ```
    fn align_up(self, alignment: Alignment) -> Option<Self>;
}

/// Implements [`Alignable`] for unsigned integers.
///
/// Both methods work on `low`, the bits below the alignment (`alignment - 1`) as a `Self`. An
/// alignment too wide for `Self` makes `low` all ones, so `align_down` gives 0 and `align_up`
/// gives `Some(0)` for 0 and `None` for anything else: exactly right for an alignment that
/// `Self` cannot hold.
macro_rules! impl_alignable {
    ($($ty:ty),*) => {$(
        impl Alignable for $ty {
            #[inline(always)]
            fn align_down(self, alignment: Alignment) -> Self {
                let low = <$ty>::try_from(alignment.as_usize() - 1).unwrap_or(<$ty>::MAX);
                self & !low
            }

            #[inline(always)]
            fn align_up(self, alignment: Alignment) -> Option<Self> {
                let low = <$ty>::try_from(alignment.as_usize() - 1).unwrap_or(<$ty>::MAX);
                // An aligned value never overflows here: `Self::MAX - low` is itself aligned.
                let (bumped, overflowed) = self.overflowing_add(low);
                if overflowed {
                    None
                } else {
                    Some(bumped & !low)
                }
            }
        }
    )*};
}

impl_alignable!(u8, u16, u32, u64, usize);

/// `value` rounded up to a multiple of `align`, or `None` on overflow; usable in const
/// contexts.
///
/// The const counterpart of [`Alignable::align_up`] for `usize`.
///
/// # Examples
///
/// ```
/// use kernel_core::ptr::{const_align_up, Alignment};
/// use kernel_core::sizes::SZ_4K;
///
/// const RESERVED: usize = match const_align_up(5000, Alignment::new::<SZ_4K>()) {
///     Some(bytes) => bytes,
///     None => panic!("overflow"),
/// };
/// assert_eq!(RESERVED, 2 * SZ_4K);
/// assert_eq!(const_align_up(0, Alignment::new::<SZ_4K>()), Some(0));
/// assert_eq!(const_align_up(usize::MAX, Alignment::new::<2>()), None);
/// ```
#[inline(always)]
pub const fn const_align_up(value: usize, align: Alignment) -> Option<usize> {
    match value.checked_add(align.as_usize() - 1) {
        Some(bumped) => Some(bumped & align.mask()),
        None => None,
    }
}

/// Types whose size in bytes follows from a pointer to them: `size_of` for sized types, and
/// length times element size for slices.
///
/// # Examples
///
/// ```
/// use kernel_core::ptr::KnownSize;
///
/// let words = [0_u32; 5];
/// assert_eq!(<[u32] as KnownSize>::size(&words[..]), 20);
/// assert_eq!(<u64 as KnownSize>::size(&0), 8);
/// assert_eq!(<[u32] as KnownSize>::MIN_SIZE, 0);
/// assert_eq!(<[u32] as KnownSize>::MIN_ALIGN.as_usize(), 4);
/// assert_eq!(<u64 as KnownSize>::MIN_SIZE, 8);
/// ```
pub trait KnownSize {
    /// The smallest size an object of this type can have: its size for a sized type, 0 for a
    /// slice.
    const MIN_SIZE: usize;

    /// The alignment every object of this type has: the alignment of the type, or of the
    /// slice's element.
    const MIN_ALIGN: Alignment;

    /// The size in bytes of the object `p` points to (`p` need not be dereferenceable: only
    /// its metadata is read).
    fn size(p: *const Self) -> usize;
}

impl<T> KnownSize for T {
    const MIN_SIZE: usize = size_of::<T>();
    const MIN_ALIGN: Alignment = Alignment::of::<T>();

    #[inline(always)]
    fn size(_: *const Self) -> usize {
        size_of::<T>()
    }
}

impl<T> KnownSize for [T] {
    const MIN_SIZE: usize = 0;
    const MIN_ALIGN: Alignment = Alignment::of::<T>();

    #[inline(always)]
    fn size(p: *const Self) -> usize {
        p.len() * size_of::<T>()
    }
}

/// Projects a raw pointer onto a field or an element of what it points to, without
/// dereferencing it: `ptr::project!(ptr, .field[try: index].0)`.
///
/// Kernel counterpart: `kernel::ptr::project!` (`rust/kernel/ptr/projection.rs`, Linux 7.3),
/// also at the crate root as `project_pointer!`.
///
/// The pointer need not be valid, so it may point into I/O memory or nowhere; if it is valid,
/// the projection is valid too, with the same provenance. `ptr::project!(mut ptr, ...)` gives
/// a `*mut`, `ptr::project!(ptr, ...)` a `*const`. The projections, one after the other:
///
/// - `.field` (or `.0` for a tuple field): the field of a struct, a union or a tuple. A field
///   that may be unaligned (of a `#[repr(packed)]` struct) and a type that implements `Deref`
///   (whose fields live elsewhere) fail the build.
/// - `[try: index]`: an element (`usize`) or a subslice (`a..b`, `..b`, `a..`, `..`) of an
///   array or a slice; out of bounds, `?` returns [`OutOfBound`](projection::OutOfBound), which
///   converts into `ERANGE`.
/// - `[panic: index]`: the same; out of bounds, panics as slice indexing does.
/// - `[build: index]`: the same; an index the compiler cannot prove in bounds fails the build
///   (see [`build_error!`](crate::build_error!)).
///
/// # Examples
///
/// ```
/// use kernel_core::error::{code::ERANGE, Result};
/// use kernel_core::ptr;
///
/// #[repr(C)]
/// struct Queue {
///     head: u32,
///     slots: [(u16, u16); 8],
/// }
///
/// fn slot_len(queue: *mut Queue, index: usize) -> Result<*mut u16> {
///     Ok(ptr::project!(mut queue, .slots[try: index].1))
/// }
///
/// let mut queue = Queue { head: 0, slots: [(0, 0); 8] };
/// let len = slot_len(&raw mut queue, 3)?;
/// // SAFETY: `len` is a projection of a valid pointer, so it is valid.
/// unsafe { len.write(512) };
/// assert_eq!(queue.slots[3], (0, 512));
/// assert_eq!(slot_len(&raw mut queue, 8).err(), Some(ERANGE));
///
/// // Only addresses are computed: the pointer may point nowhere.
/// let nowhere: *const Queue = core::ptr::without_provenance(0x1000);
/// let head: *const u32 = ptr::project!(nowhere, .head);
/// let last: *const (u16, u16) = ptr::project!(nowhere, .slots[build: 7]);
/// assert_eq!((head.addr(), last.addr()), (0x1000, 0x1000 + 4 + 7 * 4));
/// # Ok::<(), kernel_core::error::Error>(())
/// ```
///
/// Out of bounds, `[panic: index]` panics:
///
/// ```should_panic
/// let array: *const [u8; 4] = core::ptr::dangling();
/// let _ = kernel_core::ptr::project!(array, [panic: 4]); // index out of bounds
/// ```
///
/// A field reached through `Deref` does not build:
///
/// ```compile_fail
/// struct Wrapper(u32);
/// impl core::ops::Deref for Wrapper {
///     type Target = u32;
///     fn deref(&self) -> &u32 {
///         &self.0
///     }
/// }
/// let wrapper: *const Wrapper = core::ptr::dangling();
/// let _ = kernel_core::ptr::project!(wrapper, .0); // error[E0283]: type annotations needed
/// ```
#[macro_export]
macro_rules! project_pointer {
    // The projections, one at a time, each rebinding `$ptr`.
    (@step $ptr:ident,) => {};
    (@step $ptr:ident, . $field:tt $($rest:tt)*) => {
        // SAFETY: The closure returns a pointer to a field of the place it is given, inside it.
        let $ptr = unsafe {
            $crate::ptr::projection::ProjectField::proj($ptr, #[inline(always)] |place| {
                // Never run: borrowing the field fails the build if it may be unaligned
                // (`#[repr(packed)]`), which not every user of a projection can handle.
                if false {
                    let _ = &(*place).$field;
                }
                // SAFETY: `place` points to a valid allocation (`ProjectField`'s contract), and
                // the field is a place inside it: no `Deref` can intervene, since for a type
                // that implements it `ProjectField`'s `DEREF` cannot be inferred.
                &raw mut (*place).$field
            })
        };
        $crate::project_pointer!(@step $ptr, $($rest)*)
    };
    (@step $ptr:ident, [try: $index:expr] $($rest:tt)*) => {
        let $ptr = $crate::ptr::projection::ProjectIndex::get($index, $ptr)
            .ok_or($crate::ptr::projection::OutOfBound)?;
        $crate::project_pointer!(@step $ptr, $($rest)*)
    };
    (@step $ptr:ident, [panic: $index:expr] $($rest:tt)*) => {
        let $ptr = $crate::ptr::projection::ProjectIndex::index($index, $ptr);
        $crate::project_pointer!(@step $ptr, $($rest)*)
    };
    (@step $ptr:ident, [build: $index:expr] $($rest:tt)*) => {
        let $ptr = $crate::ptr::projection::ProjectIndex::build_index($index, $ptr);
        $crate::project_pointer!(@step $ptr, $($rest)*)
    };
    (mut $ptr:expr, $($projection:tt)*) => {{
        let ptr: *mut _ = $ptr;
        $crate::project_pointer!(@step ptr, $($projection)*);
        ptr
    }};
    ($ptr:expr, $($projection:tt)*) => {{
        // Projected as `*mut`, as the kernel does, and returned as `*const`.
        let ptr = <*const _>::cast_mut($ptr);
        $crate::project_pointer!(@step ptr, $($projection)*);
        ptr.cast_const()
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_power_of_two_is_an_alignment() {
        for shift in 0..usize::BITS {
            let align = Alignment::new_checked(1 << shift).unwrap();
            assert_eq!(align.as_usize(), 1 << shift);
            assert_eq!(align.as_nonzero().get(), 1 << shift);
            assert_eq!(align.log2(), shift);
            assert_eq!(align.mask(), usize::MAX << shift);
            assert_eq!(const_align_up(0, align), Some(0));
            assert_eq!(const_align_up(1, align), Some(1 << shift));
            assert_eq!(
                const_align_up(usize::MAX & align.mask(), align),
                Some(usize::MAX & align.mask())
            );
        }
        assert_eq!(Alignment::new_checked(0), None);
        assert_eq!(Alignment::new_checked(usize::MAX), None);
        assert_eq!(Alignment::new_checked(3), None);
    }

    #[test]
    fn alignments_wider_than_the_type() {
        let wide = Alignment::new::<0x1_0000>();
        assert_eq!(u8::MAX.align_down(wide), 0);
        assert_eq!(0_u8.align_up(wide), Some(0));
        assert_eq!(1_u8.align_up(wide), None);
        assert_eq!(u16::MAX.align_down(wide), 0);
        assert_eq!(1_u16.align_up(wide), None);
        assert_eq!(1_u32.align_up(wide), Some(0x1_0000));
    }

    #[test]
    fn of_matches_align_of() {
        assert_eq!(Alignment::of::<u8>().as_usize(), 1);
        assert_eq!(Alignment::of::<u64>().as_usize(), align_of::<u64>());
        assert_eq!(Alignment::of::<[u16; 3]>().as_usize(), 2);
        #[repr(align(4096))]
        struct Page;
        assert_eq!(Alignment::of::<Page>().as_usize(), 4096);
    }

    #[test]
    fn known_size_of_slices() {
        let empty: [u64; 0] = [];
        assert_eq!(<[u64] as KnownSize>::size(&empty[..]), 0);
        assert_eq!(<[u8] as KnownSize>::size(&[1, 2, 3][..]), 3);
        assert_eq!(<() as KnownSize>::size(&()), 0);
    }
}
