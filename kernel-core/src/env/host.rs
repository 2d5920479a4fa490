// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host side of the host/kernel shim: what `cargo` builds.
//!
//! Its twin, `env/kernel.rs`, is compiled instead when Kbuild passes `--cfg kernel`. Both
//! provide the same items; nothing outside these two files looks at `cfg(kernel)`.

pub use kernel_core_build_error::{build_error, build_error_at, build_error_here};

/// `build_error` for crates built with debug assertions: panics with the message, at the
/// caller's location.
///
/// Cold and not inlined: each assertion site keeps one call (with its location), not a copy of
/// the panic's formatting, which is what unoptimized builds compile most of.
#[cold]
#[track_caller]
pub const fn build_error_debug(msg: &'static str) -> ! {
    panic!("{}", msg)
}

/// Whether `+`, `-` and `*` check for overflow here, as `CONFIG_RUST_OVERFLOW_CHECKS` says in
/// the kernel: on the host, overflow checks follow debug assertions unless a profile sets
/// `overflow-checks` apart from them.
pub(crate) const OVERFLOW_CHECKS: bool = cfg!(debug_assertions);

/// The host half of `#[kunit_tests]`.
#[path = "host/kunit.rs"]
pub(crate) mod kunit;

/// What `kernel_core::prelude` adds on the host.
#[path = "host/prelude.rs"]
pub(crate) mod prelude;

/// The implementations of kernel-core's own `FromBytes` and `IntoBytes`.
#[path = "bytes.rs"]
mod bytes;

/// Waiting (`fsleep`, `udelay`, polling) and jiffies on the host, and its virtual time.
#[path = "host/delay.rs"]
pub(crate) mod delay;

/// `kernel::io` on the host: MMIO addresses and `Mmio`'s accesses, on memory.
#[path = "host/io.rs"]
pub(crate) mod io;

/// The 64-bit divisions of 32-bit kernels, as their C computes them: used on 32-bit hosts,
/// where kernel-core takes Linux 7.3's paths for kernels without `CONFIG_64BIT`.
#[cfg(any(test, not(target_pointer_width = "64")))]
#[path = "host/math.rs"]
pub(crate) mod math;

/// `kernel::ffi` on the host: the C types as the kernel maps them.
#[path = "host/ffi.rs"]
pub(crate) mod ffi;

/// `kernel::error` on the host: kernel-core's own `Error`.
#[path = "host/error.rs"]
pub(crate) mod error;

/// The kernel's clocks as the host's C library shows them (`clock_gettime(2)`).
#[cfg(all(feature = "std", target_os = "linux"))]
pub(crate) mod clock {
    use core::ffi::{c_int, c_long};

    /// `CLOCK_REALTIME` from `include/uapi/linux/time.h`.
    pub(crate) const REALTIME: c_int = 0;
    /// `CLOCK_MONOTONIC`.
    pub(crate) const MONOTONIC: c_int = 1;
    /// `CLOCK_BOOTTIME`.
    pub(crate) const BOOTTIME: c_int = 7;
    /// `CLOCK_TAI`.
    pub(crate) const TAI: c_int = 11;

    /// `struct timespec` of glibc and of 64-bit musl: `time_t` and `long` are both C `long`.
    #[repr(C)]
    struct Timespec {
        tv_sec: c_long,
        tv_nsec: c_long,
    }

    extern "C" {
        fn clock_gettime(clockid: c_int, tp: *mut Timespec) -> c_int;
    }

    /// Reads clock `id` in nanoseconds, in `0..=i64::MAX` as `ClockSource` requires.
    ///
    /// # Panics
    ///
    /// If the host kernel does not know the clock, or reports a time before its epoch.
    pub(crate) fn read(id: c_int) -> i64 {
        // A thread in `extras::virtual_time` reads its own monotonic clock.
        if let (MONOTONIC, Some(now)) = (id, super::delay::virtual_now()) {
            return now;
        }
        let mut now = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `now` is a valid, writable `struct timespec` for the duration of the call,
        // which is all `clock_gettime` requires.
        let rc = unsafe { clock_gettime(id, &mut now) };
        assert!(
            rc == 0,
            "clock_gettime({id}) failed: this host has no such clock"
        );
        // `i64::from` widens both fields on 32-bit hosts before the arithmetic (it is the
        // identity on 64-bit ones); seconds since the epoch fit in `ktime_t` nanoseconds until
        // the year 2262.
        #[allow(clippy::useless_conversion)]
        let nanos = i64::from(now.tv_sec)
            .checked_mul(crate::time::NSEC_PER_SEC)
            .and_then(|n| n.checked_add(i64::from(now.tv_nsec)));
        match nanos {
            Some(n) if n >= 0 => n,
            _ => panic!("clock {id} reads a time outside 0..=KTIME_MAX"),
        }
    }
}

