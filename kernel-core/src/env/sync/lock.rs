// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Generic kernel lock and guard: [`Lock`] over a [`Backend`] (a mutex, a spinlock), and the
//! [`Guard`] that unlocks it when dropped.
//!
//! Kernel counterpart: `rust/kernel/sync/lock.rs` (Linux 7.3). The backends are the world's:
//! on the host kernel-core's own locks (which block through `env/host/sync/platform.rs` and call
//! the detectors' seams of `env/host/sync/hooks.rs`), in the kernel its `struct mutex` and
//! `spinlock_t`.
//!
//! Shared code: the host builds this file, and so may kernels whose `kernel::sync` lacks 7.3's
//! forms, with their own backends. It reaches the world's items through `super::` (the world's
//! `sync` module): `LockClassKey`, `bindings::lock_class_key`, `opaque::Opaque`.

use core::cell::UnsafeCell;
use core::ffi::CStr;
use core::marker::{PhantomData, PhantomPinned};
use core::mem::ManuallyDrop;
use core::pin::Pin;

use pin_init::{PinInit, Wrapper};

use super::{bindings, opaque::Opaque, LockClassKey};

#[path = "lock/mutex.rs"]
pub mod mutex;
#[path = "lock/spinlock.rs"]
pub mod spinlock;

#[path = "lock/global.rs"]
pub(super) mod global;
pub use global::{GlobalGuard, GlobalLock, GlobalLockBackend, GlobalLockedBy};

/// A kind of lock (a mutex, a spinlock): the primitive that [`Lock`] wraps, with its state and
/// its lock and unlock operations.
///
/// # Safety
///
/// - Between a [`lock`] (or a [`try_lock`] that returned `Some`) and the matching [`unlock`],
///   no other thread or CPU may own the lock: that is what lets the owner reach the data.
/// - [`relock`] takes the lock the same way as the operation that first took it.
///
/// [`lock`]: Backend::lock
/// [`try_lock`]: Backend::try_lock
/// [`unlock`]: Backend::unlock
/// [`relock`]: Backend::relock
///
/// # Examples
///
/// Code generic over the backend, for a [`Mutex`](super::Mutex) or a
/// [`SpinLock`](super::SpinLock) alike:
///
/// ```
/// use kernel_core::sync::lock::{Backend, Lock};
///
/// fn bump<B: Backend>(counter: &Lock<u32, B>) -> u32 {
///     let mut guard = counter.lock();
///     *guard += 1;
///     *guard
/// }
/// # use kernel_core::{new_mutex, new_spinlock};
/// # use pin_init::stack_pin_init;
/// # stack_pin_init!(let m = new_mutex!(0));
/// # stack_pin_init!(let s = new_spinlock!(7));
/// assert_eq!(bump(&m), 1);
/// assert_eq!(bump(&s), 8);
/// ```
pub unsafe trait Backend {
    /// The lock object itself (`struct mutex`, `spinlock_t`).
    type State;

    /// What [`lock`] hands to [`unlock`] (for example, saved interrupt flags).
    ///
    /// [`lock`]: Backend::lock
    /// [`unlock`]: Backend::unlock
    type GuardState;

    /// Initialises the lock object at `ptr`, of the class `key`, named `name`.
    ///
    /// # Safety
    ///
    /// `ptr` is valid for writes during the call; `name` (a NUL-terminated string) and `key`
    /// stay valid for reads for ever after.
    unsafe fn init(
        ptr: *mut Self::State,
        name: *const crate::ffi::c_char,
        key: *mut bindings::lock_class_key,
    );

    /// Takes the lock, waiting for it if needed; the caller owns it afterwards.
    ///
    /// # Safety
    ///
    /// [`Backend::init`] initialised `*ptr` before.
    #[must_use]
    unsafe fn lock(ptr: *mut Self::State) -> Self::GuardState;

    /// Takes the lock if it is free, without waiting; `None` if another owner holds it.
    ///
    /// # Safety
    ///
    /// [`Backend::init`] initialised `*ptr` before.
    unsafe fn try_lock(ptr: *mut Self::State) -> Option<Self::GuardState>;

    /// Gives the lock up.
    ///
    /// # Safety
    ///
    /// The caller owns the lock, and `guard_state` is what taking it returned.
    unsafe fn unlock(ptr: *mut Self::State, guard_state: &Self::GuardState);

