// SPDX-License-Identifier: GPL-2.0-only OR MIT

// `implements!`, included by `tests/common/mod.rs` and by `pin-init-probe/src/scenarios.rs`
// (which the probe crate, without the tests' helpers, builds on Linux 7.3's `pin_init`).

/// `true` if the concrete type `$ty` implements `$tr`, decided at compile time.
///
/// An inherent associated constant whose impl requires `$tr` shadows a trait's constant of the
/// same name; when `$ty` does not implement `$tr`, the inherent one does not apply and path
/// resolution falls back to the trait's.
macro_rules! implements {
    ($ty:ty: $tr:path) => {{
        struct Probe<T: ?Sized>(::core::marker::PhantomData<T>);
        #[allow(dead_code)]
        trait Fallback {
            const YES: bool = false;
        }
        impl<T: ?Sized> Fallback for Probe<T> {}
        #[allow(dead_code)]
        impl<T: ?Sized + $tr> Probe<T> {
            const YES: bool = true;
        }
        <Probe<$ty>>::YES
    }};
}
