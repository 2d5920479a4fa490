// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Statics holding locks: [`global_lock!`], [`GlobalLock`], [`GlobalGuard`],
//! [`GlobalLockBackend`] and [`GlobalLockedBy`].
//!
//! Kernel counterpart: `rust/kernel/sync/lock/global.rs` (Linux 7.3). A lock in a `static` is
//! created uninitialised (a lock's state cannot be made in a constant), and must be initialised
//! once, with [`GlobalLock::init`], before its first use: in a module's `init`, or at the start
//! of a host test.

use core::cell::UnsafeCell;
use core::ffi::CStr;
use core::marker::{PhantomData, PhantomPinned};
use core::pin::Pin;

use super::super::{opaque::Opaque, LockClassKey, LockedBy};
use super::{Backend, Guard, Lock};

/// What [`global_lock!`] says about one global lock, on the marker type it defines for it.
///
/// See [`global_lock!`] for examples.
pub trait GlobalLockBackend {
    /// The lock's name.
    const NAME: &'static CStr;
    /// What the lock guards.
    type Item: 'static;
    /// The kind of lock.
    type Backend: Backend + 'static;
    /// The lock's class.
    fn get_lock_class() -> Pin<&'static LockClassKey>;
}

/// A lock in a `static`, described by `B`.
///
/// See [`global_lock!`] for examples.
pub struct GlobalLock<B: GlobalLockBackend> {
    inner: Lock<B::Item, B::Backend>,
}

impl<B: GlobalLockBackend> GlobalLock<B> {
    /// A global lock guarding `data`, not initialised yet.
    ///
    /// # Safety
    ///
    /// * [`Self::init`] runs before any other method of the lock.
    /// * No other lock uses `B`.
    ///
    /// # Examples
    ///
    /// What [`global_lock!`] expands to, by hand:
    ///
    /// ```
    /// use core::{ffi::CStr, pin::Pin};
    /// use kernel_core::sync::lock::{mutex::MutexBackend, GlobalLock, GlobalLockBackend};
    /// use kernel_core::sync::{static_lock_class, LockClassKey};
    ///
    /// enum Counter {}
    ///
    /// impl GlobalLockBackend for Counter {
    ///     const NAME: &'static CStr = c"Counter";
    ///     type Item = u32;
    ///     type Backend = MutexBackend;
    ///     fn get_lock_class() -> Pin<&'static LockClassKey> {
    ///         static_lock_class!()
    ///     }
    /// }
    ///
    /// // SAFETY: initialised below before any other use; `Counter` is used with this lock only.
    /// static COUNTER: GlobalLock<Counter> = unsafe { GlobalLock::new(0) };
    ///
    /// // SAFETY: called once.
    /// unsafe { COUNTER.init() };
    /// *COUNTER.lock() += 1;
    /// assert_eq!(*COUNTER.lock(), 1);
    /// ```
    pub const unsafe fn new(data: B::Item) -> Self {
        Self {
            inner: Lock {
                state: Opaque::uninit(),
                data: UnsafeCell::new(data),
                _pin: PhantomPinned,
            },
        }
    }

    /// Initialises the lock.
    ///
    /// # Safety
    ///
    /// Called once per lock.
    ///
    /// # Examples
    ///
    /// See [`GlobalLock::new`] and [`global_lock!`].
    pub unsafe fn init(&'static self) {
        // SAFETY: `state` is in a `'static`, so valid and pinned; `NAME` and the class are
        // `'static` too. Nothing else touches `state` now: `new`'s caller runs this first, and
        // once.
        unsafe {
            B::Backend::init(
                self.inner.state.get(),
                B::NAME.as_ptr().cast(),
                B::get_lock_class().as_ptr(),
            )
        }
    }

    /// Takes the lock, waiting until it is free.
    ///
    /// # Examples
    ///
    /// See [`global_lock!`].
    #[inline]
    #[track_caller]
    pub fn lock(&'static self) -> GlobalGuard<B> {
        GlobalGuard {
            inner: self.inner.lock(),
        }
    }

