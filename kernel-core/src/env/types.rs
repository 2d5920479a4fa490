// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::types` on the host and on Linux 6.12: kernel-core's own [`Opaque`], [`ForeignOwnable`],
//! [`ScopeGuard`] and [`NotThreadSafe`], with Linux 7.3's signatures and behaviour.
//!
//! Nothing here depends on the host: the file is written against `core` and `pin_init` alone.

use core::cell::UnsafeCell;
use core::marker::{PhantomData, PhantomPinned};
use core::mem::MaybeUninit;
use core::ops::{Deref, DerefMut};
use core::pin::Pin;

use pin_init::{PinInit, Wrapper, Zeroable};

use crate::alloc::Box;
// The bound of `Box`'s allocator (Linux 6.12's `Box` is bound by its own trait).
use crate::env::alloc::BoxAllocator as Allocator;
use crate::ffi::c_void;

/// A value whose ownership can move to foreign (C) code as a `void *` and back.
///
/// [`into_foreign`](Self::into_foreign) gives the value to C, for example as the private data
/// of a C object; [`from_foreign`](Self::from_foreign) takes it back when C is done, and
/// [`borrow`](Self::borrow) and [`borrow_mut`](Self::borrow_mut) reach it meanwhile. In Linux
/// 7.3 `()`, `Box` (`KBox`, `VBox`, `KVBox`), `Pin<Box>` and `Arc` implement it; here too, `Arc`
/// with kernel-core's [`sync`](crate::sync).
///
/// # Safety
///
/// Implementations must keep the promises of [`into_foreign`](Self::into_foreign): a pointer
/// that is not null and aligned to at least [`FOREIGN_ALIGN`](Self::FOREIGN_ALIGN).
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
/// use kernel_core::types::ForeignOwnable;
///
/// // A driver's state, handed to C as its private data, and taken back on removal.
/// let state = KBox::new([1_u32, 2, 3], GFP_KERNEL)?;
/// let private = state.into_foreign();
/// // SAFETY: `private` comes from `into_foreign`; nothing takes it back during the borrow.
/// let view: &[u32; 3] = unsafe { KBox::<[u32; 3]>::borrow(private) };
/// assert_eq!(view[2], 3);
/// // SAFETY: As above, taken back once.
/// let state = unsafe { KBox::<[u32; 3]>::from_foreign(private) };
/// assert_eq!(*state, [1, 2, 3]);
///
/// let ptr = ().into_foreign();
/// assert!(!ptr.is_null());
/// // SAFETY: `ptr` came from `into_foreign` and is taken back once.
/// let () = unsafe { <()>::from_foreign(ptr) };
/// // SAFETY: A null pointer is allowed here.
/// assert!(unsafe { <()>::try_from_foreign(core::ptr::null_mut()) }.is_none());
/// # Ok::<(), Error>(())
/// ```
pub unsafe trait ForeignOwnable: Sized {
    /// The alignment of the pointers that [`into_foreign`](Self::into_foreign) returns.
    const FOREIGN_ALIGN: usize;

    /// What an immutable borrow of a foreign-owned value gives.
    type Borrowed<'a>
    where
        Self: 'a;

    /// What a mutable borrow of a foreign-owned value gives.
    type BorrowedMut<'a>
    where
        Self: 'a;

    /// Gives the value to foreign code, as a pointer to void.
    ///
    /// The pointer promises nothing else: it may dangle or point to uninitialized memory, and
    /// using it other than with [`from_foreign`](Self::from_foreign),
    /// [`try_from_foreign`](Self::try_from_foreign), [`borrow`](Self::borrow) or
    /// [`borrow_mut`](Self::borrow_mut) may be undefined behaviour.
    ///
    /// # Guarantees
    ///
    /// - The pointer is aligned to at least [`Self::FOREIGN_ALIGN`].
    /// - The pointer is not null.
    fn into_foreign(self) -> *mut c_void;

