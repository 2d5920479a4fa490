// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! [`Vec`]: a growable array on the heap of one of the kernel's allocators, and [`kvec!`].
//!
//! Kernel counterpart: `rust/kernel/alloc/kvec.rs` and `kvec/errors.rs` (Linux 7.3).
//!
//! [`kvec!`]: crate::kvec!

use core::borrow::{Borrow, BorrowMut};
use core::fmt;
use core::marker::PhantomData;
use core::mem::{ManuallyDrop, MaybeUninit};
use core::ops::{Deref, DerefMut, Index, IndexMut};
use core::ptr::{self, NonNull};
use core::slice::{self, SliceIndex};

use pin_init::Zeroable;

#[allow(unused_imports)] // For the documentation's links.
use super::allocator::Vmalloc;
use super::allocator::{KVmalloc, Kmalloc};
use super::backend::{self, PAGE_SIZE};
use super::flags::__GFP_ZERO;
use super::layout::ArrayLayout;
use super::{AllocError, Allocator, Box, Flags, NumaNode};

#[path = "../../kvec_errors.rs"]
mod errors;
pub use self::errors::{InsertError, PushError, RemoveError};

/// A [`KVec`] of the arguments, allocated with `GFP_KERNEL`.
///
/// `kvec![]` is an empty vector (no allocation, so no `Result`); `kvec![elem; n]` and
/// `kvec![a, b, c]` return a `Result<KVec<T>, AllocError>`. As in the kernel, the macro names
/// `GFP_KERNEL` as the caller sees it: import it (the prelude does).
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// let mut v = kernel_core::kvec![];
/// v.push(1, GFP_KERNEL)?;
/// assert_eq!(v, [1]);
///
/// let mut v = kernel_core::kvec![1; 3]?;
/// v.push(4, GFP_KERNEL)?;
/// assert_eq!(v, [1, 1, 1, 4]);
///
/// let mut v = kernel_core::kvec![1, 2, 3]?;
/// v.push(4, GFP_KERNEL)?;
/// assert_eq!(v, [1, 2, 3, 4]);
/// # Ok::<(), Error>(())
/// ```
#[macro_export]
macro_rules! kvec {
    () => (
        $crate::alloc::KVec::new()
    );
    ($elem:expr; $n:expr) => (
        $crate::alloc::KVec::from_elem($elem, $n, GFP_KERNEL)
    );
    ($($x:expr),+ $(,)?) => (
        match $crate::alloc::KBox::new_uninit(GFP_KERNEL) {
            Ok(b) => Ok($crate::alloc::KVec::from($crate::alloc::KBox::write(b, [$($x),+]))),
            Err(e) => Err(e),
        }
    );
}

/// The kernel's `Vec`: a contiguous, growable array of `T` on the heap of the allocator `A`.
///
/// Every method that may allocate takes [`Flags`] and returns a `Result`. For the usual
/// allocators, [`KVec`], [`VVec`] and [`KVVec`] are the short names.
///
/// A `Vec` is a pointer to its buffer, a capacity (how many elements fit before it must
/// reallocate) and a length (how many it holds). It can be taken apart into these raw parts
/// ([`Vec::into_raw_parts`]) and made again from them ([`Vec::from_raw_parts`]). Elements of a
/// zero-sized type take no memory: the pointer is dangling and the capacity `usize::MAX`.
///
/// When an element no longer fits, the buffer is reallocated to twice the capacity, or to what
/// is needed if that is more.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// let mut v = KVec::new();
/// v.push(1, GFP_KERNEL)?;
/// v.extend_from_slice(&[2, 3], GFP_KERNEL)?;
/// assert_eq!(v.pop(), Some(3));
/// assert_eq!(v, [1, 2]);
/// assert_eq!(v.iter().sum::<i32>(), 3);
/// # Ok::<(), Error>(())
/// ```
///
/// # Invariants
///
/// - `self.ptr` is always properly aligned, and points to memory allocated with `A`, or, for a
///   zero-sized `T` or an empty layout, is a dangling, well-aligned pointer.
/// - `self.len` is the number of elements the vector holds, initialised, at the start of the
///   buffer.
/// - `self.layout` says how many elements fit in the buffer without reallocating (none for a
///   zero-sized `T`); the buffer may be larger.
/// - `self.len() <= self.capacity()`.
/// - The buffer was allocated with `A` (and is freed with it).
pub struct Vec<T, A: Allocator> {
    ptr: NonNull<T>,
    /// The buffer's size: `cap` elements of `T`.
    ///
    /// Not [`Vec::capacity`] for zero-sized types, whose capacity is `usize::MAX`.
    layout: ArrayLayout<T>,
    len: usize,
    _p: PhantomData<A>,
}

/// A [`Vec`] whose buffer comes from [`Kmalloc`].
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// let mut v = KVec::new();
/// v.push(1, GFP_KERNEL)?;
/// assert_eq!(&v, &[1]);
/// # Ok::<(), Error>(())
/// ```
pub type KVec<T> = Vec<T, Kmalloc>;

/// A [`Vec`] whose buffer comes from [`Vmalloc`].
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// let mut v = VVec::new();
/// v.push(1, GFP_KERNEL)?;
/// assert_eq!(&v, &[1]);
/// # Ok::<(), Error>(())
/// ```
pub type VVec<T> = Vec<T, super::allocator::Vmalloc>;

/// A [`Vec`] whose buffer comes from [`KVmalloc`].
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// let mut v = KVVec::new();
/// v.push(1, GFP_KERNEL)?;
/// assert_eq!(&v, &[1]);
/// # Ok::<(), Error>(())
/// ```
pub type KVVec<T> = Vec<T, KVmalloc>;

