// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::module` and the module macros on the host: Linux 7.3's [`Module`],
//! [`InPlaceModule`], [`ModuleMetadata`], [`ThisModule`] and [`this_module`], and what
//! `module!`, `#[vtable]` and `#[export]` expand to under `cargo`.
//!
//! The proc macros (`kernel-core-macros`) parse their input the same in both worlds and hand it
//! to the `macro_rules!` below, which the kernel side defines its own way:
//!
//! - [`__kernel_core_module!`](crate::__kernel_core_module) takes `module!`'s fields, checked
//!   and decoded. On the host a module has no `init_module`, no `.modinfo` section and no
//!   `__this_module`: it is what a test loads with
//!   [`extras::module::load`](crate::extras::module::load). So `module!` defines what means
//!   something here, as Linux 7.3 defines it: `__LOG_PREFIX`, `LocalModule`, the
//!   [`ModuleMetadata`] of the type (its `NAME`, and a `THIS_MODULE` that points at a
//!   [`RawModule`](crate::extras::module::RawModule) of its own), the `module_parameters`
//!   module with a [`ModuleParamAccess`](crate::module_param::ModuleParamAccess) per parameter,
//!   and the [`Declared`](crate::extras::module::Declared) that
//!   [`extras::module`](crate::extras::module) loads it by.
//! - [`__kernel_core_vtable_owner!`](crate::__kernel_core_vtable_owner) is the `OwnerModule`
//!   associated type that 7.3's `#[vtable]` adds to a trait and sets in an impl.
//! - [`__kernel_core_export!`](crate::__kernel_core_export) is what `#[export]` makes of a
//!   function: the kernel's checks it against its C declaration in `bindings`, which the host
//!   has none of; here it is unmangled (`#[no_mangle]`), as there.

use crate::error::{Error, Result};

pub use kernel_core_macros::{export, module, vtable};

/// What `kernel_core::module` re-exports: all five of Linux 7.3's items on the host.
pub(crate) mod items {
    pub use super::{this_module, InPlaceModule, Module, ModuleMetadata, ThisModule};
}

/// What Linux 7.3 has at its crate root of them.
pub(crate) mod root {
    pub use super::{InPlaceModule, Module, ModuleMetadata, ThisModule};
}

/// The module macros, which `kernel_core::macros` re-exports.
pub(crate) mod macros {
    pub use super::{export, module, vtable};
}

/// The entry point of a kernel module: its type, which `module!` names, initializes it when
/// it is loaded and drops it when it is unloaded (`module_init()` and `module_exit()` in C).
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// struct Counter {
///     started: u32,
/// }
///
/// impl kernel_core::Module for Counter {
///     fn init(_module: &'static ThisModule) -> Result<Self> {
///         Ok(Counter { started: 1 })
///     }
/// }
/// # let _ = <Counter as kernel_core::Module>::init;
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a kernel module",
    label = "not a module",
    note = "implement `kernel_core::Module` (or `kernel_core::InPlaceModule`) for the type that `module!` names"
)]
pub trait Module: Sized + Sync + Send {
    /// Called when the module is loaded: sets up and registers what the module provides.
    ///
    /// An error fails the load, and the module is not loaded. The kernel's `module_init`.
    fn init(module: &'static ThisModule) -> Result<Self>;
}

/// A module that is initialized in place, pinned: a [`Module`] whose fields must not move
/// (locks, registrations that hand their address to C).
///
/// Every [`Module`] is one, by moving the value `init` returns into place.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// #[pin_data]
/// struct Registry {
///     #[pin]
///     slots: [u32; 4],
/// }
///
/// impl kernel_core::InPlaceModule for Registry {
///     fn init(_module: &'static ThisModule) -> impl PinInit<Self, Error> {
///         try_pin_init!(Registry { slots: [0; 4] })
///     }
/// }
/// # let _ = <Registry as kernel_core::InPlaceModule>::init;
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a kernel module",
    label = "not a module",
    note = "implement `kernel_core::Module` (or `kernel_core::InPlaceModule`) for the type that `module!` names"
)]
pub trait InPlaceModule: Sync + Send {
    /// The initializer of the module, run in the module's place when it is loaded.
    fn init(module: &'static ThisModule) -> impl pin_init::PinInit<Self, Error>;
}

impl<T: Module> InPlaceModule for T {
    fn init(module: &'static ThisModule) -> impl pin_init::PinInit<Self, Error> {
        let init = move |slot: *mut Self| {
            let module = <Self as Module>::init(module)?;
            // SAFETY: `pin_init_from_closure` hands over a `slot` valid for writes of a `Self`.
            unsafe { slot.write(module) };
            Ok(())
        };
        // SAFETY: `init` writes a whole `Self` into `slot` exactly when it returns `Ok`, and
        // never moves it afterwards.
        unsafe { pin_init::pin_init_from_closure(init) }
    }
}

/// What `module!` says of the module's type: its name, and its `THIS_MODULE`.
///
/// # Examples
///
/// ```
/// use kernel_core::{ModuleMetadata, ThisModule};
/// use kernel_core::str::CStr;
///
/// struct LocalModule;
///
/// impl ModuleMetadata for LocalModule {
///     const NAME: &'static CStr = c"my_module";
///     // SAFETY: A null `THIS_MODULE` is what a built-in module has.
///     const THIS_MODULE: ThisModule = unsafe { ThisModule::from_ptr(core::ptr::null_mut()) };
/// }
///
/// assert_eq!(LocalModule::NAME, c"my_module");
/// ```
pub trait ModuleMetadata {
    /// The module's name, as `module!`'s `name` gives it.
    const NAME: &'static crate::str::CStr;

