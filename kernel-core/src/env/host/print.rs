// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::print` on the host: kernel-core's own `pr_*!` macros and [`OnceLite`], and what the
//! kernel's `printk()` does with a message, as far as a test can see: records at levels, the
//! module's prefix, continuation lines, and a console (standard error).
//!
//! The log that tests read back is [`extras::log`](crate::extras::log) (feature `std`); this
//! file keeps each thread's open record (a message without its final newline) and writes
//! finished records to standard error.

use crate::fmt;

/// The levels of the messages, as the second byte of the kernel's `KERN_*` prefixes
/// (`include/linux/kern_levels.h`): `'0'` (emergency) to `'7'` (debug), `'c'` for `KERN_CONT`.
///
/// Public but hidden, for the macros alone; in Linux 7.3 these are whole format strings.
#[doc(hidden)]
pub mod format_strings {
    /// `KERN_EMERG`.
    pub const EMERG: u8 = b'0';
    /// `KERN_ALERT`.
    pub const ALERT: u8 = b'1';
    /// `KERN_CRIT`.
    pub const CRIT: u8 = b'2';
    /// `KERN_ERR`.
    pub const ERR: u8 = b'3';
    /// `KERN_WARNING`.
    pub const WARNING: u8 = b'4';
    /// `KERN_NOTICE`.
    pub const NOTICE: u8 = b'5';
    /// `KERN_INFO`.
    pub const INFO: u8 = b'6';
    /// `KERN_DEBUG`.
    pub const DEBUG: u8 = b'7';
    /// `KERN_CONT`.
    pub const CONT: u8 = b'c';
}

/// Prints a message at `level` (one of [`format_strings`]), after the name of the crate whose
/// `module_path!()` is `module_path` and `": "`.
///
/// Public but hidden, for the macros alone.
#[doc(hidden)]
pub fn call_printk(level: &u8, module_path: &str, args: fmt::Arguments<'_>) {
    // The name of the loaded module the crate declares (`module!`), as the kernel's `pr_*!`
    // take it from `__LOG_PREFIX`; with none loaded (or without `std`), the crate's name.
    let crate_name = || module_path.split("::").next().unwrap_or(module_path);
    #[cfg(feature = "std")]
    let module = crate::env::module::loaded::log_prefix(module_path).unwrap_or_else(crate_name);
    #[cfg(not(feature = "std"))]
    let module = crate_name();
    log::printk(Some(level.wrapping_sub(b'0')), Some(module), args);
}

/// Continues the thread's open message with `args` (`KERN_CONT`).
///
/// Public but hidden, for the macros alone.
#[doc(hidden)]
pub fn call_printk_cont(args: fmt::Arguments<'_>) {
    log::printk(None, None, args);
}

/// `printk()` with a log to read back: standard error and the captures of
/// [`extras::log`](crate::extras::log).
#[cfg(feature = "std")]
mod log {
    use core::cell::RefCell;
    use core::fmt::Write as _;
    use std::string::String;

    use crate::extras::log::{deliver, Level};
    use crate::fmt;

    /// The default level of a message without one: `CONFIG_MESSAGE_LOGLEVEL_DEFAULT`'s default
    /// (`lib/Kconfig.debug`), warning.
    const DEFAULT_LEVEL: u8 = 4;

    /// A record that has not ended yet: its last message had no final newline.
    struct Open {
        /// The record's number, which [`deliver`] updates it by in the captures.
        id: u64,
        level: Level,
        text: String,
    }

    /// The thread's open record, written out to standard error when the thread ends.
    struct Thread(RefCell<Option<Open>>);

    impl Drop for Thread {
        fn drop(&mut self) {
            if let Some(open) = self.0.get_mut().take() {
                console(&open);
            }
        }
    }

    std::thread_local! {
        static OPEN: Thread = const { Thread(RefCell::new(None)) };
    }

    /// Writes an ended record to the console, standard error: each of its lines after its
    /// level, as `dmesg -r` shows them.
    fn console(record: &Open) {
        let level = record.level as u8;
        let mut out = String::new();
        for line in record.text.split('\n') {
            let _ = writeln!(out, "<{level}>{line}");
        }
        std::eprint!("{out}");
    }

