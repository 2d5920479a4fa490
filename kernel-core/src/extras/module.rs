// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Loading and unloading a module in host tests: `insmod` and `rmmod` under `cargo test`.
//!
//! An addition of kernel-core, for the host alone: in the kernel, the module loader does this,
//! and the kernel crate has nothing like it. On the host, `module!` declares the module's type
//! [`Declared`], with its [`ModInfo`] (what `modinfo` shows), and a test loads it:
//!
//! - [`load`] (feature `std`) is `insmod`: it runs the module's
//!   [`InPlaceModule::init`](crate::InPlaceModule::init) in place, pinned, with
//!   [`this_module`](crate::module::this_module), and returns a [`Loaded`] guard, or the error
//!   `init` returned (then the module is not loaded, as a failed `insmod` leaves it);
//! - [`load_with`] is `insmod m.ko name=value ...`: the parameters of `module!`'s `params` are
//!   read as the kernel reads them, and `module_parameters::name.value()` returns them until
//!   the module is unloaded;
//! - dropping the [`Loaded`] guard (or [`Loaded::unload`]) is `rmmod`: it drops the module,
//!   which runs its `Drop` (its `module_exit()`), and forgets the parameters.
//!
//! A module is loaded once at a time, as in the kernel: loading it again on the thread that
//! holds it is [`EEXIST`](crate::error::code::EEXIST), and on another thread it waits until the
//! module is unloaded, so tests that load the same module run one after the other, each with
//! the module's statics to itself, while `cargo test` runs the others in parallel.
//!
//! The module's messages (`pr_info!` and the others) go to the log of
//! [`extras::log`](crate::extras::log) like any other.
//!
//! # Examples
//!
//! ```
//! # #[cfg(feature = "std")]
//! use kernel_core::extras::module::{load, load_with};
//! use kernel_core::prelude::*;
//!
//! module! {
//!     type: Ring,
//!     name: "ring",
//!     authors: ["A. Driver"],
//!     description: "A ring of buffers",
//!     license: "GPL",
//!     params: {
//!         slots: u32 {
//!             default: 4,
//!             description: "Buffers in the ring",
//!         },
//!     },
//! }
//!
//! struct Ring {
//!     buffers: KVec<u64>,
//! }
//!
//! impl kernel_core::Module for Ring {
//!     fn init(_module: &'static ThisModule) -> Result<Self> {
//!         let slots = module_parameters::slots.value();
//!         if slots == 0 {
//!             return Err(EINVAL);
//!         }
//!         Ok(Ring { buffers: KVec::from_elem(0, slots as usize, GFP_KERNEL)? })
//!     }
//! }
//!
//! # fn main() -> Result {
//! # #[cfg(feature = "std")] {
//! let ring = load::<Ring>()?;
//! assert_eq!(ring.buffers.len(), 4);
//! drop(ring); // unloads it
//!
//! assert_eq!(load_with::<Ring>("slots=16")?.buffers.len(), 16);
//! assert_eq!(load_with::<Ring>("slots=0").err(), Some(EINVAL)); // init fails
//! assert_eq!(load_with::<Ring>("slots=lots").err(), Some(EINVAL)); // not a number
//! assert_eq!(load::<Ring>()?.buffers.len(), 4); // the defaults again
//! # }
//! # Ok(())
//! # }
//! ```

use crate::ffi::CStr;

pub use crate::env::module_param::Loader;

/// A module's `struct module` on the host: what its `THIS_MODULE` points to, which `module!`
/// makes for it.
///
/// The kernel's holds everything the loader knows of a loaded module; the host has one for each
/// module that `module!` declares, and it holds the module's name.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::module::name_of;
/// use kernel_core::module::this_module;
/// use kernel_core::prelude::*;
///
/// module! {
///     type: Quiet,
///     name: "quiet",
///     license: "GPL",
/// }
///
/// struct Quiet;
///
/// impl kernel_core::Module for Quiet {
///     fn init(module: &'static ThisModule) -> Result<Self> {
///         assert_eq!(name_of(module), Some(c"quiet"));
///         Ok(Quiet)
///     }
/// }
///
/// # fn main() {
/// assert_eq!(name_of(this_module::<Quiet>()), Some(c"quiet"));
/// # }
/// ```
pub struct RawModule {
    name: &'static CStr,
}

impl RawModule {
    /// The `struct module` of the module named `name`. For `module!` alone.
    #[doc(hidden)]
    pub const fn new(name: &'static CStr) -> Self {
        Self { name }
    }
}

