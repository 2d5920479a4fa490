// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! [`Box`]: one value on the heap of one of the kernel's allocators.
//!
//! Kernel counterpart: `rust/kernel/alloc/kbox.rs` (Linux 7.3).

use core::alloc::Layout;
use core::borrow::{Borrow, BorrowMut};
use core::fmt;
use core::marker::PhantomData;
use core::mem::{ManuallyDrop, MaybeUninit};
use core::ops::{Deref, DerefMut};
use core::pin::Pin;
use core::ptr::NonNull;

use pin_init::{InPlaceWrite, Init, PinInit, Zeroable, ZeroableOption};

#[allow(unused_imports)] // For the documentation's links.
use super::allocator::{KVmalloc, Kmalloc, Vmalloc};
use super::flags::__GFP_ZERO;
use super::{AllocError, Allocator, Flags, NumaNode};
use crate::init::InPlaceInit;

/// The kernel's `Box`: a value of type `T` on the heap of the allocator `A`.
///
/// The kernel's counterpart of `std`'s `Box`, with differences: allocating takes [`Flags`] and
/// may fail (every function that allocates returns a `Result`), the allocator is a type
/// parameter (there is no default), a value cannot be partly moved out, and no `noalias` is
/// emitted. `Box<T, A>` works with any [`Allocator`]: [`Kmalloc`], [`Vmalloc`] or [`KVmalloc`],
/// for which [`KBox`], [`VBox`] and [`KVBox`] are the short names.
///
/// Dropping a `Box` drops the value, then frees the memory.
///
/// A value of a zero-sized type takes no memory: its `Box` holds a dangling, aligned pointer.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// let b = KBox::<u64>::new(24_u64, GFP_KERNEL)?;
/// assert_eq!(*b, 24_u64);
/// # Ok::<(), Error>(())
/// ```
///
/// `kmalloc()` fails beyond `KMALLOC_MAX_SIZE` (4 MiB on the host), `kvmalloc()` does not:
///
/// ```
/// use kernel_core::prelude::*;
///
/// struct Huge([u8; (4 << 20) + 1]);
///
/// assert!(KBox::<Huge>::new_uninit(GFP_KERNEL | __GFP_NOWARN).is_err());
/// assert!(KVBox::<Huge>::new_uninit(GFP_KERNEL).is_ok());
/// ```
///
/// A `Box` of a trait object or a slice is made from a raw pointer on the host (in the kernel,
/// `KBox::new(x, GFP_KERNEL)? as KBox<dyn Trait>` coerces, with `#[derive(CoercePointee)]`,
/// which stable Rust does not have yet):
///
/// ```
/// use kernel_core::prelude::*;
///
/// trait Shape {
///     fn area(&self) -> u32;
/// }
/// struct Square(u32);
/// impl Shape for Square {
///     fn area(&self) -> u32 {
///         self.0 * self.0
///     }
/// }
///
/// let square = KBox::new(Square(3), GFP_KERNEL)?;
/// let raw: *mut dyn Shape = KBox::into_raw(square) as *mut dyn Shape;
/// // SAFETY: `raw` comes from `KBox::into_raw`, and is a `Square` of that allocation.
/// let shape: KBox<dyn Shape> = unsafe { KBox::from_raw(raw) };
/// assert_eq!(shape.area(), 9);
/// # Ok::<(), Error>(())
/// ```
///
/// # Invariants
///
/// `self.0` is always properly aligned, and points to a valid `T` in memory allocated with `A`
/// or, for zero-sized types, is a dangling, well-aligned pointer.
#[repr(transparent)]
pub struct Box<T: ?Sized, A: Allocator>(NonNull<T>, PhantomData<A>);

/// A [`Box`] whose memory comes from [`Kmalloc`].
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// let b = KBox::new(24_u64, GFP_KERNEL)?;
/// assert_eq!(*b, 24_u64);
/// # Ok::<(), Error>(())
/// ```
pub type KBox<T> = Box<T, super::allocator::Kmalloc>;

/// A [`Box`] whose memory comes from [`Vmalloc`].
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// let b = VBox::new(24_u64, GFP_KERNEL)?;
/// assert_eq!(*b, 24_u64);
/// # Ok::<(), Error>(())
/// ```
pub type VBox<T> = Box<T, super::allocator::Vmalloc>;

