// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Linux 7.3's `LockClassKey`, `static_lock_class!` and `optional_name!` on Linux 6.12: a key is
//! lockdep's `struct lock_class_key`, pinned (`static_lock_class!` gives a
//! `Pin<&'static LockClassKey>`, as 7.3's does, where 6.12's gives a plain reference), and a
//! dynamic key is registered with lockdep while it lives.

use core::marker::PhantomPinned;
use kernel::bindings;
use pin_init::PinInit;

use super::opaque::Opaque;

extern "C" {
    fn kernel_core_lockdep_register_key(key: *mut bindings::lock_class_key);
    fn kernel_core_lockdep_unregister_key(key: *mut bindings::lock_class_key);
}

/// A lockdep lock class: Linux 7.3's `kernel::sync::LockClassKey`.
pub struct LockClassKey {
    inner: Opaque<bindings::lock_class_key>,
    dynamic: bool,
    _pin: PhantomPinned,
}

// SAFETY: lockdep reads and writes a key under its own locks, from any CPU.
unsafe impl Sync for LockClassKey {}

impl LockClassKey {
    /// A key for static memory, which lockdep wants uninitialised: use `static_lock_class!`.
    ///
    /// # Safety
    ///
    /// The key is pinned in static memory before it is used, and never dropped.
    #[doc(hidden)]
    pub const unsafe fn new_static() -> Self {
        Self {
            inner: Opaque::uninit(),
            dynamic: false,
            _pin: PhantomPinned,
        }
    }

    /// A key in dynamic memory, registered with lockdep until it is dropped.
    pub fn new_dynamic() -> impl PinInit<Self> {
        // SAFETY: The closure initialises every field, then registers the key at its final,
        // pinned address; it cannot fail.
        unsafe {
            pin_init::pin_init_from_closure(|slot: *mut Self| {
                core::ptr::addr_of_mut!((*slot).dynamic).write(true);
                kernel_core_lockdep_register_key(Opaque::cast_into(core::ptr::addr_of_mut!(
                    (*slot).inner
                )));
                Ok(())
            })
        }
    }

    /// The key, for the C functions that take one.
    #[inline]
    pub fn as_ptr(&self) -> *mut bindings::lock_class_key {
        self.inner.get()
    }
}

impl Drop for LockClassKey {
    fn drop(&mut self) {
        if self.dynamic {
            // SAFETY: A dynamic key was registered when it was initialised, and no lock of its
            // class outlives it.
            unsafe { kernel_core_lockdep_unregister_key(self.as_ptr()) };
        }
    }
}

/// A lock class of its own for the call site: Linux 7.3's `static_lock_class!`.
#[macro_export]
macro_rules! static_lock_class {
    () => {{
        static CLASS: $crate::sync::LockClassKey =
            // SAFETY: The key is in static memory, pinned below; a static is never dropped.
            unsafe { $crate::sync::LockClassKey::new_static() };
        ::core::pin::Pin::static_ref(&CLASS)
    }};
}
pub use static_lock_class;

/// The name given, or one made of the call site's file and line: Linux 7.3's `optional_name!`.
#[doc(hidden)]
#[macro_export]
macro_rules! optional_name {
    () => {
        $crate::c_str!(::core::concat!(::core::file!(), ":", ::core::line!()))
    };
    ($name:literal) => {
        $crate::c_str!($name)
    };
    // A `&'static CStr` of a string expression, checked at build time (for `global_lock!`).
    (@c_str $string:expr) => {{
        const S: &str = ::core::concat!($string, "\0");
        const C: &::core::ffi::CStr = match ::core::ffi::CStr::from_bytes_with_nul(S.as_bytes()) {
            ::core::result::Result::Ok(c) => c,
            ::core::result::Result::Err(_) => ::core::panic!("string contains interior NUL"),
        };
        C
    }};
}