    /// Takes a value back from foreign code.
    ///
    /// # Safety
    ///
    /// `ptr` must come from an earlier call of [`into_foreign`](Self::into_foreign), and be
    /// passed to `from_foreign` at most once.
    unsafe fn from_foreign(ptr: *mut c_void) -> Self;

    /// Takes a value back from foreign code, or returns [`None`] if `ptr` is null.
    ///
    /// # Safety
    ///
    /// `ptr` must be null or meet the requirements of [`from_foreign`](Self::from_foreign).
    unsafe fn try_from_foreign(ptr: *mut c_void) -> Option<Self> {
        if ptr.is_null() {
            None
        } else {
            // SAFETY: `ptr` is not null, so the caller promises what `from_foreign` requires.
            Some(unsafe { Self::from_foreign(ptr) })
        }
    }

    /// Borrows a foreign-owned value immutably: what an `&Self` would give.
    ///
    /// # Safety
    ///
    /// `ptr` must come from an earlier call of [`into_foreign`](Self::into_foreign), and if it
    /// is ever passed to [`from_foreign`](Self::from_foreign), that must happen after `'a` ends.
    unsafe fn borrow<'a>(ptr: *mut c_void) -> Self::Borrowed<'a>;

    /// Borrows a foreign-owned value mutably: what an `&mut Self` would give, but for moving
    /// the value (for an `Arc`, that is still shared access; for a box, its content may change
    /// but not its allocation).
    ///
    /// # Safety
    ///
    /// As for [`borrow`](Self::borrow), and `'a` must not overlap any other `borrow` or
    /// `borrow_mut` of the same value.
    unsafe fn borrow_mut<'a>(ptr: *mut c_void) -> Self::BorrowedMut<'a>;
}

// SAFETY: `into_foreign` returns a dangling pointer that is not null and aligned for `()`.
unsafe impl ForeignOwnable for () {
    const FOREIGN_ALIGN: usize = core::mem::align_of::<()>();
    type Borrowed<'a> = ();
    type BorrowedMut<'a> = ();

    #[inline]
    fn into_foreign(self) -> *mut c_void {
        core::ptr::NonNull::dangling().as_ptr()
    }

    #[inline]
    unsafe fn from_foreign(_: *mut c_void) -> Self {}

    #[inline]
    unsafe fn borrow<'a>(_: *mut c_void) -> Self::Borrowed<'a> {}

    #[inline]
    unsafe fn borrow_mut<'a>(_: *mut c_void) -> Self::BorrowedMut<'a> {}
}

// SAFETY: `into_foreign` returns the box's pointer: not null, and aligned for `T` and by the
// allocator, so to `FOREIGN_ALIGN`.
unsafe impl<T, A> ForeignOwnable for Box<T, A>
where
    A: Allocator,
{
    const FOREIGN_ALIGN: usize = if core::mem::align_of::<T>() < A::MIN_ALIGN {
        A::MIN_ALIGN
    } else {
        core::mem::align_of::<T>()
    };

    type Borrowed<'a>
        = &'a T
    where
        Self: 'a;
    type BorrowedMut<'a>
        = &'a mut T
    where
        Self: 'a;

    #[inline]
    fn into_foreign(self) -> *mut c_void {
        Box::into_raw(self).cast()
    }

    #[inline]
    unsafe fn from_foreign(ptr: *mut c_void) -> Self {
        // SAFETY: The caller promises that `ptr` comes from `into_foreign`, that is from
        // `Box::into_raw`, and is taken back once.
        unsafe { Box::from_raw(ptr.cast()) }
    }

    #[inline]
    unsafe fn borrow<'a>(ptr: *mut c_void) -> &'a T {
        // SAFETY: The caller promises that the box's value lives, unchanged, for `'a`.
        unsafe { &*ptr.cast::<T>() }
    }

    #[inline]
    unsafe fn borrow_mut<'a>(ptr: *mut c_void) -> &'a mut T {
        // SAFETY: The caller promises that the box's value lives for `'a`, and that nothing
        // else reaches it meanwhile.
        unsafe { &mut *ptr.cast::<T>() }
    }
}

