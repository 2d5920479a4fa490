// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `try_init!` and `try_pin_init!`: `pin_init`'s `init!` and `pin_init!` with the kernel's
//! `Error` as the default error, as Linux 7.3's `kernel::init` defines them.
//!
//! Shared by the host and by Linux 6.12 (whose own `try_pin_init!` is the older macro_rules of
//! `kernel::init`, which cannot initialise a struct marked by 7.3's `#[pin_data]`). They are
//! defined under hidden names and exported at kernel-core's root as `try_init!` and
//! `try_pin_init!` by `env::root_macros`, which names the kernel's own on 7.2 and 7.3.

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
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_try_init {
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
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_try_pin_init {
    ($($args:tt)*) => {
        ::pin_init::pin_init!(
            #[default_error($crate::error::Error)]
            $($args)*
        )
    }
}