    /// Takes the lock again after an [`unlock`](Backend::unlock) with the same `guard_state`
    /// (a condition variable's wait does this); by default, with [`lock`](Backend::lock).
    ///
    /// # Safety
    ///
    /// `guard_state` was returned by taking this lock, which was then given up with
    /// [`Backend::unlock`] and is now taken again, once.
    // The caller's location reaches `lock` (on the host, the lock-order detector's seam).
    #[track_caller]
    unsafe fn relock(ptr: *mut Self::State, guard_state: &mut Self::GuardState) {
        // SAFETY: The lock was taken before, so `init` initialised it.
        *guard_state = unsafe { Self::lock(ptr) };
    }

    /// Asserts that the caller holds the lock: lockdep's check in the kernel; on the host, the
    /// detectors' seam.
    ///
    /// # Safety
    ///
    /// [`Backend::init`] initialised `*ptr` before.
    unsafe fn assert_is_held(ptr: *mut Self::State);
}

/// Data of type `T` that one owner at a time may use, behind a lock of kind `B`.
///
/// [`Mutex`](super::Mutex), [`SpinLock`](super::SpinLock) and
/// [`SpinLockIrq`](super::SpinLockIrq) are this type with their [`Backend`]. A lock lives
/// pinned (the kernel's lock objects may point to themselves), so it is made by an
/// initialiser: [`Lock::new`], or `new_mutex!` and its siblings, which give each call site a
/// lock class of its own.
///
/// # Examples
///
/// ```
/// use kernel_core::new_mutex;
/// use kernel_core::sync::Mutex;
/// # use pin_init::stack_pin_init;
///
/// # stack_pin_init!(let counter = new_mutex!(0_u32));
/// let counter: &Mutex<u32> = &counter;
/// *counter.lock() += 2;
/// assert_eq!(*counter.lock(), 2);
/// ```
#[repr(C)]
pub struct Lock<T: ?Sized, B: Backend> {
    /// The backend's lock object.
    state: Opaque<B::State>,

    /// Pinned: a mutex's wait list points into it, and a spinlock's layout depends on the
    /// architecture and configuration, so no lock object is assumed movable.
    _pin: PhantomPinned,

    /// What the lock guards.
    pub(crate) data: UnsafeCell<T>,
}

// SAFETY: Moving the lock to another thread moves the data with it, which `T: Send` allows.
unsafe impl<T: ?Sized + Send, B: Backend> Send for Lock<T, B> {}

// SAFETY: Through a shared lock, threads take turns with exclusive access to the data, which
// amounts to sending it between them: `T: Send` is enough.
unsafe impl<T: ?Sized + Send, B: Backend> Sync for Lock<T, B> {}

impl<T, B: Backend> Lock<T, B> {
    /// An initialiser of a lock named `name`, of the class `key`, guarding what `t`
    /// initialises.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::{static_lock_class, Mutex};
    /// use pin_init::PinInit;
    ///
    /// fn new_table() -> impl PinInit<Mutex<[u8; 4]>> {
    ///     Mutex::new([0; 4], c"table", static_lock_class!())
    /// }
    /// # use pin_init::stack_pin_init;
    /// # stack_pin_init!(let table = new_table());
    /// # assert_eq!(*table.lock(), [0; 4]);
    /// ```
    pub fn new(
        t: impl PinInit<T>,
        name: &'static CStr,
        key: Pin<&'static LockClassKey>,
    ) -> impl PinInit<Self> {
        // SAFETY: The closure initialises `data` (infallibly), then `state`, in place in the
        // pinned slot it is given; `_pin` is zero-sized. `name` and `key` are `'static`, so they
        // stay valid for as long as the lock needs them.
        unsafe {
            pin_init::pin_init_from_closure(move |slot: *mut Self| {
                let data = core::ptr::addr_of_mut!((*slot).data);
                pin_init::raw_try_init(data, UnsafeCell::pin_init(t))?;
                let state = Opaque::cast_into(core::ptr::addr_of_mut!((*slot).state));
                B::init(state, name.as_ptr().cast(), key.as_ptr());
                Ok(())
            })
        }
    }
}

impl<B: Backend> Lock<(), B> {
    /// The lock whose object is at `ptr`, guarding nothing: for a lock that C code (or other
    /// code) initialised.
    ///
    /// # Safety
    ///
    /// `ptr` points to an initialised [`State`] that stays valid for `'a`.
    ///
    /// [`State`]: Backend::State
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::new_spinlock;
    /// use kernel_core::sync::{lock::Lock, SpinLock};
    /// # use pin_init::stack_pin_init;
    ///
    /// # stack_pin_init!(let lock = new_spinlock!(()));
    /// let lock: &SpinLock<()> = &lock;
    /// // A pointer to the lock's state is a pointer to the lock: its state comes first.
    /// let state = core::ptr::from_ref(lock).cast_mut().cast();
    /// // SAFETY: `state` points to the initialised state of `lock`, which outlives `same`.
    /// let same: &SpinLock<()> = unsafe { Lock::from_raw(state) };
    /// let _guard = same.lock();
    /// assert!(lock.try_lock().is_none());
    /// ```
    #[inline]
    pub unsafe fn from_raw<'a>(ptr: *mut B::State) -> &'a Self {
        // SAFETY: `Self` is `repr(C)` with `state` first and only zero-sized fields after it
        // (`()` and `PhantomPinned`), so it has the layout of `B::State`, which the caller
        // promises is initialised and valid for `'a`.
        unsafe { &*ptr.cast() }
    }
}

