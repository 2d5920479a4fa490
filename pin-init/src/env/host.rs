// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The initialiser traits on the host: kernel-core's own [`PinInit`] and [`Init`], the closure
//! constructors, and the implementations for values, `Result`s and arrays.
//!
//! Its twin, `env/kernel.rs`, is built instead for a module on Linux 6.12, where these items are
//! the kernel's own (`kernel::init`), so that initialisers made by this crate's macros go to the
//! kernel's `KBox::pin_init`, `Arc::pin_init` and lock constructors. Everything else of the
//! crate is written against these items alone, and through [`raw_try_init`] rather than the
//! traits' method, whose name 6.12 spells `__pinned_init`.

use core::{convert::Infallible, mem::MaybeUninit, pin::Pin, ptr};

use crate::__internal::{self, AlwaysFail, PhantomInvariant};

/// An initialiser of a pinned `T`: it writes a valid `T` into the memory it is given, which
/// stays where it is until the `T` is dropped, or fails with `E` and leaves the memory as it
/// found it (nothing to drop).
///
/// Made by [`pin_init!`](macro@crate::pin_init), [`pin_init_from_closure`], the constructors of pinned types (a lock's
/// `new`), or any `T` (which initialises itself). Consumed by [`InPlaceWrite`], the allocators'
/// `pin_init` constructors (`KBox::pin_init`, `Arc::pin_init`), `stack_pin_init!`, and by
/// `field <- init` in another initialiser.
///
/// # Safety
///
/// An implementer's [`__init`](PinInit::__init) must:
/// - on `Ok(())`, have fully initialised `*slot`, and keep every pinning invariant of `T`;
/// - on `Err(e)`, leave `*slot` uninitialised (anything it wrote to it dropped already);
/// - never move a value it initialised in place once other code may have observed its address.
///
/// # Examples
///
/// ```
/// use core::convert::Infallible;
/// use core::pin::pin;
/// # extern crate kernel_core_pin_init as pin_init;
/// use pin_init::{pin_init_from_closure, PinInit};
///
/// struct Counter(u64);
///
/// fn counter(start: u64) -> impl PinInit<Counter, Infallible> {
///     // SAFETY: the closure initialises the whole slot and returns `Ok`.
///     unsafe {
///         pin_init_from_closure(move |slot: *mut Counter| {
///             slot.write(Counter(start));
///             Ok(())
///         })
///     }
/// }
///
/// let mut slot = core::mem::MaybeUninit::<Counter>::uninit();
/// // SAFETY: `slot` is valid for writes and stays in place until the end of this example.
/// unsafe { pin_init::raw_init(slot.as_mut_ptr(), counter(7)) };
/// // SAFETY: initialised just above.
/// assert_eq!(unsafe { slot.assume_init_ref() }.0, 7);
/// ```
#[must_use = "an initializer does nothing until it is used to initialize a value"]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an initializer of `{T}`",
    label = "not a `PinInit<{T}, {E}>`",
    note = "a value of type `{T}` initializes a `{T}`; so do `pin_init!`, `init!` and \
            constructors returning `impl PinInit<{T}, {E}>`"
)]
pub unsafe trait PinInit<T: ?Sized, E = Infallible>: Sized {
    /// Initialises `slot`. Call [`raw_try_init`] rather than this method: on Linux 6.12 the
    /// kernel's trait names its method `__pinned_init`, and the free function reads the same on
    /// every kernel.
    ///
    /// # Safety
    ///
    /// - `slot` is valid for writes of a `T` and properly aligned;
    /// - on `Err`, the caller treats `*slot` as uninitialised (and may reuse or free it);
    /// - `*slot` stays pinned (never moves) until the `T` in it is dropped.
    unsafe fn __init(self, slot: *mut T) -> Result<(), E>;

