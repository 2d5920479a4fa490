// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::transmute` on the host and on Linux 6.12: kernel-core's own [`FromBytes`] and [`AsBytes`], with Linux
//! 7.3's methods and implementations.
//!
//! Nothing here depends on the host: the file is written against `core` alone, so that a kernel
//! without 7.3's methods (6.12, whose `kernel::types::{FromBytes, AsBytes}` are empty markers)
//! can use it too.

use core::marker::PhantomData;
use core::mem::size_of;

/// Types for which any bit pattern is a valid value.
///
/// A `bool` is not one: only 0 and 1 are `bool`s, so reading arbitrary bytes into anything that
/// contains a `bool` is undefined behaviour. Padding is fine: whatever bytes end up there do not
/// matter.
///
/// Linux 7.3's `kernel::transmute::FromBytes`; in the kernel, kernel-core's path names the
/// kernel's own trait.
///
/// # Safety
///
/// Every bit pattern of `size_of::<Self>()` bytes (for a slice, of any multiple of its element's
/// size) must be a valid `Self`, and `Self` must not have interior mutability.
///
/// # Examples
///
/// ```
/// use kernel_core::transmute::FromBytes;
///
/// let raw = [1, 2, 3, 4];
/// let value = u32::from_bytes_copy(&raw).unwrap();
/// #[cfg(target_endian = "little")]
/// assert_eq!(value, 0x0403_0201);
/// #[cfg(target_endian = "big")]
/// assert_eq!(value, 0x0102_0304);
/// ```
pub unsafe trait FromBytes {
    /// Converts `bytes` into a reference to `Self`, if it has exactly the size of `Self` and is
    /// aligned for it; returns [`None`] otherwise.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::transmute::FromBytes;
    ///
    /// let words = [0x0102_0304_u32, 0x0506_0708];
    /// // SAFETY: Any `u32` is 4 initialized bytes.
    /// let bytes: &[u8] = unsafe { core::slice::from_raw_parts(words.as_ptr().cast(), 8) };
    /// assert_eq!(u32::from_bytes(&bytes[4..]), Some(&0x0506_0708));
    /// assert_eq!(u32::from_bytes(&bytes[1..5]), None); // misaligned
    /// assert_eq!(u32::from_bytes(bytes), None); // too long
    /// ```
    #[inline]
    fn from_bytes(bytes: &[u8]) -> Option<&Self>
    where
        Self: Sized,
    {
        let ptr = bytes.as_ptr().cast::<Self>();
        if bytes.len() == size_of::<Self>() && ptr.is_aligned() {
            // SAFETY: `ptr` is aligned for `Self` and points to `size_of::<Self>()` initialized
            // bytes borrowed for the returned lifetime, which are a valid `Self` since any bytes
            // are (the trait's contract); without interior mutability, sharing them is sound.
            Some(unsafe { &*ptr })
        } else {
            None
        }
    }

    /// Converts the first `size_of::<Self>()` bytes of `bytes` into a reference to `Self`, and
    /// returns it with the rest; [`None`] if `bytes` is shorter or misaligned.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::transmute::FromBytes;
    ///
    /// let bytes = [7_u8, 8, 9];
    /// assert_eq!(u8::from_bytes_prefix(&bytes), Some((&7, &bytes[1..])));
    /// assert_eq!(<[u8; 4]>::from_bytes_prefix(&bytes), None);
    /// ```
    #[inline]
    fn from_bytes_prefix(bytes: &[u8]) -> Option<(&Self, &[u8])>
    where
        Self: Sized,
    {
        let (head, rest) = bytes.split_at_checked(size_of::<Self>())?;
        Some((Self::from_bytes(head)?, rest))
    }

    /// Converts `bytes` into a mutable reference to `Self`, if it has exactly the size of
    /// `Self` and is aligned for it; returns [`None`] otherwise.
    ///
    /// `Self` must also be [`AsBytes`]: whatever is written through the reference must read back
    /// as bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::transmute::FromBytes;
    ///
    /// let mut bytes = [0_u8; 2];
    /// *<[u8; 2]>::from_bytes_mut(&mut bytes).unwrap() = [5, 6];
    /// assert_eq!(bytes, [5, 6]);
    /// ```
    #[inline]
    fn from_bytes_mut(bytes: &mut [u8]) -> Option<&mut Self>
    where
        Self: AsBytes + Sized,
    {
        let ptr = bytes.as_mut_ptr().cast::<Self>();
        if bytes.len() == size_of::<Self>() && ptr.is_aligned() {
            // SAFETY: As in `from_bytes`, and the borrow is unique. Whatever `Self` is written
            // through it is initialized bytes, since `Self: AsBytes`, so `bytes` stays valid.
            Some(unsafe { &mut *ptr })
        } else {
            None
        }
    }

    /// Converts the first `size_of::<Self>()` bytes of `bytes` into a mutable reference to
    /// `Self`, and returns it with the rest; [`None`] if `bytes` is shorter or misaligned.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::transmute::FromBytes;
    ///
    /// let mut bytes = [1_u8, 2, 3];
    /// let (first, rest) = u8::from_bytes_mut_prefix(&mut bytes).unwrap();
    /// *first = 10;
    /// rest[0] = 20;
    /// assert_eq!(bytes, [10, 20, 3]);
    /// ```
    #[inline]
    fn from_bytes_mut_prefix(bytes: &mut [u8]) -> Option<(&mut Self, &mut [u8])>
    where
        Self: AsBytes + Sized,
    {
        let (head, rest) = bytes.split_at_mut_checked(size_of::<Self>())?;
        Some((Self::from_bytes_mut(head)?, rest))
    }