// SAFETY: As for `Box<T, A>`: the same pointer, which stays pinned (never moved) while foreign.
unsafe impl<T, A> ForeignOwnable for Pin<Box<T, A>>
where
    A: Allocator,
{
    const FOREIGN_ALIGN: usize = <Box<T, A> as ForeignOwnable>::FOREIGN_ALIGN;

    type Borrowed<'a>
        = Pin<&'a T>
    where
        Self: 'a;
    type BorrowedMut<'a>
        = Pin<&'a mut T>
    where
        Self: 'a;

    #[inline]
    fn into_foreign(self) -> *mut c_void {
        // SAFETY: The value is not moved: its address goes to C, and comes back pinned.
        let boxed = unsafe { Pin::into_inner_unchecked(self) };
        Box::into_raw(boxed).cast()
    }

    #[inline]
    unsafe fn from_foreign(ptr: *mut c_void) -> Self {
        // SAFETY: The caller promises that `ptr` comes from `into_foreign`, from a pinned box
        // whose value has not moved since, and is taken back once.
        unsafe { Pin::new_unchecked(Box::from_raw(ptr.cast())) }
    }

    #[inline]
    unsafe fn borrow<'a>(ptr: *mut c_void) -> Pin<&'a T> {
        // SAFETY: The caller promises that the value lives, unchanged, for `'a`; it was pinned
        // and has not moved.
        unsafe { Pin::new_unchecked(&*ptr.cast::<T>()) }
    }

    #[inline]
    unsafe fn borrow_mut<'a>(ptr: *mut c_void) -> Pin<&'a mut T> {
        // SAFETY: The caller promises that the value lives for `'a` and that nothing else
        // reaches it meanwhile; it was pinned and stays so behind `Pin`.
        unsafe { Pin::new_unchecked(&mut *ptr.cast::<T>()) }
    }
}

/// Runs a cleanup closure when dropped, unless [dismissed](ScopeGuard::dismiss).
///
/// It may hold data that the cleanup receives ([`ScopeGuard::new_with_data`]), reachable
/// through the guard meanwhile (`Deref` and `DerefMut`).
///
/// # Invariants
///
/// The `Option` is `Some` from construction until [`ScopeGuard::dismiss`] or the drop takes
/// the data and closure out; `dismiss` consumes the guard, so no method sees `None`.
///
/// # Examples
///
/// ```
/// use kernel_core::types::ScopeGuard;
///
/// let mut log = Vec::new();
/// {
///     let mut pending = ScopeGuard::new_with_data(Vec::new(), |items: Vec<u8>| {
///         log.push(items.len());
///     });
///     pending.push(1);
///     pending.push(2);
/// } // dropped: the cleanup runs with the data
/// assert_eq!(log, [2]);
/// ```
pub struct ScopeGuard<T, F: FnOnce(T)>(Option<(T, F)>);

impl<T, F: FnOnce(T)> ScopeGuard<T, F> {
    /// A guard holding `data`, which runs `cleanup_func(data)` when dropped.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::types::ScopeGuard;
    ///
    /// let mut freed = 0;
    /// drop(ScopeGuard::new_with_data(3, |pages| freed += pages));
    /// assert_eq!(freed, 3);
    /// ```
    #[inline]
    pub fn new_with_data(data: T, cleanup_func: F) -> Self {
        // INVARIANT: `Some` from the start.
        Self(Some((data, cleanup_func)))
    }

    /// Disarms the guard: the cleanup does not run, and the data is returned.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::types::ScopeGuard;
    ///
    /// let mut freed = false;
    /// let guard = ScopeGuard::new_with_data(7, |_| freed = true);
    /// assert_eq!(guard.dismiss(), 7);
    /// assert!(!freed);
    /// ```
    #[inline]
    pub fn dismiss(mut self) -> T {
        // INVARIANT: `None` from here, but `self` is consumed: only `drop` sees it, and that
        // does nothing then.
        match self.0.take() {
            Some((data, _)) => data,
            None => unreachable!("a ScopeGuard holds its data until dismissed"),
        }
    }
}