    /// An initialiser that first runs `self`, then `f` on the pinned, initialised value; if `f`
    /// fails, the value is dropped and `f`'s error returned.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::pin::Pin;
    /// # extern crate kernel_core_pin_init as pin_init;
    /// use pin_init::PinInit;
    ///
    /// let init = 5_u32.pin_chain(|mut v: Pin<&mut u32>| {
    ///     *v *= 2;
    ///     Ok::<(), core::convert::Infallible>(())
    /// });
    /// let mut slot = core::mem::MaybeUninit::<u32>::uninit();
    /// // SAFETY: `slot` is valid for writes and does not move.
    /// unsafe { pin_init::raw_try_init(slot.as_mut_ptr(), init) }.unwrap();
    /// // SAFETY: initialised just above.
    /// assert_eq!(unsafe { slot.assume_init() }, 10);
    /// ```
    #[inline]
    fn pin_chain<F>(self, f: F) -> ChainPinInit<Self, F, T, E>
    where
        F: FnOnce(Pin<&mut T>) -> Result<(), E>,
    {
        ChainPinInit(self, f, __internal::PhantomInvariant::new())
    }
}

/// An initialiser of a `T` that need not be pinned: every [`Init`] is a [`PinInit`], and may
/// also write into memory that moves afterwards (a `KBox::init`, a stack variable).
///
/// # Safety
///
/// As [`PinInit`], and the initialisation must not rely on `*slot` staying pinned after
/// `__init` returns.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use pin_init::Init;
///
/// let init = [1_u8, 2, 3].chain(|v: &mut [u8; 3]| {
///     v.reverse();
///     Ok::<(), core::convert::Infallible>(())
/// });
/// let mut slot = core::mem::MaybeUninit::<[u8; 3]>::uninit();
/// // SAFETY: `slot` is valid for writes.
/// unsafe { pin_init::raw_try_init(slot.as_mut_ptr(), init) }.unwrap();
/// // SAFETY: initialised just above.
/// assert_eq!(unsafe { slot.assume_init() }, [3, 2, 1]);
/// ```
#[must_use = "an initializer does nothing until it is used to initialize a value"]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an initializer of `{T}` that works without pinning",
    label = "not an `Init<{T}, {E}>`",
    note = "`init!`, and the fields of `pin_init!` without `#[pin]`, take an `Init` or a value \
            of the field's type; an initializer that needs its memory pinned (a `PinInit` \
            only) goes to a `#[pin]` field of `pin_init!`"
)]
pub unsafe trait Init<T: ?Sized, E = Infallible>: PinInit<T, E> {
    /// An initialiser that first runs `self`, then `f` on the initialised value; if `f` fails,
    /// the value is dropped and `f`'s error returned.
    #[inline]
    fn chain<F>(self, f: F) -> ChainInit<Self, F, T, E>
    where
        F: FnOnce(&mut T) -> Result<(), E>,
    {
        ChainInit(self, f, __internal::PhantomInvariant::new())
    }
}

/// Initialises `slot` with an initialiser that cannot fail.
///
/// # Safety
///
/// `slot` is valid for writes of a `T`, properly aligned, and stays pinned until the `T` in
/// it is dropped (unless `init` is an [`Init`]).
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// let mut slot = core::mem::MaybeUninit::<u16>::uninit();
/// // SAFETY: `slot` is valid for writes.
/// unsafe { pin_init::raw_init(slot.as_mut_ptr(), 3_u16) };
/// // SAFETY: initialised just above.
/// assert_eq!(unsafe { slot.assume_init() }, 3);
/// ```
#[inline(always)]
pub unsafe fn raw_init<T>(slot: *mut T, init: impl PinInit<T>) {
    // SAFETY: The caller's promise is what `__init` requires; the error type is uninhabited.
    match unsafe { init.__init(slot) } {
        Ok(()) => {}
        Err(never) => match never {},
    }
}

