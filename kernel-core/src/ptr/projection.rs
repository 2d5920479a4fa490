// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The machinery of [`ptr::project!`](crate::ptr::project): projecting a raw pointer onto a
//! field or an element of what it points to, without dereferencing it.
//!
//! Kernel counterpart: `rust/kernel/ptr/projection.rs` (Linux 7.3). The traits here are hidden
//! helpers of the macro, as in the kernel; [`OutOfBound`] is the error of a fallible index
//! projection.

use core::mem::MaybeUninit;
use core::ops::{Deref, Range, RangeFrom, RangeFull, RangeTo};

use crate::error::{code::ERANGE, Error};

/// The error of an index projection (`[try: index]`) past the end of an array or a slice; it
/// converts into [`ERANGE`], so `?` propagates it from a function that returns a
/// [`Result`](crate::error::Result).
///
/// # Examples
///
/// ```
/// use kernel_core::error::{code::ERANGE, Error};
/// use kernel_core::ptr::projection::OutOfBound;
///
/// assert_eq!(Error::from(OutOfBound), ERANGE);
/// ```
pub struct OutOfBound;

impl From<OutOfBound> for Error {
    #[inline(always)]
    fn from(_: OutOfBound) -> Self {
        ERANGE
    }
}

/// A slice of `len` zero-sized elements, for which Rust's own indexing checks bounds and words
/// its panics: index projections panic exactly as indexing a slice of that length does.
#[inline(always)]
fn bounds_of(len: usize) -> &'static [()] {
    // SAFETY: A non-null, aligned pointer is valid for any number of zero-sized reads, and
    // `()` has no invalid values; nothing is ever written.
    unsafe { core::slice::from_raw_parts(core::ptr::NonNull::<()>::dangling().as_ptr(), len) }
}

/// How an index (`usize` or a range) projects a pointer to an array or a slice onto an element
/// or a subslice.
///
/// # Safety
///
/// For a pointer `slice`, every pointer that `get` (when `Some`), `index` and `build_index`
/// return has `slice`'s provenance and lies inside it: its byte offset from `slice` is in
/// `0..=KnownSize::size(slice) - KnownSize::size(output)`. So a projection of a valid pointer
/// is valid.
#[diagnostic::on_unimplemented(message = "`{Self}` cannot be used to index `{T}`")]
#[doc(hidden)]
pub unsafe trait ProjectIndex<T: ?Sized>: Sized {
    /// What the index selects: an element, or a slice.
    type Output: ?Sized;

    /// The projection, or `None` out of bounds.
    fn get(self, slice: *mut T) -> Option<*mut Self::Output>;

    /// The projection; out of bounds, panics as slice indexing does.
    fn index(self, slice: *mut T) -> *mut Self::Output;

    /// The projection, which the compiler must prove in bounds: otherwise the build fails
    /// (see [`build_error!`](crate::build_error!)).
    #[inline(always)]
    fn build_index(self, slice: *mut T) -> *mut Self::Output {
        match self.get(slice) {
            Some(projected) => projected,
            None => crate::build_error!(),
        }
    }
}

// SAFETY: An array is a slice of `N` elements: the slice's projections are inside it.
unsafe impl<T, I, const N: usize> ProjectIndex<[T; N]> for I
where
    I: ProjectIndex<[T]>,
{
    type Output = I::Output;

    #[inline(always)]
    fn get(self, array: *mut [T; N]) -> Option<*mut Self::Output> {
        ProjectIndex::<[T]>::get(self, array as *mut [T])
    }

    #[inline(always)]
    fn index(self, array: *mut [T; N]) -> *mut Self::Output {
        ProjectIndex::<[T]>::index(self, array as *mut [T])
    }

    #[inline(always)]
    fn build_index(self, array: *mut [T; N]) -> *mut Self::Output {
        ProjectIndex::<[T]>::build_index(self, array as *mut [T])
    }
}

// SAFETY: Element `self` is inside the slice when `self < len`, which `get` checks and `index`
// has Rust's indexing check; the pointer is derived from `slice` with `wrapping_add`.
unsafe impl<T> ProjectIndex<[T]> for usize {
    type Output = T;

    #[inline(always)]
    fn get(self, slice: *mut [T]) -> Option<*mut T> {
        (self < slice.len()).then(|| slice.cast::<T>().wrapping_add(self))
    }

    #[inline(always)]
    fn index(self, slice: *mut [T]) -> *mut T {
        let () = bounds_of(slice.len())[self];
        slice.cast::<T>().wrapping_add(self)
    }
}