    /// A new record number.
    fn next_id() -> u64 {
        use crate::env::atomic64::AtomicU64;
        use core::sync::atomic::Ordering::Relaxed;
        static NEXT: AtomicU64 = AtomicU64::new(0);
        NEXT.fetch_add(1, Relaxed)
    }

    /// Stores a message at `level` (`None`: a continuation) with `prefix` before it.
    pub(super) fn printk(level: Option<u8>, prefix: Option<&str>, args: fmt::Arguments<'_>) {
        // Formatted first: a `Display` that prints finds the thread's record free.
        let mut text = String::new();
        if let Some(prefix) = prefix {
            text.push_str(prefix);
            text.push_str(": ");
        }
        let _ = text.write_fmt(args);

        let mut message = Some(text);
        let stored = OPEN.try_with(|open| {
            if let Some(text) = message.take() {
                store(&mut open.0.borrow_mut(), level, text);
            }
        });
        // During the thread's end, once its record is gone, a message is a record of its own.
        if let (Err(_), Some(text)) = (stored, message) {
            let mut alone = None;
            store(&mut alone, level, text);
            if let Some(record) = alone {
                console(&record);
            }
        }
    }

    /// Adds a message to the records, `open` being the thread's open one.
    fn store(open: &mut Option<Open>, level: Option<u8>, mut text: String) {
        match (level, open.as_mut()) {
            (None, Some(record)) => record.text.push_str(&text),
            _ => {
                if let Some(record) = open.take() {
                    console(&record);
                }
                let level = Level::from_number(level.unwrap_or(DEFAULT_LEVEL));
                *open = Some(Open {
                    id: next_id(),
                    level,
                    text: core::mem::take(&mut text),
                });
            }
        }
        let Some(record) = open.as_mut() else { return };
        let ended = record.text.ends_with('\n');
        if ended {
            record.text.pop();
        }
        deliver(record.id, record.level, &record.text);
        if ended {
            if let Some(record) = open.take() {
                console(&record);
            }
        }
    }
}

/// `printk()` without `std`: the arguments are formatted (so that their `Display` runs, as in
/// the kernel), and the message goes nowhere.
#[cfg(not(feature = "std"))]
mod log {
    use crate::fmt;

    /// Counts nothing, keeps nothing.
    struct Discard;

    impl fmt::Write for Discard {
        #[inline]
        fn write_str(&mut self, _: &str) -> fmt::Result {
            Ok(())
        }
    }

    /// Formats the message, and drops it.
    pub(super) fn printk(_level: Option<u8>, _prefix: Option<&str>, args: fmt::Arguments<'_>) {
        let _ = fmt::Write::write_fmt(&mut Discard, args);
    }
}

/// Formats with [`fmt!`](crate::macros::fmt) and prints with [`call_printk`] or
/// [`call_printk_cont`]: the body of the `pr_*!` macros. Hidden, for them alone.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_print_macro {
    ($level:path, false, $($arg:tt)+) => (
        // A `match` keeps the arguments' temporaries alive for the call.
        match $crate::macros::fmt!($($arg)+) {
            args => $crate::print::call_printk(&$level, ::core::module_path!(), args),
        }
    );
    ($level:path, true, $($arg:tt)+) => (
        $crate::print::call_printk_cont($crate::macros::fmt!($($arg)+))
    );
}

/// Prints an emergency-level message (level 0): the system is unusable.
///
/// The kernel's [`pr_emerg`](https://docs.kernel.org/core-api/printk-basics.html#c.pr_emerg).
/// Takes what `std::print!` takes, formatted with [`fmt!`](crate::macros::fmt); on the host,
/// see [`print`](crate::print) for where the line goes.
///
/// # Examples
///
/// ```
/// kernel_core::pr_emerg!("hello {}\n", "there");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_pr_emerg (
    ($($arg:tt)*) => (
        $crate::__kernel_core_print_macro!($crate::print::format_strings::EMERG, false, $($arg)*)
    )
);