/// Initialises `slot`, or returns the initialiser's error with `*slot` left uninitialised.
///
/// # Safety
///
/// As [`raw_init`]; on `Err`, `*slot` is uninitialised.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// let mut slot = core::mem::MaybeUninit::<u16>::uninit();
/// // SAFETY: `slot` is valid for writes.
/// let res = unsafe { pin_init::raw_try_init(slot.as_mut_ptr(), Err::<u16, _>("no")) };
/// assert_eq!(res, Err("no"));
/// ```
#[inline(always)]
pub unsafe fn raw_try_init<T: ?Sized, E>(slot: *mut T, init: impl PinInit<T, E>) -> Result<(), E> {
    // SAFETY: The caller's promise is what `__init` requires.
    unsafe { init.__init(slot) }
}

/// The initialiser returned by [`PinInit::pin_chain`].
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use core::pin::Pin;
/// use pin_init::{pin_data, pin_init, stack_try_pin_init, ChainPinInit, PinInit};
///
/// #[pin_data]
/// struct Port {
///     number: u16,
/// }
///
/// // A closure's type cannot be named: a function returns it as `impl PinInit`.
/// fn checked(number: u16) -> impl PinInit<Port, &'static str> {
///     let init: ChainPinInit<_, _, Port, &'static str> =
///         pin_init!(Port { number }? &'static str).pin_chain(|port: Pin<&mut Port>| {
///             if port.number == 0 { Err("port 0") } else { Ok(()) }
///         });
///     init
/// }
///
/// stack_try_pin_init!(let zero = checked(0));
/// assert_eq!(zero.err(), Some("port 0"));
/// ```
pub struct ChainPinInit<I, F, T: ?Sized, E>(I, F, __internal::PhantomInvariant<(E, T)>);

// SAFETY: `self.0` initialises the pinned slot; if `self.1` then fails, the guard drops the
// value in place (it never moved) before the error is returned, leaving the slot uninitialised.
unsafe impl<T: ?Sized, E, I, F> PinInit<T, E> for ChainPinInit<I, F, T, E>
where
    I: PinInit<T, E>,
    F: FnOnce(Pin<&mut T>) -> Result<(), E>,
{
    #[inline]
    unsafe fn __init(self, slot: *mut T) -> Result<(), E> {
        // SAFETY: `slot` is valid, aligned and pinned, as `__init` is told.
        let slot = unsafe { __internal::Slot::<__internal::Pinned, T>::new(slot) };
        let mut value = slot.init(self.0)?;
        (self.1)(value.let_binding())?;
        core::mem::forget(value);
        Ok(())
    }
}

/// The initialiser returned by [`Init::chain`].
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use pin_init::{init, ChainInit, Init};
///
/// struct Buffer {
///     bytes: [u8; 4],
/// }
///
/// fn reversed(bytes: [u8; 4]) -> impl Init<Buffer> {
///     let init: ChainInit<_, _, Buffer, core::convert::Infallible> =
///         init!(Buffer { bytes }).chain(|buffer: &mut Buffer| {
///             buffer.bytes.reverse();
///             Ok(())
///         });
///     init
/// }
///
/// let mut slot = core::mem::MaybeUninit::<Buffer>::uninit();
/// // SAFETY: `slot` is valid for writes.
/// unsafe { pin_init::raw_init(slot.as_mut_ptr(), reversed([1, 2, 3, 4])) };
/// // SAFETY: initialised just above.
/// assert_eq!(unsafe { slot.assume_init() }.bytes, [4, 3, 2, 1]);
/// ```
pub struct ChainInit<I, F, T: ?Sized, E>(I, F, __internal::PhantomInvariant<(E, T)>);

// SAFETY: `self.0` initialises the slot without relying on pinning, and so does `self.1`, which
// only gets a `&mut T`; on `self.1`'s error the guard drops the value.
unsafe impl<T: ?Sized, E, I, F> PinInit<T, E> for ChainInit<I, F, T, E>
where
    I: Init<T, E>,
    F: FnOnce(&mut T) -> Result<(), E>,
{
    #[inline]
    unsafe fn __init(self, slot: *mut T) -> Result<(), E> {
        // SAFETY: `slot` is valid and aligned, as `__init` is told.
        let slot = unsafe { __internal::Slot::<__internal::Unpinned, T>::new(slot) };
        let mut value = slot.init(self.0)?;
        (self.1)(value.let_binding())?;
        core::mem::forget(value);
        Ok(())
    }
}