/// The name of the module whose `THIS_MODULE` is `module`, as `module!`'s `name` gives it;
/// `None` for a null `THIS_MODULE` (a built-in module's, or a stand-in's).
///
/// # Examples
///
/// ```
/// use kernel_core::extras::module::name_of;
/// use kernel_core::ThisModule;
///
/// // SAFETY: A null `THIS_MODULE` is what a built-in module has.
/// let built_in = unsafe { ThisModule::from_ptr(core::ptr::null_mut()) };
/// assert_eq!(name_of(&built_in), None);
/// ```
pub fn name_of(module: &crate::ThisModule) -> Option<&'static CStr> {
    // SAFETY: By `ThisModule::from_ptr`'s contract, the pointer is null or points to a
    // `RawModule` that is never written and lives for the rest of the program.
    let raw: Option<&'static RawModule> = unsafe { module.as_ptr().as_ref() };
    raw.map(|raw| raw.name)
}

/// What `module!` says of a module: what `modinfo` shows of a `.ko`.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::module::Declared;
/// use kernel_core::prelude::*;
///
/// module! {
///     type: Fw,
///     name: "fw-loader",
///     authors: ["A", "B"],
///     license: "Dual MIT/GPL",
///     alias: ["fw"],
///     firmware: ["fw/a.bin"],
///     imports_ns: ["FW_CORE"],
///     params: {
///         retries: u8 {
///             default: 3,
///             description: "How often to retry",
///         },
///     },
/// }
///
/// struct Fw;
///
/// impl kernel_core::Module for Fw {
///     fn init(_module: &'static ThisModule) -> Result<Self> {
///         Ok(Fw)
///     }
/// }
///
/// # fn main() {
/// let info = Fw::modinfo();
/// assert_eq!((info.name, info.license), ("fw-loader", "Dual MIT/GPL"));
/// assert_eq!(info.authors, ["A", "B"]);
/// assert_eq!(info.description, None);
/// assert_eq!((info.alias, info.firmware, info.imports_ns), (&["fw"][..], &["fw/a.bin"][..], &["FW_CORE"][..]));
/// assert_eq!((info.params[0].name, info.params[0].type_name), ("retries", "u8"));
/// assert_eq!(info.params[0].description, "How often to retry");
/// # }
/// ```
pub struct ModInfo {
    /// `name`: the module's name (`name=` in `modinfo`).
    pub name: &'static str,
    /// `authors`, in order (one `author=` each).
    pub authors: &'static [&'static str],
    /// `description`, if given.
    pub description: Option<&'static str>,
    /// `license`.
    pub license: &'static str,
    /// `alias`: other names the module is loaded by.
    pub alias: &'static [&'static str],
    /// `firmware`: the files the module may request.
    pub firmware: &'static [&'static str],
    /// `imports_ns`: the symbol namespaces the module imports (`import_ns=`).
    pub imports_ns: &'static [&'static str],
    /// `params`, in order.
    pub params: &'static [Param],
    /// The `module_path!()` where `module!` is: its crate's messages carry the module's name.
    #[doc(hidden)]
    pub module_path: &'static str,
}

/// A parameter of a module, as `module!`'s `params` declares it.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::module::Declared;
/// use kernel_core::prelude::*;
///
/// module! {
///     type: Blinker,
///     name: "blinker",
///     license: "GPL",
///     params: {
///         period: u16 {
///             default: 500,
///             description: "Milliseconds per blink",
///         },
///     },
/// }
///
/// struct Blinker;
///
/// impl kernel_core::Module for Blinker {
///     fn init(_module: &'static ThisModule) -> Result<Self> {
///         Ok(Blinker)
///     }
/// }
///
/// # fn main() {
/// let period = &Blinker::modinfo().params[0];
/// assert_eq!((period.name, period.type_name), ("period", "u16"));
/// assert_eq!(period.description, "Milliseconds per blink");
/// # }
/// ```
pub struct Param {
    /// The parameter's name (`parm=` and `parmtype=` in `modinfo`).
    pub name: &'static str,
    /// Its type: `i8` to `u64`, `isize`, `usize` or `bool`.
    pub type_name: &'static str,
    /// Its description.
    pub description: &'static str,
    /// Its `module_parameters` static, which the loader sets.
    #[doc(hidden)]
    pub access: &'static (dyn Loader + Sync),
}