impl<T: ?Sized, B: Backend> Lock<T, B> {
    /// Takes the lock, waiting until it is free, and returns the guard through which the data
    /// is reached.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::new_mutex;
    /// # use pin_init::stack_pin_init;
    ///
    /// # stack_pin_init!(let list = new_mutex!([0_u32; 3]));
    /// let mut guard = list.lock();
    /// guard[1] = 5;
    /// drop(guard);
    /// assert_eq!(list.lock()[1], 5);
    /// ```
    #[inline]
    #[track_caller]
    pub fn lock(&self) -> Guard<'_, T, B> {
        // SAFETY: A `Lock` exists only once `new` (or `GlobalLock::init`) ran `B::init`.
        let state = unsafe { B::lock(self.state.get()) };
        // SAFETY: This thread took the lock just above.
        unsafe { Guard::new(self, state) }
    }

    /// Takes the lock if it is free and returns its guard, or `None` without waiting.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::new_spinlock;
    /// # use pin_init::stack_pin_init;
    ///
    /// # stack_pin_init!(let lock = new_spinlock!(1_u8));
    /// let held = lock.try_lock().expect("nobody holds it");
    /// assert!(lock.try_lock().is_none());
    /// drop(held);
    /// assert_eq!(lock.try_lock().map(|g| *g), Some(1));
    /// ```
    // The guard's `#[must_use]` does not carry over to an `Option` of it.
    #[must_use = "if unused, the lock will be immediately unlocked"]
    #[inline]
    #[track_caller]
    pub fn try_lock(&self) -> Option<Guard<'_, T, B>> {
        // SAFETY: A `Lock` exists only once `B::init` ran on its state.
        let state = unsafe { B::try_lock(self.state.get()) }?;
        // SAFETY: This thread took the lock just above.
        Some(unsafe { Guard::new(self, state) })
    }
}

/// Proof that the current thread holds a [`Lock`]: it dereferences to the guarded data, and
/// unlocks the lock when dropped.
///
/// # Examples
///
/// ```
/// use kernel_core::new_mutex;
/// use kernel_core::sync::MutexGuard;
/// # use pin_init::stack_pin_init;
///
/// # stack_pin_init!(let name = new_mutex!([b'a'; 4]));
/// let mut guard: MutexGuard<'_, [u8; 4]> = name.lock();
/// guard[0] = b'b';
/// assert_eq!(&*guard, b"baaa");
/// // Unlocked here.
/// ```
#[must_use = "the lock unlocks immediately when the guard is unused"]
pub struct Guard<'a, T: ?Sized, B: Backend> {
    pub(crate) lock: &'a Lock<T, B>,
    pub(crate) state: B::GuardState,
    /// Not `Send`: a lock is released by the thread that took it.
    _not_send: PhantomData<*mut ()>,
}

// SAFETY: A shared guard only gives shared access to the data, which `T: Sync` allows from any
// thread.
unsafe impl<T: Sync + ?Sized, B: Backend> Sync for Guard<'_, T, B> {}