// SAFETY: Neither step relies on the slot staying pinned after `__init` returns.
unsafe impl<T: ?Sized, E, I, F> Init<T, E> for ChainInit<I, F, T, E>
where
    I: Init<T, E>,
    F: FnOnce(&mut T) -> Result<(), E>,
{
}

/// An initialiser made of a closure over the slot, by [`pin_init_from_closure`] or
/// [`init_from_closure`], whose callers promised what [`PinInit`] requires.
struct FromClosure<F, T: ?Sized>(F, __internal::PhantomInvariant<T>);

// SAFETY: The maker of this value (`pin_init_from_closure`, `init_from_closure`) was promised
// that the closure upholds `PinInit`'s contract.
unsafe impl<T: ?Sized, F, E> PinInit<T, E> for FromClosure<F, T>
where
    F: FnOnce(*mut T) -> Result<(), E>,
{
    #[inline]
    unsafe fn __init(self, slot: *mut T) -> Result<(), E> {
        (self.0)(slot)
    }
}

// SAFETY: `init_from_closure`'s caller promised that the closure does not rely on pinning;
// `pin_init_from_closure` returns this type as an opaque `impl PinInit`, which hides this impl.
unsafe impl<T: ?Sized, F, E> Init<T, E> for FromClosure<F, T> where
    F: FnOnce(*mut T) -> Result<(), E>
{
}

/// Makes a pinned initialiser of a closure that gets the slot.
///
/// # Safety
///
/// The closure must uphold [`PinInit`]'s contract: on `Ok(())` the slot is fully initialised
/// and pinning invariants hold; on `Err` it is uninitialised.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use pin_init::{pin_init_from_closure, PinInit};
///
/// fn failing() -> impl PinInit<u8, &'static str> {
///     // SAFETY: the closure writes nothing and fails.
///     unsafe { pin_init_from_closure(|_slot: *mut u8| Err("busy")) }
/// }
/// let mut slot = core::mem::MaybeUninit::<u8>::uninit();
/// // SAFETY: `slot` is valid for writes and does not move.
/// assert_eq!(unsafe { pin_init::raw_try_init(slot.as_mut_ptr(), failing()) }, Err("busy"));
/// ```
#[inline]
pub const unsafe fn pin_init_from_closure<T: ?Sized, E>(
    f: impl FnOnce(*mut T) -> Result<(), E>,
) -> impl PinInit<T, E> {
    FromClosure(f, __internal::PhantomInvariant::new())
}

/// Makes an initialiser of a closure that gets the slot.
///
/// # Safety
///
/// The closure must uphold [`Init`]'s contract: as [`pin_init_from_closure`]'s, and without
/// relying on the slot staying pinned.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use pin_init::{init_from_closure, Init};
///
/// fn ones() -> impl Init<[u8; 4]> {
///     // SAFETY: the closure initialises all four bytes.
///     unsafe { init_from_closure(|slot: *mut [u8; 4]| { slot.write([1; 4]); Ok(()) }) }
/// }
/// let mut slot = core::mem::MaybeUninit::<[u8; 4]>::uninit();
/// // SAFETY: `slot` is valid for writes.
/// unsafe { pin_init::raw_init(slot.as_mut_ptr(), ones()) };
/// // SAFETY: initialised just above.
/// assert_eq!(unsafe { slot.assume_init() }, [1; 4]);
/// ```
#[inline]
pub const unsafe fn init_from_closure<T: ?Sized, E>(
    f: impl FnOnce(*mut T) -> Result<(), E>,
) -> impl Init<T, E> {
    FromClosure(f, __internal::PhantomInvariant::new())
}

