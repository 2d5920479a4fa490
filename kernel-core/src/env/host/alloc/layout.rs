// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Memory layouts beyond `core`'s [`Layout`]: [`ArrayLayout`], the layout of an array whose
//! size is known to fit.
//!
//! Kernel counterpart: `rust/kernel/alloc/layout.rs` (Linux 7.3).

use core::alloc::Layout;
use core::marker::PhantomData;

/// The error of [`ArrayLayout::new`]: the array would be larger than `isize::MAX` bytes.
///
/// A driver's `?` turns it into [`ENOMEM`](crate::error::code::ENOMEM), as in the kernel.
///
/// # Examples
///
/// ```
/// use kernel_core::alloc::layout::{ArrayLayout, LayoutError};
/// use kernel_core::error::{code::ENOMEM, Error};
///
/// fn layout(len: usize) -> Result<ArrayLayout<u64>, Error> {
///     Ok(ArrayLayout::new(len)?)
/// }
/// assert!(layout(8).is_ok());
/// assert_eq!(layout(usize::MAX).err(), Some(ENOMEM));
/// # let _: Error = LayoutError.into();
/// ```
pub struct LayoutError;

/// The layout of an array `[T; n]`, whose size is known not to exceed `isize::MAX` bytes.
///
/// # Invariants
///
/// `len * size_of::<T>() <= isize::MAX`.
///
/// # Examples
///
/// ```
/// use core::alloc::Layout;
/// use kernel_core::alloc::layout::ArrayLayout;
///
/// let layout = ArrayLayout::<u32>::new(10)?;
/// assert_eq!(layout.size(), 40);
/// assert_eq!(Layout::from(layout), Layout::new::<[u32; 10]>());
/// # Ok::<(), kernel_core::error::Error>(())
/// ```
pub struct ArrayLayout<T> {
    len: usize,
    _phantom: PhantomData<fn() -> T>,
}

impl<T> Clone for ArrayLayout<T> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ArrayLayout<T> {}

/// The largest size of an allocation.
const ISIZE_MAX: usize = isize::MAX as usize;

impl<T> ArrayLayout<T> {
    /// The layout of `[T; 0]`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::alloc::layout::ArrayLayout;
    ///
    /// const EMPTY: ArrayLayout<u64> = ArrayLayout::empty();
    /// assert!(EMPTY.is_empty());
    /// assert_eq!(EMPTY.size(), 0);
    /// ```
    #[inline]
    pub const fn empty() -> Self {
        // INVARIANT: `0 * size_of::<T>()` is `0 <= isize::MAX`.
        Self {
            len: 0,
            _phantom: PhantomData,
        }
    }

    /// The layout of `[T; len]`.
    ///
    /// # Errors
    ///
    /// [`LayoutError`] when `len * size_of::<T>()` overflows or exceeds `isize::MAX`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::alloc::layout::ArrayLayout;
    ///
    /// assert_eq!(ArrayLayout::<u16>::new(15)?.len(), 15);
    /// // The size overflows a `usize`.
    /// assert!(ArrayLayout::<u16>::new(usize::MAX).is_err());
    /// // The size fits in a `usize` but is larger than `isize::MAX`.
    /// assert!(ArrayLayout::<u16>::new(usize::MAX / 2 + 1).is_err());
    /// // Zero-sized elements: any length.
    /// assert!(ArrayLayout::<()>::new(usize::MAX).is_ok());
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    pub const fn new(len: usize) -> Result<Self, LayoutError> {
        match len.checked_mul(core::mem::size_of::<T>()) {
            // INVARIANT: The size was just checked.
            Some(size) if size <= ISIZE_MAX => Ok(Self {
                len,
                _phantom: PhantomData,
            }),
            _ => Err(LayoutError),
        }
    }

    /// The layout of `[T; len]`, without checking its size.
    ///
    /// # Safety
    ///
    /// `len * size_of::<T>() <= isize::MAX`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::alloc::layout::ArrayLayout;
    ///
    /// // SAFETY: 4 * 8 bytes is far below `isize::MAX`.
    /// let layout = unsafe { ArrayLayout::<u64>::new_unchecked(4) };
    /// assert_eq!(layout.size(), 32);
    /// ```
    #[inline]
    pub const unsafe fn new_unchecked(len: usize) -> Self {
        // INVARIANT: The caller promises it.
        Self {
            len,
            _phantom: PhantomData,
        }
    }

    /// The number of elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::alloc::layout::ArrayLayout;
    ///
    /// assert_eq!(ArrayLayout::<u8>::new(3)?.len(), 3);
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the array has no elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::alloc::layout::ArrayLayout;
    ///
    /// assert!(ArrayLayout::<u8>::new(0)?.is_empty());
    /// assert!(!ArrayLayout::<u8>::new(1)?.is_empty());
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The size of the array in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::alloc::layout::ArrayLayout;
    ///
    /// assert_eq!(ArrayLayout::<[u8; 3]>::new(5)?.size(), 15);
    /// # Ok::<(), kernel_core::error::Error>(())
    /// ```
    #[inline]
    pub const fn size(&self) -> usize {
        self.len() * core::mem::size_of::<T>()
    }
}

impl<T> From<ArrayLayout<T>> for Layout {
    #[inline]
    fn from(value: ArrayLayout<T>) -> Self {
        let layout = Layout::array::<T>(value.len);
        // SAFETY: By the invariant of `ArrayLayout`, the size does not exceed `isize::MAX`, so
        // `Layout::array` succeeds.
        unsafe { layout.unwrap_unchecked() }
    }
}
