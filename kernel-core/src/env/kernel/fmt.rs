// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::fmt` in the kernel: the kernel's own on Linux 7.3.
//!
//! - Linux 7.2 has the kernel's `Display` and the rest, but not `Pointer` and `HashedPtr`, and
//!   its `fmt!` prints `{:p}` as the plain address: kernel-core's [`Adapter`], [`Pointer`] and
//!   [`HashedPtr`] (the host's, over the kernel's `%p`) give `kernel_core::macros::fmt!` 7.3's
//!   hashed `%p`, with the kernel's `Display`.
//! - Linux 6.12 has no `kernel::fmt`, and its `pr_info!` takes `core::fmt`'s traits: there the
//!   whole module is kernel-core's (the host's file), and so are the `pr_*!` macros, which
//!   format with kernel-core's `fmt!` and print through 6.12's `call_printk`.

#[cfg(kernel_core_linux_7_3)]
pub use kernel::fmt::*;

#[cfg(all(kernel_core_linux_7_1, not(kernel_core_linux_7_3)))]
pub use kernel::fmt::{Arguments, Debug, Display, Error, Formatter, Result, Write};

#[cfg(all(kernel_core_linux_7_1, not(kernel_core_linux_7_3)))]
pub use pointers::{Adapter, HashedPtr, Pointer};

/// 7.3's `Adapter`, `Pointer` and `HashedPtr` over 7.2's `Display`.
#[cfg(all(kernel_core_linux_7_1, not(kernel_core_linux_7_3)))]
mod pointers {
    use super::{Display, Formatter, Result};
    use core::ptr::NonNull;

    /// Linux 7.3's `kernel::fmt::Adapter`: what `fmt!` wraps each argument in.
    pub struct Adapter<T>(pub T);

    /// Implements each of `core`'s formatting traits for `Adapter<&T>` where `T` implements it.
    macro_rules! forward {
        ($($name:ident),*) => {$(
            impl<T: ?Sized + core::fmt::$name> core::fmt::$name for Adapter<&T> {
                #[inline]
                fn fmt(&self, f: &mut Formatter<'_>) -> Result {
                    core::fmt::$name::fmt(self.0, f)
                }
            }
        )*};
    }

    forward!(Debug, LowerHex, UpperHex, Octal, Binary, LowerExp, UpperExp);

    impl<T: ?Sized + Display> core::fmt::Display for Adapter<&T> {
        #[inline]
        fn fmt(&self, f: &mut Formatter<'_>) -> Result {
            Display::fmt(self.0, f)
        }
    }

    impl<T: ?Sized + Pointer> core::fmt::Pointer for Adapter<&T> {
        #[inline]
        fn fmt(&self, f: &mut Formatter<'_>) -> Result {
            Pointer::fmt(self.0, f)
        }
    }

    /// Linux 7.3's `kernel::fmt::Pointer`: what `{:p}` uses.
    pub trait Pointer {
        /// As `core::fmt::Pointer::fmt`.
        fn fmt(&self, f: &mut Formatter<'_>) -> Result;
    }

    /// Linux 7.3's `kernel::fmt::HashedPtr`: a pointer printed as the kernel's `%p`.
    pub struct HashedPtr<T: ?Sized>(pub *const T);

    impl<T: ?Sized> Pointer for HashedPtr<T> {
        fn fmt(&self, f: &mut Formatter<'_>) -> Result {
            let width = match (f.sign_aware_zero_pad(), f.width()) {
                (true, Some(w)) if w > 0 => w,
                _ => 2 * core::mem::size_of::<usize>() + 2,
            };
            let mut buffer = [0u8; 32];
            let text =
                crate::env::percent_p::percent_p(self.0.cast::<()>().addr(), width, &mut buffer);
            if f.sign_aware_zero_pad() {
                f.write_str(text)
            } else {
                f.pad(text)
            }
        }
    }

    /// Implements [`Pointer`] for a pointer type through [`HashedPtr`].
    macro_rules! hashed {
        ($($(#[$meta:meta])* $ty:ty => |$p:ident| $raw:expr;)*) => {$(
            impl<T: ?Sized> Pointer for $ty {
                #[inline]
                fn fmt(&self, f: &mut Formatter<'_>) -> Result {
                    let $p = self;
                    Pointer::fmt(&HashedPtr($raw), f)
                }
            }
        )*};
    }

    hashed! {
        *const T => |p| *p;
        *mut T => |p| p.cast_const();
        &T => |p| core::ptr::from_ref::<T>(*p);
        &mut T => |p| core::ptr::from_ref::<T>(*p);
        NonNull<T> => |p| p.as_ptr().cast_const();
    }
}

#[cfg(not(kernel_core_linux_7_1))]
#[path = "../fmt.rs"]
mod own;
#[cfg(not(kernel_core_linux_7_1))]
pub use own::*;
