// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The `macro_rules!` of the crate: `stack_pin_init!`, `stack_try_pin_init!` and
//! `assert_pinned!`, exported at the crate root as in Linux 7.3.
//!
//! Kernel counterpart: the same macros in `rust/pin-init/src/lib.rs` (Linux 7.3). The
//! procedural ones (`pin_init!`, `#[pin_data]`, ...) are in `kernel-core-macros` and
//! re-exported at the crate root.

/// Initializes a value in place on the stack, pinned, with an initializer that cannot fail.
///
/// `stack_pin_init!(let name: Type = initializer);` (the type is optional) declares `name`, a
/// `Pin<&mut Type>` to a value that lives until the end of the enclosing block, where it is
/// dropped. The initializer's error type must be [`Infallible`](core::convert::Infallible):
/// for one that can fail, use [`stack_try_pin_init!`](crate::stack_try_pin_init).
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use core::{marker::PhantomPinned, pin::Pin};
/// use pin_init::{pin_data, pin_init, stack_pin_init};
///
/// #[pin_data]
/// struct Node {
///     #[pin]
///     _pin: PhantomPinned,
///     // Points to the node itself once it is initialized.
///     this: *const Node,
/// }
///
/// stack_pin_init!(let node = pin_init!(&this in Node {
///     _pin: PhantomPinned,
///     this: this.as_ptr(),
/// }));
/// let node: Pin<&mut Node> = node;
/// assert!(core::ptr::eq(node.this, &*node));
/// ```
#[macro_export]
macro_rules! stack_pin_init {
    (let $var:ident $(: $t:ty)? = $val:expr) => {
        let val = $val;
        let mut $var = ::core::pin::pin!($crate::__internal::StackInit$(::<$t>)?::uninit());
        let Ok(mut $var) = $crate::__internal::StackInit::init($var, val);
    };
}

/// Initializes a value in place on the stack, pinned, with an initializer that may fail.
///
/// `stack_try_pin_init!(let name: Type = initializer);` declares `name`, a
/// `Result<Pin<&mut Type>, E>`; with `=?` instead of `=`, the error is returned with `?` and
/// `name` is the `Pin<&mut Type>`. The value lives until the end of the enclosing block.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use pin_init::{pin_data, pin_init, stack_try_pin_init};
///
/// #[derive(Debug, PartialEq)]
/// struct OutOfRange;
///
/// #[pin_data]
/// struct Channel {
///     number: u8,
/// }
///
/// fn channel(number: u32) -> impl pin_init::PinInit<Channel, OutOfRange> {
///     pin_init!(Channel {
///         number: u8::try_from(number).map_err(|_| OutOfRange)?,
///     }? OutOfRange)
/// }
///
/// stack_try_pin_init!(let bad: Channel = channel(300));
/// assert_eq!(bad.err(), Some(OutOfRange));
///
/// fn open() -> Result<u8, OutOfRange> {
///     stack_try_pin_init!(let good =? channel(3));
///     Ok(good.number)
/// }
/// assert_eq!(open(), Ok(3));
/// ```
#[macro_export]
macro_rules! stack_try_pin_init {
    (let $var:ident $(: $t:ty)? = $val:expr) => {
        let val = $val;
        let mut $var = ::core::pin::pin!($crate::__internal::StackInit$(::<$t>)?::uninit());
        let mut $var = $crate::__internal::StackInit::init($var, val);
    };
    (let $var:ident $(: $t:ty)? =? $val:expr) => {
        let val = $val;
        let mut $var = ::core::pin::pin!($crate::__internal::StackInit$(::<$t>)?::uninit());
        let mut $var = $crate::__internal::StackInit::init($var, val)?;
    };
}

/// Asserts at compile time that a field of a `#[pin_data]` struct is structurally pinned
/// (marked `#[pin]`), and of the given type.
///
/// `assert_pinned!(Type, field, FieldType)` is an item; code that relies on a field being
/// pinned (an `unsafe` projection by hand) states it so. Where the types use generic
/// parameters of an enclosing item ("can't use generic parameters from outer item"), add
/// `inline` and write it as a statement in a function body.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use core::pin::Pin;
/// use pin_init::{assert_pinned, pin_data};
///
/// #[pin_data]
/// struct Slot<T> {
///     #[pin]
///     value: T,
///     generation: u32,
/// }
///
/// assert_pinned!(Slot<u8>, value, u8);
///
/// impl<T> Slot<T> {
///     fn value(self: Pin<&mut Self>) -> Pin<&mut T> {
///         assert_pinned!(Slot<T>, value, T, inline);
///         // SAFETY: `value` is structurally pinned, as asserted above.
///         unsafe { self.map_unchecked_mut(|slot| &mut slot.value) }
///     }
/// }
/// # let _ = Slot::<u8>::value;
/// ```
///
/// An unpinned field does not compile:
///
/// ```compile_fail
/// # extern crate kernel_core_pin_init as pin_init;
/// use pin_init::{assert_pinned, pin_data};
///
/// #[pin_data]
/// struct Slot {
///     generation: u32,
/// }
///
/// assert_pinned!(Slot, generation, u32);
/// ```
#[macro_export]
macro_rules! assert_pinned {
    ($ty:ty, $field:ident, $field_ty:ty, inline) => {
        // SAFETY: This closure is never called: it only has to compile, which `init` on the
        // field's slot does only for a `Pinned` slot of `$field_ty` (an `AlwaysFail` is no
        // `Init`, which an `Unpinned` slot would need).
        let _ = move |ptr: *mut $ty| unsafe {
            let data = <$ty as $crate::__internal::HasPinData>::__pin_data();
            let _ = data
                .$field(ptr)
                .init($crate::__internal::AlwaysFail::<$field_ty>::new());
        };
    };

    ($ty:ty, $field:ident, $field_ty:ty) => {
        const _: () = {
            $crate::assert_pinned!($ty, $field, $field_ty, inline);
        };
    };
}