    /// Takes the lock if it is free, or returns `None` without waiting.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel_core::prelude::*;
    /// kernel_core::sync::global_lock! {
    ///     // SAFETY: Initialized below before first use.
    ///     unsafe(uninit) static FLAGS: SpinLock<u8> = 0;
    /// }
    ///
    /// // SAFETY: Called exactly once.
    /// unsafe { FLAGS.init() };
    /// let held = FLAGS.try_lock().expect("free");
    /// assert!(FLAGS.try_lock().is_none());
    /// drop(held);
    /// ```
    #[must_use = "if unused, the lock will be immediately unlocked"]
    #[inline]
    #[track_caller]
    pub fn try_lock(&'static self) -> Option<GlobalGuard<B>> {
        Some(GlobalGuard {
            inner: self.inner.try_lock()?,
        })
    }
}

/// The guard of a held [`GlobalLock`].
///
/// See [`global_lock!`] for examples.
#[must_use = "the lock unlocks immediately when the guard is unused"]
pub struct GlobalGuard<B: GlobalLockBackend> {
    inner: Guard<'static, B::Item, B::Backend>,
}

impl<B: GlobalLockBackend> core::ops::Deref for GlobalGuard<B> {
    type Target = B::Item;

    fn deref(&self) -> &Self::Target {
        &self.inner
    }
}

impl<B: GlobalLockBackend> core::ops::DerefMut for GlobalGuard<B>
where
    B::Item: Unpin,
{
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.inner
    }
}

/// A `T` that only the holder of the global lock `B` may reach: [`LockedBy`] for a
/// [`GlobalLock`].
///
/// See [`global_lock!`] for examples.
pub struct GlobalLockedBy<T: ?Sized, B: GlobalLockBackend> {
    _backend: PhantomData<B>,
    value: UnsafeCell<T>,
}

// SAFETY: It is a `LockedBy` whose owner is the one global lock: it may move where one may.
unsafe impl<T, B> Send for GlobalLockedBy<T, B>
where
    T: ?Sized,
    B: GlobalLockBackend,
    LockedBy<T, B::Item>: Send,
{
}

// SAFETY: Likewise, it may be shared where a `LockedBy` may.
unsafe impl<T, B> Sync for GlobalLockedBy<T, B>
where
    T: ?Sized,
    B: GlobalLockBackend,
    LockedBy<T, B::Item>: Sync,
{
}

impl<T, B: GlobalLockBackend> GlobalLockedBy<T, B> {
    /// `val`, which only the holder of `B`'s lock will reach.
    ///
    /// # Examples
    ///
    /// See [`global_lock!`].
    pub fn new(val: T) -> Self {
        Self {
            value: UnsafeCell::new(val),
            _backend: PhantomData,
        }
    }
}

impl<T: ?Sized, B: GlobalLockBackend> GlobalLockedBy<T, B> {
    /// The value, for the holder of the lock (`_guard`).
    ///
    /// # Examples
    ///
    /// See [`global_lock!`].
    pub fn as_ref<'a>(&'a self, _guard: &'a GlobalGuard<B>) -> &'a T {
        // SAFETY: Only one `GlobalGuard<B>` can exist (one lock uses `B`), and `_guard` is
        // borrowed for `'a`: no `as_mut` can run meanwhile.
        unsafe { &*self.value.get() }
    }

    /// The value, mutably, for the holder of the lock (`_guard`, borrowed mutably).
    ///
    /// # Examples
    ///
    /// See [`global_lock!`].
    pub fn as_mut<'a>(&'a self, _guard: &'a mut GlobalGuard<B>) -> &'a mut T {
        // SAFETY: Only one `GlobalGuard<B>` can exist, and it is borrowed mutably for `'a`: no
        // other access through it can happen meanwhile.
        unsafe { &mut *self.value.get() }
    }

    /// The value, mutably, without the lock: `&mut self` is exclusive already.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel_core::prelude::*;
    /// kernel_core::sync::global_lock! {
    ///     // SAFETY: Never locked in this example: no use needs `init`.
    ///     unsafe(uninit) static UNUSED: Mutex<()> = ();
    /// }
    /// let mut value = kernel_core::sync::GlobalLockedBy::<u8, UNUSED>::new(1);
    /// *value.get_mut() += 1;
    /// assert_eq!(*value.get_mut(), 2);
    /// ```
    pub fn get_mut(&mut self) -> &mut T {
        self.value.get_mut()
    }
}