// SAFETY: A `Vec` owns its elements, so sending the `Vec` sends them.
unsafe impl<T, A> Send for Vec<T, A>
where
    T: Send,
    A: Allocator,
{
}

// SAFETY: A `Vec` owns its elements, so sharing the `Vec` shares them.
unsafe impl<T, A> Sync for Vec<T, A>
where
    T: Sync,
    A: Allocator,
{
}

impl<T, A> Vec<T, A>
where
    A: Allocator,
{
    /// Whether `T` is zero-sized.
    #[inline]
    const fn is_zst() -> bool {
        core::mem::size_of::<T>() == 0
    }

    /// How many elements the vector holds without allocating: `usize::MAX` for a zero-sized
    /// `T`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// assert_eq!(KVec::<u8>::new().capacity(), 0);
    /// assert_eq!(KVec::<()>::new().capacity(), usize::MAX);
    /// assert!(KVec::<u8>::with_capacity(5, GFP_KERNEL)?.capacity() >= 5);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub const fn capacity(&self) -> usize {
        if const { Self::is_zst() } {
            usize::MAX
        } else {
            self.layout.len()
        }
    }

    /// The number of elements in the vector.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let v = kernel_core::kvec![7, 8]?;
    /// assert_eq!(v.len(), 2);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Adds `additional` to the length: the elements written in the spare capacity become part
    /// of the vector.
    ///
    /// # Safety
    ///
    /// - `additional <= self.capacity() - self.len()`.
    /// - The elements at `self.len()..self.len() + additional` are initialised.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = KVec::with_capacity(3, GFP_KERNEL)?;
    /// for (i, slot) in v.spare_capacity_mut().iter_mut().take(3).enumerate() {
    ///     slot.write(i * 10);
    /// }
    /// // SAFETY: The capacity is at least 3, and the first three spare elements were written.
    /// unsafe { v.inc_len(3) };
    /// assert_eq!(v, [0, 10, 20]);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub const unsafe fn inc_len(&mut self, additional: usize) {
        // The subtraction cannot underflow: the invariant says `len <= capacity`.
        debug_assert!(additional <= self.capacity() - self.len());
        // INVARIANT: The caller promises that the `additional` elements after the length are
        // initialised, and fit.
        self.len += additional;
    }

    /// Takes `count` elements off the end of the vector, and returns them: dropping them, if
    /// they need it, is the caller's task.
    ///
    /// # Safety
    ///
    /// `count <= self.len()`.
    unsafe fn dec_len(&mut self, count: usize) -> &mut [T] {
        debug_assert!(count <= self.len());
        // INVARIANT: The vector gives up the last `count` elements, so the length is again the
        // number of elements it holds.
        self.len -= count;
        // SAFETY: The `count` elements after the new length are initialised and in the buffer,
        // and nothing else refers to them.
        unsafe { slice::from_raw_parts_mut(self.as_mut_ptr().add(self.len), count) }
    }

    /// The vector's elements, as a slice.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = KVec::new();
    /// v.push(1, GFP_KERNEL)?;
    /// v.push(2, GFP_KERNEL)?;
    /// assert_eq!(v.as_slice(), &[1, 2]);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        self
    }

    /// The vector's elements, as a mutable slice.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = kernel_core::kvec![3, 1, 2]?;
    /// v.as_mut_slice().sort_unstable();
    /// assert_eq!(v, [1, 2, 3]);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }

    /// A mutable raw pointer to the buffer (dangling for a zero-sized `T` or no capacity).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = kernel_core::kvec![1_u8, 2]?;
    /// // SAFETY: The vector holds two elements.
    /// unsafe { *v.as_mut_ptr().add(1) = 5 };
    /// assert_eq!(v, [1, 5]);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn as_mut_ptr(&mut self) -> *mut T {
        self.ptr.as_ptr()
    }

    /// A raw pointer to the buffer (dangling for a zero-sized `T` or no capacity).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let v = kernel_core::kvec![1_u8, 2]?;
    /// // SAFETY: The vector holds two elements.
    /// assert_eq!(unsafe { *v.as_ptr().add(1) }, 2);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub const fn as_ptr(&self) -> *const T {
        self.ptr.as_ptr()
    }

    /// Whether the vector has no elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = KVec::new();
    /// assert!(v.is_empty());
    /// v.push(1, GFP_KERNEL)?;
    /// assert!(!v.is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// An empty vector. It allocates nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// const EMPTY: KVec<u32> = KVec::new();
    /// assert!(EMPTY.is_empty());
    /// ```
    #[inline]
    pub const fn new() -> Self {
        // INVARIANT: No buffer: the pointer is dangling and aligned, the layout empty, and the
        // vector holds nothing.
        Self {
            ptr: NonNull::dangling(),
            layout: ArrayLayout::empty(),
            len: 0,
            _p: PhantomData::<A>,
        }
    }

    /// The spare capacity: the elements after the length, uninitialised.
    ///
    /// Write elements there, then [`Vec::inc_len`] makes them part of the vector.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = KVec::<u32>::with_capacity(4, GFP_KERNEL)?;
    /// v.push(1, GFP_KERNEL)?;
    /// assert_eq!(v.spare_capacity_mut().len(), v.capacity() - 1);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn spare_capacity_mut(&mut self) -> &mut [MaybeUninit<T>] {
        // SAFETY: `self.len <= capacity`, so the pointer stays within the buffer (or one past
        // its end), an offset that fits in an `isize` (the buffer does).
        let ptr = unsafe { self.as_mut_ptr().add(self.len) }.cast::<MaybeUninit<T>>();
        // SAFETY: The elements from the length to the capacity are allocated, uninitialised
        // memory the vector owns (for a zero-sized `T`, `usize::MAX - len` of them, which take no
        // memory).
        unsafe { slice::from_raw_parts_mut(ptr, self.capacity() - self.len) }
    }

    /// Appends `v`, growing the buffer if it is full.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = KVec::new();
    /// v.push(1, GFP_KERNEL)?;
    /// assert_eq!(&v, &[1]);
    /// v.push(2, GFP_KERNEL)?;
    /// assert_eq!(&v, &[1, 2]);
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    pub fn push(&mut self, v: T, flags: Flags) -> Result<(), AllocError> {
        self.reserve(1, flags)?;
        // SAFETY: `reserve` succeeded, so there is room for one more element.
        unsafe { self.push_within_capacity_unchecked(v) };
        Ok(())
    }

    /// Appends `v` if it fits without allocating; otherwise hands it back in a [`PushError`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = KVec::with_capacity(10, GFP_KERNEL)?;
    /// for i in 0..10 {
    ///     v.push_within_capacity(i)?;
    /// }
    /// assert!(v.push_within_capacity(10).is_err());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn push_within_capacity(&mut self, v: T) -> Result<(), PushError<T>> {
        if self.len() < self.capacity() {
            // SAFETY: Just checked.
            unsafe { self.push_within_capacity_unchecked(v) };
            Ok(())
        } else {
            Err(PushError(v))
        }
    }

    /// Appends `v`, which fits.
    ///
    /// # Safety
    ///
    /// `self.len() < self.capacity()`.
    unsafe fn push_within_capacity_unchecked(&mut self, v: T) {
        let spare = self.spare_capacity_mut();
        // SAFETY: The caller promises room for one element, so `spare` is not empty.
        unsafe { spare.get_unchecked_mut(0) }.write(v);
        // SAFETY: The element at the length was just written, and fits.
        unsafe { self.inc_len(1) };
    }

    /// Inserts `element` at `index`, moving the elements from `index` on up by one, if it fits
    /// without allocating.
    ///
    /// Hands the element back in an [`InsertError`] if `index` is past the length or the
    /// vector is full.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::alloc::kvec::InsertError;
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = KVec::with_capacity(5, GFP_KERNEL)?;
    /// for i in 0..5 {
    ///     v.insert_within_capacity(0, i)?;
    /// }
    /// assert!(matches!(v.insert_within_capacity(0, 5), Err(InsertError::OutOfCapacity(_))));
    /// assert!(matches!(v.insert_within_capacity(1000, 5), Err(InsertError::IndexOutOfBounds(_))));
    /// assert_eq!(v, [4, 3, 2, 1, 0]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn insert_within_capacity(
        &mut self,
        index: usize,
        element: T,
    ) -> Result<(), InsertError<T>> {
        let len = self.len();
        if index > len {
            return Err(InsertError::IndexOutOfBounds(element));
        }
        if len >= self.capacity() {
            return Err(InsertError::OutOfCapacity(element));
        }

        // SAFETY: `index <= len < capacity`, so within the buffer.
        let at = unsafe { self.as_mut_ptr().add(index) };
        // INVARIANT: The element at `index` is a stale copy after this, until the write below.
        // SAFETY: Both ranges end at most one element past the length, within the capacity.
        unsafe { ptr::copy(at, at.add(1), len - index) };
        // INVARIANT: The elements are valid again, one more of them.
        // SAFETY: `at` is within the buffer.
        unsafe { ptr::write(at, element) };
        // SAFETY: The element at the old length is valid (moved there above), and fits.
        unsafe { self.inc_len(1) };
        Ok(())
    }

    /// Removes the last element and returns it, or `None` if the vector is empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = KVec::new();
    /// v.push(1, GFP_KERNEL)?;
    /// v.push(2, GFP_KERNEL)?;
    /// assert_eq!(v.pop(), Some(2));
    /// assert_eq!(v.pop(), Some(1));
    /// assert_eq!(v.pop(), None);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn pop(&mut self) -> Option<T> {
        if self.is_empty() {
            return None;
        }
        let last: *mut T = {
            // SAFETY: The vector holds at least one element.
            let removed = unsafe { self.dec_len(1) };
            // SAFETY: `dec_len(1)` returned one element.
            unsafe { removed.get_unchecked_mut(0) }
        };
        // SAFETY: `dec_len` gave up the element to us.
        Some(unsafe { last.read() })
    }

    /// Removes the element at `i` and returns it, moving the elements after it down by one;
    /// [`RemoveError`] if `i` is out of bounds.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = kernel_core::kvec![1, 2, 3]?;
    /// assert_eq!(v.remove(1)?, 2);
    /// assert_eq!(v, [1, 3]);
    /// assert!(v.remove(2).is_err());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn remove(&mut self, i: usize) -> Result<T, RemoveError> {
        let value = {
            let element = self.get(i).ok_or(RemoveError)?;
            // INVARIANT: The element at `i` is moved out; the copy below closes the gap.
            // SAFETY: `element` is a valid element, read once and not dropped in place.
            unsafe { ptr::read(element) }
        };
        // SAFETY: `i < len`, so within the buffer.
        let at = unsafe { self.as_mut_ptr().add(i) };
        // INVARIANT: The stale element is now the last one, which `dec_len` gives up below.
        // SAFETY: The source ends at the length, the destination one before: both within the
        // buffer.
        unsafe { ptr::copy(at.add(1), at, self.len - i - 1) };
        // SAFETY: The vector holds at least one element: `i` was in bounds.
        unsafe { self.dec_len(1) };
        Ok(value)
    }

    /// A new vector with room for at least `capacity` elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let v = KVec::<u32>::with_capacity(20, GFP_KERNEL)?;
    /// assert!(v.capacity() >= 20);
    /// assert!(v.is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    pub fn with_capacity(capacity: usize, flags: Flags) -> Result<Self, AllocError> {
        let mut v = Vec::new();
        v.reserve(capacity, flags)?;
        Ok(v)
    }

    /// A new vector of `n` elements of all zero bits, allocated with [`__GFP_ZERO`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let v = KVec::<u32>::zeroed(20, GFP_KERNEL)?;
    /// assert_eq!(v.len(), 20);
    /// assert!(v.iter().all(|&x| x == 0));
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    pub fn zeroed(n: usize, flags: Flags) -> Result<Self, AllocError>
    where
        T: Zeroable,
    {
        let mut v = Self::with_capacity(n, flags | __GFP_ZERO)?;
        // SAFETY: The capacity is at least `n` and the length 0; `__GFP_ZERO` zeroed the buffer,
        // and all zero bits are a valid `T` (`T: Zeroable`).
        unsafe { v.inc_len(n) };
        Ok(v)
    }

    /// The vector of a buffer `ptr` of `A` with `capacity` elements, the first `length` of which
    /// are initialised: the inverse of [`Vec::into_raw_parts`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = kernel_core::kvec![1, 2, 3]?;
    /// v.reserve(1, GFP_KERNEL)?;
    /// let (ptr, mut len, cap) = v.into_raw_parts();
    /// // SAFETY: One more element was reserved.
    /// unsafe { ptr.add(len).write(4) };
    /// len += 1;
    /// // SAFETY: The raw parts of a `KVec`, with one more element written after its length.
    /// let v = unsafe { KVec::from_raw_parts(ptr, len, cap) };
    /// assert_eq!(v, [1, 2, 3, 4]);
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// # Safety
    ///
    /// For a zero-sized `T`: `ptr` is a dangling, well-aligned pointer.
    ///
    /// Otherwise:
    ///
    /// - `ptr` was allocated with the allocator `A`,
    /// - aligned at least as `T` requires,
    /// - for at least `size_of::<T>() * capacity` bytes,
    /// - and at most `isize::MAX` bytes;
    /// - `length <= capacity`;
    /// - the first `length` elements are initialised `T`s.
    ///
    /// A dangling pointer with a length and capacity of zero is also an (empty) vector.
    pub unsafe fn from_raw_parts(ptr: *mut T, length: usize, capacity: usize) -> Self {
        let layout = if Self::is_zst() {
            ArrayLayout::empty()
        } else {
            // SAFETY: The caller promises that the buffer, `capacity * size_of::<T>()` bytes,
            // is at most `isize::MAX` bytes long.
            unsafe { ArrayLayout::new_unchecked(capacity) }
        };
        // INVARIANT: An empty layout for a zero-sized `T`; the rest is what the caller promises.
        Self {
            // SAFETY: The caller promises a dangling or allocated pointer, so not null.
            ptr: unsafe { NonNull::new_unchecked(ptr) },
            layout,
            len: length,
            _p: PhantomData::<A>,
        }
    }

    /// The raw parts of the vector: its pointer, length and capacity, which it gives up.
    ///
    /// The elements are not dropped, and the buffer (unless `T` is zero-sized) stays allocated
    /// for good: [`Vec::from_raw_parts`] makes a vector of them again, which drops the elements
    /// and frees the buffer.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let v = kernel_core::kvec![7_u16; 2]?;
    /// let (ptr, len, cap) = v.into_raw_parts();
    /// assert_eq!(len, 2);
    /// // SAFETY: The raw parts of a `KVec`, unchanged.
    /// let v = unsafe { KVec::from_raw_parts(ptr, len, cap) };
    /// assert_eq!(v, [7, 7]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn into_raw_parts(self) -> (*mut T, usize, usize) {
        let mut me = ManuallyDrop::new(self);
        let len = me.len();
        let capacity = me.capacity();
        let ptr = me.as_mut_ptr();
        (ptr, len, capacity)
    }

    /// Drops every element. The capacity stays.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = kernel_core::kvec![1, 2, 3]?;
    /// let capacity = v.capacity();
    /// v.clear();
    /// assert!(v.is_empty());
    /// assert_eq!(v.capacity(), capacity);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn clear(&mut self) {
        self.truncate(0);
    }

    /// Makes room for at least `additional` more elements than the length: reallocates to twice
    /// the capacity, or to the length plus `additional` if that is more, unless they fit already.
    ///
    /// Fails with [`AllocError`] if the allocation does, or if the size would exceed
    /// `isize::MAX` bytes (for a zero-sized `T`: if the length plus `additional` overflows).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = KVec::new();
    /// v.push(1, GFP_KERNEL)?;
    /// v.reserve(10, GFP_KERNEL)?;
    /// let cap = v.capacity();
    /// assert!(cap >= v.len() + 10);
    ///
    /// v.reserve(10, GFP_KERNEL)?;
    /// assert_eq!(v.capacity(), cap);
    ///
    /// assert!(v.reserve(usize::MAX, GFP_KERNEL).is_err());
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    pub fn reserve(&mut self, additional: usize, flags: Flags) -> Result<(), AllocError> {
        let len = self.len();
        let cap = self.capacity();

        if cap - len >= additional {
            return Ok(());
        }
        if Self::is_zst() {
            // The capacity is `usize::MAX` already.
            return Err(AllocError);
        }

        // `cap * size_of::<T>() <= isize::MAX` (the layout's invariant) and `size_of::<T>() >= 1`,
        // so doubling `cap` does not overflow.
        let new_cap = core::cmp::max(cap * 2, len.checked_add(additional).ok_or(AllocError)?);
        let layout = ArrayLayout::new(new_cap).map_err(|_| AllocError)?;

        // SAFETY: `self.ptr` is dangling with an empty layout, or was allocated (or last
        // reallocated) with `A` and `self.layout`.
        let ptr = unsafe {
            A::realloc(
                Some(self.ptr.cast()),
                layout.into(),
                self.layout.into(),
                flags,
                NumaNode::NO_NODE,
            )?
        };

        // INVARIANT: `ptr` was allocated by `A::realloc` for `layout`, and holds the old
        // elements at its start.
        self.ptr = ptr.cast();
        self.layout = layout;
        Ok(())
    }

    /// Shortens the vector to `len` elements, dropping the rest; nothing happens if it is not
    /// longer than that.
    ///
    /// The capacity stays, and nothing is allocated.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = kernel_core::kvec![1, 2, 3]?;
    /// v.truncate(1);
    /// assert_eq!(v.len(), 1);
    /// assert_eq!(&v, &[1]);
    /// v.truncate(5);
    /// assert_eq!(&v, &[1]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn truncate(&mut self, len: usize) {
        if let Some(count) = self.len().checked_sub(len) {
            // SAFETY: `count = self.len() - len <= self.len()`.
            let tail: *mut [T] = unsafe { self.dec_len(count) };
            // SAFETY: `dec_len` gave up these valid elements to us.
            unsafe { ptr::drop_in_place(tail) };
        }
    }

    /// An iterator that takes every element out of the vector, from the first, and keeps the
    /// buffer. The elements the iterator does not yield are dropped with it.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = kernel_core::kvec![0, 1, 2, 3]?;
    /// for (i, j) in v.drain_all().enumerate() {
    ///     assert_eq!(i, j);
    /// }
    /// assert!(v.is_empty());
    /// assert!(v.capacity() >= 4);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn drain_all(&mut self) -> DrainAll<'_, T> {
        // SAFETY: `self.len() <= self.len()`.
        let elements = unsafe { self.dec_len(self.len()) };
        // INVARIANT: The vector's length is zero, so it gave up these valid elements to the
        // iterator.
        DrainAll {
            elements: elements.iter_mut(),
        }
    }

    /// Keeps the elements for which `f` returns `true`, in their order, and drops the others.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = kernel_core::kvec![1, 2, 3, 4]?;
    /// v.retain(|i| *i % 2 == 0);
    /// assert_eq!(v, [2, 4]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn retain(&mut self, mut f: impl FnMut(&mut T) -> bool) {
        let mut kept = 0;
        let mut next = 0;
        while let Some(element) = self.get_mut(next) {
            if f(element) {
                self.swap(kept, next);
                kept += 1;
            }
            next += 1;
        }
        self.truncate(kept);
    }
}