impl ScopeGuard<(), fn(())> {
    /// A guard without data, which runs `cleanup` when dropped.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::types::ScopeGuard;
    ///
    /// let mut done = false;
    /// {
    ///     let _guard = ScopeGuard::new(|| done = true);
    /// }
    /// assert!(done);
    /// ```
    #[inline]
    pub fn new(cleanup: impl FnOnce()) -> ScopeGuard<(), impl FnOnce(())> {
        ScopeGuard::new_with_data((), move |()| cleanup())
    }
}

impl<T, F: FnOnce(T)> Deref for ScopeGuard<T, F> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        match &self.0 {
            Some((data, _)) => data,
            None => unreachable!("a ScopeGuard holds its data until dismissed"),
        }
    }
}

impl<T, F: FnOnce(T)> DerefMut for ScopeGuard<T, F> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        match &mut self.0 {
            Some((data, _)) => data,
            None => unreachable!("a ScopeGuard holds its data until dismissed"),
        }
    }
}

impl<T, F: FnOnce(T)> Drop for ScopeGuard<T, F> {
    #[inline]
    fn drop(&mut self) {
        if let Some((data, cleanup)) = self.0.take() {
            cleanup(data);
        }
    }
}

/// A value that C code owns: Rust makes no assumption about it.
///
/// Wrap in `Opaque` every value that the C side can reach (`Opaque<bindings::mutex>`), since
/// C does not follow Rust's rules. Compared with a plain `T`:
///
/// - the value may be uninitialized, or hold invalid bit patterns (`3` in a `bool`);
/// - it may change while a `&Opaque<T>` exists;
/// - several `&mut Opaque<T>` to it may exist at once;
/// - it is not `Sync`, and it is `!Unpin`: C may keep its address.
///
/// Its content is reached only through raw pointers ([`Opaque::get`], [`Opaque::cast_into`]),
/// whose use is `unsafe`.
///
/// # Examples
///
/// ```
/// use kernel_core::types::Opaque;
///
/// /// A C structure, as bindgen would declare it.
/// #[repr(C)]
/// struct CCounter {
///     value: u32,
/// }
///
/// struct Counter {
///     inner: Opaque<CCounter>,
/// }
///
/// impl Counter {
///     fn value(&self) -> u32 {
///         // SAFETY: `inner` was initialised by `Opaque::new`, and nothing writes it meanwhile.
///         unsafe { (*self.inner.get()).value }
///     }
///
///     fn bump(&self) {
///         // SAFETY: As above; `Opaque` allows mutation through a shared reference.
///         unsafe { (*self.inner.get()).value += 1 };
///     }
/// }
///
/// let counter = Counter { inner: Opaque::new(CCounter { value: 41 }) };
/// counter.bump();
/// assert_eq!(counter.value(), 42);
/// ```
#[repr(transparent)]
pub struct Opaque<T> {
    value: UnsafeCell<MaybeUninit<T>>,
    _pin: PhantomPinned,
}

// SAFETY: Any bytes, zeros included, are a valid `Opaque<T>`: its content may be uninitialized.
unsafe impl<T> Zeroable for Opaque<T> {}

impl<T> Opaque<T> {
    /// An opaque value holding `value`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::types::Opaque;
    ///
    /// let flag = Opaque::new(true);
    /// // SAFETY: Initialised by `new`.
    /// assert!(unsafe { *flag.get() });
    /// ```
    #[inline]
    pub const fn new(value: T) -> Self {
        Self {
            value: UnsafeCell::new(MaybeUninit::new(value)),
            _pin: PhantomPinned,
        }
    }