/// Prints an alert-level message (level 1): action must be taken immediately.
///
/// The kernel's [`pr_alert`](https://docs.kernel.org/core-api/printk-basics.html#c.pr_alert).
/// Takes what `std::print!` takes, formatted with [`fmt!`](crate::macros::fmt); on the host,
/// see [`print`](crate::print) for where the line goes.
///
/// # Examples
///
/// ```
/// kernel_core::pr_alert!("hello {}\n", "there");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_pr_alert (
    ($($arg:tt)*) => (
        $crate::__kernel_core_print_macro!($crate::print::format_strings::ALERT, false, $($arg)*)
    )
);

/// Prints a critical-level message (level 2).
///
/// The kernel's [`pr_crit`](https://docs.kernel.org/core-api/printk-basics.html#c.pr_crit).
/// Takes what `std::print!` takes, formatted with [`fmt!`](crate::macros::fmt); on the host,
/// see [`print`](crate::print) for where the line goes.
///
/// # Examples
///
/// ```
/// kernel_core::pr_crit!("hello {}\n", "there");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_pr_crit (
    ($($arg:tt)*) => (
        $crate::__kernel_core_print_macro!($crate::print::format_strings::CRIT, false, $($arg)*)
    )
);

/// Prints an error-level message (level 3).
///
/// The kernel's [`pr_err`](https://docs.kernel.org/core-api/printk-basics.html#c.pr_err).
/// Takes what `std::print!` takes, formatted with [`fmt!`](crate::macros::fmt); on the host,
/// see [`print`](crate::print) for where the line goes.
///
/// # Examples
///
/// ```
/// kernel_core::pr_err!("hello {}\n", "there");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_pr_err (
    ($($arg:tt)*) => (
        $crate::__kernel_core_print_macro!($crate::print::format_strings::ERR, false, $($arg)*)
    )
);

/// Prints a warning-level message (level 4).
///
/// The kernel's [`pr_warn`](https://docs.kernel.org/core-api/printk-basics.html#c.pr_warn).
/// Takes what `std::print!` takes, formatted with [`fmt!`](crate::macros::fmt); on the host,
/// see [`print`](crate::print) for where the line goes.
///
/// # Examples
///
/// ```
/// kernel_core::pr_warn!("hello {}\n", "there");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_pr_warn (
    ($($arg:tt)*) => (
        $crate::__kernel_core_print_macro!($crate::print::format_strings::WARNING, false, $($arg)*)
    )
);

/// Prints a notice-level message (level 5): normal but significant.
///
/// The kernel's [`pr_notice`](https://docs.kernel.org/core-api/printk-basics.html#c.pr_notice).
/// Takes what `std::print!` takes, formatted with [`fmt!`](crate::macros::fmt); on the host,
/// see [`print`](crate::print) for where the line goes.
///
/// # Examples
///
/// ```
/// kernel_core::pr_notice!("hello {}\n", "there");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_pr_notice (
    ($($arg:tt)*) => (
        $crate::__kernel_core_print_macro!($crate::print::format_strings::NOTICE, false, $($arg)*)
    )
);

/// Prints an info-level message (level 6).
///
/// The kernel's [`pr_info`](https://docs.kernel.org/core-api/printk-basics.html#c.pr_info).
/// Takes what `std::print!` takes, formatted with [`fmt!`](crate::macros::fmt); on the host,
/// see [`print`](crate::print) for where the line goes.
///
/// # Examples
///
/// ```
/// kernel_core::pr_info!("hello {}\n", "there");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_pr_info (
    ($($arg:tt)*) => (
        $crate::__kernel_core_print_macro!($crate::print::format_strings::INFO, false, $($arg)*)
    )
);