impl<T> Vec<T, KVmalloc> {
    /// Shrinks the capacity to `min_capacity`, or to the length if that is more; nothing
    /// happens if the capacity is not above that.
    ///
    /// A buffer from `kmalloc()` is reallocated to that size. A buffer from `vmalloc()` is copied
    /// into a new one (`vrealloc()` does not shrink in place), and only if that frees at least a
    /// page.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = KVVec::with_capacity(4096, GFP_KERNEL)?;
    /// v.push(1_u32, GFP_KERNEL)?;
    /// v.push(2, GFP_KERNEL)?;
    /// v.shrink_to(0, GFP_KERNEL)?;
    /// assert!(v.capacity() < 4096);
    /// assert_eq!(v, [1, 2]);
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    pub fn shrink_to(&mut self, min_capacity: usize, flags: Flags) -> Result<(), AllocError> {
        let target_cap = core::cmp::max(self.len(), min_capacity);
        if self.capacity() <= target_cap || Self::is_zst() {
            return Ok(());
        }

        if !backend::kvmalloc_is_vmalloc(self.layout.size()) {
            // `kmalloc()`'s buffer: `realloc` decides whether to shrink.
            let new_layout = ArrayLayout::<T>::new(target_cap).map_err(|_| AllocError)?;
            // SAFETY: `self.ptr` was allocated (or last reallocated) with `KVmalloc` and
            // `self.layout`.
            let ptr = unsafe {
                KVmalloc::realloc(
                    Some(self.ptr.cast()),
                    new_layout.into(),
                    self.layout.into(),
                    flags,
                    NumaNode::NO_NODE,
                )?
            };
            // INVARIANT: `ptr` holds the elements, in a buffer of `new_layout` from `KVmalloc`.
            self.ptr = ptr.cast();
            self.layout = new_layout;
            return Ok(());
        }

        // `vmalloc()`'s buffer: worth copying only if a page is freed.
        let current_pages = self.layout.size().div_ceil(PAGE_SIZE);
        let target_pages = (target_cap * core::mem::size_of::<T>()).div_ceil(PAGE_SIZE);
        if current_pages <= target_pages {
            return Ok(());
        }

        if target_cap == 0 {
            // SAFETY: `self.ptr` was allocated with `KVmalloc` and `self.layout`; the vector is
            // empty, and holds a dangling pointer from here on.
            unsafe { KVmalloc::free(self.ptr.cast(), self.layout.into()) };
            // INVARIANT: No buffer, no elements.
            self.ptr = NonNull::dangling();
            self.layout = ArrayLayout::empty();
            return Ok(());
        }

        // SAFETY: `target_cap` is below the capacity, whose size is at most `isize::MAX`.
        let new_layout = unsafe { ArrayLayout::<T>::new_unchecked(target_cap) };
        let new_ptr = KVmalloc::alloc(new_layout.into(), flags, NumaNode::NO_NODE)?;
        // SAFETY: The old buffer holds `self.len()` valid elements; the new one, a distinct
        // allocation aligned for `T`, has room for `target_cap >= self.len()` of them.
        unsafe {
            ptr::copy_nonoverlapping(self.as_ptr(), new_ptr.as_ptr().cast::<T>(), self.len())
        };
        // SAFETY: `self.ptr` was allocated with `KVmalloc` and `self.layout`; its elements were
        // moved out just above.
        unsafe { KVmalloc::free(self.ptr.cast(), self.layout.into()) };
        // INVARIANT: The elements are in the new buffer of `new_layout`, from `KVmalloc`.
        self.ptr = new_ptr.cast::<T>();
        self.layout = new_layout;
        Ok(())
    }
}

