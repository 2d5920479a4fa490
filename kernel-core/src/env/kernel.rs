// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The kernel side of the host/kernel shim: what Kbuild builds, with `--cfg kernel`.
//!
//! Its twin, `env/host.rs`, is what `cargo` builds. Both provide the same items; nothing
//! outside these two files looks at `cfg(kernel)`.
//!
//! Kbuild compiles this crate with `--extern kernel --extern build_error`, against the kernel
//! tree the module is built for: 6.12, 7.2 and 7.3 are supported. `kbuild/kernel-core.mk`
//! passes `--cfg kernel_core_linux_7_1` from Linux 7.1 on and `--cfg kernel_core_linux_7_3`
//! from 7.3 on, for the conversions into the kernel's own types below.

// The code outside `env` chooses its 32-bit paths by the target's pointer width (which needs no
// configuration on the host), where Linux 7.3 looks at `CONFIG_64BIT`: in the kernel they are the
// same thing, and this says so at build time.
const _: () = assert!(
    cfg!(CONFIG_64BIT) == cfg!(target_pointer_width = "64"),
    "kernel-core: CONFIG_64BIT and the target's pointer width disagree"
);

/// The kernel's own `build_error`: its object is not linked unless
/// `CONFIG_RUST_BUILD_ASSERT_ALLOW=y`, so a call the optimizer keeps fails at modpost.
pub use ::build_error::build_error;

/// In the kernel, debug assertions change nothing: `build_error` is always the kernel's.
pub use ::build_error::build_error as build_error_debug;

/// The kernel's `build_error` with the call site attached, for [`build_error_here!`]: `site` is
/// a function that exists nowhere, named after the site, so a call that survives optimization
/// leaves modpost two undefined symbols, `rust_build_error` and the site's.
///
/// Inlined into the caller, where the call to the kernel's `build_error` is exactly the one
/// `kernel::build_assert!` makes; `site` goes to [`build_error_site`], a function of this crate
/// that the caller's optimizer cannot see into, so its reference survives with the call.
#[inline(always)]
#[track_caller]
pub const fn build_error_at(msg: &'static str, site: unsafe extern "C" fn()) -> ! {
    build_error_site(site);
    ::build_error::build_error(msg)
}

/// Does nothing with `site`, out of line: a call from another crate must keep its argument.
///
/// It is empty so that `kernel_core.o` refers to nothing because of it; only the crates whose
/// calls survive refer to the site and to `rust_build_error`. (A site inside kernel-core itself
/// may lose its name, since there the optimizer sees this body; modpost still names
/// `rust_build_error`.)
#[inline(never)]
const fn build_error_site(_site: unsafe extern "C" fn()) {}

/// `build_error_here!("build_assert!() not proven", message)`: what `build_assert!` and
/// `build_error!` expand to without debug assertions. Here, with
/// `CONFIG_RUST_BUILD_ASSERT_ALLOW` off, it declares an external function named
/// `kernel-core: <what> at <file>:<line>:<column>`, which no object defines, and passes it to
/// [`build_error_at`], so modpost names the site of each surviving call:
/// `ERROR: modpost: "kernel-core: build_assert!() not proven at drivers/x.rs:16:5" [x.ko] undefined!`.
#[cfg(not(CONFIG_RUST_BUILD_ASSERT_ALLOW))]
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_build_error_here {
    ($what:literal, $message:expr) => {{
        unsafe extern "C" {
            // Named after the site, for modpost's "undefined!" error. The name is
            // not one Rust code can spell, so it cannot clash with a real function. It stays on
            // one line: split, rustfmt indents it further on every run.
            #[link_name = ::core::concat!("kernel-core: ", $what, " at ", ::core::file!(), ":", ::core::line!(), ":", ::core::column!())]
            fn __kernel_core_build_error_site();
        }
        $crate::build_assert::build_error_at($message, __kernel_core_build_error_site)
    }};
}

/// `build_error_here!` with `CONFIG_RUST_BUILD_ASSERT_ALLOW=y`: the kernel then links
/// `rust_build_error`, which panics, and a site symbol would fail modpost, so the call is the
/// kernel's `build_error` alone, as in `kernel::build_assert!`.
#[cfg(CONFIG_RUST_BUILD_ASSERT_ALLOW)]
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_build_error_here {
    ($what:literal, $message:expr) => {
        $crate::build_assert::build_error_fn($message)
    };
}

pub use crate::__kernel_core_build_error_here as build_error_here;

