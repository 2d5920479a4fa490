// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `#[vtable]`: which methods a trait's implementations define, as constants, and
//! `ThisModule`.
//!
//! Written against Linux 7.3's API only, with what every kernel's `#[vtable]` does: the
//! `HAS_*` constants and `USE_VTABLE_ATTR`. (7.3's `OwnerModule` is checked on the host, in
//! `tests/module.rs`.) On the host, the crate's `LocalModule`, which 7.3's `#[vtable]` impls
//! name, is the `module!` of `tests/suites.rs`, as it is that of the kernel's test module in
//! the kernel.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_vtable)]
mod tests {
    use kernel_core::error::{code::EINVAL, Result, VTABLE_DEFAULT_ERROR};
    use kernel_core::prelude::{build_error, vtable};
    use kernel_core::ThisModule;

    /// The operations of a made-up device: two optional ones, a required one.
    #[vtable]
    trait Operations {
        fn open(&self) -> Result<u32> {
            build_error!(VTABLE_DEFAULT_ERROR)
        }

        fn read(&self, _buf: &mut [u8]) -> Result<usize> {
            build_error!(VTABLE_DEFAULT_ERROR)
        }

        fn id(&self) -> u32;
    }

    /// Defines `open` and the required `id`.
    struct OpenOnly;

    #[vtable]
    impl Operations for OpenOnly {
        fn open(&self) -> Result<u32> {
            Ok(3)
        }

        fn id(&self) -> u32 {
            1
        }
    }

    /// Defines everything, but says it has no `read`: a constant set by hand wins.
    struct Everything;

    #[vtable]
    impl Operations for Everything {
        const HAS_READ: bool = false;

        fn open(&self) -> Result<u32> {
            Err(EINVAL)
        }

        fn read(&self, buf: &mut [u8]) -> Result<usize> {
            Ok(buf.len())
        }

        fn id(&self) -> u32 {
            2
        }
    }

    /// Which methods `T` defines, as its `HAS_*` constants say.
    fn defined<T: Operations>() -> [bool; 3] {
        [T::HAS_OPEN, T::HAS_READ, T::HAS_ID]
    }

    #[test]
    fn has_constants_say_which_methods_an_impl_defines() {
        assert_eq!(defined::<OpenOnly>(), [true, false, true]);
    }

    #[test]
    fn a_has_constant_set_by_hand_wins() {
        assert_eq!(defined::<Everything>(), [true, false, true]);
        assert_eq!(Everything.read(&mut [0; 3]), Ok(3));
    }

    #[test]
    fn the_methods_are_the_impls() {
        assert_eq!(OpenOnly.open(), Ok(3));
        assert_eq!(Everything.open(), Err(EINVAL));
        assert_eq!((OpenOnly.id(), Everything.id()), (1, 2));
    }

    #[test]
    fn impls_carry_the_marker() {
        let () = <OpenOnly as Operations>::USE_VTABLE_ATTR;
        let () = <Everything as Operations>::USE_VTABLE_ATTR;
    }

    /// Which of the optional operations a C table would point at, as a driver builds one.
    fn table<T: Operations>() -> [bool; 2] {
        [T::HAS_OPEN, T::HAS_READ]
    }

    #[test]
    fn constants_build_tables_at_compile_time() {
        const OPEN_ONLY: [bool; 2] = [
            <OpenOnly as Operations>::HAS_OPEN,
            <OpenOnly as Operations>::HAS_READ,
        ];
        assert_eq!(OPEN_ONLY, [true, false]);
        assert_eq!(table::<OpenOnly>(), [true, false]);
        assert_eq!(table::<Everything>(), [true, false]);
    }

    #[test]
    fn a_null_this_module_is_a_built_in_modules() {
        // SAFETY: A null `THIS_MODULE` is what a built-in module has.
        let module = unsafe { ThisModule::from_ptr(core::ptr::null_mut()) };
        assert!(module.as_ptr().is_null());
    }
}
