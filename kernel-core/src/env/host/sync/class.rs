// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Lock classes on the host: [`LockClassKey`], [`static_lock_class!`], `optional_name!`, and
//! the class that each lock records when it is initialised.
//!
//! Kernel counterpart: `rust/kernel/sync.rs` (Linux 7.3), over `struct lock_class_key` of
//! [`include/linux/lockdep_types.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/lockdep_types.h).
//! In the kernel, a lock class is what lockdep orders: every lock made by one `new_mutex!` call
//! site shares that site's static key. On the host the key is the same kind of object (its
//! address is the class), and every lock keeps its key and name for the detectors of
//! `env/host/sync/hooks.rs`.

use core::cell::UnsafeCell;
use core::ffi::CStr;
use core::marker::PhantomPinned;
use core::panic::Location;

use pin_init::PinInit;

use super::hooks;
// `core`'s, not the platform's: a key is made in constant context (`static_lock_class!`), and
// its word is the detectors' bookkeeping, not synchronisation a model checker should explore.
use core::sync::atomic::AtomicUsize;

/// The host's `struct lock_class_key`: what a [`LockClassKey`] wraps and a lock's
/// `Backend::init` receives.
///
/// Never zero-sized, so that every static key has an address of its own. Its word is free for
/// the lock-order detector to keep the class's number in (0 until one is given), and it knows
/// the source line that defined it: what names its class across processes, where addresses
/// differ (the detector's files under `cargo nextest`).
#[allow(non_camel_case_types)]
#[repr(C)]
pub struct lock_class_key {
    /// Reserved for the detectors: 0 until they give the class a number.
    id: AtomicUsize,
    /// Where the key was defined: the `static_lock_class!` (so the `new_mutex!`, ...) call, or
    /// the `LockClassKey::new_dynamic()` call.
    site: &'static Location<'static>,
}

impl lock_class_key {
    /// A key that no detector has seen yet, defined at `site`.
    const fn new(site: &'static Location<'static>) -> Self {
        Self {
            id: AtomicUsize::new(0),
            site,
        }
    }

    /// The detectors' word: the class's number once they gave it one.
    #[cfg_attr(not(feature = "std"), allow(dead_code))] // Without `std`, no detector.
    #[inline]
    pub(crate) fn detector_word(&self) -> &AtomicUsize {
        &self.id
    }

    /// Where the key was defined.
    #[cfg_attr(not(feature = "std"), allow(dead_code))] // Without `std`, no detector.
    #[inline]
    pub(crate) fn site(&self) -> &'static Location<'static> {
        self.site
    }
}

/// Represents a lockdep class: the key whose address tells one class of locks from another.
///
/// Wraps the host's `struct lock_class_key`, as the kernel's wraps its own. A key is made
/// statically by [`static_lock_class!`] (one per call site, which is what `new_mutex!` and its
/// siblings do), or dynamically by [`LockClassKey::new_dynamic`], pinned in memory the code
/// owns.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::{static_lock_class, LockClassKey};
/// use core::pin::Pin;
///
/// let a: Pin<&'static LockClassKey> = static_lock_class!();
/// let b: Pin<&'static LockClassKey> = static_lock_class!();
/// // Two call sites, two classes.
/// assert_ne!(a.as_ptr(), b.as_ptr());
/// ```
#[repr(transparent)]
pub struct LockClassKey {
    inner: UnsafeCell<lock_class_key>,
    _pin: PhantomPinned,
}

// SAFETY: A key is only read by address and through its atomic word, from any thread; a dynamic
// key's unregistration may happen on another thread than its registration, as in the kernel.
unsafe impl Send for LockClassKey {}

// SAFETY: Shared use of a key only reads its address or touches its atomic word.
unsafe impl Sync for LockClassKey {}

impl LockClassKey {
    /// Initializes a statically allocated lock class key.
    ///
    /// This is usually used indirectly through the [`static_lock_class!`] macro.
    ///
    /// # Safety
    ///
    /// * Before using the returned value, it must be pinned in a static memory location.
    /// * The destructor must never run on the returned `LockClassKey`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::LockClassKey;
    ///
    /// // SAFETY: pinned in a static, whose destructor never runs.
    /// static KEY: LockClassKey = unsafe { LockClassKey::new_static() };
    /// let key = core::pin::Pin::static_ref(&KEY);
    /// assert!(!key.as_ptr().is_null());
    /// ```
    // The caller's location, in constant context, is the `static`'s line (through macros, the
    // outermost macro's call: a `new_mutex!`): the class's name across processes.
    #[inline]
    #[track_caller]
    pub const unsafe fn new_static() -> Self {
        Self {
            inner: UnsafeCell::new(lock_class_key::new(Location::caller())),
            _pin: PhantomPinned,
        }
    }

