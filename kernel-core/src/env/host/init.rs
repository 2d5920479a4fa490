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

/// An initialiser of a struct, field by field, whose error is [`Error`] unless another is given:
/// `pin_init`'s `init!` with [`Error`] as its default error.
///
/// The syntax is [`try_pin_init!`]'s, for values that need not be pinned. A custom error type
/// follows the struct: `? MyError`. The fields are initialised in the order written; on an
/// error, those already initialised are dropped, and the memory is left to be freed. `unsafe`
/// code in an initialiser must keep these promises too: initialise fully, or fail and leave
/// nothing that needs cleaning up. No reference to a field may be made inside the initialiser.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
/// use pin_init::init_zeroed;
///
/// struct BigBuf {
///     big: KBox<[u8; 1024 * 1024 * 1024]>,
///     small: [u8; 1024],
/// }
///
/// impl BigBuf {
///     fn new() -> impl Init<Self, Error> {
///         try_init!(Self {
///             big: KBox::init(init_zeroed(), GFP_KERNEL)?,
///             small: [0; 1024],
///         }? Error)
///     }
/// }
///
/// // 1 GiB is more than `kmalloc()` gives: the initialiser fails with the allocation's error.
/// assert_eq!(KBox::init(BigBuf::new(), GFP_KERNEL).err(), Some(ENOMEM));
///
/// // Without `? Error`, the error is `Error` too.
/// struct Header {
///     magic: u32,
///     table: KBox<[u16; 64]>,
/// }
///
/// fn header(magic: u32) -> impl Init<Header, Error> {
///     try_init!(Header {
///         magic: if magic != 0 { magic } else { return Err(EINVAL) },
///         table: KBox::init(init_zeroed(), GFP_KERNEL)?,
///     })
/// }
///
/// let h = KBox::init(header(0x7f), GFP_KERNEL)?;
/// assert_eq!((h.magic, h.table[63]), (0x7f, 0));
/// assert_eq!(KBox::init(header(0), GFP_KERNEL).err(), Some(EINVAL));
/// # Ok::<(), Error>(())
/// ```
///
/// [`try_pin_init!`]: crate::try_pin_init!
#[macro_export]
macro_rules! try_init {
    ($($args:tt)*) => {
        ::pin_init::init!(
            #[default_error($crate::error::Error)]
            $($args)*
        )
    }
}

/// A pinned initialiser of a struct, field by field, whose error is [`Error`] unless another is
/// given: `pin_init`'s `pin_init!` with [`Error`] as its default error.
///
/// For an initialiser that cannot fail, use `pin_init!`. Inside, `?` and `return Err(e)` stop
/// the initialisation and return the error; a custom error type follows the struct: `? MyError`.
///
/// `unsafe` code in an initialiser must make sure that, when the initialisation fails, the
/// memory can be freed as it is, with nothing more to undo.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
/// use pin_init::init_zeroed;
///
/// #[pin_data]
/// struct BigBuf {
///     big: KBox<[u8; 1024 * 1024 * 1024]>,
///     small: [u8; 1024],
///     ptr: *mut u8,
/// }
///
/// impl BigBuf {
///     fn new() -> impl PinInit<Self, Error> {
///         try_pin_init!(Self {
///             big: KBox::init(init_zeroed(), GFP_KERNEL)?,
///             small: [0; 1024],
///             ptr: core::ptr::null_mut(),
///         }? Error)
///     }
/// }
///
/// assert_eq!(KBox::pin_init(BigBuf::new(), GFP_KERNEL).err(), Some(ENOMEM));
///
/// // A pinned field initialised in place, and the default error, `Error`.
/// #[pin_data]
/// struct Device {
///     #[pin]
///     regs: [u32; 4],
///     name: KVec<u8>,
/// }
///
/// fn device(name: &[u8]) -> impl PinInit<Device, Error> + '_ {
///     try_pin_init!(Device {
///         regs <- pin_init::init_zeroed(),
///         name: {
///             let mut v = KVec::new();
///             v.extend_from_slice(name, GFP_KERNEL)?;
///             v
///         },
///     })
/// }
///
/// let d: Pin<KBox<Device>> = KBox::pin_init(device(b"dma0"), GFP_KERNEL)?;
/// assert_eq!((d.regs, &d.name[..]), ([0; 4], &b"dma0"[..]));
/// # Ok::<(), Error>(())
/// ```
#[macro_export]
macro_rules! try_pin_init {
    ($($args:tt)*) => {
        ::pin_init::pin_init!(
            #[default_error($crate::error::Error)]
            $($args)*
        )
    }
}