/// Prints a debug-level message (level 7), if the calling crate is built with debug assertions.
///
/// The kernel's [`pr_debug`](https://docs.kernel.org/core-api/printk-basics.html#c.pr_debug),
/// without dynamic debug, as in Linux 7.3: `cfg!(debug_assertions)` of the crate that calls it
/// decides (in the kernel, `CONFIG_RUST_DEBUG_ASSERTIONS`; on the host, the build profile).
/// Takes what `std::print!` takes, formatted with [`fmt!`](crate::macros::fmt); on the host,
/// see [`print`](crate::print) for where the line goes.
///
/// # Examples
///
/// ```
/// kernel_core::pr_debug!("hello {}\n", "there");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_pr_debug (
    ($($arg:tt)*) => (
        if ::core::cfg!(debug_assertions) {
            $crate::__kernel_core_print_macro!($crate::print::format_strings::DEBUG, false, $($arg)*)
        }
    )
);

/// Continues the previous message of the thread on the same line.
///
/// The kernel's [`pr_cont`](https://docs.kernel.org/core-api/printk-basics.html#c.pr_cont):
/// use it only after a `pr_*!` whose message did not end with a newline. Takes what
/// `std::print!` takes, formatted with [`fmt!`](crate::macros::fmt); on the host, see
/// [`print`](crate::print) for where the line goes.
///
/// # Examples
///
/// ```
/// use kernel_core::{pr_cont, pr_info};
///
/// pr_info!("hello");
/// pr_cont!(" {}\n", "there");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_pr_cont (
    ($($arg:tt)*) => (
        $crate::__kernel_core_print_macro!($crate::print::format_strings::CONT, true, $($arg)*)
    )
);

/// Prints an expression and its value with `pr_info!`, and returns the value: the kernel's
/// `dbg!` (Linux 7.3's `rust/kernel/std_vendor.rs`, after `std::dbg!`).
///
/// `dbg!(expr)` prints `[file:line:column] expr = value`, the value with `{:#?}`, and returns
/// the value, moved; `dbg!(a, b)` does so for each and returns a tuple; `dbg!()` prints the
/// place alone. For temporary debugging: the kernel's clippy configuration warns of every use.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "std")] {
/// use kernel_core::extras::log;
///
/// let capture = log::capture();
/// let doubled = kernel_core::dbg!(21 * 2);
/// assert_eq!(doubled, 42);
/// let line = capture.lines()[0].to_string();
/// assert!(line.starts_with("<6>rust_out: ["), "{line}");
/// assert!(line.ends_with("] 21 * 2 = 42"), "{line}");
///
/// // Several values make a tuple; each is printed on its own line.
/// let (a, b) = kernel_core::dbg!(1, "two");
/// assert_eq!((a, b), (1, "two"));
/// assert_eq!(capture.lines().len(), 3);
/// # }
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_dbg {
    () => {
        $crate::pr_info!("[{}:{}:{}]\n", ::core::file!(), ::core::line!(), ::core::column!())
    };
    ($value:expr $(,)?) => {
        // `match` keeps the temporaries of `$value` alive for the print, as `std::dbg!` does.
        match $value {
            value => {
                $crate::pr_info!(
                    "[{}:{}:{}] {} = {:#?}\n",
                    ::core::file!(),
                    ::core::line!(),
                    ::core::column!(),
                    ::core::stringify!($value),
                    &value
                );
                value
            }
        }
    };
    ($($value:expr),+ $(,)?) => {
        ($($crate::__kernel_core_dbg!($value)),+,)
    };
}

pub use super::print_once::OnceLite;
pub use crate::{
    __kernel_core_dbg as dbg, __kernel_core_do_once_lite as do_once_lite,
    __kernel_core_pr_alert as pr_alert, __kernel_core_pr_alert_once as pr_alert_once,
    __kernel_core_pr_cont as pr_cont, __kernel_core_pr_crit as pr_crit,
    __kernel_core_pr_crit_once as pr_crit_once, __kernel_core_pr_debug as pr_debug,
    __kernel_core_pr_emerg as pr_emerg, __kernel_core_pr_emerg_once as pr_emerg_once,
    __kernel_core_pr_err as pr_err, __kernel_core_pr_err_once as pr_err_once,
    __kernel_core_pr_info as pr_info, __kernel_core_pr_info_once as pr_info_once,
    __kernel_core_pr_notice as pr_notice, __kernel_core_pr_notice_once as pr_notice_once,
    __kernel_core_pr_warn as pr_warn, __kernel_core_pr_warn_once as pr_warn_once,
};