// SAFETY: `start..end` is inside the slice when `start <= end <= len`, which `get` checks and
// `index` has Rust's indexing check; the pointer is derived from `slice`.
unsafe impl<T> ProjectIndex<[T]> for Range<usize> {
    type Output = [T];

    #[inline(always)]
    fn get(self, slice: *mut [T]) -> Option<*mut [T]> {
        let len = self.end.checked_sub(self.start)?;
        if self.end > slice.len() {
            return None;
        }
        Some(core::ptr::slice_from_raw_parts_mut(
            slice.cast::<T>().wrapping_add(self.start),
            len,
        ))
    }

    #[inline(always)]
    fn index(self, slice: *mut [T]) -> *mut [T] {
        let _ = &bounds_of(slice.len())[self.clone()];
        core::ptr::slice_from_raw_parts_mut(
            slice.cast::<T>().wrapping_add(self.start),
            self.end - self.start,
        )
    }
}

// SAFETY: The same as `0..end`.
unsafe impl<T> ProjectIndex<[T]> for RangeTo<usize> {
    type Output = [T];

    #[inline(always)]
    fn get(self, slice: *mut [T]) -> Option<*mut [T]> {
        (0..self.end).get(slice)
    }

    #[inline(always)]
    fn index(self, slice: *mut [T]) -> *mut [T] {
        (0..self.end).index(slice)
    }
}

// SAFETY: The same as `start..len`.
unsafe impl<T> ProjectIndex<[T]> for RangeFrom<usize> {
    type Output = [T];

    #[inline(always)]
    fn get(self, slice: *mut [T]) -> Option<*mut [T]> {
        (self.start..slice.len()).get(slice)
    }

    #[inline(always)]
    fn index(self, slice: *mut [T]) -> *mut [T] {
        (self.start..slice.len()).index(slice)
    }
}

// SAFETY: The whole slice is the slice itself.
unsafe impl<T> ProjectIndex<[T]> for RangeFull {
    type Output = [T];

    #[inline(always)]
    fn get(self, slice: *mut [T]) -> Option<*mut [T]> {
        Some(slice)
    }

    #[inline(always)]
    fn index(self, slice: *mut [T]) -> *mut [T] {
        slice
    }
}

/// Projects a pointer to a `Self` onto one of its fields.
///
/// `DEREF` is never written by users: it is inferred. Every type implements the trait with
/// `DEREF = false`, and types that implement [`Deref`] also with `DEREF = true`, so for them
/// the inference is ambiguous and the projection does not build: a field reached through
/// `Deref` would not be inside the pointed-to memory.
///
/// # Safety
///
/// `proj` calls `f` with a pointer to a valid allocation of a `Self` only, so that `f` may take
/// the address of a field with `&raw mut (*ptr).field`.
#[doc(hidden)]
pub unsafe trait ProjectField<const DEREF: bool> {
    /// The pointer to the field that `f` selects, at the same offset from `base` as from the
    /// `Self` that `f` is given.
    ///
    /// # Safety
    ///
    /// `f` must return a pointer inside the allocation it is given.
    unsafe fn proj<F>(base: *mut Self, f: impl FnOnce(*mut Self) -> *mut F) -> *mut F;
}

// Sized types only: a place for an unsized `Self` cannot be made.
//
// SAFETY: `f` is called with a pointer to `place`, a valid (uninitialized) `Self` on the stack.
unsafe impl<T> ProjectField<false> for T {
    #[inline(always)]
    unsafe fn proj<F>(base: *mut Self, f: impl FnOnce(*mut Self) -> *mut F) -> *mut F {
        // `base` may point anywhere (I/O memory, or nowhere): the field's offset is measured on
        // a place of our own, which the optimizer removes, since only addresses are taken.
        let mut place = MaybeUninit::<T>::uninit();
        let start = place.as_mut_ptr();
        let field = f(start);
        // SAFETY: The caller promises that `field` is inside the allocation of `place`, which
        // `start` points to.
        let offset = unsafe { field.byte_offset_from(start) };
        base.wrapping_byte_offset(offset).cast()
    }
}

// SAFETY: `proj` never calls `f`: it cannot be reached, since the ambiguity between the two
// implementations fails the build first.
unsafe impl<T: Deref> ProjectField<true> for T {
    #[inline(always)]
    unsafe fn proj<F>(_: *mut Self, _: impl FnOnce(*mut Self) -> *mut F) -> *mut F {
        crate::build_error!("ptr::project!: a field projection never goes through `Deref`")
    }
}