impl<T: Clone, A: Allocator> Vec<T, A> {
    /// Appends `n` clones of `value` (the last one `value` itself).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = KVec::new();
    /// v.push(1, GFP_KERNEL)?;
    /// v.extend_with(3, 5, GFP_KERNEL)?;
    /// assert_eq!(&v, &[1, 5, 5, 5]);
    /// v.extend_with(2, 8, GFP_KERNEL)?;
    /// assert_eq!(&v, &[1, 5, 5, 5, 8, 8]);
    /// v.extend_with(0, 3, GFP_KERNEL)?;
    /// assert_eq!(&v, &[1, 5, 5, 5, 8, 8]);
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    pub fn extend_with(&mut self, n: usize, value: T, flags: Flags) -> Result<(), AllocError> {
        if n == 0 {
            return Ok(());
        }
        self.reserve(n, flags)?;

        let spare = self.spare_capacity_mut();
        for slot in spare.iter_mut().take(n - 1) {
            slot.write(value.clone());
        }
        // The last one needs no clone.
        spare[n - 1].write(value);

        // SAFETY: `reserve` made room for `n` elements, and the `n` after the length were just
        // written.
        unsafe { self.inc_len(n) };
        Ok(())
    }

    /// Appends clones of the elements of `other`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = KVec::new();
    /// v.push(1, GFP_KERNEL)?;
    /// v.extend_from_slice(&[20, 30, 40], GFP_KERNEL)?;
    /// assert_eq!(&v, &[1, 20, 30, 40]);
    /// v.extend_from_slice(&[50, 60], GFP_KERNEL)?;
    /// assert_eq!(&v, &[1, 20, 30, 40, 50, 60]);
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    pub fn extend_from_slice(&mut self, other: &[T], flags: Flags) -> Result<(), AllocError> {
        self.reserve(other.len(), flags)?;
        for (slot, item) in core::iter::zip(self.spare_capacity_mut(), other) {
            slot.write(item.clone());
        }
        // SAFETY: `reserve` made room for `other.len()` elements, and the loop wrote that many
        // after the length (the spare capacity is at least that long).
        unsafe { self.inc_len(other.len()) };
        Ok(())
    }

