// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Waiting in the kernel: `fsleep`, `udelay`, `cpu_relax`, `might_sleep` and
//! `msecs_to_jiffies`, through what each kernel exports.
//!
//! Its twin is `env/host/delay.rs`. The callers (`time::delay`, `io::poll`, `time`) clamp and
//! round first, as the kernel crate does; what arrives here is what the kernel's C receives.
//!
//! From Linux 7.1 on, the kernel crate's own helpers and functions are called (`fsleep()`,
//! `udelay()` and `cpu_relax()` through `rust/helpers/`, `kernel::task::might_sleep`). Linux
//! 6.12 has none of them, and its `fsleep()`, `udelay()`, `cpu_relax()` and `might_resched()`
//! are `static inline` C or macros: there kernel-core calls its own C helpers
//! (`kernel_core_helpers.c`, compiled into the module by `kernel-core.mk` with the kernel's
//! headers), so what runs is the kernel's own code for the architecture. `might_sleep()`'s
//! check, `__might_sleep()`, is exported and called from Rust with the caller's line.

#[cfg(not(kernel_core_linux_7_1))]
use core::ffi::c_ulong;

/// Items that need a way to wait: the kernel always has one.
macro_rules! with_sleep {
    ($($item:item)*) => {$($item)*};
}
pub(crate) use with_sleep;

/// Items of the host alone: none in the kernel.
macro_rules! host_std_only {
    ($($item:item)*) => {};
}
pub(crate) use host_std_only;

/// The architecture's `MAX_UDELAY_MS`, the longest `udelay()` the kernel crate allows.
pub(crate) const MAX_UDELAY_MS: i64 = kernel::bindings::MAX_UDELAY_MS as i64;

/// `__msecs_to_jiffies()`, exported by every kernel (`kernel/time/time.c`).
#[inline]
pub(crate) fn msecs_to_jiffies(msecs: u32) -> usize {
    // SAFETY: `__msecs_to_jiffies()` accepts any value.
    unsafe { kernel::bindings::__msecs_to_jiffies(msecs) as usize }
}

/// On 6.12: kernel-core's C helpers (`kernel_core_helpers.c`), and the one exported function
/// `might_sleep()` needs.
#[cfg(not(kernel_core_linux_7_1))]
mod c {
    use core::ffi::{c_char, c_int, c_ulong};

    unsafe extern "C" {
        pub(super) fn kernel_core_fsleep(usecs: c_ulong);
        pub(super) fn kernel_core_udelay(usecs: c_ulong);
        pub(super) fn kernel_core_cpu_relax();
        pub(super) fn kernel_core_might_resched();
        #[allow(dead_code)]
        pub(super) fn __might_sleep(file: *const c_char, line: c_int);
    }
}

/// `fsleep(usecs)` of the running kernel: sleeps at least `usecs` microseconds.
#[inline]
pub(crate) fn fsleep(usecs: usize) {
    #[cfg(kernel_core_linux_7_1)]
    // SAFETY: `fsleep()` accepts any duration, in a context that may sleep, which is the
    // caller's documented requirement.
    unsafe {
        kernel::bindings::fsleep(usecs as _);
    }
    #[cfg(not(kernel_core_linux_7_1))]
    // SAFETY: 6.12's `fsleep()` accepts any duration, in a context that may sleep, which is
    // the caller's documented requirement.
    unsafe {
        c::kernel_core_fsleep(usecs as c_ulong);
    };
}

/// `udelay(usecs)` of the running kernel: busy-waits at least `usecs` microseconds.
#[inline]
pub(crate) fn udelay(usecs: usize) {
    #[cfg(kernel_core_linux_7_1)]
    // SAFETY: `udelay()` accepts any value; the callers keep it within `MAX_UDELAY_MS`.
    unsafe {
        kernel::bindings::udelay(usecs as _);
    }
    // SAFETY: as above.
    #[cfg(not(kernel_core_linux_7_1))]
    unsafe {
        c::kernel_core_udelay(usecs as c_ulong);
    };
}

/// `cpu_relax()`: a spin-loop hint to the processor, and a compiler barrier.
#[inline]
pub(crate) fn cpu_relax() {
    #[cfg(kernel_core_linux_7_1)]
    kernel::processor::cpu_relax();
    #[cfg(not(kernel_core_linux_7_1))]
    // SAFETY: `cpu_relax()` may be called anywhere.
    unsafe {
        c::kernel_core_cpu_relax();
    };
}

/// `might_sleep()`: the debug check for sleeping in atomic context, and a scheduling point.
#[inline]
#[track_caller]
pub(crate) fn might_sleep() {
    #[cfg(kernel_core_linux_7_1)]
    kernel::task::might_sleep();
    #[cfg(not(kernel_core_linux_7_1))]
    {
        #[cfg(CONFIG_DEBUG_ATOMIC_SLEEP)]
        {
            let line = core::panic::Location::caller().line();
            // `Location::file()` is not NUL-terminated: the report names the line alone.
            // SAFETY: the string is NUL-terminated and static.
            unsafe { c::__might_sleep(c"(a Rust caller)".as_ptr(), line as core::ffi::c_int) };
        }
        might_resched();
    };
}

/// 6.12's `might_resched()` (`include/linux/kernel.h`), through kernel-core's C helper.
#[cfg(not(kernel_core_linux_7_1))]
#[inline]
fn might_resched() {
    // SAFETY: `might_resched()` may be called wherever `might_sleep()` may.
    unsafe { c::kernel_core_might_resched() };
}
