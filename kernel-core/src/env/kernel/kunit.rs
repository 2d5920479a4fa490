// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The kernel half of `#[kunit_tests]`: each suite becomes a KUnit suite.
//!
//! Its host twin is `env/host/kunit.rs`. The proc macro parses the suite and hands it to
//! [`__kernel_core_kunit_suite!`](crate::kunit::__suite), whose kernel definition is here, with
//! everything that knows KUnit's ABI. It does what `rust/macros/kunit.rs` of Linux 7.2 and 7.3
//! does, on 6.12 too:
//!
//! - the module is built with `CONFIG_KUNIT=y`, and in a test build
//!   (`--cfg kernel_core_kunit_harness`, which `cargo kernel-core` passes through
//!   `KERNEL_CORE_KUNIT_HARNESS=y`) on a kernel without built-in KUnit, where kernel-core's
//!   harness module `kernel_core_kunit.ko` (`kbuild/kernel_core_kunit.c`) runs it; otherwise
//!   it is compiled out, as the kernel's own macro compiles it out;
//! - `assert!`, `assert_eq!` and `assert_ne!` report to KUnit, in the whole module (the
//!   kernel's macro shadows them inside the test functions only: a helper's failed `assert!`
//!   panics there, and fails the case here);
//! - each `#[test]` fn gets an `extern "C"` wrapper, which starts as skipped and passes inside
//!   the test's `#[cfg]`s unless it is `#[ignore]`d;
//! - a NUL-terminated `kunit_case` array, a `kunit_suite`, and a pointer to it in
//!   `.kunit_test_suites`, so KUnit runs the suite when the module is loaded; under the
//!   harness, a module parameter of the harness's `kernel_core_kunit_suite_ops` whose argument
//!   is the suite, so that `kernel_core_kunit.ko` finds it in the module's parameter array
//!   (which the loader keeps on every kernel) and runs it when the module is live, printing
//!   the same KTAP.
//!
//! Where the two backends differ is [`kunit_rt`]'s few functions that reach KUnit itself: the
//! running case, a failed assertion, the end of the case, and the suite's registration.