/// Whether `+`, `-` and `*` check for overflow: `CONFIG_RUST_OVERFLOW_CHECKS`.
pub(crate) const OVERFLOW_CHECKS: bool = cfg!(CONFIG_RUST_OVERFLOW_CHECKS);

/// The kernel's timekeeping (`include/linux/timekeeping.h`).
pub(crate) mod clock {
    use kernel::bindings;

    /// `CLOCK_REALTIME` from `include/uapi/linux/time.h`.
    pub(crate) const REALTIME: core::ffi::c_int = 0;
    /// `CLOCK_MONOTONIC`.
    pub(crate) const MONOTONIC: core::ffi::c_int = 1;
    /// `CLOCK_BOOTTIME`.
    pub(crate) const BOOTTIME: core::ffi::c_int = 7;
    /// `CLOCK_TAI`.
    pub(crate) const TAI: core::ffi::c_int = 11;

    /// Reads clock `id` in nanoseconds, as `ktime_get()` and its siblings do.
    ///
    /// `ktime_get_real()`, `ktime_get_boottime()` and `ktime_get_clocktai()` are `static inline`
    /// wrappers of the exported `ktime_get_with_offset()`, called here directly so that no
    /// helper is needed on either kernel version.
    #[inline]
    pub(crate) fn read(id: core::ffi::c_int) -> i64 {
        let offset = match id {
            MONOTONIC => {
                // SAFETY: `ktime_get()` may be called from any context but NMI.
                return unsafe { bindings::ktime_get() };
            }
            REALTIME => bindings::tk_offsets_TK_OFFS_REAL,
            BOOTTIME => bindings::tk_offsets_TK_OFFS_BOOT,
            TAI => bindings::tk_offsets_TK_OFFS_TAI,
            _ => panic!("kernel-core: unknown clock id"),
        };
        // SAFETY: `ktime_get_with_offset()` may be called from any context but NMI, with any
        // `tk_offsets` value below `TK_OFFS_MAX`.
        unsafe { bindings::ktime_get_with_offset(offset) }
    }
}

/// One `Delta` on Linux 7.1 and later: kernel-core's converts into the kernel's, and back, so
/// it reaches every kernel API that takes a `kernel::time::Delta` (`fsleep`, hrtimers,
/// `read_poll_timeout`) with `.into()`.
///
/// They are distinct types, not one: kernel-core's `Delta` must exist on 6.12 too, and its
/// equality with the kernel's is what the conformance suite checks. The conversion is exact
/// (both hold the same `i64` of nanoseconds, or `isize` of jiffies) and compiles to nothing.
#[cfg(kernel_core_linux_7_1)]
mod delta_conversions {
    use crate::time::Delta;

    impl From<Delta> for kernel::time::Delta {
        #[inline]
        fn from(delta: Delta) -> Self {
            Self::from_nanos(delta.as_nanos())
        }
    }

    impl From<kernel::time::Delta> for Delta {
        #[inline]
        fn from(delta: kernel::time::Delta) -> Self {
            Self::from_nanos(delta.as_nanos())
        }
    }

    #[cfg(kernel_core_linux_7_3)]
    impl From<Delta<crate::time::Jiffy>> for kernel::time::Delta<kernel::time::Jiffy> {
        #[inline]
        fn from(delta: Delta<crate::time::Jiffy>) -> Self {
            Self::from_jiffies(delta.as_jiffies())
        }
    }

    #[cfg(kernel_core_linux_7_3)]
    impl From<kernel::time::Delta<kernel::time::Jiffy>> for Delta<crate::time::Jiffy> {
        #[inline]
        fn from(delta: kernel::time::Delta<kernel::time::Jiffy>) -> Self {
            Self::from_jiffies(delta.as_jiffies())
        }
    }
}

/// KUnit run-time support and the kernel expansion of `#[kunit_tests]`.
#[path = "kernel/kunit.rs"]
pub(crate) mod kunit;

/// What `kernel_core::prelude` adds in the kernel.
#[path = "kernel/prelude.rs"]
pub(crate) mod prelude;

/// The implementations of kernel-core's own `FromBytes` and `IntoBytes`: for the integers,
/// arrays and slices on Linux 6.12, for every type that implements the kernel's vendored
/// `zerocopy` traits on 7.2 and 7.3.
#[cfg(not(kernel_core_linux_7_1))]
#[path = "bytes.rs"]
mod bytes;
#[cfg(kernel_core_linux_7_1)]
#[path = "kernel/bytes.rs"]
mod bytes;