/// `kernel::alloc` on the host.
#[path = "host/alloc.rs"]
pub(crate) mod alloc;

/// A 64-bit atomic on every host, 32-bit PowerPC's included.
#[cfg(feature = "std")]
#[path = "host/atomic64.rs"]
pub(crate) mod atomic64;

/// The detectors of a test's scope: failed allocations (`fail_nth`), leaks (kmemleak), locks
/// left held.
#[cfg(feature = "std")]
#[path = "host/detect/scoped.rs"]
pub(crate) mod scoped;

/// `kernel::fmt` on the host.
#[path = "fmt.rs"]
pub(crate) mod fmt;

/// What `%p` prints, as the kernel computes it, for `fmt::HashedPtr`.
#[path = "host/percent_p.rs"]
pub(crate) mod percent_p;

/// `kernel::init` on the host.
#[path = "host/init.rs"]
pub(crate) mod init;

/// `kernel::page` on the host.
#[path = "host/page.rs"]
pub(crate) mod page;

/// `kernel::print` on the host.
#[path = "host/print.rs"]
pub(crate) mod print;

/// `OnceLite` and the `pr_*_once!` macros, shared with Linux 6.12.
#[path = "print_once.rs"]
pub(crate) mod print_once;

/// `kernel::str` on the host.
#[path = "str.rs"]
pub(crate) mod str;

/// `kernel::sync` on the host.
#[path = "host/sync.rs"]
pub(crate) mod sync;

/// The bug detectors behind `sync`'s hooks: lock order, sleeping in atomic context.
#[cfg(feature = "std")]
#[path = "host/detect.rs"]
pub(crate) mod detect;

/// `kernel::transmute` on the host: kernel-core's own, shared with Linux 6.12.
#[path = "transmute.rs"]
pub(crate) mod transmute;

/// `kernel::types` on the host: kernel-core's own, shared with Linux 6.12.
#[path = "types.rs"]
pub(crate) mod types;

/// `try_init!` and `try_pin_init!`, shared with Linux 6.12, under hidden names.
#[path = "init_macros.rs"]
mod init_macros;

/// `kernel::list` on the host: kernel-core's own, shared code over `sync`'s `Arc`.
#[path = "list.rs"]
pub(crate) mod list;

/// `kernel::module` on the host, and what the module macros expand to.
#[path = "host/module.rs"]
pub(crate) mod module;

/// `kernel::module_param` on the host.
#[path = "host/module_param.rs"]
pub(crate) mod module_param;

/// `kernel::uaccess` on the host, over the calling thread's user memory.
#[path = "host/uaccess.rs"]
pub(crate) mod uaccess;

/// The macros Linux 7.3 exports at the kernel crate's root from `alloc`, `sync`, `init`, `str`,
/// `print` and `list`: on the host kernel-core's own, which `kernel_core.rs` re-exports at its
/// root. Those defined under hidden names (because the kernel side names others) are renamed
/// here.
pub(crate) mod root_macros {
    pub use super::print::{
        dbg, do_once_lite, pr_alert, pr_alert_once, pr_cont, pr_crit, pr_crit_once, pr_debug,
        pr_emerg, pr_emerg_once, pr_err, pr_err_once, pr_info, pr_info_once, pr_notice,
        pr_notice_once, pr_warn, pr_warn_once,
    };
    pub use super::str::{b_str, c_str};
    // Hidden in the documentation, as 7.3's are at its root (they are shown in `list`).
    #[doc(hidden)]
    pub use crate::{
        __kernel_core_define_list_arc_field_getter as define_list_arc_field_getter,
        __kernel_core_impl_has_list_links as impl_has_list_links,
        __kernel_core_impl_has_list_links_self_ptr as impl_has_list_links_self_ptr,
        __kernel_core_impl_list_arc_safe as impl_list_arc_safe,
        __kernel_core_impl_list_item as impl_list_item,
    };
    pub use crate::{
        __kernel_core_try_init as try_init, __kernel_core_try_pin_init as try_pin_init,
    };
}