    /// An opaque value whose content is uninitialized.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::types::Opaque;
    ///
    /// let slot = Opaque::<u64>::uninit();
    /// // SAFETY: Writing is allowed; reading only once written.
    /// unsafe { slot.get().write(9) };
    /// // SAFETY: Written just above.
    /// assert_eq!(unsafe { *slot.get() }, 9);
    /// ```
    #[inline]
    pub const fn uninit() -> Self {
        Self {
            value: UnsafeCell::new(MaybeUninit::uninit()),
            _pin: PhantomPinned,
        }
    }

    /// An opaque value whose content is all zero bytes (which need not be a valid `T`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::types::Opaque;
    ///
    /// let words = Opaque::<[u32; 4]>::zeroed();
    /// // SAFETY: Zero bytes are a valid `[u32; 4]`.
    /// assert_eq!(unsafe { *words.get() }, [0; 4]);
    /// ```
    #[inline]
    pub const fn zeroed() -> Self {
        Self {
            value: UnsafeCell::new(MaybeUninit::zeroed()),
            _pin: PhantomPinned,
        }
    }

    /// A pin-initialiser that calls `init_func` with a pointer to the uninitialized `T` inside.
    ///
    /// The closure must not read through the pointer before writing. Safe, since the `T` of an
    /// `Opaque` may stay uninitialized, and reading it later takes `unsafe`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::types::Opaque;
    ///
    /// // What a C `init` function does to the structure it receives.
    /// fn c_init(counter: *mut u32) {
    ///     // SAFETY: `counter` is valid for writes (see below).
    ///     unsafe { counter.write(100) };
    /// }
    ///
    /// let init = Opaque::ffi_init(|slot: *mut u32| c_init(slot));
    /// let mut place = core::mem::MaybeUninit::<Opaque<u32>>::uninit();
    /// // SAFETY: `place` is valid for writes, and it does not move while used below.
    /// unsafe { pin_init::raw_init(place.as_mut_ptr(), init) };
    /// // SAFETY: Initialised just above; `ffi_init` gave `c_init` a pointer into it.
    /// let counter = unsafe { place.assume_init_ref() };
    /// // SAFETY: `c_init` wrote the value.
    /// assert_eq!(unsafe { *counter.get() }, 100);
    /// ```
    #[inline]
    pub fn ffi_init(init_func: impl FnOnce(*mut T)) -> impl PinInit<Self> {
        // SAFETY: The closure always succeeds, and leaves a valid `Opaque<T>` behind whatever
        // `init_func` writes, since the `T` inside may be uninitialized.
        unsafe {
            pin_init::pin_init_from_closure::<_, core::convert::Infallible>(move |slot| {
                init_func(Self::cast_into(slot));
                Ok(())
            })
        }
    }

    /// A fallible pin-initialiser that calls `init_func` with a pointer to the uninitialized
    /// `T` inside, and fails with its error.
    ///
    /// As [`Opaque::ffi_init`], for a C `init` function that can fail.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::error::{code::ENODEV, Error};
    /// use kernel_core::types::Opaque;
    ///
    /// let init = Opaque::try_ffi_init(|_slot: *mut u32| Err::<(), Error>(ENODEV));
    /// let mut place = core::mem::MaybeUninit::<Opaque<u32>>::uninit();
    /// // SAFETY: `place` is valid for writes, and it does not move while used.
    /// let result = unsafe { pin_init::raw_try_init(place.as_mut_ptr(), init) };
    /// assert_eq!(result, Err(ENODEV));
    /// ```
    #[inline]
    pub fn try_ffi_init<E>(
        init_func: impl FnOnce(*mut T) -> Result<(), E>,
    ) -> impl PinInit<Self, E> {
        // SAFETY: On success the slot holds a valid `Opaque<T>` whatever `init_func` wrote,
        // since the `T` inside may be uninitialized; on failure nothing needs dropping.
        unsafe {
            pin_init::pin_init_from_closure::<_, E>(move |slot| init_func(Self::cast_into(slot)))
        }
    }