    /// The module's `THIS_MODULE`.
    const THIS_MODULE: ThisModule;
}

/// The `THIS_MODULE` of the module `M`: what a module passes as the owner of what it registers.
///
/// # Examples
///
/// ```
/// use kernel_core::module::this_module;
/// use kernel_core::{ModuleMetadata, ThisModule};
///
/// struct Built;
/// impl ModuleMetadata for Built {
///     const NAME: &'static kernel_core::str::CStr = c"built";
///     // SAFETY: A null `THIS_MODULE` is what a built-in module has.
///     const THIS_MODULE: ThisModule = unsafe { ThisModule::from_ptr(core::ptr::null_mut()) };
/// }
///
/// assert!(this_module::<Built>().as_ptr().is_null());
/// ```
#[inline]
pub const fn this_module<M: ModuleMetadata>() -> &'static ThisModule {
    &M::THIS_MODULE
}

/// A module's `THIS_MODULE`: a pointer to its `struct module` (C's, in
/// [`include/linux/module.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/module.h)).
///
/// On the host, `module!` points it at a [`RawModule`](crate::extras::module::RawModule) of
/// the module's own, which holds its name; a built-in module's, and a test's stand-in, is null.
///
/// # Examples
///
/// ```
/// use kernel_core::ThisModule;
///
/// // SAFETY: A null `THIS_MODULE` is what a built-in module has.
/// let built_in = unsafe { ThisModule::from_ptr(core::ptr::null_mut()) };
/// assert!(built_in.as_ptr().is_null());
/// ```
pub struct ThisModule(*mut crate::extras::module::RawModule);

// SAFETY: A module's `THIS_MODULE` may be used from every thread; the `RawModule` it points to
// is immutable.
unsafe impl Sync for ThisModule {}

impl ThisModule {
    /// The `ThisModule` of the `THIS_MODULE` pointer `ptr`.
    ///
    /// # Safety
    ///
    /// `ptr` must be the module's own `THIS_MODULE` (on the host: null, or a `RawModule` that
    /// lives as long as the `ThisModule`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::ThisModule;
    ///
    /// // SAFETY: A null `THIS_MODULE` is what a built-in module has.
    /// const BUILT_IN: ThisModule = unsafe { ThisModule::from_ptr(core::ptr::null_mut()) };
    /// assert!(BUILT_IN.as_ptr().is_null());
    /// ```
    pub const unsafe fn from_ptr(ptr: *mut crate::extras::module::RawModule) -> ThisModule {
        ThisModule(ptr)
    }

    /// The raw `THIS_MODULE` pointer, for C functions that take one.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::ThisModule;
    ///
    /// // SAFETY: A null `THIS_MODULE` is what a built-in module has.
    /// let module = unsafe { ThisModule::from_ptr(core::ptr::null_mut()) };
    /// assert!(module.as_ptr().is_null());
    /// ```
    pub const fn as_ptr(&self) -> *mut crate::extras::module::RawModule {
        self.0
    }
}

