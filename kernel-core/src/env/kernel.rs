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

#[cfg(not(CONFIG_64BIT))]
compile_error!(
    "kernel-core supports 64-bit kernels only: 32-bit kernels need the div64 helpers for i64 \
     division, which kernel-core does not call yet"
);

/// The kernel's own `build_error`: its object is not linked unless
/// `CONFIG_RUST_BUILD_ASSERT_ALLOW=y`, so a call the optimizer keeps fails at modpost.
pub use ::build_error::build_error;

/// In the kernel, debug assertions change nothing: `build_error` is always the kernel's.
pub use ::build_error::build_error as build_error_debug;

/// Whether `+`, `-` and `*` check for overflow: `CONFIG_RUST_OVERFLOW_CHECKS`.
pub(crate) const OVERFLOW_CHECKS: bool = cfg!(CONFIG_RUST_OVERFLOW_CHECKS);

/// Emits its input on the host, nothing in the kernel. Used by `#[kunit_tests]` expansions.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_if_host {
    ($($tokens:tt)*) => {};
}

/// Emits its input in the kernel, nothing on the host. Used by `#[kunit_tests]` expansions.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_if_kernel {
    ($($tokens:tt)*) => { $($tokens)* };
}

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

/// KUnit run-time support for the kernel expansion of `#[kunit_tests]`.
///
/// `struct kunit_case` differs between 6.12 and 7.2 (7.2 added `param_init`/`param_exit` and a
/// `struct kunit *` argument to `generate_params`), and 7.3 added `enum kunit_status status`
/// to `struct kunit_suite`, so cases and suites are built from zeroed memory with only the
/// common fields assigned, never with struct literals. A zeroed `status` is `KUNIT_SUCCESS`,
/// the value 7.3's own macro gives it (checked at compile time on 7.3 below).
pub mod kunit_rt {
    use core::ffi::{c_int, c_void, CStr};
    use core::fmt;
    use kernel::bindings;

    /// `struct kunit`: one running test case.
    pub type Test = bindings::kunit;
    /// `struct kunit_case`.
    pub type Case = bindings::kunit_case;
    /// `struct kunit_suite`.
    pub type Suite = bindings::kunit_suite;
    /// `enum kunit_status`.
    pub type Status = bindings::kunit_status;

    /// The case passed (or has not failed yet).
    pub const SUCCESS: Status = bindings::kunit_status_KUNIT_SUCCESS;
    /// The case did not run.
    pub const SKIPPED: Status = bindings::kunit_status_KUNIT_SKIPPED;

    // 7.3's `struct kunit_suite.status` starts as `KUNIT_SUCCESS`, which zeroed memory gives.
    #[cfg(kernel_core_linux_7_3)]
    const _: () = assert!(bindings::kunit_status_KUNIT_SUCCESS == 0);

    /// The all-zero case that ends a case array.
    // SAFETY: `struct kunit_case` holds only pointers, optional function pointers, integers and
    // enums whose zero is a valid value, so all-zero bytes are a valid value.
    pub const END: Case = unsafe { core::mem::zeroed() };

    /// A case named `name` that runs `run`.
    #[inline]
    pub const fn case(name: &'static CStr, run: unsafe extern "C" fn(*mut Test)) -> Case {
        let mut case = END;
        case.name = name.as_ptr().cast();
        case.run_case = Some(run);
        case
    }

    /// A suite named `name` over the `END`-terminated array `cases`.
    ///
    /// # Panics
    ///
    /// At compile time, if `name` does not fit KUnit's 256-byte name buffer with its NUL.
    #[inline]
    pub const fn suite(name: &'static str, cases: *mut Case) -> Suite {
        // SAFETY: `struct kunit_suite` holds only arrays of `char`, pointers, optional function
        // pointers, integers and `bool`s, so all-zero bytes are a valid value.
        let mut suite: Suite = unsafe { core::mem::zeroed() };
        let bytes = name.as_bytes();
        assert!(
            bytes.len() < suite.name.len(),
            "KUnit suite names are limited to 255 bytes"
        );
        let mut i = 0;
        while i < bytes.len() {
            // `char` is `u8` or `i8` depending on the kernel's `ffi`: `as _` fits either.
            suite.name[i] = bytes[i] as _;
            i += 1;
        }
        suite.test_cases = cases;
        suite
    }