/// A [`Box`] whose memory comes from [`KVmalloc`].
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// let b = KVBox::new(24_u64, GFP_KERNEL)?;
/// assert_eq!(*b, 24_u64);
/// # Ok::<(), Error>(())
/// ```
pub type KVBox<T> = Box<T, super::allocator::KVmalloc>;

// SAFETY: An `Option<Box<T, A>>` of all zero bits is `None`: a `Box` is a `NonNull`, whose
// niche is the null pointer (the layout guarantee of `Option` of such a type).
unsafe impl<T, A: Allocator> ZeroableOption for Box<T, A> {}

// SAFETY: A `Box` owns its `T`, so sending the `Box` sends the `T`.
unsafe impl<T, A> Send for Box<T, A>
where
    T: Send + ?Sized,
    A: Allocator,
{
}

// SAFETY: A `Box` owns its `T`, so sharing the `Box` shares the `T`.
unsafe impl<T, A> Sync for Box<T, A>
where
    T: Sync + ?Sized,
    A: Allocator,
{
}

impl<T, A> Box<T, A>
where
    T: ?Sized,
    A: Allocator,
{
    /// The `Box` of a raw pointer, which it takes ownership of.
    ///
    /// # Safety
    ///
    /// Unless `T` is zero-sized, `raw` points to memory allocated with `A`, aligned for `T` and
    /// holding a valid `T`, and the caller gives up that allocation to the `Box`. For a zero-sized
    /// `T`, `raw` is a dangling, well-aligned pointer.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let raw = KBox::into_raw(KBox::new([1_u8, 2], GFP_KERNEL)?);
    /// // SAFETY: `raw` comes from `KBox::into_raw`.
    /// let b = unsafe { KBox::from_raw(raw) };
    /// assert_eq!(*b, [1, 2]);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub const unsafe fn from_raw(raw: *mut T) -> Self {
        // INVARIANT: The caller promises what the invariant says of `raw`.
        // SAFETY: The caller promises a valid or dangling pointer, so not null.
        Self(unsafe { NonNull::new_unchecked(raw) }, PhantomData)
    }

    /// The raw pointer of the `Box`, which gives it up.
    ///
    /// `T`'s destructor does not run and the memory (unless `T` is zero-sized) stays allocated
    /// for good: [`Box::from_raw`] makes a `Box` of the pointer again, which drops the value and
    /// frees the memory.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let x = KBox::new(24, GFP_KERNEL)?;
    /// let ptr = KBox::into_raw(x);
    /// // SAFETY: `ptr` comes from `KBox::into_raw`.
    /// let x = unsafe { KBox::from_raw(ptr) };
    /// assert_eq!(*x, 24);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn into_raw(b: Self) -> *mut T {
        ManuallyDrop::new(b).0.as_ptr()
    }

    /// A mutable reference to the value, whose memory is never freed.
    ///
    /// See [`Box::into_raw`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let counter: &'static mut u32 = KBox::leak(KBox::new(0, GFP_KERNEL)?);
    /// *counter += 1;
    /// assert_eq!(*counter, 1);
    /// # // Give the memory back, for Miri's leak check.
    /// # drop(unsafe { KBox::from_raw(counter) });
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn leak<'a>(b: Self) -> &'a mut T {
        // SAFETY: `Box::into_raw` returns an aligned pointer to a valid `T` that nothing else
        // refers to, and that stays valid forever.
        unsafe { &mut *Box::into_raw(b) }
    }
}

impl<T, A> Box<MaybeUninit<T>, A>
where
    A: Allocator,
{
    /// The `Box<T, A>` of a `Box<MaybeUninit<T>, A>` whose value is initialised.
    ///
    /// # Safety
    ///
    /// The value in `self` is initialised: calling this on uninitialised memory is undefined
    /// behaviour.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let mut b = KBox::<[u16; 2]>::new_uninit(GFP_KERNEL)?;
    /// (*b).write([3, 4]);
    /// // SAFETY: Written just above.
    /// let b = unsafe { b.assume_init() };
    /// assert_eq!(*b, [3, 4]);
    /// # Ok::<(), Error>(())
    /// ```
    pub unsafe fn assume_init(self) -> Box<T, A> {
        let raw = Self::into_raw(self);
        // SAFETY: `raw` comes from `Box::into_raw` of a `Box` of `A`, and the caller promises
        // that the `T` in it is initialised; `MaybeUninit<T>` has the layout of `T`.
        unsafe { Box::from_raw(raw.cast()) }
    }

    /// Writes `value` into the memory and returns the `Box<T, A>` of it.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let b = KBox::<u64>::new_uninit(GFP_KERNEL)?;
    /// let b = KBox::write(b, 24);
    /// assert_eq!(*b, 24);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn write(mut self, value: T) -> Box<T, A> {
        (*self).write(value);
        // SAFETY: Initialised just above.
        unsafe { self.assume_init() }
    }
}