/// Items of the host alone, with or without `std` (in the kernel: none): the module loader of
/// [`extras::module`](crate::extras::module), which `module!`'s host expansion names.
macro_rules! host_only {
    ($($item:item)*) => {$($item)*};
}
pub(crate) use host_only;

/// `module!` on the host, from what the proc macro parsed. Hidden: see the module docs.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_module {
    (
        input: [$($input:tt)*],
        type: [$($type:tt)+],
        name: $name:literal,
        log_prefix: $log_prefix:literal,
        authors: [$($author:literal),*],
        author: [$($joined_authors:literal)?],
        description: [$($description:literal)?],
        license: $license:literal,
        alias: [$($alias:literal),*],
        firmware: [$($firmware:literal),*],
        imports_ns: [$($namespace:literal),*],
        params: [$({
            name: $param:ident,
            name_str: $param_str:literal,
            type: $param_type:ident,
            type_str: $param_type_str:literal,
            default: [$($default:tt)*],
            description: $param_description:literal,
        })*],
    ) => {
        /// The module's name, before the messages of the printing macros.
        #[allow(dead_code)]
        const __LOG_PREFIX: &[u8] = $log_prefix;

        /// The type of the module that `module!` declares: the `OwnerModule` of the crate's
        /// `#[vtable]` impls.
        #[allow(dead_code)]
        type LocalModule = $($type)+;

        impl $crate::ModuleMetadata for $($type)+ {
            const NAME: &'static $crate::str::CStr =
                match $crate::str::CStr::from_bytes_with_nul($log_prefix) {
                    ::core::result::Result::Ok(name) => name,
                    ::core::result::Result::Err(_) => ::core::panic!("a module's name has no NUL"),
                };

            const THIS_MODULE: $crate::ThisModule = {
                static __THIS_MODULE: $crate::extras::module::RawModule =
                    $crate::extras::module::RawModule::new(
                        <$($type)+ as $crate::ModuleMetadata>::NAME,
                    );
                // SAFETY: This module's own `RawModule`, a static that is never written.
                unsafe {
                    $crate::ThisModule::from_ptr(::core::ptr::addr_of!(__THIS_MODULE).cast_mut())
                }
            };
        }

        // The kernel's `module!` initializes the type as an `InPlaceModule`: the same error here.
        const _: () = {
            fn __kernel_core_a_module<M: $crate::InPlaceModule>() {}
            let _ = __kernel_core_a_module::<$($type)+>;
        };

        impl $crate::extras::module::Declared for $($type)+ {
            fn modinfo() -> &'static $crate::extras::module::ModInfo {
                static MODINFO: $crate::extras::module::ModInfo = $crate::extras::module::ModInfo {
                    name: $name,
                    authors: &[$($author),*],
                    description: {
                        let description: ::core::option::Option<&str> = ::core::option::Option::None;
                        $(let description = ::core::option::Option::Some($description);)?
                        description
                    },
                    license: $license,
                    alias: &[$($alias),*],
                    firmware: &[$($firmware),*],
                    imports_ns: &[$($namespace),*],
                    params: &[$($crate::extras::module::Param {
                        name: $param_str,
                        type_name: $param_type_str,
                        description: $param_description,
                        access: &module_parameters::$param,
                    }),*],
                    module_path: ::core::module_path!(),
                };
                &MODINFO
            }
        }

        /// The module's parameters, each a static that `value()` reads.
        mod module_parameters {
            $(
                #[allow(non_upper_case_globals)]
                pub(crate) static $param: $crate::module_param::ModuleParamAccess<$param_type> =
                    $crate::module_param::ModuleParamAccess::new($($default)*);
            )*
        }
    };
}

/// The `OwnerModule` of a `#[vtable]` trait (`trait`) or impl (`impl crate`): what Linux 7.3's
/// `#[vtable]` adds where the item does not name it. Hidden: see the module docs.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_vtable_owner {
    (trait) => {
        /// The module that implements this vtable trait: the `LocalModule` of the crate of
        /// the `#[vtable]` impl, which `module!` declares.
        type OwnerModule: $crate::ModuleMetadata;
    };
    (impl $krate:tt) => {
        type OwnerModule = $krate::LocalModule;
    };
}