/// Defines a `static` lock (a `Mutex`, `SpinLock` or `SpinLockIrq`) and a marker type of the
/// same name.
///
/// [`GlobalLock::init`] must run once before the lock's first use: in the module's `init` in
/// the kernel, at the start of the test on the host.
///
/// # Examples
///
/// A global counter:
///
/// ```
/// # use kernel_core::prelude::*;
/// kernel_core::sync::global_lock! {
///     // SAFETY: Initialized before first use, below.
///     unsafe(uninit) static MY_COUNTER: Mutex<u32> = 0;
/// }
///
/// fn increment_counter() -> u32 {
///     let mut guard = MY_COUNTER.lock();
///     *guard += 1;
///     *guard
/// }
///
/// // SAFETY: Called exactly once.
/// unsafe { MY_COUNTER.init() };
/// assert_eq!(increment_counter(), 1);
/// assert_eq!(increment_counter(), 2);
/// ```
///
/// A global mutex used to protect all instances of a given struct:
///
/// ```
/// use kernel_core::sync::{GlobalGuard, GlobalLockedBy};
///
/// # use kernel_core::prelude::*;
/// kernel_core::sync::global_lock! {
///     // SAFETY: Initialized before first use, below.
///     unsafe(uninit) static MY_MUTEX: Mutex<()> = ();
/// }
///
/// /// All instances of this struct are protected by `MY_MUTEX`.
/// struct MyStruct {
///     my_counter: GlobalLockedBy<u32, MY_MUTEX>,
/// }
///
/// impl MyStruct {
///     /// Increment the counter in this instance.
///     ///
///     /// The caller must hold the `MY_MUTEX` mutex.
///     fn increment(&self, guard: &mut GlobalGuard<MY_MUTEX>) -> u32 {
///         let my_counter = self.my_counter.as_mut(guard);
///         *my_counter += 1;
///         *my_counter
///     }
/// }
///
/// // SAFETY: Called exactly once.
/// unsafe { MY_MUTEX.init() };
/// let s = MyStruct { my_counter: GlobalLockedBy::new(0) };
/// let mut guard = MY_MUTEX.lock();
/// assert_eq!(s.increment(&mut guard), 1);
/// assert_eq!(*s.my_counter.as_ref(&guard), 1);
/// ```
#[macro_export]
macro_rules! global_lock {
    {
        $(#[$meta:meta])* $pub:vis
        unsafe(uninit) static $name:ident: $kind:ident<$valuety:ty> = $value:expr;
    } => {
        #[doc = ::core::concat!(
            "Backend type used by [`",
            ::core::stringify!($name),
            "`](static@",
            ::core::stringify!($name),
            ")."
        )]
        // Named like the static: an upper-case type name, which clippy would flag at the
        // caller's.
        #[allow(non_camel_case_types, unreachable_pub, clippy::upper_case_acronyms)]
        $pub enum $name {}

        impl $crate::sync::lock::GlobalLockBackend for $name {
            const NAME: &'static ::core::ffi::CStr =
                $crate::optional_name!(@c_str ::core::stringify!($name));
            type Item = $valuety;
            type Backend = $crate::global_lock_inner!(backend $kind);

            // `Pin` as the caller has it in scope (from the prelude), as in Linux 7.3's macro.
            fn get_lock_class() -> Pin<&'static $crate::sync::LockClassKey> {
                $crate::static_lock_class!()
            }
        }

        $(#[$meta])*
        $pub static $name: $crate::sync::lock::GlobalLock<$name> = {
            // Evaluated outside the `unsafe` block below.
            let init: $valuety = $value;

            // SAFETY: `unsafe(uninit)` is the caller's promise to call `init` first; the marker
            // type was defined just above, for this one static.
            unsafe { $crate::sync::lock::GlobalLock::new(init) }
        };
    };
}
pub use global_lock;

/// The backend of each kind of lock that [`global_lock!`] accepts.
#[doc(hidden)]
#[macro_export]
macro_rules! global_lock_inner {
    (backend Mutex) => {
        $crate::sync::lock::mutex::MutexBackend
    };
    (backend SpinLock) => {
        $crate::sync::lock::spinlock::SpinLockBackend
    };
    (backend SpinLockIrq) => {
        $crate::sync::lock::spinlock::SpinLockIrqBackend
    };
}