impl<'a, T: ?Sized, B: Backend> Guard<'a, T, B> {
    /// The lock this guard holds.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::new_spinlock;
    /// use kernel_core::sync::lock::{Backend, Guard, Lock};
    /// # use pin_init::stack_pin_init;
    ///
    /// fn assert_held<T, B: Backend>(guard: &Guard<'_, T, B>, lock: &Lock<T, B>) {
    ///     // Address-equal means the same lock.
    ///     assert!(core::ptr::eq(guard.lock_ref(), lock));
    /// }
    ///
    /// # stack_pin_init!(let l = new_spinlock!(42));
    /// let g = l.lock();
    /// assert_held(&g, &l);
    /// ```
    #[inline]
    pub fn lock_ref(&self) -> &'a Lock<T, B> {
        self.lock
    }

    /// Unlocks the lock, runs `cb`, and locks it again (also if `cb` panics): what
    /// [`CondVar`](super::CondVar) does around its sleep.
    #[track_caller]
    pub(crate) fn do_unlocked<U>(&mut self, cb: impl FnOnce() -> U) -> U {
        /// Locks again if `cb` unwinds.
        struct Relock<'g, 'a, T: ?Sized, B: Backend>(&'g mut Guard<'a, T, B>);

        impl<T: ?Sized, B: Backend> Drop for Relock<'_, '_, T, B> {
            fn drop(&mut self) {
                // SAFETY: `do_unlocked` gave the lock up; it is taken back once, here.
                unsafe { B::relock(self.0.lock.state.get(), &mut self.0.state) };
            }
        }

        // SAFETY: The guard holds the lock, with the state that taking it returned.
        unsafe { B::unlock(self.lock.state.get(), &self.state) };
        let relock = Relock(self);
        let result = cb();
        let mut this = ManuallyDrop::new(relock);
        // Relocked here rather than by `Relock`'s drop, so that the caller's location (the
        // `CondVar::wait*()` call) reaches the backend.
        // SAFETY: Given up above; taken back once, here (`Relock` is forgotten).
        unsafe { B::relock(this.0.lock.state.get(), &mut this.0.state) };
        result
    }

    /// The guarded data, pinned (the data of a lock is structurally pinned): for a `T` that is
    /// not [`Unpin`]; for others, the guard's [`DerefMut`] gives a plain `&mut T`.
    ///
    /// [`DerefMut`]: core::ops::DerefMut
    /// [`Unpin`]: core::marker::Unpin
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::{Mutex, MutexGuard};
    /// use core::{marker::PhantomPinned, pin::Pin};
    ///
    /// struct Data(PhantomPinned);
    ///
    /// fn example(mutex: &Mutex<Data>) {
    ///     let mut data: MutexGuard<'_, Data> = mutex.lock();
    ///     let _data: Pin<&mut Data> = data.as_mut();
    /// }
    /// # use pin_init::stack_pin_init;
    /// # stack_pin_init!(let m = kernel_core::new_mutex!(Data(PhantomPinned)));
    /// # example(&m);
    /// ```
    #[inline]
    pub fn as_mut(&mut self) -> Pin<&mut T> {
        // SAFETY: The guard gives exclusive access, and the data never moves out of the pinned
        // lock: handing it out pinned keeps that promise.
        unsafe { Pin::new_unchecked(&mut *self.lock.data.get()) }
    }
}

impl<T: ?Sized, B: Backend> core::ops::Deref for Guard<'_, T, B> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &Self::Target {
        // SAFETY: The guard holds the lock, so no one else reaches the data meanwhile.
        unsafe { &*self.lock.data.get() }
    }
}

impl<T: ?Sized, B: Backend> core::ops::DerefMut for Guard<'_, T, B>
where
    T: Unpin,
{
    #[inline]
    fn deref_mut(&mut self) -> &mut Self::Target {
        // SAFETY: The guard holds the lock, and `&mut self` makes this the only access through
        // it; `T: Unpin`, so handing out `&mut T` cannot break a pin.
        unsafe { &mut *self.lock.data.get() }
    }
}

impl<T: ?Sized, B: Backend> Drop for Guard<'_, T, B> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: The guard holds the lock, with the state that taking it returned.
        unsafe { B::unlock(self.lock.state.get(), &self.state) };
    }
}

impl<'a, T: ?Sized, B: Backend> Guard<'a, T, B> {
    /// The guard of `lock`, which the caller took, with what taking it returned.
    ///
    /// # Safety
    ///
    /// The calling thread holds `lock`, and no other guard of it exists.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::mem::ManuallyDrop;
    /// use kernel_core::new_mutex;
    /// use kernel_core::sync::lock::Guard;
    /// # use pin_init::stack_pin_init;
    ///
    /// # stack_pin_init!(let m = new_mutex!(3));
    /// // Lock, and forget the guard: the lock stays held.
    /// let _ = ManuallyDrop::new(m.lock());
    /// // SAFETY: this thread holds the lock, whose guard was forgotten.
    /// let guard = unsafe { Guard::new(&m, ()) };
    /// assert_eq!(*guard, 3);
    /// drop(guard); // unlocks
    /// assert!(m.try_lock().is_some());
    /// ```
    #[inline]
    #[track_caller]
    pub unsafe fn new(lock: &'a Lock<T, B>, state: B::GuardState) -> Self {
        // SAFETY: A held lock was initialised.
        unsafe { B::assert_is_held(lock.state.get()) };

        Self {
            lock,
            state,
            _not_send: PhantomData,
        }
    }
}