    /// A new vector of `n` clones of `value`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let v = KVec::from_elem(0_u8, 3, GFP_KERNEL)?;
    /// assert_eq!(v, [0, 0, 0]);
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    pub fn from_elem(value: T, n: usize, flags: Flags) -> Result<Self, AllocError> {
        let mut v = Self::with_capacity(n, flags)?;
        v.extend_with(n, value, flags)?;
        Ok(v)
    }

    /// Makes the length `new_len`: truncates the vector, or appends clones of `value`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut v = kernel_core::kvec![1, 2, 3]?;
    /// v.resize(1, 42, GFP_KERNEL)?;
    /// assert_eq!(&v, &[1]);
    /// v.resize(3, 42, GFP_KERNEL)?;
    /// assert_eq!(&v, &[1, 42, 42]);
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    pub fn resize(&mut self, new_len: usize, value: T, flags: Flags) -> Result<(), AllocError> {
        match new_len.checked_sub(self.len()) {
            Some(n) => self.extend_with(n, value, flags),
            None => {
                self.truncate(new_len);
                Ok(())
            }
        }
    }
}

impl<T, A> Drop for Vec<T, A>
where
    A: Allocator,
{
    fn drop(&mut self) {
        // SAFETY: The first `len` elements are valid, and the vector's to drop.
        unsafe { ptr::drop_in_place(ptr::slice_from_raw_parts_mut(self.as_mut_ptr(), self.len)) };
        // SAFETY: `self.ptr` was allocated (or last reallocated) with `A` and `self.layout`,
        // or the layout is empty; nothing uses it afterwards.
        unsafe { A::free(self.ptr.cast(), self.layout.into()) };
    }
}