impl<T, A> Box<T, A>
where
    A: Allocator,
{
    /// Allocates memory with `A` and moves `x` into it.
    ///
    /// Fails if the allocation does. A zero-sized `T` allocates nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let b = KBox::new((1_u8, 2_u32), GFP_KERNEL)?;
    /// assert_eq!(b.1, 2);
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    pub fn new(x: T, flags: Flags) -> Result<Self, AllocError> {
        let b = Self::new_uninit(flags)?;
        Ok(Box::write(b, x))
    }

    /// Allocates uninitialised memory for a `T` with `A`.
    ///
    /// Fails if the allocation does. A zero-sized `T` allocates nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let b = KBox::<u64>::new_uninit(GFP_KERNEL)?;
    /// let b = KBox::write(b, 24);
    /// assert_eq!(*b, 24_u64);
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    pub fn new_uninit(flags: Flags) -> Result<Box<MaybeUninit<T>, A>, AllocError> {
        let layout = Layout::new::<MaybeUninit<T>>();
        let ptr = A::alloc(layout, flags, NumaNode::NO_NODE)?;
        // INVARIANT: `ptr` is dangling and aligned (zero size), or memory allocated with `A`
        // of `T`'s size and alignment.
        Ok(Box(ptr.cast(), PhantomData))
    }

    /// Allocates memory with `A` and [`__GFP_ZERO`]: a `T` of all zero bits.
    ///
    /// Fails if the allocation does. A zero-sized `T` allocates nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let b = KBox::<[u8; 128]>::zeroed(GFP_KERNEL)?;
    /// assert_eq!(*b, [0; 128]);
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    pub fn zeroed(flags: Flags) -> Result<Self, AllocError>
    where
        T: Zeroable,
    {
        // SAFETY: `__GFP_ZERO` zeroes the memory, and all zero bits are a valid `T`, as
        // `T: Zeroable` promises.
        Ok(unsafe { Self::new_uninit(flags | __GFP_ZERO)?.assume_init() })
    }

    /// Allocates memory with `A`, moves `x` into it and pins it: a `T` that is not [`Unpin`]
    /// never moves again.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::marker::PhantomPinned;
    /// use kernel_core::prelude::*;
    ///
    /// struct Fixed(u32, PhantomPinned);
    ///
    /// let pinned = KBox::pin(Fixed(5, PhantomPinned), GFP_KERNEL)?;
    /// assert_eq!(pinned.0, 5);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    #[track_caller]
    pub fn pin(x: T, flags: Flags) -> Result<Pin<Box<T, A>>, AllocError>
    where
        A: 'static,
    {
        Ok(Self::new(x, flags)?.into())
    }

    /// A pinned slice of `len` elements, the element `i` initialised in place by `init(i)`:
    /// how slices of structs with locks, which must not move, are made.
    ///
    /// On an error (the allocation's, or an initialiser's), the elements already made are
    /// dropped, the memory freed, and the error returned.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// // The initialisers of pinned types (a lock's `new`) are `impl PinInit<T, E>`; a value
    /// // or a `Result` is one too.
    /// let squares = KBox::<usize>::pin_slice(|i| Ok::<usize, Error>(i * i), 5, GFP_KERNEL)?;
    /// assert_eq!(*squares, [0, 1, 4, 9, 16]);
    ///
    /// let fails = KBox::<u8>::pin_slice(|i| if i < 3 { Ok(1) } else { Err(EIO) }, 5, GFP_KERNEL);
    /// assert_eq!(fails.err(), Some(EIO));
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    pub fn pin_slice<Func, Item, E>(
        mut init: Func,
        len: usize,
        flags: Flags,
    ) -> Result<Pin<Box<[T], A>>, E>
    where
        Func: FnMut(usize) -> Item,
        Item: PinInit<T, E>,
        E: From<AllocError>,
    {
        let mut buffer = super::Vec::<T, A>::with_capacity(len, flags)?;
        for i in 0..len {
            let slot = buffer.spare_capacity_mut().as_mut_ptr().cast::<T>();
            // SAFETY: `slot` is the first element of the spare capacity, valid for writes of a
            // `T`; on an error it is left as it is (uninitialised, outside the length); it never
            // moves, since the buffer is never reallocated and becomes the pinned `Box`.
            unsafe { pin_init::raw_try_init(slot, init(i))? };
            // SAFETY: `i < len <= capacity`, and the element at the length was just initialised.
            unsafe { buffer.inc_len(1) };
        }

        let (ptr, _, _) = buffer.into_raw_parts();
        let slice = core::ptr::slice_from_raw_parts_mut(ptr, len);
        // SAFETY: `slice` is the `Vec`'s buffer, allocated with `A` for (at least, and for a
        // non-zero-sized `T` exactly: `with_capacity` of an empty `Vec` asks for `len`) `len`
        // elements, all initialised; for a zero-sized `T` it is dangling and aligned.
        Ok(Pin::from(unsafe { Box::from_raw(slice) }))
    }

    /// The pinned `Box` of `this`: a `T` that is not [`Unpin`] never moves again.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let pinned = KBox::into_pin(KBox::new(3_u8, GFP_KERNEL)?);
    /// assert_eq!(*pinned, 3);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn into_pin(this: Self) -> Pin<Self> {
        this.into()
    }

    /// The memory of `this`, whose value is forgotten (not dropped).
    fn forget_contents(this: Self) -> Box<MaybeUninit<T>, A> {
        let ptr = Self::into_raw(this);
        // SAFETY: `ptr` comes from `Box::into_raw`, and a `MaybeUninit<T>` needs nothing.
        unsafe { Box::from_raw(ptr.cast()) }
    }

    /// Drops the value and keeps its memory, to be written again.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let value = KBox::new([0; 32], GFP_KERNEL)?;
    /// assert_eq!(*value, [0; 32]);
    /// let value = KBox::drop_contents(value);
    /// // The same memory, written again.
    /// let value = KBox::write(value, [1; 32]);
    /// assert_eq!(*value, [1; 32]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn drop_contents(this: Self) -> Box<MaybeUninit<T>, A> {
        let ptr = this.0.as_ptr();
        // SAFETY: `ptr` points to the valid `T` of `this`, which is not used again as a `T`.
        unsafe { core::ptr::drop_in_place(ptr) };
        Self::forget_contents(this)
    }

    /// Moves the value out of the `Box`, and frees the memory.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let b = KBox::new([5_u32; 3], GFP_KERNEL)?;
    /// assert_eq!(KBox::into_inner(b), [5; 3]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn into_inner(b: Self) -> T {
        // SAFETY: By the invariant, `&*b` is valid for a read; the `T` is not used afterwards.
        let value = unsafe { core::ptr::read(&*b) };
        let _ = Self::forget_contents(b);
        value
    }
}