/// Waiting (`fsleep`, `udelay`, polling) and jiffies, through what each kernel exports.
#[path = "kernel/delay.rs"]
pub(crate) mod delay;

/// `kernel::io` in the kernel: MMIO addresses, `Mmio`'s accessors (7.2 and 7.3) and the
/// conversions from the kernel's own views (7.3).
#[path = "kernel/io.rs"]
pub(crate) mod io;

/// `pr_info!` and the kernel's other printing macros take `kernel::fmt::Display` (7.2 and
/// 7.3), not `core::fmt::Display`: kernel-core's [`Decimal`](crate::extras::fmt::Decimal)
/// implements both.
#[cfg(kernel_core_linux_7_1)]
mod decimal_display {
    use crate::extras::fmt::Decimal;

    impl kernel::fmt::Display for Decimal<u64> {
        #[inline]
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            core::fmt::Display::fmt(self, f)
        }
    }

    impl kernel::fmt::Display for Decimal<i64> {
        #[inline]
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            core::fmt::Display::fmt(self, f)
        }
    }
}

/// The 64-bit divisions of 32-bit kernels, through the kernel's functions.
#[cfg(not(CONFIG_64BIT))]
#[path = "kernel/math.rs"]
pub(crate) mod math;

/// `kernel::ffi` in the kernel: the kernel's own C types (and `core::ffi::CStr`, which 6.12's
/// `ffi` crate does not re-export yet).
pub(crate) mod ffi {
    pub use kernel::ffi::*;

    #[cfg(not(kernel_core_linux_7_1))]
    pub use core::ffi::CStr;
}

/// `kernel::error` in the kernel: the kernel's own `Error`, and its codes.
#[path = "kernel/error.rs"]
pub(crate) mod error;

/// `kernel::alloc` in the kernel.
#[path = "kernel/alloc.rs"]
pub(crate) mod alloc;

/// `kernel::fmt` in the kernel.
#[path = "kernel/fmt.rs"]
pub(crate) mod fmt;

/// `kernel::init` in the kernel.
#[path = "kernel/init.rs"]
pub(crate) mod init;

/// `kernel::list` in the kernel.
#[path = "kernel/list.rs"]
pub(crate) mod list;

/// `kernel::page` in the kernel.
#[path = "kernel/page.rs"]
pub(crate) mod page;

/// `kernel::print` in the kernel.
#[path = "kernel/print.rs"]
pub(crate) mod print;

/// `kernel::str` in the kernel.
#[path = "kernel/str.rs"]
pub(crate) mod str;

/// `kernel::sync` in the kernel.
#[path = "kernel/sync.rs"]
pub(crate) mod sync;

/// `kernel::transmute` in the kernel.
#[path = "kernel/transmute.rs"]
pub(crate) mod transmute;

/// `kernel::types` in the kernel.
#[path = "kernel/types.rs"]
pub(crate) mod types;

/// The macros Linux 7.3 exports at the kernel crate's root from the modules above (`kvec!`,
/// `new_mutex!`, `pr_info!`, `try_pin_init!`, `c_str!`, `impl_list_item!`, ...): the kernel's
/// own on 7.3, at kernel-core's root too (see `kernel_core.rs`).
pub(crate) mod root_macros {
    // Every kernel from 6.12 has `dbg!` (over its own `pr_info!`).
    pub use kernel::dbg;

    #[cfg(kernel_core_linux_7_3)]
    pub use kernel::{
        b_str, c_str, do_once_lite, global_lock, kvec, new_condvar, new_mutex, new_spinlock,
        new_spinlock_irq, optional_name, pr_alert, pr_alert_once, pr_cont, pr_crit, pr_crit_once,
        pr_debug, pr_emerg, pr_emerg_once, pr_err, pr_err_once, pr_info, pr_info_once, pr_notice,
        pr_notice_once, pr_warn, pr_warn_once, static_lock_class, try_init, try_pin_init,
    };