    /// Copies `bytes` into a new `Self`, if it has exactly the size of `Self`; returns [`None`]
    /// otherwise. Unlike [`FromBytes::from_bytes`], `bytes` need not be aligned.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::transmute::FromBytes;
    ///
    /// let bytes = [0_u8, 0x34, 0x12, 0, 0];
    /// let value = u16::from_bytes_copy(&bytes[1..3]).unwrap(); // at an odd address
    /// assert_eq!(u16::from_le(value), 0x1234);
    /// assert_eq!(u16::from_bytes_copy(&bytes[..3]), None);
    /// ```
    #[inline]
    fn from_bytes_copy(bytes: &[u8]) -> Option<Self>
    where
        Self: Sized,
    {
        if bytes.len() == size_of::<Self>() {
            // SAFETY: `bytes` holds `size_of::<Self>()` initialized bytes, readable without
            // alignment by `read_unaligned`, and any bytes are a valid `Self`.
            Some(unsafe { core::ptr::read_unaligned(bytes.as_ptr().cast::<Self>()) })
        } else {
            None
        }
    }

    /// Copies the first `size_of::<Self>()` bytes of `bytes` into a new `Self`, and returns it
    /// with the rest; [`None`] if `bytes` is shorter.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::transmute::FromBytes;
    ///
    /// let bytes = [1_u8, 0, 0, 0, 0xff];
    /// let (value, rest) = u32::from_bytes_copy_prefix(&bytes).unwrap();
    /// assert_eq!((u32::from_le(value), rest), (1, &[0xff][..]));
    /// assert_eq!(u64::from_bytes_copy_prefix(&bytes), None);
    /// ```
    #[inline]
    fn from_bytes_copy_prefix(bytes: &[u8]) -> Option<(Self, &[u8])>
    where
        Self: Sized,
    {
        let (head, rest) = bytes.split_at_checked(size_of::<Self>())?;
        Some((Self::from_bytes_copy(head)?, rest))
    }
}

/// Types whose values can be viewed as initialized bytes: no padding, no uninitialized part.
///
/// Such a value may be copied byte for byte to user space or to a device. It should not hold
/// kernel pointers either (their addresses are sensitive), but that is a matter of correctness,
/// not of safety.
///
/// Linux 7.3's `kernel::transmute::AsBytes`; in the kernel, kernel-core's path names the
/// kernel's own trait.
///
/// # Safety
///
/// No value of `Self` may contain uninitialized bytes, and `Self` must not have interior
/// mutability.
///
/// # Examples
///
/// ```
/// use kernel_core::transmute::AsBytes;
///
/// assert_eq!(0x0102_u16.to_be().as_bytes(), &[1, 2]);
/// assert_eq!("ok".as_bytes(), b"ok");
/// assert_eq!([true, false].as_bytes(), &[1, 0]);
/// ```
pub unsafe trait AsBytes {
    /// Returns `self` as a slice of bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::transmute::AsBytes;
    ///
    /// let pair = [1_u8, 2];
    /// assert_eq!(AsBytes::as_bytes(&pair[..]), &[1, 2]);
    /// assert_eq!('A'.as_bytes().len(), 4);
    /// ```
    #[inline]
    fn as_bytes(&self) -> &[u8] {
        let data = core::ptr::from_ref(self).cast::<u8>();
        let len = core::mem::size_of_val(self);
        // SAFETY: `data` points to `len` bytes of `self`, borrowed for the returned lifetime,
        // all initialized (`Self: AsBytes`) and not mutated while shared (no interior
        // mutability).
        unsafe { core::slice::from_raw_parts(data, len) }
    }

    /// Returns `self` as a mutable slice of bytes; `Self` must also be [`FromBytes`], so that
    /// whatever bytes are written there are a valid `Self`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::transmute::AsBytes;
    ///
    /// let mut value = 0_u32;
    /// value.as_bytes_mut().fill(0xff);
    /// assert_eq!(value, u32::MAX);
    /// ```
    #[inline]
    fn as_bytes_mut(&mut self) -> &mut [u8]
    where
        Self: FromBytes,
    {
        let data = core::ptr::from_mut(self).cast::<u8>();
        let len = core::mem::size_of_val(self);
        // SAFETY: As in `as_bytes`, with a unique borrow; any bytes written through the slice
        // leave a valid `Self` behind, since `Self: FromBytes`.
        unsafe { core::slice::from_raw_parts_mut(data, len) }
    }
}

/// `unsafe impl $trait for` each type; the safety argument is written at each use.
macro_rules! impl_trait {
    ($trait:ident: $($({$($generics:tt)*})? $ty:ty),* $(,)?) => {$(
        // SAFETY: See the comment at this macro's use.
        unsafe impl$(<$($generics)*>)? $trait for $ty {}
    )*};
}

// SAFETY: `()` and `PhantomData` have one value, of no bytes, and no invariant; any integer's
// bits are a valid integer; arrays and slices of `FromBytes` elements have no other bytes than
// their elements'. None has interior mutability.
impl_trait!(FromBytes:
    (), {T} PhantomData<T>,
    u8, u16, u32, u64, usize,
    i8, i16, i32, i64, isize,
    {T: FromBytes} [T], {T: FromBytes, const N: usize} [T; N],
);

// SAFETY: None of these has padding or uninitialized bytes (`bool` is one initialized byte,
// `char` four, `str` its UTF-8 bytes), arrays and slices of `AsBytes` elements none besides
// their elements', and none has interior mutability.
impl_trait!(AsBytes:
    (), {T} PhantomData<T>,
    u8, u16, u32, u64, usize,
    i8, i16, i32, i64, isize,
    bool, char, str,
    {T: AsBytes} [T], {T: AsBytes, const N: usize} [T; N],
);