impl<T, A> From<Box<T, A>> for Pin<Box<T, A>>
where
    T: ?Sized,
    A: Allocator,
{
    /// Pins `b`'s value where it is, without moving or copying it: a `T` that is not [`Unpin`]
    /// never moves again.
    fn from(b: Box<T, A>) -> Self {
        // SAFETY: A `Box` owns its value on the heap, and a `Pin<Box>` gives out no way to move
        // it unless `T: Unpin`.
        unsafe { Pin::new_unchecked(b) }
    }
}

impl<T, A> InPlaceWrite<T> for Box<MaybeUninit<T>, A>
where
    A: Allocator + 'static,
{
    type Initialized = Box<T, A>;

    #[inline]
    fn write_init<E>(mut self, init: impl Init<T, E>) -> Result<Self::Initialized, E> {
        let slot = self.as_mut_ptr();
        // SAFETY: `slot` is valid for writes of a `T`. On an error the memory is left
        // uninitialised, and `self` frees it without dropping anything.
        unsafe { pin_init::raw_try_init(slot, init)? };
        // SAFETY: `init` succeeded, so the value is initialised.
        Ok(unsafe { Box::assume_init(self) })
    }

    #[inline]
    fn write_pin_init<E>(mut self, init: impl PinInit<T, E>) -> Result<Pin<Self::Initialized>, E> {
        let slot = self.as_mut_ptr();
        // SAFETY: `slot` is valid for writes of a `T`, and stays where it is: the `Box` is
        // pinned below. On an error the memory is left uninitialised, and `self` frees it
        // without dropping anything.
        unsafe { pin_init::raw_try_init(slot, init)? };
        // SAFETY: `init` succeeded, so the value is initialised.
        Ok(unsafe { Box::assume_init(self) }.into())
    }
}