    /// Sets the status of the running case.
    ///
    /// # Safety
    ///
    /// `test` must be the `struct kunit` KUnit passed to the running case.
    #[inline]
    pub unsafe fn set_status(test: *mut Test, status: Status) {
        // SAFETY: the caller passes the valid, exclusively used `struct kunit` of its case.
        unsafe { (*test).status = status };
    }

    /// A `&'static str` that ends in NUL, as a C string; for the assertion macros.
    #[inline]
    pub const fn c_str(with_nul: &'static str) -> &'static CStr {
        match CStr::from_bytes_with_nul(with_nul.as_bytes()) {
            Ok(s) => s,
            Err(_) => panic!("the string must end in its only NUL"),
        }
    }

    /// Where an assertion is written.
    pub struct Location {
        /// The source file, as `file!()` gives it.
        pub file: &'static CStr,
        /// The line, as `line!()` gives it.
        pub line: u32,
    }

    /// Writes an error-level message to the kernel log.
    #[inline]
    fn print_err(args: fmt::Arguments<'_>) {
        // SAFETY: the format is NUL-terminated and its one `%pA` takes a pointer to a
        // `fmt::Arguments`, which `args` is for the duration of the call.
        unsafe {
            bindings::_printk(
                c"\x013%pA".as_ptr().cast(),
                core::ptr::from_ref(&args).cast::<c_void>(),
            )
        };
    }

    /// Reports a failed assertion to KUnit and ends the running case.
    ///
    /// Outside a KUnit case (in a thread a test spawned, say) nothing can be failed, so the
    /// failure is logged and execution goes on.
    // `#[inline]`, not `#[inline(never)]`, for what it does to linking rather than speed: an
    // inline function is only compiled into the crates that call it, so the object of
    // kernel-core, which Kbuild links whole into every module, does not carry KUnit support
    // into modules without tests. The same holds for every function of this module.
    #[cold]
    #[inline]
    pub fn assert_failed(
        location: &'static Location,
        condition: &'static CStr,
        message: Option<fmt::Arguments<'_>>,
    ) {
        // SAFETY: FFI call without requirements; it returns NULL outside a KUnit case.
        let test = unsafe { bindings::kunit_get_current_test() };
        if test.is_null() {
            print_err(format_args!(
                "    # kernel-core: assertion `{}` failed at {}:{} outside a KUnit case\n",
                condition.to_str().unwrap_or("?"),
                location.file.to_str().unwrap_or("?"),
                location.line
            ));
            return;
        }
        let loc = bindings::kunit_loc {
            line: location.line as c_int,
            file: location.file.as_ptr().cast(),
        };
        let assert = bindings::kunit_unary_assert {
            assert: bindings::kunit_assert {},
            condition: condition.as_ptr().cast(),
            expected_true: true,
        };
        // SAFETY: `test` is the running case's; `loc` and `assert` outlive the call, which only
        // formats them; `kunit_unary_assert_format` is the formatter for a
        // `kunit_unary_assert`; the format is NULL or `%pA` with a pointer to a live
        // `fmt::Arguments`.
        unsafe {
            match &message {
                Some(args) => bindings::__kunit_do_failed_assertion(
                    test,
                    &loc,
                    bindings::kunit_assert_type_KUNIT_ASSERTION,
                    &assert.assert,
                    Some(bindings::kunit_unary_assert_format),
                    c"%pA".as_ptr().cast(),
                    core::ptr::from_ref(args).cast::<c_void>(),
                ),
                None => bindings::__kunit_do_failed_assertion(
                    test,
                    &loc,
                    bindings::kunit_assert_type_KUNIT_ASSERTION,
                    &assert.assert,
                    Some(bindings::kunit_unary_assert_format),
                    core::ptr::null(),
                ),
            }
        }
        // SAFETY: `test` is the running case's. This ends the case's thread without running
        // destructors, as the kernel's own KUnit assertions do: acceptable in test code, which
        // KUnit documents as unfit for production.
        unsafe { bindings::__kunit_abort(test) }
    }

    /// Reports a failed `assert_eq!`/`assert_ne!` with both values, then as [`assert_failed`].
    #[cold]
    #[inline]
    pub fn assert_failed_binary(
        location: &'static Location,
        condition: &'static CStr,
        left: &dyn fmt::Debug,
        right: &dyn fmt::Debug,
        message: Option<fmt::Arguments<'_>>,
    ) {
        match message {
            Some(message) => assert_failed(
                location,
                condition,
                Some(format_args!("{message}: left: {left:?}, right: {right:?}")),
            ),
            None => assert_failed(
                location,
                condition,
                Some(format_args!("left: {left:?}, right: {right:?}")),
            ),
        }
    }

    /// What a test function may return: `()` or any `Result`.
    pub trait TestResult {
        /// Whether the case passed.
        fn is_ok(&self) -> bool;
    }

    impl TestResult for () {
        #[inline]
        fn is_ok(&self) -> bool {
            true
        }
    }

    impl<T, E> TestResult for Result<T, E> {
        #[inline]
        fn is_ok(&self) -> bool {
            Result::is_ok(self)
        }
    }

    /// Fails the running case if the test function returned an error.
    #[inline]
    pub fn check_result(result: impl TestResult, location: &'static Location) {
        if !result.is_ok() {
            assert_failed(
                location,
                c"result.is_ok()",
                Some(format_args!("the test function returned an error")),
            );
        }
    }
}

/// `assert!` inside a `#[kunit_tests]` module in the kernel: reports to KUnit.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kunit_assert {
    (@ $condition:expr, [$($message:tt)*]) => {{
        if !$condition {
            static LOCATION: $crate::kunit::__rt::Location = $crate::kunit::__rt::Location {
                file: $crate::kunit::__rt::c_str(::core::concat!(::core::file!(), "\0")),
                line: ::core::line!(),
            };
            $crate::kunit::__rt::assert_failed(
                &LOCATION,
                $crate::kunit::__rt::c_str(::core::concat!(::core::stringify!($condition), "\0")),
                $crate::__kernel_core_kunit_message!($($message)*),
            );
        }
    }};
    ($condition:expr $(,)?) => {
        $crate::__kernel_core_kunit_assert!(@ $condition, [])
    };
    ($condition:expr, $($message:tt)+) => {
        $crate::__kernel_core_kunit_assert!(@ $condition, [$($message)+])
    };
}