/// KUnit run-time support for the kernel expansion of `#[kunit_tests]`.
///
/// `struct kunit_case` differs between 6.12 and 7.2 (7.2 added `param_init`/`param_exit` and a
/// `struct kunit *` argument to `generate_params`), and 7.3 added `enum kunit_status status`
/// to `struct kunit_suite`, so cases and suites are built from zeroed memory with only the
/// common fields assigned, never with struct literals. A zeroed `status` is `KUNIT_SUCCESS`,
/// the value 7.3's own macro gives it (checked at compile time on 7.3 below).
pub mod kunit_rt {
    // What only the reporters of failed assertions use, which a shipping build for a kernel
    // without KUnit leaves out.
    #[cfg_attr(
        not(any(CONFIG_KUNIT = "y", kernel_core_kunit_harness)),
        allow(unused_imports)
    )]
    use core::{ffi::c_void, fmt};

    use core::ffi::CStr;
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

    /// Writes an error-level message to the kernel log (for failed assertions, which only a
    /// build with suites has).
    #[cfg(any(CONFIG_KUNIT = "y", kernel_core_kunit_harness))]
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
    #[cfg(CONFIG_KUNIT = "y")]
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
            line: location.line as core::ffi::c_int,
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

    /// The harness module's side (`kbuild/kernel_core_kunit.c`), on kernels without built-in
    /// KUnit.
    #[cfg(all(not(CONFIG_KUNIT = "y"), kernel_core_kunit_harness))]
    mod harness {
        use super::{c_void, Test};

        extern "C" {
            /// The running case's test, in the case's own thread; NULL elsewhere.
            pub(super) fn kernel_core_kunit_current() -> *mut Test;
            /// Ends the running case, failed, without returning.
            ///
            /// Declared as returning, though it never does (it is `__noreturn` in C): objtool
            /// knows no function of a module as noreturn, so a call that the compiler knew
            /// could not return, with nothing after it, was reported on x86_64 as the caller
            /// "falls through to next function".
            pub(super) fn kernel_core_kunit_abort(test: *mut Test);
            /// The `struct kernel_param_ops` that mark a module parameter as a suite, declared
            /// opaque: only its address is used, and the kernel's type is not FFI-safe where
            /// `struct lock_class_key` has no fields (kernels without lockdep, as Debian's).
            pub(super) static kernel_core_kunit_suite_ops: c_void;
        }
    }

    /// A suite as the harness finds it: a module parameter of the harness's ops whose
    /// argument is the suite, in the module's `__param` array.
    #[cfg(all(not(CONFIG_KUNIT = "y"), kernel_core_kunit_harness))]
    #[repr(transparent)]
    pub struct SuiteParam(bindings::kernel_param);

    // SAFETY: the parameter is never written after it is built, and the suite it points to is
    // only used by the harness, one case at a time, as KUnit uses it.
    #[cfg(all(not(CONFIG_KUNIT = "y"), kernel_core_kunit_harness))]
    unsafe impl Sync for SuiteParam {}

    /// The parameter named `name` (`kunit_suite.<suite>`) that lists `suite` for the harness.
    #[cfg(all(not(CONFIG_KUNIT = "y"), kernel_core_kunit_harness))]
    #[inline]
    pub const fn suite_param(name: &'static CStr, suite: *mut Suite) -> SuiteParam {
        // SAFETY: `struct kernel_param` holds only pointers, integers and a union of pointers,
        // whose all-zero bytes are valid values.
        let mut param: bindings::kernel_param = unsafe { core::mem::zeroed() };
        param.name = name.as_ptr().cast();
        param.ops = (&raw const harness::kernel_core_kunit_suite_ops).cast();
        // No sysfs file, no bootloader level: a module parameter that only marks the suite.
        param.perm = 0;
        param.level = -1;
        param.__bindgen_anon_1.arg = suite.cast();
        SuiteParam(param)
    }

    /// Writes a line of the harness's KTAP diagnostics to the kernel log, as KUnit's
    /// `kunit_err()` does (`    # case: ...`).
    #[cfg(all(not(CONFIG_KUNIT = "y"), kernel_core_kunit_harness))]
    #[inline]
    fn diagnostic(args: fmt::Arguments<'_>) {
        print_err(format_args!("    {args}\n"));
    }

    /// Reports a failed assertion to the harness and ends the running case, in KUnit's words.
    ///
    /// Outside a case nothing can be failed, so the failure is logged and execution goes on.
    #[cfg(all(not(CONFIG_KUNIT = "y"), kernel_core_kunit_harness))]
    #[cold]
    #[inline]
    pub fn assert_failed(
        location: &'static Location,
        condition: &'static CStr,
        message: Option<fmt::Arguments<'_>>,
    ) {
        let condition = condition.to_str().unwrap_or("?");
        let file = location.file.to_str().unwrap_or("?");
        // SAFETY: FFI call without requirements; it returns NULL outside a case's thread.
        let test = unsafe { harness::kernel_core_kunit_current() };
        if test.is_null() {
            print_err(format_args!(
                "    # kernel-core: assertion `{condition}` failed at {file}:{} outside a KUnit case\n",
                location.line
            ));
            return;
        }
        // SAFETY: `test` is the running case's, whose name is a C string the harness set.
        let name = unsafe { CStr::from_ptr((*test).name.cast()) }
            .to_str()
            .unwrap_or("?");
        diagnostic(format_args!(
            "# {name}: ASSERTION FAILED at {file}:{}",
            location.line
        ));
        diagnostic(format_args!(
            "Expected {condition} to be true, but is false"
        ));
        if let Some(message) = message {
            diagnostic(format_args!("{message}"));
        }
        // SAFETY: `test` is the running case's, and this is its thread; the case ends here
        // without running destructors, as under KUnit.
        unsafe { harness::kernel_core_kunit_abort(test) }
    }

    /// Reports a failed `assert_eq!`/`assert_ne!` with both values, then as [`assert_failed`].
    ///
    /// Like `assert_failed`, only where suites run: a shipping build for a kernel without
    /// KUnit compiles the suites out, and with them every caller.
    #[cfg(any(CONFIG_KUNIT = "y", kernel_core_kunit_harness))]
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

    /// Fails the running case: the test function returned `Err(error)`.
    #[cfg(any(CONFIG_KUNIT = "y", kernel_core_kunit_harness))]
    #[cold]
    #[inline]
    pub fn result_failed(error: &dyn fmt::Debug, location: &'static Location) {
        assert_failed(
            location,
            c"result.is_ok()",
            Some(format_args!(
                "the test function returned an error: {error:?}"
            )),
        );
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
                        $crate::__kernel_core_kunit_debug!(&left),
                        $crate::__kernel_core_kunit_debug!(&right),
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

/// The kernel expansion of a `#[kunit_tests]` suite, from what the proc macro parsed.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kunit_suite {
    (
        dollar: $d:tt,
        suite: $suite:ident,
        module: [$($module:tt)*],
        inner: [$($inner:tt)*],
        items: [$($item:tt)*],
        tests: [$({
            name: $name:ident,
            cfg: [$($cfg:tt)*],
            ignore: [$($ignore:tt)*],
            attrs: [$($attr:tt)*],
            item: [$($function:tt)*],
        })*],
    ) => {
        #[cfg(any(CONFIG_KUNIT = "y", kernel_core_kunit_harness))]
        $($module)* {
            $($inner)*

            #[allow(unused_macros)]
            macro_rules! assert {
                ($d($d arguments:tt)*) => { $crate::__kernel_core_kunit_assert!($d($d arguments)*) };
            }
            #[allow(unused_macros)]
            macro_rules! assert_eq {
                ($d($d arguments:tt)*) => { $crate::__kernel_core_kunit_assert_eq!($d($d arguments)*) };
            }
            #[allow(unused_macros)]
            macro_rules! assert_ne {
                ($d($d arguments:tt)*) => { $crate::__kernel_core_kunit_assert_ne!($d($d arguments)*) };
            }

            $($item)*

            $(
                #[cfg(all($($cfg)*))]
                #[allow(dead_code)]
                $($attr)*
                $($function)*
            )*

            /// The `extern "C"` wrappers KUnit calls, one per case.
            #[doc(hidden)]
            mod __kunit_cases {
                $(
                    #[allow(unused_unsafe)]
                    pub(super) unsafe extern "C" fn $name(test: *mut $crate::kunit::__rt::Test) {
                        // SAFETY: KUnit passes the wrapper the `struct kunit` of this very case.
                        unsafe { $crate::kunit::__rt::set_status(test, $crate::kunit::__rt::SKIPPED) };
                        $crate::__kernel_core_kunit_kernel_run!(test, $name, [$($cfg)*], [$($ignore)*]);
                    }
                )*
            }

            static mut __KUNIT_CASES: [
                $crate::kunit::__rt::Case;
                1 + { let names: &[&str] = &[$(::core::stringify!($name)),*]; names.len() }
            ] = [
                $(
                    $crate::kunit::__rt::case(
                        $crate::kunit::__rt::c_str(::core::concat!(::core::stringify!($name), "\0")),
                        __kunit_cases::$name,
                    ),
                )*
                $crate::kunit::__rt::END
            ];
            #[allow(unused_unsafe)]
            static mut __KUNIT_SUITE: $crate::kunit::__rt::Suite = $crate::kunit::__rt::suite(
                ::core::stringify!($suite),
                // SAFETY: only the address is taken.
                unsafe { ::core::ptr::addr_of_mut!(__KUNIT_CASES) }.cast::<$crate::kunit::__rt::Case>(),
            );
            // KUnit runs the suites of a module's `.kunit_test_suites` when it loads.
            #[cfg(CONFIG_KUNIT = "y")]
            #[used]
            #[allow(unused_unsafe)]
            #[unsafe(link_section = ".kunit_test_suites")]
            static mut __KUNIT_SUITE_ENTRY: *const $crate::kunit::__rt::Suite =
                // SAFETY: only the address is taken.
                unsafe { ::core::ptr::addr_of!(__KUNIT_SUITE) };
            // kernel-core's harness finds the suite among the module's parameters.
            #[cfg(all(not(CONFIG_KUNIT = "y"), kernel_core_kunit_harness))]
            #[used]
            #[allow(unused_unsafe)]
            #[unsafe(link_section = "__param")]
            static __KUNIT_SUITE_PARAM: $crate::kunit::__rt::SuiteParam = $crate::kunit::__rt::suite_param(
                $crate::kunit::__rt::c_str(::core::concat!("kunit_suite.", ::core::stringify!($suite), "\0")),
                // SAFETY: only the address is taken.
                unsafe { ::core::ptr::addr_of_mut!(__KUNIT_SUITE) },
            );

            // The suite's cases as the compiler saw them, for a test runner: a line for the suite, then one line per
            // case, in the order of the case array, with `r` for a case that runs, `c` for one
            // whose `#[cfg]` is off and `i` for an ignored one, which KUnit reports skipped.
            // `cargo kernel-core` reads it from the module's object (see its `declared`
            // module): what KUnit must report is what was compiled, not what a scan of the
            // sources guesses. The section has no `a` flag, so the module loader never loads
            // it: it costs the module file a few bytes per case and the kernel nothing. Its
            // name starts with `.note` because modpost warns about other non-allocated
            // sections it does not know.
            ::core::arch::global_asm!(
                ".pushsection .note.kernel_core.kunit_cases,\"\"",
                ::core::concat!(".ascii \"suite ", ::core::stringify!($suite), "\\n\""),
                $(
                    ::core::concat!(
                        ".ascii \"case ",
                        ::core::stringify!($suite),
                        " ",
                        ::core::stringify!($name),
                        " \""
                    ),
                    ".byte {}",
                    ".byte 10",
                )*
                ".popsection",
                $(const $crate::__kernel_core_kunit_declared_state!([$($cfg)*], [$($ignore)*]),)*
            );
        }
    };
}