impl<T, A> InPlaceInit<T> for Box<T, A>
where
    A: Allocator + 'static,
{
    type PinnedSelf = Pin<Self>;

    #[inline]
    #[track_caller]
    fn try_pin_init<E>(init: impl PinInit<T, E>, flags: Flags) -> Result<Pin<Self>, E>
    where
        E: From<AllocError>,
    {
        Box::<_, A>::new_uninit(flags)?.write_pin_init(init)
    }

    #[inline]
    #[track_caller]
    fn try_init<E>(init: impl Init<T, E>, flags: Flags) -> Result<Self, E>
    where
        E: From<AllocError>,
    {
        Box::<_, A>::new_uninit(flags)?.write_init(init)
    }
}

// `ForeignOwnable` for `Box<T, A>` and `Pin<Box<T, A>>` (7.3's `kbox.rs`) comes with
// `kernel_core::types`, which defines the trait.

impl<T, A> Deref for Box<T, A>
where
    T: ?Sized,
    A: Allocator,
{
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        // SAFETY: By the invariant, `self.0` is aligned, dereferenceable and points to a valid
        // `T`, which the `Box` owns.
        unsafe { self.0.as_ref() }
    }
}

impl<T, A> DerefMut for Box<T, A>
where
    T: ?Sized,
    A: Allocator,
{
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: By the invariant, `self.0` is aligned, dereferenceable and points to a valid
        // `T`, which the `Box` owns, borrowed mutably here.
        unsafe { self.0.as_mut() }
    }
}

/// # Examples
///
/// ```
/// use core::borrow::Borrow;
/// use kernel_core::prelude::*;
///
/// struct Holder<B: Borrow<u32>>(B);
///
/// let owned = Holder(1);
/// let boxed = Holder(KBox::new(1, GFP_KERNEL)?);
/// let i = 1;
/// let borrowed = Holder(&i);
/// assert_eq!(owned.0, *Borrow::<u32>::borrow(&boxed.0));
/// assert_eq!(*borrowed.0, 1);
/// # Ok::<(), Error>(())
/// ```
impl<T, A> Borrow<T> for Box<T, A>
where
    T: ?Sized,
    A: Allocator,
{
    #[inline]
    fn borrow(&self) -> &T {
        self.deref()
    }
}

/// # Examples
///
/// ```
/// use core::borrow::BorrowMut;
/// use kernel_core::prelude::*;
///
/// struct Holder<B: BorrowMut<u32>>(B);
///
/// let mut boxed = Holder(KBox::new(1, GFP_KERNEL)?);
/// *BorrowMut::<u32>::borrow_mut(&mut boxed.0) += 1;
/// assert_eq!(*boxed.0, 2);
/// let mut i = 1;
/// let borrowed = Holder(&mut i);
/// # let _ = borrowed;
/// # Ok::<(), Error>(())
/// ```
impl<T, A> BorrowMut<T> for Box<T, A>
where
    T: ?Sized,
    A: Allocator,
{
    #[inline]
    fn borrow_mut(&mut self) -> &mut T {
        self.deref_mut()
    }
}

// The kernel's `Display` (`kernel::fmt::Display`), as Linux 7.3's `Box` implements it, which
// `{}` in `fmt!` and `pr_*!` reads; not `core`'s, which the kernel's `Box` does not have.
impl<T, A> crate::fmt::Display for Box<T, A>
where
    T: ?Sized + crate::fmt::Display,
    A: Allocator,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        <T as crate::fmt::Display>::fmt(&**self, f)
    }
}

impl<T, A> fmt::Debug for Box<T, A>
where
    T: ?Sized + fmt::Debug,
    A: Allocator,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        <T as fmt::Debug>::fmt(&**self, f)
    }
}

impl<T, A> Drop for Box<T, A>
where
    T: ?Sized,
    A: Allocator,
{
    fn drop(&mut self) {
        let layout = Layout::for_value::<T>(self);
        // SAFETY: By the invariant, `self.0` points to a valid `T`, owned by the `Box` and not
        // used again.
        unsafe { core::ptr::drop_in_place::<T>(self.deref_mut()) };
        // SAFETY: `self.0` was allocated with `A` and `layout` (the layout of the value: for an
        // array from a `Vec`'s buffer, its `ArrayLayout`), or is dangling with a zero size.
        unsafe { A::free(self.0.cast(), layout) };
    }
}