    // `list`'s: the kernel's on 7.2 too (its `list` is 7.3's), kernel-core's on 6.12 (whose
    // own take older forms).
    #[cfg(not(kernel_core_linux_7_1))]
    pub use crate::{
        __kernel_core_define_list_arc_field_getter as define_list_arc_field_getter,
        __kernel_core_impl_has_list_links as impl_has_list_links,
        __kernel_core_impl_has_list_links_self_ptr as impl_has_list_links_self_ptr,
        __kernel_core_impl_list_arc_safe as impl_list_arc_safe,
        __kernel_core_impl_list_item as impl_list_item,
    };
    #[cfg(kernel_core_linux_7_1)]
    pub use kernel::{
        define_list_arc_field_getter, impl_has_list_links, impl_has_list_links_self_ptr,
        impl_list_arc_safe, impl_list_item,
    };

    // Linux 7.2 and 6.12: the kernel's where they are 7.3's, kernel-core's otherwise.
    #[cfg(not(kernel_core_linux_7_1))]
    pub use super::str::{b_str, c_str};
    #[cfg(not(kernel_core_linux_7_1))]
    pub use crate::{
        __kernel_core_do_once_lite as do_once_lite, __kernel_core_pr_alert_once as pr_alert_once,
        __kernel_core_pr_crit_once as pr_crit_once, __kernel_core_pr_emerg_once as pr_emerg_once,
        __kernel_core_pr_err_once as pr_err_once, __kernel_core_pr_info_once as pr_info_once,
        __kernel_core_pr_notice_once as pr_notice_once, __kernel_core_pr_warn_once as pr_warn_once,
        __kernel_core_try_init as try_init, __kernel_core_try_pin_init as try_pin_init,
    };
    #[cfg(not(kernel_core_linux_7_1))]
    pub use crate::{
        __kernel_core_kpr_alert as pr_alert, __kernel_core_kpr_cont as pr_cont,
        __kernel_core_kpr_crit as pr_crit, __kernel_core_kpr_debug as pr_debug,
        __kernel_core_kpr_emerg as pr_emerg, __kernel_core_kpr_err as pr_err,
        __kernel_core_kpr_info as pr_info, __kernel_core_kpr_notice as pr_notice,
        __kernel_core_kpr_warn as pr_warn,
    };
    #[cfg(not(kernel_core_linux_7_3))]
    pub use kernel::kvec;
    #[cfg(all(kernel_core_linux_7_1, not(kernel_core_linux_7_3)))]
    pub use kernel::{
        b_str, c_str, do_once_lite, global_lock, new_condvar, new_mutex, new_spinlock,
        optional_name, pr_alert_once, pr_crit_once, pr_emerg_once, pr_err_once, pr_info_once,
        pr_notice_once, pr_warn_once, static_lock_class, try_init, try_pin_init,
    };
    // 7.3's `SpinLockIrq` on 7.2: kernel-core's backend for 7.2's own `Lock`.
    #[cfg(all(kernel_core_linux_7_1, not(kernel_core_linux_7_3)))]
    pub use super::sync::new_spinlock_irq;
    #[cfg(all(kernel_core_linux_7_1, not(kernel_core_linux_7_3)))]
    pub use kernel::{
        pr_alert, pr_cont, pr_crit, pr_debug, pr_emerg, pr_err, pr_info, pr_notice, pr_warn,
    };
}

/// What `%p` prints, through the kernel's `scnprintf`, for kernel-core's `fmt::HashedPtr` on
/// Linux 6.12 and 7.2.
#[cfg(not(kernel_core_linux_7_3))]
#[path = "kernel/percent_p.rs"]
pub(crate) mod percent_p;

/// `pr_*!` on Linux 6.12, whose own take `core::fmt`'s traits: kernel-core's `fmt!` through
/// 6.12's `call_printk`.
#[cfg(not(kernel_core_linux_7_1))]
#[path = "kernel/print_macros.rs"]
mod print_macros;

/// `OnceLite` and the `pr_*_once!` macros on Linux 6.12, which has neither.
#[cfg(not(kernel_core_linux_7_1))]
#[path = "print_once.rs"]
pub(crate) mod print_once;

/// `try_init!` and `try_pin_init!` of Linux 7.3 for 6.12, whose own take the older syntax and
/// cannot initialise a struct marked by kernel-core's `#[pin_data]`.
#[cfg(not(kernel_core_linux_7_1))]
#[path = "init_macros.rs"]
mod init_macros;

/// `kernel::module` and the module macros in the kernel.
#[path = "kernel/module.rs"]
pub(crate) mod module;

/// `kernel::module_param` in the kernel.
#[path = "kernel/module_param.rs"]
pub(crate) mod module_param;

/// `kernel::uaccess` in the kernel.
#[path = "kernel/uaccess.rs"]
pub(crate) mod uaccess;
