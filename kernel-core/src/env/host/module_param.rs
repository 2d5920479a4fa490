// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::module_param` on the host: Linux 7.3's [`ModuleParam`] and [`ModuleParamAccess`].
//!
//! In the kernel, the module loader parses a module's parameters (`insmod m.ko name=value`)
//! before its `init`, through the `struct kernel_param` that `module!` puts in the `__param`
//! section, and each value is set once for the module's lifetime. On the host,
//! [`extras::module::load_with`](crate::extras::module::load_with) does the loader's part, and
//! unloading the module forgets the values, so the next load starts from the defaults: a
//! [`ModuleParamAccess`] keeps every value it was ever given (a parameter is a few bytes), so
//! that a reference from [`value_ref`](ModuleParamAccess::value_ref) stays valid whatever loads
//! come after.

extern crate alloc;

use core::ptr;
use core::sync::atomic::{
    AtomicBool, AtomicPtr,
    Ordering::{Acquire, Release},
};

use crate::error::{code::EEXIST, Result};
use crate::ffi::c_void;
use crate::str::BStr;

/// A type that a module parameter can have: `module!` takes `i8` to `u64`, `isize`, `usize`
/// and `bool`.
///
/// `Copy`, as in the kernel, where dropping a value while the module is torn down could be
/// unsound.
///
/// # Examples
///
/// ```
/// use kernel_core::module_param::ModuleParam;
/// use kernel_core::prelude::*;
/// use kernel_core::str::BStr;
///
/// assert_eq!(i64::try_from_param_arg(BStr::from_bytes(b"-0x10")), Ok(-16));
/// assert_eq!(u8::try_from_param_arg(BStr::from_bytes(b"256")), Err(EINVAL));
/// assert_eq!(bool::try_from_param_arg(BStr::from_bytes(b"y")), Ok(true));
/// ```
pub trait ModuleParam: Sized + Copy {
    /// The value of the parameter's argument, as the command line or `insmod` gives it.
    fn try_from_param_arg(arg: &BStr) -> Result<Self>;
}

/// Integers as `kstrtoint()` and its siblings read them, through
/// [`ParseInt`](crate::str::parse_int::ParseInt): decimal, `0x` hexadecimal or `0` octal, with
/// a sign for the signed types.
macro_rules! int_module_params {
    ($($ty:ident)*) => {$(
        impl ModuleParam for $ty {
            fn try_from_param_arg(arg: &BStr) -> Result<Self> {
                <$ty as crate::str::parse_int::ParseInt>::from_str(arg)
            }
        }
    )*};
}

int_module_params!(i8 u8 i16 u16 i32 u32 i64 u64 isize usize);

/// As `kstrtobool()`: `y`, `Y`, `1`, `on` are `true`; `n`, `N`, `0`, `off` are `false`.
impl ModuleParam for bool {
    fn try_from_param_arg(arg: &BStr) -> Result<Self> {
        crate::str::kstrtobool_bytes(arg)
    }
}

/// A value a parameter was given, and the one before it.
struct Node<T> {
    value: T,
    /// Never read: it keeps the older values reachable from the parameter's static, so that
    /// they are not leaks, only kept.
    #[allow(dead_code)]
    older: *mut Node<T>,
}

/// A module parameter, as `module!`'s `params` declares it in `module_parameters`: its default,
/// and the value the module was loaded with.
///
/// # Examples
///
/// ```
/// use kernel_core::module_param::ModuleParamAccess;
///
/// static DEBUG_LEVEL: ModuleParamAccess<u32> = ModuleParamAccess::new(3);
/// assert_eq!(DEBUG_LEVEL.value(), 3); // not loaded with a value: the default
/// assert_eq!(*DEBUG_LEVEL.value_ref(), 3);
/// ```
pub struct ModuleParamAccess<T> {
    default: T,
    /// The newest value the parameter was ever given (null: none yet), which holds the older
    /// ones. They are never freed, so that a `&T` of `value_ref` stays valid.
    newest: AtomicPtr<Node<T>>,
    /// Whether the module is loaded with `newest` as its value.
    set: AtomicBool,
}

impl<T> ModuleParamAccess<T> {
    /// A parameter with `default` until it is given a value. For `module!` alone.
    #[doc(hidden)]
    pub const fn new(default: T) -> Self {
        Self {
            default,
            newest: AtomicPtr::new(ptr::null_mut()),
            set: AtomicBool::new(false),
        }
    }

    /// The parameter's value: the one the module was loaded with, else the default.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::module_param::ModuleParamAccess;
    ///
    /// static QUIET: ModuleParamAccess<bool> = ModuleParamAccess::new(false);
    /// assert!(!QUIET.value());
    /// ```
    #[inline]
    pub fn value(&self) -> T
    where
        T: Copy,
    {
        *self.value_ref()
    }

    /// The parameter's value, by reference: the one the module was loaded with, else the
    /// default.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::module_param::ModuleParamAccess;
    ///
    /// static LIMIT: ModuleParamAccess<usize> = ModuleParamAccess::new(64);
    /// assert_eq!(LIMIT.value_ref(), &64);
    /// ```
    #[inline]
    pub fn value_ref(&self) -> &T {
        if self.set.load(Acquire) {
            // SAFETY: `set` is only true after `newest` was given a node, and nodes are never
            // freed nor written after they are published.
            if let Some(node) = unsafe { self.newest.load(Acquire).as_ref() } {
                return &node.value;
            }
        }
        &self.default
    }

    /// The parameter's address, for C's `struct kernel_param`; nothing may dereference it as
    /// anything but a `ModuleParamAccess<T>`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::module_param::ModuleParamAccess;
    ///
    /// static LIMIT: ModuleParamAccess<usize> = ModuleParamAccess::new(64);
    /// assert!(!LIMIT.as_void_ptr().is_null());
    /// ```
    pub const fn as_void_ptr(&self) -> *mut c_void {
        ptr::from_ref(self).cast_mut().cast()
    }
}

/// What the loader does with a parameter, for
/// [`extras::module`](crate::extras::module) alone: hidden there.
pub trait Loader {
    /// Sets the value the module is loaded with from `arg`: [`EEXIST`] if it has one already,
    /// as 7.3's `set_param` returns for a parameter given twice.
    fn set(&self, arg: &BStr) -> Result;

    /// Forgets the value, when the module is unloaded.
    fn reset(&self);
}

impl<T: ModuleParam + Send + Sync> Loader for ModuleParamAccess<T> {
    fn set(&self, arg: &BStr) -> Result {
        let value = T::try_from_param_arg(arg)?;
        if self.set.load(Acquire) {
            return Err(EEXIST);
        }
        let node = alloc::boxed::Box::into_raw(alloc::boxed::Box::new(Node {
            value,
            older: self.newest.load(Acquire),
        }));
        // Only the loader of the module writes, one load at a time.
        self.newest.store(node, Release);
        self.set.store(true, Release);
        Ok(())
    }

    fn reset(&self) {
        self.set.store(false, Release);
    }
}