/// The state a case has in the table of `__kernel_core_kunit_suite!`: `b'r'` runs, `b'c'`
/// compiled out by its `#[cfg]`, `b'i'` ignored.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kunit_declared_state {
    ([$($cfg:tt)*], []) => {
        if ::core::cfg!(all($($cfg)*)) { b'r' } else { b'c' }
    };
    ([$($cfg:tt)*], [$($ignore:tt)+]) => {
        b'i'
    };
}

/// The body of one case's wrapper: run the test unless it is ignored or its `#[cfg]` is off.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kunit_kernel_run {
    ($test:ident, $name:ident, [$($cfg:tt)*], []) => {
        #[cfg(all($($cfg)*))]
        {
            // SAFETY: `$test` is the `struct kunit` KUnit passed to this case.
            unsafe { $crate::kunit::__rt::set_status($test, $crate::kunit::__rt::SUCCESS) };
            static LOCATION: $crate::kunit::__rt::Location = $crate::kunit::__rt::Location {
                file: $crate::kunit::__rt::c_str(::core::concat!(::core::file!(), "\0")),
                line: ::core::line!(),
            };
            let result = super::$name();
            if let ::core::option::Option::Some(error) = $crate::kunit::TestResult::error(&result) {
                $crate::kunit::__rt::result_failed($crate::__kernel_core_kunit_debug!(error), &LOCATION);
            }
        }
    };
    ($test:ident, $name:ident, [$($cfg:tt)*], [$($ignore:tt)+]) => {};
}
