// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What the macros' expansions use: not an API. Its items may change in any release.
//!
//! Kernel counterpart: `rust/pin-init/src/__internal.rs` (Linux 7.3). The generated code of
//! `pin_init!`, `init!`, `#[pin_data]` and `#[pinned_drop]` reaches these by absolute paths
//! (`::pin_init::__internal::...`).

use core::{marker::PhantomData, mem::MaybeUninit, pin::Pin, ptr};

use crate::{raw_try_init, Init, PinInit};

/// A zero-sized marker that makes its owner invariant in `T`: an initialiser of a `T` must not
/// be usable as one of a sub- or supertype.
#[repr(transparent)]
pub struct PhantomInvariant<T: ?Sized>(PhantomData<fn(T) -> T>);

impl<T: ?Sized> PhantomInvariant<T> {
    /// The marker.
    #[inline(always)]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T: ?Sized> Clone for PhantomInvariant<T> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for PhantomInvariant<T> {}

impl<T: ?Sized> Default for PhantomInvariant<T> {
    #[inline(always)]
    fn default() -> Self {
        Self::new()
    }
}

/// A marker invariant in the lifetime `'a`.
#[repr(transparent)]
#[derive(Clone, Copy, Default)]
pub struct PhantomInvariantLifetime<'a>(PhantomInvariant<&'a ()>);

impl PhantomInvariantLifetime<'_> {
    /// The marker.
    #[inline(always)]
    pub const fn new() -> Self {
        Self(PhantomInvariant::new())
    }
}

/// The proof an initialiser's body returns: only the macros make one, so user code inside an
/// initialiser cannot `return Ok(..)` early with fields left uninitialised.
pub struct InitOk(());

impl InitOk {
    /// The proof.
    ///
    /// # Safety
    ///
    /// Only the expansions of `pin_init!` and `init!` call this, after every field was
    /// initialised.
    #[inline(always)]
    pub unsafe fn new() -> Self {
        Self(())
    }
}

/// A type whose fields `pin_init!` can reach: implemented by `#[pin_data]` alone, whose
/// `PinData` (`__ThePinData`) has a method per field returning that field's [`Slot`], pinned
/// or not as declared, and `__make_closure`, which checks an initialiser's closure.
///
/// # Safety
///
/// `PinData`'s field methods must hand out slots for exactly the fields of `Self`, each
/// [`Pinned`] only if the field is structurally pinned; only the macros' expansions may use
/// this trait.
pub unsafe trait HasPinData {
    /// The field accessors.
    type PinData;

    /// The field accessors of this type.
    ///
    /// # Safety
    ///
    /// Only the macros' expansions may call this.
    unsafe fn __pin_data() -> Self::PinData;
}

/// Every type can be initialised with `init!`: its fields are reached unpinned, by raw
/// pointer, so [`AllData`] has no field accessors, only `__make_closure` for type inference.
///
/// # Safety
///
/// Only the macros' expansions may use this trait.
pub unsafe trait HasInitData {
    /// The type-inference helper.
    type InitData;

    /// The type-inference helper of this type.
    ///
    /// # Safety
    ///
    /// Only the macros' expansions may call this.
    unsafe fn __init_data() -> Self::InitData;
}

/// The [`HasInitData::InitData`] of every type.
pub struct AllData<T: ?Sized>(PhantomInvariant<T>);

impl<T: ?Sized> Clone for AllData<T> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for AllData<T> {}

impl<T: ?Sized> AllData<T> {
    /// Checks the type of an initialiser's closure (one over a `T`) and helps inferring it.
    #[inline(always)]
    pub fn __make_closure<F, E>(self, f: F) -> F
    where
        F: FnOnce(*mut T) -> Result<InitOk, E>,
    {
        f
    }
}

// SAFETY: `AllData` hands out no slots: `init!` reaches fields by raw pointer, unpinned, which
// every field of every type may be.
unsafe impl<T: ?Sized> HasInitData for T {
    type InitData = AllData<T>;

    #[inline(always)]
    unsafe fn __init_data() -> Self::InitData {
        AllData(PhantomInvariant::new())
    }
}

/// Marks a [`Slot`] or [`DropGuard`] of a structurally pinned field.
pub struct Pinned;

/// Marks a [`Slot`] or [`DropGuard`] of a field that is not structurally pinned.
pub struct Unpinned;

/// The uninitialised memory of one field, pinned (`P` = [`Pinned`]) or not.
///
/// # Invariants
///
/// `ptr` is valid for writes of a `T`, properly aligned, exclusively the slot's, and
/// uninitialised; with `P` = [`Pinned`], it stays pinned.
pub struct Slot<P, T: ?Sized> {
    ptr: *mut T,
    pinning: PhantomData<P>,
}

impl<P, T: ?Sized> Slot<P, T> {
    /// The slot at `ptr`.
    ///
    /// # Safety
    ///
    /// `ptr` meets the type's invariants.
    #[inline(always)]
    pub unsafe fn new(ptr: *mut T) -> Self {
        // INVARIANT: The caller's promise.
        Self {
            ptr,
            pinning: PhantomData,
        }
    }

    /// Writes `value` into the slot; the guard drops it again unless forgotten.
    #[inline(always)]
    pub fn write(self, value: T) -> DropGuard<P, T>
    where
        T: Sized,
    {
        // SAFETY: `ptr` is valid for writes and aligned, by the invariants.
        unsafe { self.ptr.write(value) };
        // SAFETY: `*ptr` was just initialised and is owned by nobody else; pinned if `P` is.
        unsafe { DropGuard::new(self.ptr) }
    }
}