/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// let v = KVec::from(KBox::new([1_u8, 2, 3], GFP_KERNEL)?);
/// assert_eq!(v, [1, 2, 3]);
/// assert_eq!(v.capacity(), 3);
/// # Ok::<(), Error>(())
/// ```
impl<T, A, const N: usize> From<Box<[T; N], A>> for Vec<T, A>
where
    A: Allocator,
{
    fn from(b: Box<[T; N], A>) -> Vec<T, A> {
        let len = b.len();
        let ptr = Box::into_raw(b);
        // SAFETY: The `Box`'s memory was allocated with `A` for `[T; N]`, the layout of `N`
        // elements, aligned for `T`, all initialised, at most `isize::MAX` bytes.
        unsafe { Vec::from_raw_parts(ptr.cast(), len, len) }
    }
}

impl<T, A: Allocator> Default for Vec<T, A> {
    #[inline]
    fn default() -> Self {
        Self::new()
    }
}

impl<T: fmt::Debug, A: Allocator> fmt::Debug for Vec<T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T, A> Deref for Vec<T, A>
where
    A: Allocator,
{
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: The buffer holds `self.len` initialised elements at its start.
        unsafe { slice::from_raw_parts(self.as_ptr(), self.len) }
    }
}

impl<T, A> DerefMut for Vec<T, A>
where
    A: Allocator,
{
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: The buffer holds `self.len` initialised elements at its start, borrowed
        // mutably with `self`.
        unsafe { slice::from_raw_parts_mut(self.as_mut_ptr(), self.len) }
    }
}

