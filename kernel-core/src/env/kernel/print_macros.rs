// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `pr_emerg!` .. `pr_debug!` and `pr_cont!` on Linux 6.12, formatted as Linux 7.3 formats them.
//!
//! 6.12's own macros format with `core::format_args!`, so they print only what implements
//! `core::fmt::Display`; 7.3's format with `fmt!`, which takes the kernel's `Display` (a `CStr`,
//! a `BStr`, a driver's own types) and prints `{:p}` hashed. These do the same with
//! kernel-core's `fmt!` (whose `Display` is kernel-core's on 6.12), then print through 6.12's
//! own `kernel::print::call_printk`, with the module's `__LOG_PREFIX` as 6.12's macros do. They
//! are exported under hidden names; `env::root_macros` gives them the kernel's.

/// Prints at `$level` (a name of `kernel::print::format_strings`).
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kprint {
    ($level:ident, $($arg:tt)+) => (
        // A `match` keeps the formatting's temporaries alive for the call, as 6.12's does.
        match $crate::macros::fmt!($($arg)+) {
            // SAFETY: The format string is one of the kernel's, which takes exactly one
            // `fmt::Arguments`; `__LOG_PREFIX` is the module's name, which `module!` defines.
            args => unsafe {
                ::kernel::print::call_printk(
                    &::kernel::print::format_strings::$level,
                    crate::__LOG_PREFIX,
                    args,
                )
            },
        }
    );
}

/// `pr_emerg!` on Linux 6.12.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kpr_emerg (($($arg:tt)+) => ($crate::__kernel_core_kprint!(EMERG, $($arg)+)));
/// `pr_alert!` on Linux 6.12.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kpr_alert (($($arg:tt)+) => ($crate::__kernel_core_kprint!(ALERT, $($arg)+)));
/// `pr_crit!` on Linux 6.12.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kpr_crit (($($arg:tt)+) => ($crate::__kernel_core_kprint!(CRIT, $($arg)+)));
/// `pr_err!` on Linux 6.12.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kpr_err (($($arg:tt)+) => ($crate::__kernel_core_kprint!(ERR, $($arg)+)));
/// `pr_warn!` on Linux 6.12.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kpr_warn (($($arg:tt)+) => ($crate::__kernel_core_kprint!(WARNING, $($arg)+)));
/// `pr_notice!` on Linux 6.12.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kpr_notice (($($arg:tt)+) => ($crate::__kernel_core_kprint!(NOTICE, $($arg)+)));
/// `pr_info!` on Linux 6.12.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kpr_info (($($arg:tt)+) => ($crate::__kernel_core_kprint!(INFO, $($arg)+)));

/// `pr_debug!` on Linux 6.12: printed only with debug assertions, as 6.12's and 7.3's.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kpr_debug (
    ($($arg:tt)+) => (
        if cfg!(debug_assertions) {
            $crate::__kernel_core_kprint!(DEBUG, $($arg)+)
        }
    )
);

/// `pr_cont!` on Linux 6.12: continues the last line, through 6.12's `call_printk_cont`.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kpr_cont (
    ($($arg:tt)+) => (
        ::kernel::print::call_printk_cont($crate::macros::fmt!($($arg)+))
    )
);