/// A module that `module!` declares: one that `load` can load. Implemented by `module!`.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::module::Declared;
/// use kernel_core::prelude::*;
///
/// module! {
///     type: Null,
///     name: "null",
///     license: "GPL",
/// }
///
/// struct Null;
///
/// impl kernel_core::Module for Null {
///     fn init(_module: &'static ThisModule) -> Result<Self> {
///         Ok(Null)
///     }
/// }
///
/// fn name<M: Declared>() -> &'static str {
///     M::modinfo().name
/// }
///
/// # fn main() {
/// assert_eq!(name::<Null>(), "null");
/// # }
/// ```
pub trait Declared {
    /// What `module!` says of the module.
    fn modinfo() -> &'static ModInfo;
}

#[cfg(feature = "std")]
pub use self::load::{load, load_with, Loaded};

/// `insmod` and `rmmod`, with the host's threads.
#[cfg(feature = "std")]
mod load {
    use core::fmt;
    use core::mem::MaybeUninit;
    use core::ops::Deref;
    use core::pin::Pin;
    use std::boxed::Box;

    use super::{Declared, ModInfo};
    use crate::env::module::loaded;
    use crate::error::{code::EINVAL, Result};
    use crate::module::this_module;
    use crate::str::BStr;
    use crate::{InPlaceModule, ModuleMetadata};

    /// Loads the module `M`, without parameters: `insmod m.ko`.
    ///
    /// Runs `M`'s `init` in place. Returns the error `init` returns (the module is then not
    /// loaded), or [`EEXIST`](crate::error::code::EEXIST) if this thread has loaded `M` already;
    /// if another thread has, it waits until that thread unloads it.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::module::load;
    /// use kernel_core::prelude::*;
    ///
    /// module! {
    ///     type: Hello,
    ///     name: "hello",
    ///     license: "GPL",
    /// }
    ///
    /// struct Hello;
    ///
    /// impl kernel_core::Module for Hello {
    ///     fn init(_module: &'static ThisModule) -> Result<Self> {
    ///         pr_info!("hello\n");
    ///         Ok(Hello)
    ///     }
    /// }
    ///
    /// # fn main() -> Result {
    /// let hello = load::<Hello>()?;
    /// assert_eq!(load::<Hello>().err(), Some(EEXIST)); // loaded already
    /// hello.unload();
    /// # Ok(())
    /// # }
    /// ```
    pub fn load<M: InPlaceModule + ModuleMetadata + Declared>() -> Result<Loaded<M>> {
        load_with("")
    }

    /// Loads the module `M` with parameters: `insmod m.ko args`.
    ///
    /// `args` is read as the kernel reads a module's arguments: `name=value` pairs separated by
    /// spaces, a value in double quotes may hold spaces, `-` and `_` are the same in a name.
    /// A parameter of `module!`'s `params` gets its value (integers as `kstrtoint()` reads
    /// them, booleans as `kstrtobool()`); a name that is not one of them is ignored, with a
    /// warning in the log, and so is everything after `--`. A value that does not parse, a
    /// parameter without a value, or one given twice ([`EEXIST`](crate::error::code::EEXIST))
    /// fails the load with that error, before `init` runs; otherwise as [`load`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::module::load_with;
    /// use kernel_core::prelude::*;
    ///
    /// module! {
    ///     type: Tuned,
    ///     name: "tuned",
    ///     license: "GPL",
    ///     params: {
    ///         max_queue_len: usize {
    ///             default: 8,
    ///             description: "Longest queue",
    ///         },
    ///         verbose: bool {
    ///             default: false,
    ///             description: "Print more",
    ///         },
    ///     },
    /// }
    ///
    /// struct Tuned(usize, bool);
    ///
    /// impl kernel_core::Module for Tuned {
    ///     fn init(_module: &'static ThisModule) -> Result<Self> {
    ///         Ok(Tuned(module_parameters::max_queue_len.value(), module_parameters::verbose.value()))
    ///     }
    /// }
    ///
    /// # fn main() -> Result {
    /// let tuned = load_with::<Tuned>("max-queue-len=0x20 verbose=y")?;
    /// assert_eq!((tuned.0, tuned.1), (32, true));
    /// drop(tuned);
    /// assert_eq!(load_with::<Tuned>("verbose").err(), Some(EINVAL)); // no value
    /// assert_eq!(load_with::<Tuned>("verbose=1 verbose=0").err(), Some(EEXIST));
    /// # Ok(())
    /// # }
    /// ```
    pub fn load_with<M: InPlaceModule + ModuleMetadata + Declared>(
        args: &str,
    ) -> Result<Loaded<M>> {
        let info = M::modinfo();
        loaded::claim(info)?;
        // From here on, a failure (or a panic in `init`) unloads the module again.
        let claim = Claim(info);
        set_params(info, args)?;

        let mut slot = Box::<M>::new_uninit();
        let init = M::init(this_module::<M>());
        // SAFETY: `slot` is valid for writes of an `M` and is only freed if this fails; the
        // `M` stays in the box, which never moves it, until it is dropped.
        unsafe { pin_init::raw_try_init(slot.as_mut_ptr(), init) }?;
        // SAFETY: `raw_try_init` succeeded: it initialized the `M`.
        let module = Box::into_pin(unsafe { Box::<MaybeUninit<M>>::assume_init(slot) });
        Ok(Loaded { module, claim })
    }