/// # Examples
///
/// ```
/// use core::borrow::Borrow;
/// use kernel_core::prelude::*;
///
/// struct Holder<B: Borrow<[u32]>>(B);
///
/// let owned_array = Holder([1, 2, 3]);
/// let owned_vec = Holder(KVec::from_elem(0, 3, GFP_KERNEL)?);
/// let arr = [1, 2, 3];
/// let borrowed = Holder(&arr[..]);
/// assert_eq!(Borrow::<[u32]>::borrow(&owned_vec.0), [0, 0, 0]);
/// # let _ = (owned_array, borrowed);
/// # Ok::<(), Error>(())
/// ```
impl<T, A> Borrow<[T]> for Vec<T, A>
where
    A: Allocator,
{
    #[inline]
    fn borrow(&self) -> &[T] {
        self.as_slice()
    }
}

/// # Examples
///
/// ```
/// use core::borrow::BorrowMut;
/// use kernel_core::prelude::*;
///
/// struct Holder<B: BorrowMut<[u32]>>(B);
///
/// let mut owned_vec = Holder(KVec::from_elem(0, 3, GFP_KERNEL)?);
/// BorrowMut::<[u32]>::borrow_mut(&mut owned_vec.0)[1] = 7;
/// assert_eq!(owned_vec.0, [0, 7, 0]);
/// let mut arr = [1, 2, 3];
/// let borrowed = Holder(&mut arr[..]);
/// # let _ = borrowed;
/// # Ok::<(), Error>(())
/// ```
impl<T, A> BorrowMut<[T]> for Vec<T, A>
where
    A: Allocator,
{
    #[inline]
    fn borrow_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: Eq, A> Eq for Vec<T, A> where A: Allocator {}

impl<T, I: SliceIndex<[T]>, A> Index<I> for Vec<T, A>
where
    A: Allocator,
{
    type Output = I::Output;

    #[inline]
    fn index(&self, index: I) -> &Self::Output {
        Index::index(&**self, index)
    }
}

impl<T, I: SliceIndex<[T]>, A> IndexMut<I> for Vec<T, A>
where
    A: Allocator,
{
    #[inline]
    fn index_mut(&mut self, index: I) -> &mut Self::Output {
        IndexMut::index_mut(&mut **self, index)
    }
}

/// `PartialEq` between a vector and another vector, a slice, an array or a reference to one,
/// element by element: the pairs of Linux 7.3's `kvec.rs`.
macro_rules! impl_slice_eq {
    ($([$($vars:tt)*] $lhs:ty, $rhs:ty,)*) => {
        $(
            impl<T, U, $($vars)*> PartialEq<$rhs> for $lhs
            where
                T: PartialEq<U>,
            {
                #[inline]
                fn eq(&self, other: &$rhs) -> bool {
                    self[..] == other[..]
                }
            }
        )*
    };
}

impl_slice_eq! {
    [A1: Allocator, A2: Allocator] Vec<T, A1>, Vec<U, A2>,
    [A: Allocator] Vec<T, A>, &[U],
    [A: Allocator] Vec<T, A>, &mut [U],
    [A: Allocator] &[T], Vec<U, A>,
    [A: Allocator] &mut [T], Vec<U, A>,
    [A: Allocator] Vec<T, A>, [U],
    [A: Allocator] [T], Vec<U, A>,
    [A: Allocator, const N: usize] Vec<T, A>, [U; N],
    [A: Allocator, const N: usize] Vec<T, A>, &[U; N],
}

impl<'a, T, A: Allocator> IntoIterator for &'a Vec<T, A>
where
    A: Allocator,
{
    type Item = &'a T;
    type IntoIter = slice::Iter<'a, T>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T, A: Allocator> IntoIterator for &'a mut Vec<T, A>
where
    A: Allocator,
{
    type Item = &'a mut T;
    type IntoIter = slice::IterMut<'a, T>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// The iterator that moves the elements out of a [`Vec`], from the first: what
/// `IntoIterator::into_iter` of a `Vec` makes.
///
/// The elements it does not yield are dropped with it, and the buffer freed.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// let v = kernel_core::kvec![0, 1, 2]?;
/// let mut iter = v.into_iter();
/// assert_eq!(iter.next(), Some(0));
/// # Ok::<(), Error>(())
/// ```
///
/// # Invariants
///
/// - `buf` is the buffer of the vector, allocated with `A` and `layout` (or dangling, for an
///   empty layout);
/// - `ptr` points into it, to `len` valid elements the iterator owns.
pub struct IntoIter<T, A: Allocator> {
    ptr: *mut T,
    buf: NonNull<T>,
    len: usize,
    layout: ArrayLayout<T>,
    _p: PhantomData<A>,
}

impl<T, A> IntoIter<T, A>
where
    A: Allocator,
{
    /// The raw parts of the iterator, which gives them up: the next element, the buffer, the
    /// number of elements left, the capacity.
    fn into_raw_parts(self) -> (*mut T, NonNull<T>, usize, usize) {
        let me = ManuallyDrop::new(self);
        (me.ptr, me.buf, me.len, me.layout.len())
    }

    /// The vector of the elements not yet yielded, in the same buffer: `Iterator::collect`
    /// for this iterator, without allocating (`Flags` are for shrinking the buffer, which may
    /// happen).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let v = kernel_core::kvec![1, 2, 3]?;
    /// let mut it = v.into_iter();
    /// assert_eq!(it.next(), Some(1));
    /// let v = it.collect(GFP_KERNEL);
    /// assert_eq!(v, [2, 3]);
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// # Why not `FromIterator`
    ///
    /// As in the kernel: `FromIterator::from_iter` returns `Self` (no room for an allocation
    /// failure) and takes no flags, and without specialization (unstable) it cannot tell that it
    /// is given this very iterator, whose buffer it could reuse.
    #[track_caller]
    pub fn collect(self, flags: Flags) -> Vec<T, A> {
        let old_layout = self.layout;
        let (mut ptr, buf, len, mut cap) = self.into_raw_parts();

        if ptr != buf.as_ptr() {
            // Move the elements left to the start of the buffer.
            // SAFETY: `ptr` points to `len` valid elements within the buffer, which has room
            // for them at its start; `ptr::copy` allows the two ranges to overlap.
            unsafe { ptr::copy(ptr, buf.as_ptr(), len) };
            ptr = buf.as_ptr();

            // SAFETY: `len` is below the capacity, whose size is at most `isize::MAX`.
            let layout = unsafe { ArrayLayout::<T>::new_unchecked(len) };
            // SAFETY: `buf` was allocated with `A` and `old_layout`. Shrinking is up to the
            // allocator.
            let shrunk = unsafe {
                A::realloc(
                    Some(buf.cast()),
                    layout.into(),
                    old_layout.into(),
                    flags,
                    NumaNode::NO_NODE,
                )
            };
            // If the buffer cannot be shrunk (hardly possible), keep it as it is.
            if let Ok(shrunk) = shrunk {
                cap = len;
                ptr = shrunk.as_ptr().cast();
            }
        }

        // SAFETY: `ptr` is the start of the buffer, allocated with `A` for `cap` elements (the
        // original capacity, or `len` after shrinking), the first `len` of which are valid.
        unsafe { Vec::from_raw_parts(ptr, len, cap) }
    }
}

impl<T, A> Iterator for IntoIter<T, A>
where
    A: Allocator,
{
    type Item = T;

    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let v = kernel_core::kvec![1, 2, 3]?;
    /// let mut it = v.into_iter();
    /// assert_eq!(it.next(), Some(1));
    /// assert_eq!(it.next(), Some(2));
    /// assert_eq!(it.next(), Some(3));
    /// assert_eq!(it.next(), None);
    /// # Ok::<(), Error>(())
    /// ```
    fn next(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let current = self.ptr;
        // SAFETY: `len` elements remain from `ptr` on, so one past `current` is within the
        // buffer (or one past its end).
        self.ptr = unsafe { self.ptr.add(1) };
        self.len -= 1;
        // SAFETY: `current` pointed to a valid element the iterator owned, and it gives it up.
        Some(unsafe { current.read() })
    }

    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let v: KVec<u32> = kernel_core::kvec![1, 2, 3]?;
    /// let mut iter = v.into_iter();
    /// assert_eq!(iter.size_hint(), (3, Some(3)));
    /// iter.next();
    /// assert_eq!(iter.size_hint(), (2, Some(2)));
    /// # Ok::<(), Error>(())
    /// ```
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len, Some(self.len))
    }
}

impl<T, A> Drop for IntoIter<T, A>
where
    A: Allocator,
{
    fn drop(&mut self) {
        // SAFETY: The `len` elements from `ptr` on are valid, and the iterator's to drop.
        unsafe { ptr::drop_in_place(ptr::slice_from_raw_parts_mut(self.ptr, self.len)) };
        // SAFETY: `buf` was allocated with `A` and `layout`, or the layout is empty.
        unsafe { A::free(self.buf.cast(), self.layout.into()) };
    }
}

impl<T, A> IntoIterator for Vec<T, A>
where
    A: Allocator,
{
    type Item = T;
    type IntoIter = IntoIter<T, A>;

    /// An iterator that moves the elements out of the vector, from the first.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let v = kernel_core::kvec![1, 2]?;
    /// let mut v_iter = v.into_iter();
    /// let first_element: Option<u32> = v_iter.next();
    /// assert_eq!(first_element, Some(1));
    /// assert_eq!(v_iter.next(), Some(2));
    /// assert_eq!(v_iter.next(), None);
    ///
    /// let v = kernel_core::kvec![];
    /// let mut v_iter = v.into_iter();
    /// let first_element: Option<u32> = v_iter.next();
    /// assert_eq!(first_element, None);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        let buf = self.ptr;
        let layout = self.layout;
        let (ptr, len, _) = self.into_raw_parts();
        // INVARIANT: The vector's buffer and layout, and all its elements.
        IntoIter {
            ptr,
            buf,
            len,
            layout,
            _p: PhantomData::<A>,
        }
    }
}

