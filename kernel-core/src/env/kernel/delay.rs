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
//! are `static inline` C or macros, so this file does what they do, with the functions 6.12
//! exports:
//!
//! | 6.12 | x86_64, arm64, loongarch64 | riscv64 |
//! |---|---|---|
//! | `udelay(n)`, `n` not a compile-time constant | `__udelay(n)` (`asm-generic/delay.h`; loongarch's `asm/delay.h`) | `udelay(n)`, a function (`asm/delay.h`) |
//! | `fsleep(n)` | `n <= 10`: `udelay(n)`; `n <= 20000`: `usleep_range_state(n, 2 * n, TASK_UNINTERRUPTIBLE)`; else `msleep(DIV_ROUND_UP(n, 1000))` | the same |
//! | `cpu_relax()` | x86: `rep; nop`; arm64: `yield`; loongarch: a compiler barrier | `div` by zero (a long stall), then `pause` |
//! | `might_sleep()` | `__might_sleep()` with `CONFIG_DEBUG_ATOMIC_SLEEP`, then `might_resched()`: `__cond_resched()` (`PREEMPT_VOLUNTARY`), the static call's trampoline or `dynamic_might_resched()` (`PREEMPT_DYNAMIC`), or nothing | the same |

#[cfg(not(kernel_core_linux_7_1))]
use core::ffi::{c_uint, c_ulong};

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

/// The C functions 6.12 exports that its `static inline` wrappers call.
#[cfg(not(kernel_core_linux_7_1))]
mod c {
    use core::ffi::{c_char, c_int, c_uint, c_ulong};

    unsafe extern "C" {
        /// `udelay()` of a value that is not a compile-time constant.
        #[cfg_attr(CONFIG_RISCV, link_name = "udelay")]
        #[cfg_attr(not(CONFIG_RISCV), link_name = "__udelay")]
        pub(super) fn arch_udelay(usecs: c_ulong);
        pub(super) fn usleep_range_state(min: c_ulong, max: c_ulong, state: c_uint);
        pub(super) fn msleep(msecs: c_uint);
        #[allow(dead_code)]
        pub(super) fn __might_sleep(file: *const c_char, line: c_int);
        #[allow(dead_code)]
        pub(super) fn __cond_resched() -> c_int;
        #[allow(dead_code)]
        #[link_name = "__SCT__might_resched"]
        pub(super) fn might_resched_trampoline() -> c_int;
        #[allow(dead_code)]
        pub(super) fn dynamic_might_resched() -> c_int;
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
    {
        // `TASK_UNINTERRUPTIBLE` of `include/linux/sched.h`.
        const TASK_UNINTERRUPTIBLE: c_uint = 0x2;
        let usecs = usecs as c_ulong;
        if usecs <= 10 {
            udelay(usecs as usize);
        } else if usecs <= 20_000 {
            // SAFETY: exported by 6.12's `kernel/time/sleep_timeout.c`; any range with
            // `min <= max` in a context that may sleep.
            unsafe { c::usleep_range_state(usecs, 2 * usecs, TASK_UNINTERRUPTIBLE) }
        } else {
            // `usecs` is at most `i32::MAX` (the callers clamp it), so this fits an `int`.
            // SAFETY: exported by 6.12's `kernel/time/sleep_timeout.c`, in a context that may
            // sleep.
            unsafe { c::msleep(usecs.div_ceil(1_000) as c_uint) }
        }
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
    // SAFETY: as above, `__udelay()` (`udelay()` on riscv) is what `udelay()` calls.
    #[cfg(not(kernel_core_linux_7_1))]
    unsafe {
        c::arch_udelay(usecs as c_ulong);
    };
}

/// `cpu_relax()`: a spin-loop hint to the processor, and a compiler barrier.
#[inline]
pub(crate) fn cpu_relax() {
    #[cfg(kernel_core_linux_7_1)]
    kernel::processor::cpu_relax();
    #[cfg(not(kernel_core_linux_7_1))]
    arch_cpu_relax();
}

/// 6.12's `cpu_relax()` (`arch/*/include/asm/vdso/processor.h`). None of the instructions
/// touches memory, but, as in C, the `asm!` blocks are not `nomem`: they are compiler
/// barriers.
#[cfg(not(kernel_core_linux_7_1))]
#[inline(always)]
fn arch_cpu_relax() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `pause` (`rep; nop`) only hints the processor.
    unsafe {
        core::arch::asm!("pause", options(nostack, preserves_flags))
    };
    #[cfg(target_arch = "aarch64")]
    // SAFETY: `yield` only hints the processor.
    unsafe {
        core::arch::asm!("yield", options(nostack, preserves_flags))
    };
    #[cfg(target_arch = "riscv64")]
    {
        #[cfg(target_feature = "m")]
        {
            let mut dummy: usize = 0;
            // SAFETY: a division by zero does not trap on RISC-V; it stalls, as the kernel
            // wants, and writes only `dummy`.
            unsafe { core::arch::asm!("div {0}, {0}, zero", inout(reg) dummy, options(nostack)) };
            let _ = dummy;
        }
        // SAFETY: the encoding of `pause` (Zihintpause), a hint that is a `fence` with no
        // effect on processors without the extension.
        unsafe { core::arch::asm!(".4byte 0x100000F", options(nostack, preserves_flags)) };
    }
    #[cfg(target_arch = "loongarch64")]
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
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

/// 6.12's `might_resched()` (`include/linux/kernel.h`).
#[cfg(not(kernel_core_linux_7_1))]
#[inline]
fn might_resched() {
    #[cfg(CONFIG_PREEMPT_VOLUNTARY_BUILD)]
    // SAFETY: `__cond_resched()` may be called wherever `might_sleep()` may.
    unsafe {
        c::__cond_resched();
    };
    #[cfg(all(
        not(CONFIG_PREEMPT_VOLUNTARY_BUILD),
        CONFIG_PREEMPT_DYNAMIC,
        CONFIG_HAVE_PREEMPT_DYNAMIC_CALL
    ))]
    // SAFETY: the exported trampoline of the `might_resched` static call, which is what
    // `static_call_mod(might_resched)()` calls.
    unsafe {
        c::might_resched_trampoline();
    };
    #[cfg(all(
        not(CONFIG_PREEMPT_VOLUNTARY_BUILD),
        CONFIG_PREEMPT_DYNAMIC,
        CONFIG_HAVE_PREEMPT_DYNAMIC_KEY
    ))]
    // SAFETY: exported by `kernel/sched/core.c`; may be called wherever `might_sleep()` may.
    unsafe {
        c::dynamic_might_resched();
    };
}