    /// The module loaded, which marks it unloaded (its parameters forgotten, waiting loads
    /// woken) when it drops.
    struct Claim(&'static ModInfo);

    impl Drop for Claim {
        fn drop(&mut self) {
            for param in self.0.params {
                param.access.reset();
            }
            loaded::release(self.0);
        }
    }

    /// Sets the parameters of the module of `info` from `args`, as `parse_args()` of
    /// `kernel/params.c` does for a module: all of them, then the last error, if any.
    fn set_params(info: &ModInfo, args: &str) -> Result {
        let mut result = Ok(());
        let mut rest = args.trim_start();
        while !rest.is_empty() {
            let (name, value, next) = next_arg(rest);
            rest = next;
            if name == "--" && value.is_none() {
                if !rest.is_empty() {
                    warn(format_args!(
                        "{}: parameters '{}' after `--' ignored\n",
                        info.name, rest
                    ));
                }
                break;
            }
            let Some(param) = info.params.iter().find(|p| same_name(p.name, name)) else {
                warn(format_args!(
                    "{}: unknown parameter '{}' ignored\n",
                    info.name, name
                ));
                continue;
            };
            let outcome = match value {
                // Linux 7.3's parameter types take no argument-less form.
                None => Err(EINVAL),
                Some(value) => param.access.set(BStr::from_bytes(value.as_bytes())),
            };
            if let Err(error) = outcome {
                crate::print::call_printk(
                    &crate::print::format_strings::ERR,
                    ::core::module_path!(),
                    format_args!(
                        "{}: `{}' invalid for parameter `{}'\n",
                        info.name,
                        value.unwrap_or(""),
                        name
                    ),
                );
                result = Err(error);
            }
        }
        result
    }

    /// `pr_warn!` of the module loader (kernel-core's own macros name the crate from outside).
    fn warn(args: core::fmt::Arguments<'_>) {
        crate::print::call_printk(
            &crate::print::format_strings::WARNING,
            ::core::module_path!(),
            args,
        );
    }

    /// Whether parameter names `a` and `b` are the same, `-` and `_` alike (`parameq()`).
    fn same_name(a: &str, b: &str) -> bool {
        let dash = |c: u8| if c == b'-' { b'_' } else { c };
        a.len() == b.len() && a.bytes().map(dash).eq(b.bytes().map(dash))
    }

    /// The first argument of `args` (which starts with one): its name, its value (after the
    /// first `=`, without its quotes), and what follows, as `next_arg()` of `lib/cmdline.c`
    /// splits them. Spaces end an argument outside double quotes.
    fn next_arg(args: &str) -> (&str, Option<&str>, &str) {
        let (args, quoted) = match args.strip_prefix('"') {
            Some(inner) => (inner, true),
            None => (args, false),
        };
        let mut in_quote = quoted;
        let mut equals = None;
        let mut end = args.len();
        for (at, c) in args.char_indices() {
            if c.is_ascii_whitespace() && !in_quote {
                end = at;
                break;
            }
            if equals.is_none() && c == '=' && at > 0 {
                equals = Some(at);
            }
            if c == '"' {
                in_quote = !in_quote;
            }
        }
        let mut arg = &args[..end];
        let rest = args[end..].trim_start();
        let (name, value) = match equals {
            None => {
                if quoted {
                    arg = arg.strip_suffix('"').unwrap_or(arg);
                }
                (arg, None)
            }
            Some(at) => {
                let mut value = &arg[at + 1..];
                if let Some(inner) = value.strip_prefix('"') {
                    value = inner.strip_suffix('"').unwrap_or(inner);
                } else if quoted {
                    value = value.strip_suffix('"').unwrap_or(value);
                }
                (&arg[..at], Some(value))
            }
        };
        (name, value, rest)
    }

    /// A loaded module, which [`load`] and [`load_with`] return: it unloads the module when it
    /// drops (`rmmod`), which drops the module (its `module_exit()`).
    ///
    /// It dereferences to the module, for tests that look at its state.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::module::load;
    /// use kernel_core::prelude::*;
    ///
    /// module! {
    ///     type: Counter,
    ///     name: "counter",
    ///     license: "GPL",
    /// }
    ///
    /// struct Counter(u32);
    ///
    /// impl kernel_core::Module for Counter {
    ///     fn init(_module: &'static ThisModule) -> Result<Self> {
    ///         Ok(Counter(7))
    ///     }
    /// }
    ///
    /// # fn main() -> Result {
    /// let counter = load::<Counter>()?;
    /// assert_eq!(counter.0, 7);
    /// assert_eq!(counter.module().get_ref().0, 7);
    /// counter.unload();
    /// # Ok(())
    /// # }
    /// ```
    pub struct Loaded<M: InPlaceModule + Declared> {
        // Dropped first: the module's exit, then the loader's part.
        module: Pin<Box<M>>,
        claim: Claim,
    }

    impl<M: InPlaceModule + Declared> Loaded<M> {
        /// The module, pinned.
        ///
        /// # Examples
        ///
        /// ```
        /// use kernel_core::extras::module::load;
        /// use kernel_core::prelude::*;
        ///
        /// module! {
        ///     type: Anchored,
        ///     name: "anchored",
        ///     license: "GPL",
        /// }
        ///
        /// struct Anchored(u8);
        ///
        /// impl kernel_core::Module for Anchored {
        ///     fn init(_module: &'static ThisModule) -> Result<Self> {
        ///         Ok(Anchored(5))
        ///     }
        /// }
        ///
        /// # fn main() -> Result {
        /// let loaded = load::<Anchored>()?;
        /// let pinned: Pin<&Anchored> = loaded.module();
        /// assert_eq!(pinned.0, 5);
        /// # Ok(())
        /// # }
        /// ```
        pub fn module(&self) -> Pin<&M> {
            self.module.as_ref()
        }

        /// Unloads the module: the same as dropping the guard.
        ///
        /// # Examples
        ///
        /// ```
        /// use kernel_core::extras::module::load;
        /// use kernel_core::prelude::*;
        ///
        /// module! {
        ///     type: Once,
        ///     name: "once",
        ///     license: "GPL",
        /// }
        ///
        /// struct Once;
        ///
        /// impl kernel_core::Module for Once {
        ///     fn init(_module: &'static ThisModule) -> Result<Self> {
        ///         Ok(Once)
        ///     }
        /// }
        ///
        /// # fn main() -> Result {
        /// load::<Once>()?.unload();
        /// load::<Once>()?.unload(); // unloaded: it loads again
        /// # Ok(())
        /// # }
        /// ```
        pub fn unload(self) {
            drop(self);
        }
    }

    impl<M: InPlaceModule + Declared> Deref for Loaded<M> {
        type Target = M;

        fn deref(&self) -> &M {
            &self.module
        }
    }

    /// The module's name, as `Loaded(name)`.
    impl<M: InPlaceModule + Declared> fmt::Debug for Loaded<M> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.debug_tuple("Loaded").field(&self.claim.0.name).finish()
        }
    }

    #[cfg(test)]
    mod tests {
        use super::{next_arg, same_name};

        #[test]
        fn arguments_split_as_the_kernel_splits_them() {
            assert_eq!(next_arg("a=1 b=2"), ("a", Some("1"), "b=2"));
            assert_eq!(next_arg("a=\"x y\"  b"), ("a", Some("x y"), "b"));
            assert_eq!(next_arg("\"a=x y\" b"), ("a", Some("x y"), "b"));
            assert_eq!(next_arg("flag"), ("flag", None, ""));
            assert_eq!(next_arg("a=b=c"), ("a", Some("b=c"), ""));
            assert_eq!(next_arg("a= next"), ("a", Some(""), "next"));
            assert_eq!(next_arg("=x"), ("=x", None, ""));
            assert_eq!(next_arg("--  rest here"), ("--", None, "rest here"));
        }

        #[test]
        fn dashes_and_underscores_are_alike() {
            assert!(same_name("max_len", "max-len"));
            assert!(same_name("max-len", "max_len"));
            assert!(!same_name("max_len", "maxlen"));
            assert!(!same_name("a", "b"));
        }
    }
}