/// An initialiser that leaves a `MaybeUninit<T>` uninitialised, which it may be.
///
/// # Examples
///
/// ```
/// use core::mem::MaybeUninit;
/// # extern crate kernel_core_pin_init as pin_init;
///
/// let mut slot = MaybeUninit::<MaybeUninit<u64>>::uninit();
/// // SAFETY: `slot` is valid for writes.
/// unsafe { pin_init::raw_init(slot.as_mut_ptr(), pin_init::uninit::<u64, _>()) };
/// ```
#[inline]
pub fn uninit<T, E>() -> impl Init<MaybeUninit<T>, E> {
    // SAFETY: A `MaybeUninit<T>` needs nothing written to be valid.
    unsafe { init_from_closure(|_| Ok(())) }
}

/// An initialiser of `[T; N]` that initialises element `i` with `make_init(i)`, in order of
/// the index; on an error, the elements already made are dropped and the error returned.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// let init = pin_init::init_array_from_fn(|i| i as u32 * 3);
/// let mut slot = core::mem::MaybeUninit::<[u32; 4]>::uninit();
/// // SAFETY: `slot` is valid for writes.
/// unsafe { pin_init::raw_init(slot.as_mut_ptr(), init) };
/// // SAFETY: initialised just above.
/// assert_eq!(unsafe { slot.assume_init() }, [0, 3, 6, 9]);
/// ```
#[inline]
pub fn init_array_from_fn<I, const N: usize, T, E>(
    make_init: impl FnMut(usize) -> I,
) -> impl Init<[T; N], E>
where
    I: Init<T, E>,
{
    ArrayInit::new(make_init)
}

/// An initialiser of a pinned `[T; N]` whose element `i` is initialised in place by
/// `make_init(i)`; on an error, the elements already made are dropped in place.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// let init = pin_init::pin_init_array_from_fn(|i| {
///     if i < 2 { Ok(i as u8) } else { Err("third") }
/// });
/// let mut slot = core::mem::MaybeUninit::<[u8; 3]>::uninit();
/// // SAFETY: `slot` is valid for writes and does not move.
/// assert_eq!(unsafe { pin_init::raw_try_init(slot.as_mut_ptr(), init) }, Err("third"));
/// ```
#[inline]
pub fn pin_init_array_from_fn<I, const N: usize, T, E>(
    make_init: impl FnMut(usize) -> I,
) -> impl PinInit<[T; N], E>
where
    I: PinInit<T, E>,
{
    ArrayInit::new(make_init)
}

// SAFETY: Writing a `T` fully initialises the slot and cannot fail; a value that was movable
// until now has no pinning invariant that moving it into the slot could break.
unsafe impl<T> PinInit<T> for T {
    #[inline]
    unsafe fn __init(self, slot: *mut T) -> Result<(), Infallible> {
        // SAFETY: `slot` is valid for writes, as `__init` is told.
        unsafe { slot.write(self) };
        Ok(())
    }
}

// SAFETY: Writing a value does not rely on the slot staying pinned.
unsafe impl<T> Init<T> for T {}

// SAFETY: On `Ok(v)`, `v` is written (fully initialising the slot); on `Err`, nothing is.
unsafe impl<T, E> PinInit<T, E> for Result<T, E> {
    #[inline]
    unsafe fn __init(self, slot: *mut T) -> Result<(), E> {
        let value = self?;
        // SAFETY: `slot` is valid for writes, as `__init` is told.
        unsafe { slot.write(value) };
        Ok(())
    }
}

// SAFETY: Writing a value does not rely on the slot staying pinned.
unsafe impl<T, E> Init<T, E> for Result<T, E> {}

/// Memory that can be initialised in place, becoming a smart pointer to the value: a
/// `KBox<MaybeUninit<T>>`, a `UniqueArc<MaybeUninit<T>>`, a `&'static mut MaybeUninit<T>`.
///
/// # Examples
///
/// ```
/// use core::mem::MaybeUninit;
/// # extern crate kernel_core_pin_init as pin_init;
/// use pin_init::InPlaceWrite;
///
/// static mut SLOT: MaybeUninit<u64> = MaybeUninit::uninit();
/// // SAFETY: nothing else refers to `SLOT`.
/// let slot: &'static mut MaybeUninit<u64> = unsafe { &mut *core::ptr::addr_of_mut!(SLOT) };
/// let value = slot.write_init(77_u64).unwrap_or_else(|never: core::convert::Infallible| match never {});
/// assert_eq!(*value, 77);
/// ```
pub trait InPlaceWrite<T> {
    /// What the memory becomes once initialised.
    type Initialized;