    /// A raw pointer to the `T` inside, which may be uninitialized.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::types::Opaque;
    ///
    /// let value = Opaque::new(5_u8);
    /// let ptr = value.get();
    /// // SAFETY: Initialised by `new`; `Opaque` allows writes through a shared reference.
    /// unsafe { *ptr += 1 };
    /// // SAFETY: As above.
    /// assert_eq!(unsafe { *ptr }, 6);
    /// ```
    #[inline]
    pub const fn get(&self) -> *mut T {
        UnsafeCell::get(&self.value).cast::<T>()
    }

    /// The pointer to the `T` inside the `Opaque` that `this` points to, made without
    /// creating a reference (so `this` may point to uninitialized memory).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::types::Opaque;
    ///
    /// let value = Opaque::new(1_u16);
    /// let inner = Opaque::cast_into(&value);
    /// assert_eq!(inner, value.get());
    /// assert_eq!(Opaque::cast_from(inner), &value as *const Opaque<u16>);
    /// ```
    #[inline]
    pub const fn cast_into(this: *const Self) -> *mut T {
        UnsafeCell::raw_get(this.cast::<UnsafeCell<MaybeUninit<T>>>()).cast::<T>()
    }

    /// The pointer to the `Opaque` whose content `this` points to: the opposite of
    /// [`Opaque::cast_into`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::types::Opaque;
    ///
    /// let value = Opaque::new([0_u8; 3]);
    /// assert_eq!(Opaque::cast_from(value.get()), &value as *const _);
    /// ```
    #[inline]
    pub const fn cast_from(this: *const T) -> *const Self {
        this.cast()
    }
}

impl<T> Wrapper<T> for Opaque<T> {
    /// An opaque pin-initialiser from a pin-initialiser of the content.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::types::Opaque;
    /// use pin_init::Wrapper;
    ///
    /// let init = <Opaque<u32> as Wrapper<u32>>::pin_init(7_u32);
    /// let mut place = core::mem::MaybeUninit::<Opaque<u32>>::uninit();
    /// // SAFETY: `place` is valid for writes, and it does not move while used.
    /// unsafe { pin_init::raw_init(place.as_mut_ptr(), init) };
    /// // SAFETY: Initialised just above, with a valid `u32` inside.
    /// assert_eq!(unsafe { *place.assume_init_ref().get() }, 7);
    /// ```
    #[inline]
    fn pin_init<E>(init: impl PinInit<T, E>) -> impl PinInit<Self, E> {
        Self::try_ffi_init(|slot: *mut T| {
            // SAFETY: `slot` points to uninitialized memory valid for writes, pinned (it is
            // inside the pinned `Opaque`), and not used again if `init` fails.
            unsafe { pin_init::raw_try_init(slot, init) }
        })
    }
}

/// A zero-sized marker that makes a type neither [`Send`] nor [`Sync`].
///
/// Add a field of this type to a struct that refers to task-local state (a file descriptor
/// table, say): the struct then cannot move to another task, nor be shared between tasks.
/// Build the field with the constant [`NotThreadSafe`](const@NotThreadSafe).
///
/// # Examples
///
/// ```
/// use kernel_core::types::NotThreadSafe;
///
/// struct TaskLocal {
///     fd: i32,
///     _not_send: NotThreadSafe,
/// }
///
/// let local = TaskLocal { fd: 3, _not_send: NotThreadSafe };
/// assert_eq!(local.fd, 3);
/// ```
///
/// ```compile_fail,E0277
/// use kernel_core::types::NotThreadSafe;
///
/// fn send<T: Send>(_: T) {}
/// send(NotThreadSafe); // error[E0277]: `*mut ()` cannot be sent between threads safely
/// ```
pub type NotThreadSafe = PhantomData<*mut ()>;

/// The value of [`NotThreadSafe`](type@NotThreadSafe), as `PhantomData` is of `PhantomData<T>`.
#[allow(non_upper_case_globals)]
pub const NotThreadSafe: NotThreadSafe = PhantomData;