/// `#[export]` on the host: the function, unmangled. Hidden: see the module docs.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_export {
    (name: $name:ident, item: [$($item:tt)*]) => {
        #[unsafe(no_mangle)]
        $($item)*
    };
}

/// The loaded modules, for the messages of the printing macros and for
/// [`extras::module`](crate::extras::module)'s loads.
#[cfg(feature = "std")]
pub(crate) mod loaded {
    use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
    use std::thread::{self, ThreadId};
    use std::vec::Vec;

    use crate::error::{code::EEXIST, Result};
    use crate::extras::module::ModInfo;

    /// A loaded module: its `ModInfo` (whose address identifies it) and the thread that loaded
    /// it.
    struct Entry {
        info: &'static ModInfo,
        loader: ThreadId,
    }

    static LOADED: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
    /// Signalled when a module is unloaded.
    static UNLOADED: Condvar = Condvar::new();

    fn lock() -> MutexGuard<'static, Vec<Entry>> {
        LOADED.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn position(list: &[Entry], info: &'static ModInfo) -> Option<usize> {
        list.iter()
            .position(|entry| core::ptr::eq(entry.info, info))
    }

    /// Marks the module of `info` loaded by the calling thread: [`EEXIST`] if this thread has
    /// loaded it already; if another thread has, waits until it is unloaded.
    pub(crate) fn claim(info: &'static ModInfo) -> Result {
        let me = thread::current().id();
        let mut list = lock();
        loop {
            match position(&list, info) {
                None => break,
                Some(at) if list[at].loader == me => return Err(EEXIST),
                Some(_) => {
                    list = UNLOADED.wait(list).unwrap_or_else(PoisonError::into_inner);
                }
            }
        }
        list.push(Entry { info, loader: me });
        Ok(())
    }

    /// Marks the module of `info` unloaded, and wakes the threads waiting to load it.
    pub(crate) fn release(info: &'static ModInfo) {
        let mut list = lock();
        if let Some(at) = position(&list, info) {
            list.swap_remove(at);
        }
        drop(list);
        UNLOADED.notify_all();
    }

    /// The name of the loaded module declared in the crate of `module_path` (a
    /// `module_path!()`), for the messages that crate prints: the prefix that the kernel's
    /// `pr_*!` take from the crate's `__LOG_PREFIX`.
    ///
    /// The kernel has one module per crate; a host crate (a test binary) may declare several:
    /// then the module declared in the innermost Rust module around the message wins, and a
    /// message outside all of them takes a name only if one module of the crate is loaded.
    pub(crate) fn log_prefix(module_path: &str) -> Option<&'static str> {
        let crate_name = module_path.split("::").next()?;
        let within = |outer: &str| {
            module_path == outer
                || module_path
                    .strip_prefix(outer)
                    .is_some_and(|rest| rest.starts_with("::"))
        };
        let loaded = lock();
        let same_crate = || {
            loaded
                .iter()
                .filter(|entry| entry.info.module_path.split("::").next() == Some(crate_name))
        };
        if let Some(entry) = same_crate()
            .filter(|entry| within(entry.info.module_path))
            .max_by_key(|entry| entry.info.module_path.len())
        {
            return Some(entry.info.name);
        }
        let mut candidates = same_crate();
        match (candidates.next(), candidates.next()) {
            (Some(only), None) => Some(only.info.name),
            _ => None,
        }
    }

    #[cfg(test)]
    mod tests {
        use super::{claim, log_prefix, release};
        use crate::error::code::EEXIST;
        use crate::extras::module::ModInfo;

        static INFO: ModInfo = ModInfo {
            name: "my-driver",
            authors: &[],
            description: None,
            license: "GPL",
            alias: &[],
            firmware: &[],
            imports_ns: &[],
            params: &[],
            module_path: "my_driver::glue",
        };

        #[test]
        fn a_loaded_modules_crate_prints_with_its_name() {
            assert_eq!(log_prefix("my_driver::queue"), None);
            assert_eq!(claim(&INFO), Ok(()));
            assert_eq!(claim(&INFO), Err(EEXIST));
            assert_eq!(log_prefix("my_driver::queue"), Some("my-driver"));
            assert_eq!(log_prefix("my_driver"), Some("my-driver"));
            assert_eq!(log_prefix("other::my_driver"), None);
            release(&INFO);
            assert_eq!(log_prefix("my_driver::queue"), None);
        }
    }
}