    /// Initialises the memory with `init`.
    fn write_init<E>(self, init: impl Init<T, E>) -> Result<Self::Initialized, E>;

    /// Initialises the memory, pinned, with `init`.
    fn write_pin_init<E>(self, init: impl PinInit<T, E>) -> Result<Pin<Self::Initialized>, E>;
}

impl<T> InPlaceWrite<T> for &'static mut MaybeUninit<T> {
    type Initialized = &'static mut T;

    #[inline]
    fn write_init<E>(self, init: impl Init<T, E>) -> Result<Self::Initialized, E> {
        // SAFETY: The memory is valid for writes; an `Init` needs no pinning.
        unsafe { raw_try_init(self.as_mut_ptr(), init)? };
        // SAFETY: Initialised just above.
        Ok(unsafe { self.assume_init_mut() })
    }

    #[inline]
    fn write_pin_init<E>(self, init: impl PinInit<T, E>) -> Result<Pin<Self::Initialized>, E> {
        // SAFETY: The memory is valid for writes, and a `'static` exclusive borrow never lets
        // it move or be reused, so it stays pinned.
        unsafe { raw_try_init(self.as_mut_ptr(), init)? };
        // SAFETY: Initialised just above.
        Ok(Pin::static_mut(unsafe { self.assume_init_mut() }))
    }
}

/// The initialiser behind `init_array_from_fn` and `pin_init_array_from_fn`.
struct ArrayInit<T, F>(F, PhantomInvariant<T>);

impl<T, F> ArrayInit<T, F> {
    #[inline]
    fn new(make_init: F) -> Self {
        Self(make_init, PhantomInvariant::new())
    }
}

/// Drops the first `done` elements of an array being initialised, in place, unless forgotten.
struct ArrayGuard<T> {
    first: *mut T,
    done: usize,
}

impl<T> Drop for ArrayGuard<T> {
    fn drop(&mut self) {
        // SAFETY: The first `done` elements from `first` are initialised, owned by this guard.
        unsafe { ptr::drop_in_place(ptr::slice_from_raw_parts_mut(self.first, self.done)) };
    }
}

// SAFETY: On `Ok`, all `N` elements were initialised in place (in a pinned slot, so is each
// element); on an error the guard drops the ones made so far and the array is uninitialised.
unsafe impl<T, F, I, E, const N: usize> PinInit<[T; N], E> for ArrayInit<T, F>
where
    F: FnMut(usize) -> I,
    I: PinInit<T, E>,
{
    unsafe fn __init(mut self, slot: *mut [T; N]) -> Result<(), E> {
        let mut guard = ArrayGuard {
            first: slot.cast::<T>(),
            done: 0,
        };
        for i in 0..N {
            let init = (self.0)(i);
            // SAFETY: Element `i` of the valid slot, uninitialised, pinned if the array is.
            unsafe { raw_try_init(guard.first.add(i), init)? };
            guard.done = i + 1;
        }
        core::mem::forget(guard);
        Ok(())
    }
}

// SAFETY: With `I: Init`, no element relies on pinning, which is all the array relied on.
unsafe impl<T, F, I, E, const N: usize> Init<[T; N], E> for ArrayInit<T, F>
where
    F: FnMut(usize) -> I,
    I: Init<T, E>,
{
}

// SAFETY: `__init` always fails without writing anything, which leaves the slot uninitialised.
unsafe impl<T: ?Sized> PinInit<T, ()> for AlwaysFail<T> {
    #[inline]
    unsafe fn __init(self, _slot: *mut T) -> Result<(), ()> {
        Err(())
    }
}