/// `None`, or `Some(format_args!(...))` of a user's assertion message.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kunit_message {
    () => {
        ::core::option::Option::None
    };
    ($($message:tt)+) => {
        ::core::option::Option::Some(::core::format_args!($($message)+))
    };
}

/// `assert_eq!` inside a `#[kunit_tests]` module in the kernel: reports to KUnit.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kunit_assert_eq {
    ($left:expr, $right:expr $(,)?) => {
        $crate::__kernel_core_kunit_assert_eq!(@ ==, $left, $right, [])
    };
    ($left:expr, $right:expr, $($message:tt)+) => {
        $crate::__kernel_core_kunit_assert_eq!(@ ==, $left, $right, [$($message)+])
    };
    (@ $op:tt, $left:expr, $right:expr, [$($message:tt)*]) => {{
        match (&$left, &$right) {
            (left, right) => {
                if !(*left $op *right) {
                    static LOCATION: $crate::kunit::__rt::Location = $crate::kunit::__rt::Location {
                        file: $crate::kunit::__rt::c_str(::core::concat!(::core::file!(), "\0")),
                        line: ::core::line!(),
                    };
                    $crate::kunit::__rt::assert_failed_binary(
                        &LOCATION,
                        $crate::kunit::__rt::c_str(::core::concat!(
                            ::core::stringify!($left),
                            " ",
                            ::core::stringify!($op),
                            " ",
                            ::core::stringify!($right),
                            "\0"
                        )),
                        left,
                        right,
                        $crate::__kernel_core_kunit_message!($($message)*),
                    );
                }
            }
        }
    }};
}

/// `assert_ne!` inside a `#[kunit_tests]` module in the kernel: reports to KUnit.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kunit_assert_ne {
    ($left:expr, $right:expr $(,)?) => {
        $crate::__kernel_core_kunit_assert_eq!(@ !=, $left, $right, [])
    };
    ($left:expr, $right:expr, $($message:tt)+) => {
        $crate::__kernel_core_kunit_assert_eq!(@ !=, $left, $right, [$($message)+])
    };
}