impl<T: ?Sized> Slot<Unpinned, T> {
    /// Initialises the slot with `init`; the guard drops the value again unless forgotten.
    #[inline(always)]
    pub fn init<E>(self, init: impl Init<T, E>) -> Result<DropGuard<Unpinned, T>, E> {
        // SAFETY: `ptr` is valid for writes and aligned; on error the slot is consumed and
        // never read.
        unsafe { raw_try_init(self.ptr, init)? };
        // SAFETY: `*ptr` was just initialised and is owned by nobody else.
        Ok(unsafe { DropGuard::new(self.ptr) })
    }
}

impl<T: ?Sized> Slot<Pinned, T> {
    /// Initialises the pinned slot with `init`; the guard drops the value in place unless
    /// forgotten.
    #[inline(always)]
    pub fn init<E>(self, init: impl PinInit<T, E>) -> Result<DropGuard<Pinned, T>, E> {
        // SAFETY: `ptr` is valid for writes, aligned and pinned; on error the slot is consumed
        // and never read.
        unsafe { raw_try_init(self.ptr, init)? };
        // SAFETY: `*ptr` was just initialised, is owned by nobody else and pinned.
        Ok(unsafe { DropGuard::new(self.ptr) })
    }
}

/// Owns a field initialised so far: drops it in place if a later field's initialiser fails
/// (or panics), and is forgotten once the whole value is initialised.
///
/// # Invariants
///
/// `ptr` points to an initialised `T` that this guard owns; with `P` = [`Pinned`], pinned.
pub struct DropGuard<P, T: ?Sized> {
    ptr: *mut T,
    pinning: PhantomData<P>,
}

impl<P, T: ?Sized> DropGuard<P, T> {
    /// The guard of the value at `ptr`.
    ///
    /// # Safety
    ///
    /// `ptr` meets the type's invariants.
    #[inline]
    pub unsafe fn new(ptr: *mut T) -> Self {
        // INVARIANT: The caller's promise.
        Self {
            ptr,
            pinning: PhantomData,
        }
    }
}

impl<T: ?Sized> DropGuard<Unpinned, T> {
    /// The field, for the initialisers of later fields, which may refer to it by name.
    #[inline]
    pub fn let_binding(&mut self) -> &mut T {
        // SAFETY: `ptr` points to an initialised `T` that only this guard owns.
        unsafe { &mut *self.ptr }
    }
}

impl<T: ?Sized> DropGuard<Pinned, T> {
    /// The pinned field, for the initialisers of later fields, which may refer to it by name.
    #[inline]
    pub fn let_binding(&mut self) -> Pin<&mut T> {
        // SAFETY: `ptr` points to an initialised, pinned `T` that only this guard owns.
        unsafe { Pin::new_unchecked(&mut *self.ptr) }
    }
}

impl<P, T: ?Sized> Drop for DropGuard<P, T> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: `ptr` points to an initialised `T` that this guard owns, dropped once here.
        unsafe { ptr::drop_in_place(self.ptr) }
    }
}

/// The token that only the `Drop` generated by `#[pin_data(PinnedDrop)]` can make, so that
/// [`PinnedDrop::drop`](crate::PinnedDrop::drop) is never called from anywhere else.
pub struct OnlyCallFromDrop(());

impl OnlyCallFromDrop {
    /// The token.
    ///
    /// # Safety
    ///
    /// Only the `Drop` implementation generated by `#[pin_data(PinnedDrop)]` may call this.
    #[inline(always)]
    pub unsafe fn new() -> Self {
        Self(())
    }
}

/// A pinned stack slot for `stack_pin_init!`: initialised at most once at a time, dropped with
/// the slot.
pub struct StackInit<T> {
    value: MaybeUninit<T>,
    is_init: bool,
}

impl<T> StackInit<T> {
    /// An empty slot.
    #[inline]
    pub fn uninit() -> Self {
        Self {
            value: MaybeUninit::uninit(),
            is_init: false,
        }
    }

    /// Initialises the pinned slot with `init` (dropping what it held before).
    #[inline]
    pub fn init<E>(self: Pin<&mut Self>, init: impl PinInit<T, E>) -> Result<Pin<&mut T>, E> {
        // SAFETY: Nothing below moves the slot's content out of it.
        let this = unsafe { Pin::into_inner_unchecked(self) };
        if this.is_init {
            this.is_init = false;
            // SAFETY: `is_init` said the value is initialised; it is dropped in place, once.
            unsafe { this.value.assume_init_drop() };
        }
        // SAFETY: The memory is valid for writes and pinned, since `self` was.
        unsafe { raw_try_init(this.value.as_mut_ptr(), init)? };
        this.is_init = true;
        // SAFETY: Initialised just above; pinned, since `self` was.
        Ok(unsafe { Pin::new_unchecked(this.value.assume_init_mut()) })
    }
}

impl<T> Drop for StackInit<T> {
    #[inline]
    fn drop(&mut self) {
        if self.is_init {
            // SAFETY: `is_init` says the value is initialised; dropped once, here.
            unsafe { self.value.assume_init_drop() };
        }
    }
}

/// An initialiser that always fails: `assert_pinned!` hands it to a field's slot, which
/// compiles only if the slot is [`Pinned`] (an [`Unpinned`] slot takes only an `Init`, and
/// this is not one).
pub struct AlwaysFail<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> AlwaysFail<T> {
    /// The initialiser.
    #[inline]
    pub fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T: ?Sized> Default for AlwaysFail<T> {
    #[inline]
    fn default() -> Self {
        Self::new()
    }
}
