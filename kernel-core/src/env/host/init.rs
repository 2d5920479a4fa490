// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::init` on the host: kernel-core's own [`InPlaceInit`], and [`try_init!`] and
//! [`try_pin_init!`], which are `pin_init`'s `init!` and `pin_init!` with [`Error`] as the
//! default error.
//!
//! Its twin, `env/kernel/init.rs`, re-exports the kernel's own. The macros expand to the
//! `pin_init` crate's macros, which a driver reaches as `pin_init` in both worlds (kernel-core's
//! `kernel-core-pin-init` package on the host).
//!
//! [`try_init!`]: crate::try_init!
//! [`try_pin_init!`]: crate::try_pin_init!

use pin_init::{init_from_closure, pin_init_from_closure, Init, PinInit};

use crate::alloc::{AllocError, Flags};
use crate::error::{self, Error};

/// A smart pointer that allocates its value and initialises it in place: [`KBox`] (and, with
/// `kernel_core::sync`, `Arc` and `UniqueArc`).
///
/// The initialiser writes the value straight into the new allocation, so a large or pinned value
/// (a struct with a lock) is never built on the stack and moved.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// struct Table {
///     entries: [u32; 256],
/// }
///
/// // Zeroed in place: no 1 KiB `Table` on the stack.
/// fn table() -> impl pin_init::Init<Table, Error> {
///     // SAFETY: all zero bits are a valid `Table`.
///     unsafe { pin_init::init_from_closure(|slot: *mut Table| {
///         slot.write_bytes(0, 1);
///         Ok(())
///     }) }
/// }
///
/// let t = KBox::init(table(), GFP_KERNEL)?;
/// assert!(t.entries.iter().all(|&e| e == 0));
/// # Ok::<(), Error>(())
/// ```
///
/// [`KBox`]: crate::alloc::KBox
pub trait InPlaceInit<T>: Sized {
    /// The pinned form of `Self`: `Pin<Self>`, or `Self` for a type that pins its value
    /// already.
    type PinnedSelf;

    /// Allocates a new `Self` with `flags` and initialises its value, pinned, with `init`; a
    /// `T` that is not `Unpin` never moves again.
    ///
    /// The error is `init`'s, or the allocation's converted into it.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let b: Pin<KBox<u32>> = KBox::try_pin_init(Ok::<u32, Error>(8), GFP_KERNEL)?;
    /// assert_eq!(*b, 8);
    /// let failed = KBox::<u32>::try_pin_init(Err::<u32, Error>(EBUSY), GFP_KERNEL);
    /// assert_eq!(failed.err(), Some(EBUSY));
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    fn try_pin_init<E>(init: impl PinInit<T, E>, flags: Flags) -> Result<Self::PinnedSelf, E>
    where
        E: From<AllocError>;

    /// As [`InPlaceInit::try_pin_init`], with the error converted into an [`Error`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// // A value initialises itself, and cannot fail: only the allocation can.
    /// let b = KBox::pin_init(3_u64, GFP_KERNEL)?;
    /// assert_eq!(*b, 3);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    #[track_caller]
    fn pin_init<E>(init: impl PinInit<T, E>, flags: Flags) -> error::Result<Self::PinnedSelf>
    where
        Error: From<E>,
    {
        // SAFETY: The closure hands the slot to `init` and changes nothing but its error's type,
        // so it keeps `init`'s promises.
        let init = unsafe {
            pin_init_from_closure(|slot| pin_init::raw_try_init(slot, init).map_err(Error::from))
        };
        Self::try_pin_init(init, flags)
    }

    /// Allocates a new `Self` with `flags` and initialises its value with `init`.
    ///
    /// The error is `init`'s, or the allocation's converted into it.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// use kernel_core::alloc::AllocError;
    ///
    /// let b = KBox::<[u8; 4]>::try_init(Ok::<_, AllocError>([7; 4]), GFP_KERNEL)?;
    /// assert_eq!(*b, [7; 4]);
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    fn try_init<E>(init: impl Init<T, E>, flags: Flags) -> Result<Self, E>
    where
        E: From<AllocError>;

    /// As [`InPlaceInit::try_init`], with the error converted into an [`Error`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    ///
    /// let b = KBox::init(pin_init::init_zeroed::<[u64; 8]>(), GFP_KERNEL)?;
    /// assert_eq!(*b, [0; 8]);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    #[track_caller]
    fn init<E>(init: impl Init<T, E>, flags: Flags) -> error::Result<Self>
    where
        Error: From<E>,
    {
        // SAFETY: The closure hands the slot to `init` and changes nothing but its error's type,
        // so it keeps `init`'s promises.
        let init = unsafe {
            init_from_closure(|slot| pin_init::raw_try_init(slot, init).map_err(Error::from))
        };
        Self::try_init(init, flags)
    }
}