/// An iterator that owns the elements of a vector but not its buffer: what
/// [`Vec::drain_all`] makes. The elements it does not yield are dropped with it.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// let mut v = kernel_core::kvec![1, 2, 3]?;
/// let mut drain = v.drain_all();
/// assert_eq!(drain.next(), Some(1));
/// assert_eq!(drain.size_hint(), (2, Some(2)));
/// drop(drain);
/// assert!(v.is_empty());
/// # Ok::<(), Error>(())
/// ```
///
/// # Invariants
///
/// The iterator may take ownership of each `T` its `elements` refer to.
pub struct DrainAll<'vec, T> {
    elements: slice::IterMut<'vec, T>,
}

impl<'vec, T> Iterator for DrainAll<'vec, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        let element: *mut T = self.elements.next()?;
        // SAFETY: By the invariant, the iterator owns the element, and gives it up.
        Some(unsafe { element.read() })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.elements.size_hint()
    }
}

impl<'vec, T> Drop for DrainAll<'vec, T> {
    fn drop(&mut self) {
        if core::mem::needs_drop::<T>() {
            let rest: *mut [T] = core::mem::take(&mut self.elements).into_slice();
            // SAFETY: By the invariant, the iterator owns the elements it did not yield.
            unsafe { ptr::drop_in_place(rest) };
        }
    }
}