    /// Initializes a dynamically allocated lock class key.
    ///
    /// In the common case of using a statically allocated lock class key, the
    /// [`static_lock_class!`] macro should be used instead. The key is registered (for the
    /// host's detectors) when initialised and unregistered when dropped; no lock of its class
    /// may be used after that.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::pin::Pin;
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::{LockClassKey, SpinLock};
    /// use pin_init::stack_pin_init;
    ///
    /// // A class made at run time (one per device, say); its key outlives its locks.
    /// let key = KBox::pin_init(LockClassKey::new_dynamic(), GFP_KERNEL)?;
    /// // SAFETY: the key is leaked: it never moves, and lives for ever.
    /// let key: Pin<&'static LockClassKey> =
    ///     unsafe { Pin::new_unchecked(KBox::leak(Pin::into_inner_unchecked(key))) };
    /// {
    ///     stack_pin_init!(let num = SpinLock::new(0_u32, c"my_spinlock", key));
    ///     assert_eq!(*num.lock(), 0);
    /// }
    /// # // SAFETY: the lock of its class is gone; give the memory back for Miri's leak check.
    /// # drop(unsafe { KBox::from_raw(core::ptr::from_ref(key.get_ref()).cast_mut()) });
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    pub fn new_dynamic() -> impl PinInit<Self> {
        let site = Location::caller();
        // SAFETY: The closure fully initialises the slot and cannot fail; the key is registered
        // at its final, pinned address.
        unsafe {
            pin_init::pin_init_from_closure(move |slot: *mut Self| {
                slot.write(Self {
                    inner: UnsafeCell::new(lock_class_key::new(site)),
                    _pin: PhantomPinned,
                });
                hooks::key_register(&*(*slot).inner.get());
                Ok(())
            })
        }
    }

    /// Returns a raw pointer to the inner C struct.
    ///
    /// It is up to the caller to use the raw pointer correctly.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::static_lock_class;
    ///
    /// let key = static_lock_class!();
    /// assert_eq!(key.as_ptr().cast_const().cast::<u8>(), core::ptr::from_ref(&*key).cast());
    /// ```
    #[inline]
    pub fn as_ptr(&self) -> *mut lock_class_key {
        self.inner.get()
    }
}

/// A dynamic key is unregistered when dropped (the kernel's `PinnedDrop`); a static one is
/// never dropped.
impl Drop for LockClassKey {
    fn drop(&mut self) {
        hooks::key_unregister(self.inner.get_mut());
    }
}

/// Defines a new static lock class and returns a pointer to it.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::{static_lock_class, LockClassKey, SpinLock};
/// use core::pin::Pin;
/// use pin_init::PinInit;
///
/// fn new_locked_int() -> impl PinInit<SpinLock<u32>> {
///     SpinLock::new(42, c"new_locked_int", static_lock_class!())
/// }
/// # let _ = new_locked_int();
/// ```
#[macro_export]
macro_rules! static_lock_class {
    () => {{
        static CLASS: $crate::sync::LockClassKey =
            // SAFETY: The key is stored in static memory and pinned there below; a static's
            // destructor never runs.
            unsafe { $crate::sync::LockClassKey::new_static() };
        $crate::prelude::Pin::static_ref(&CLASS)
    }};
}
pub use static_lock_class;

/// Returns the given string, if one is provided, otherwise generates one based on the source
/// code location: `"drivers/foo.rs:12"`, as a `&'static CStr`.
///
/// # Examples
///
/// ```
/// let named = kernel_core::optional_name!("dma_lock");
/// assert_eq!(named, c"dma_lock");
/// let unnamed = kernel_core::optional_name!();
/// assert!(unnamed.to_str().unwrap().contains(".rs:"));
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! optional_name {
    () => {
        $crate::optional_name!(@c_str ::core::concat!(::core::file!(), ":", ::core::line!()))
    };
    ($name:literal) => {
        $crate::optional_name!(@c_str $name)
    };
    // What 7.3's `c_str!` does: a `&'static CStr` of a string literal, checked at build time.
    (@c_str $string:expr) => {{
        const S: &str = ::core::concat!($string, "\0");
        const C: &::core::ffi::CStr = match ::core::ffi::CStr::from_bytes_with_nul(S.as_bytes()) {
            ::core::result::Result::Ok(c) => c,
            ::core::result::Result::Err(_) => ::core::panic!("string contains interior NUL"),
        };
        C
    }};
}

/// The class of one lock (or wait queue), as its initialisation recorded it: what lockdep's
/// `struct lockdep_map` holds of it.
#[derive(Clone, Copy)]
pub(crate) struct LockClass {
    /// The lock's name, a C string that lives for ever.
    name: *const core::ffi::c_char,
    /// The class's key, which lives for as long as locks of its class do.
    key: *const lock_class_key,
}

// SAFETY: Both pointers are only read: the name is `'static`, and the key is shared memory that
// `LockClassKey` declares `Sync`.
unsafe impl Send for LockClass {}

// SAFETY: As for `Send`.
unsafe impl Sync for LockClass {}

impl LockClass {
    /// The class of a lock named `name` with key `key`, which `Backend::init` received.
    ///
    /// `name` and `key` must stay valid for reads for as long as the lock is used, which
    /// `Backend::init` requires of its callers.
    #[inline]
    pub(crate) fn new(name: *const crate::ffi::c_char, key: *const lock_class_key) -> Self {
        Self {
            name: name.cast(),
            key,
        }
    }

    /// The lock's name.
    #[allow(dead_code)] // Without `std`, no detector reads it.
    pub(crate) fn name(&self) -> &'static CStr {
        // SAFETY: `Backend::init`'s callers give a NUL-terminated string valid for ever.
        unsafe { CStr::from_ptr(self.name) }
    }

    /// The class's key: its address is the class.
    #[allow(dead_code)] // For the detectors.
    pub(crate) fn key(&self) -> *const lock_class_key {
        self.key
    }

    /// The class's key, which lives for as long as the lock is used.
    #[allow(dead_code)] // Without `std`, no detector reads it.
    #[inline]
    pub(crate) fn key_ref(&self) -> &lock_class_key {
        // SAFETY: `Backend::init`'s callers keep the key valid for reads for as long as the lock
        // is used, and a lock's class is only read while the lock is.
        unsafe { &*self.key }
    }
}
