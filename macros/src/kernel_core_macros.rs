// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Procedural macros of `kernel-core`.
//!
//! The kernel build compiles this crate with one `rustc` call for the host (see the top-level
//! `Kbuild`), without cargo or crates.io, so it depends on `proc_macro` alone: no `syn`, no
//! `quote`. Each expands the same in both worlds: `paste!` needs nothing of either, and
//! `#[kunit_tests]` only parses the suite and hands it to `kernel_core::kunit::__suite!`,
//! which `kernel-core` defines once for the host and once for the kernel. Use the macros
//! through `kernel_core`, which re-exports them; the pin-init ones (`#[pin_data]`,
//! `#[pinned_drop]`, `#[derive(Zeroable, MaybeZeroable)]`, `pin_init!`, `init!`, in
//! `pin_init/`) through the `pin_init` crate (`kernel-core-pin-init`), whose names their
//! expansions use.

// The `#[kunit_tests]` example must show `#[test]` functions, which doctests never run.
#![allow(clippy::test_attr_in_doctest)]

mod bytes;
mod concat_idents;
mod export;
mod fmt;
mod kunit;
mod module;
mod paste;
mod pin_init;
mod tokens;
mod vtable;

use proc_macro::TokenStream;

/// Turns an inline module of `#[test]` functions into a KUnit suite: KUnit cases in the kernel,
/// ordinary tests (built with `cfg(test)`) on the host.
///
/// The argument is the suite's name, an identifier of at most 255 bytes. What the suite may
/// contain, and what each form does in each world, is described in `kernel_core::kunit`.
///
/// # Examples
///
/// ```
/// use kernel_core::kunit::kunit_tests;
///
/// #[kunit_tests(my_driver_parser)]
/// mod tests {
///     #[test]
///     fn parses_nothing() {
///         assert_eq!("".len(), 0);
///     }
/// }
/// ```
#[proc_macro_attribute]
pub fn kunit_tests(attr: TokenStream, item: TokenStream) -> TokenStream {
    match kunit::expand(attr, item) {
        Ok(expansion) => expansion,
        Err(error) => error.into_compile_error(),
    }
}

/// Builds identifiers from pieces: every `[< ... >]` in the input becomes one identifier.
///
/// Concatenates two identifiers into one, with the span of the second: Linux's
/// `kernel::macros::concat_idents!`, for macros that declare or name items whose names are a
/// fixed prefix and a caller's name. Anything but two identifiers separated by a comma is a
/// compile error saying so.
///
/// # Examples
///
/// ```
/// use kernel_core::macros::concat_idents;
///
/// const protocol_BR_OK: u32 = 0;
/// const protocol_BR_ERROR: u32 = 1;
///
/// macro_rules! no_prefix {
///     ($prefix:ident, $($name:ident),*) => {
///         $(const $name: u32 = concat_idents!($prefix, $name);)*
///     };
/// }
///
/// no_prefix!(protocol_, BR_OK, BR_ERROR);
/// assert_eq!((BR_OK, BR_ERROR), (0, 1));
/// ```
#[proc_macro]
pub fn concat_idents(input: TokenStream) -> TokenStream {
    match concat_idents::expand(input) {
        Ok(expansion) => expansion,
        Err(error) => error.into_compile_error(),
    }
}

/// The kernel's `kernel::macros::paste!`, also on 6.12 and the host, expanding as Linux 7.3's
/// code does. A paste group is `[<`, at least one token, `>]`: `[<>]` is none and passes through
/// unchanged. Each becomes one identifier, with the span of the whole group; a keyword or `_`
/// too. Pieces are identifiers (`r#` dropped), literals (string literals without quotes), and
/// modifiers applied to the piece before them: `:lower`, `:upper` and `:span`. The kernel
/// documents `:span` as giving the result that piece's span, but its code never uses that span:
/// `:span` is accepted, at most once per group, and has no effect, here as there. Anything else
/// in a group, and pieces that make no identifier, are compile errors naming the problem.
///
/// # Examples
///
/// ```
/// use kernel_core::macros::paste;
///
/// macro_rules! register_accessors {
///     ($($name:ident = $offset:literal),*) => {
///         paste! {
///             $(const [<REG_ $name:upper>]: usize = $offset;
///               fn [<read_ $name:lower>](regs: &[u32]) -> u32 { regs[[<REG_ $name:upper>] / 4] })*
///         }
///     };
/// }
///
/// register_accessors!(Status = 0, Ctrl = 4);
/// assert_eq!(REG_CTRL, 4);
/// assert_eq!(read_ctrl(&[7, 9]), 9);
///
/// paste! {
///     fn [<version_ "2" _ r#fn>]() -> u32 { 2 }
///     let [<_>] = [<version_ "2" _fn:span>]();     // `let _ = version_2_fn();`
///     assert_eq!(stringify!([<>]), "[<>]");         // not a paste group
/// }
/// assert_eq!(version_2_fn(), 2);
/// ```
#[proc_macro]
pub fn paste(input: TokenStream) -> TokenStream {
    match paste::expand(input) {
        Ok(expansion) => expansion,
        Err(error) => error.into_compile_error(),
    }
}

/// `core::format_args!` with every argument wrapped in `kernel_core::fmt::Adapter`: Linux 7.3's
/// `kernel::fmt!`, which `pr_info!` and its siblings format with.
///
/// `{}` then formats with `kernel_core::fmt::Display`, the kernel's own copy of `core`'s
/// trait (implemented for the integers, `str`, `CStr`, `BStr`, ... and by drivers for their
/// types), and `{:p}` with `kernel_core::fmt::Pointer`, which hashes addresses as C's `%p`
/// does; the other traits (`{:?}`, `{:x}`, ...) are `core`'s. Inline arguments (`{name}`),
/// positional and named ones are all wrapped. Use it through `kernel_core::macros::fmt` or the
/// prelude; it expands to a path through `::kernel_core`, as the kernel's does through
/// `::kernel`.
///
/// As in the kernel, an argument containing `=` is read as `name = value` (split at its first
/// `=`): write a comparison in parentheses, `fmt!("{}", (a == b))`. And since every argument is
/// wrapped, a width or precision cannot be an argument (`{:w$}` with `w = 8`): write it in the
/// string.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// let name = c"eth0";
/// let line = format!("{}", fmt!("{name}: {} packets, state {state:?}", 12_u32, state = Some(1)));
/// assert_eq!(line, "eth0: 12 packets, state Some(1)");
/// ```
#[proc_macro]
pub fn fmt(input: TokenStream) -> TokenStream {
    match fmt::expand(input) {
        Ok(expansion) => expansion,
        Err(error) => error.into_compile_error(),
    }
}

/// Derives kernel-core's `FromBytes` (`kernel_core::extras::bytes`) for a struct whose fields
/// are all `FromBytes`: any bytes of its size are then a valid value.
///
/// Where the traits are kernel-core's own (the host and Linux 6.12), `kernel_core::prelude`
/// exports this derive, as Linux 7.3's prelude exports `zerocopy`'s; on 7.2 and 7.3 the prelude's
/// `FromBytes` is the kernel's own derive. It takes the structs `zerocopy`'s does: on a generic
/// struct, a where clause asks each field's type to be `FromBytes`; a field that is not, an enum
/// or a union is a compile error naming it.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// #[derive(FromBytes)]
/// #[repr(C)]
/// struct Status {
///     state: u8,
///     // Padding here is fine: any bytes are valid there too.
///     count: u32,
/// }
///
/// fn zeroed<T: FromBytes>() -> T {
///     // SAFETY: All zero bytes are a valid `T`, since any bytes are.
///     unsafe { core::mem::zeroed() }
/// }
/// assert_eq!(zeroed::<Status>().count, 0);
/// ```
#[proc_macro_derive(FromBytes)]
pub fn derive_from_bytes(item: TokenStream) -> TokenStream {
    match bytes::expand(item, bytes::Trait::FromBytes) {
        Ok(expansion) => expansion,
        Err(error) => error.into_compile_error(),
    }
}

/// Derives kernel-core's `IntoBytes` (`kernel_core::extras::bytes`) for a struct whose fields
/// are all `IntoBytes` and which has no padding: all its bytes are then initialized.
///
/// Exported like [`macro@FromBytes`], and taking the structs `zerocopy`'s does. Padding is
/// checked at compile time (the struct's size must be the sum of its fields', whatever its
/// `repr`), so a struct with a hole is an error, never an unsound impl. A generic struct, whose
/// size depends on its arguments, needs a layout that rules padding out: `#[repr(transparent)]`,
/// `#[repr(packed)]`, or `#[repr(C)]` with at most one field and no `align`.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// #[derive(FromBytes, IntoBytes)]
/// #[repr(C)]
/// struct Descriptor {
///     address: u64,
///     length: u32,
///     flags: u16,
///     reserved: u16,
/// }
///
/// fn byte_len<T: IntoBytes>(value: &T) -> usize {
///     size_of_val(value)
/// }
/// assert_eq!(byte_len(&Descriptor { address: 0, length: 0, flags: 0, reserved: 0 }), 16);
/// ```
#[proc_macro_derive(IntoBytes)]
pub fn derive_into_bytes(item: TokenStream) -> TokenStream {
    match bytes::expand(item, bytes::Trait::IntoBytes) {
        Ok(expansion) => expansion,
        Err(error) => error.into_compile_error(),
    }
}

/// Marks the structurally pinned fields (`#[pin]`) of a struct, for `pin_init!` and `project()`.
///
/// Linux 7.3's `pin_init::pin_data`: use it as `pin_init::pin_data`, where it is documented
/// (`kernel-core-pin-init`); `#[pin_data(PinnedDrop)]` for a struct with a `#[pinned_drop]`.
///
/// # Examples
///
/// ```
/// use core::marker::PhantomPinned;
/// use pin_init::{pin_data, pin_init, stack_pin_init};
///
/// #[pin_data]
/// struct Waiter {
///     #[pin]
///     link: PhantomPinned,
///     id: u32,
/// }
///
/// stack_pin_init!(let waiter = pin_init!(Waiter { link: PhantomPinned, id: 1 }));
/// assert_eq!(*waiter.as_mut().project().id, 1);
/// ```
#[proc_macro_attribute]
pub fn pin_data(attr: TokenStream, item: TokenStream) -> TokenStream {
    pin_init::pin_data(attr, item)
}

/// Implements `PinnedDrop` for a `#[pin_data(PinnedDrop)]` struct: its `drop` gets the value
/// pinned.
///
/// Linux 7.3's `pin_init::pinned_drop`, documented there (`kernel-core-pin-init`).
///
/// # Examples
///
/// ```
/// use core::pin::Pin;
/// use pin_init::{pin_data, pinned_drop, PinnedDrop};
///
/// #[pin_data(PinnedDrop)]
/// struct Registration {
///     id: u32,
/// }
///
/// #[pinned_drop]
/// impl PinnedDrop for Registration {
///     fn drop(self: Pin<&mut Self>) {
///         assert_eq!(self.id, 7);
///     }
/// }
///
/// drop(Registration { id: 7 });
/// ```
#[proc_macro_attribute]
pub fn pinned_drop(attr: TokenStream, item: TokenStream) -> TokenStream {
    pin_init::pinned_drop(attr, item)
}

/// Derives `pin_init::Zeroable` for a struct or union whose fields are all `Zeroable`.
///
/// Linux 7.3's `pin_init::Zeroable` derive, documented there (`kernel-core-pin-init`).
///
/// # Examples
///
/// ```
/// use pin_init::Zeroable;
///
/// #[derive(Zeroable)]
/// struct Counters<T> {
///     hits: u64,
///     last: T,
/// }
///
/// assert_eq!(Counters::<u8>::zeroed().hits, 0);
/// ```
#[proc_macro_derive(Zeroable)]
pub fn derive_zeroable(item: TokenStream) -> TokenStream {
    pin_init::derive_zeroable(item, false)
}

/// Derives `pin_init::Zeroable` for a struct or union where all of its fields are `Zeroable`,
/// and nothing where one is not.
///
/// Linux 7.3's `pin_init::MaybeZeroable` derive, documented there (`kernel-core-pin-init`).
///
/// # Examples
///
/// ```
/// use pin_init::{MaybeZeroable, Zeroable};
///
/// #[derive(MaybeZeroable)]
/// struct Wrapper<T>(T);
///
/// fn zeroed<T: Zeroable>() -> T {
///     T::zeroed()
/// }
/// assert_eq!(zeroed::<Wrapper<u16>>().0, 0); // `Wrapper<&u16>` is not `Zeroable`.
/// ```
#[proc_macro_derive(MaybeZeroable)]
pub fn derive_maybe_zeroable(item: TokenStream) -> TokenStream {
    pin_init::derive_zeroable(item, true)
}

/// An initializer of a struct, in place and pinned, field by field.
///
/// Linux 7.3's `pin_init::pin_init!`, documented there (`kernel-core-pin-init`).
///
/// # Examples
///
/// ```
/// use pin_init::{pin_data, pin_init, stack_pin_init};
///
/// #[pin_data]
/// struct Pair {
///     a: u32,
///     b: u32,
/// }
///
/// stack_pin_init!(let pair = pin_init!(Pair { a: 1, b: *a + 1 }));
/// assert_eq!(pair.b, 2);
/// ```
#[proc_macro]
pub fn pin_init(input: TokenStream) -> TokenStream {
    pin_init::init(input, true)
}

/// An initializer of a struct, in place (not pinned), field by field.
///
/// Linux 7.3's `pin_init::init!`, documented there (`kernel-core-pin-init`).
///
/// # Examples
///
/// ```
/// use pin_init::{init, init_zeroed, Init};
///
/// struct Table {
///     rows: [u64; 64],
///     used: usize,
/// }
///
/// fn empty() -> impl Init<Table> {
///     init!(Table { rows <- init_zeroed(), used: 0 })
/// }
/// # let _ = empty();
/// ```
#[proc_macro]
pub fn init(input: TokenStream) -> TokenStream {
    pin_init::init(input, false)
}

/// Declares a kernel module: its type, its name and what `modinfo` shows of it.
///
/// Linux 7.3's `module!`, with its syntax and its checks. The keys come in this order, each
/// followed by a comma:
///
/// - `type`: the module's type, which implements `kernel_core::Module` or
///   `kernel_core::InPlaceModule` (required);
/// - `name`: its name, an ASCII string literal (required);
/// - `authors`: ASCII string literals in brackets;
/// - `description`: a string literal;
/// - `license`: an ASCII string literal (required);
/// - `alias`, `firmware`, `imports_ns`: ASCII string literals in brackets;
/// - `params`: in braces, `name: type { default: expr, description: "...", }` for each
///   parameter, where `type` is `i8` to `u64`, `isize`, `usize` or `bool`; the module reads it
///   as `module_parameters::name.value()`.
///
/// It defines `__LOG_PREFIX`, `LocalModule` (the type), the type's `ModuleMetadata` and the
/// `module_parameters` module, as Linux 7.3's does. In the kernel it makes the module that the
/// kernel loads; on the host, the one that `kernel_core::extras::module::load` loads (see
/// `kernel_core::module`).
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// module! {
///     type: MyModule,
///     name: "my_kernel_module",
///     authors: ["Rust for Linux Contributors"],
///     description: "My very own kernel module!",
///     license: "GPL",
///     alias: ["alternate_module_name"],
///     params: {
///         my_parameter: i64 {
///             default: 1,
///             description: "This parameter has a default of 1",
///         },
///     },
/// }
///
/// struct MyModule(i64);
///
/// impl kernel_core::Module for MyModule {
///     fn init(_module: &'static ThisModule) -> Result<Self> {
///         pr_info!("i64 param is: {}\n", module_parameters::my_parameter.value());
///         Ok(Self(module_parameters::my_parameter.value()))
///     }
/// }
///
/// # fn main() {
/// use kernel_core::ModuleMetadata;
/// assert_eq!(MyModule::NAME, c"my_kernel_module");
/// assert_eq!(__LOG_PREFIX, b"my_kernel_module\0");
/// assert_eq!(module_parameters::my_parameter.value(), 1);
/// # let _: Option<LocalModule> = None;
/// # }
/// ```
#[proc_macro]
pub fn module(input: TokenStream) -> TokenStream {
    match module::expand(input) {
        Ok(expansion) => expansion,
        Err(error) => error.into_compile_error(),
    }
}

/// Declares or implements a trait whose methods C calls through a table of function pointers,
/// where a method a driver does not implement is `NULL`.
///
/// Linux 7.3's `#[vtable]`. On a trait, it adds `const HAS_<METHOD>: bool = false;` for each
/// method, `const USE_VTABLE_ATTR: ();` and, unless the trait has it, `type OwnerModule:
/// ModuleMetadata;`. On an impl, which must have `#[vtable]` too (without it the impl lacks
/// `USE_VTABLE_ATTR` and fails to build), it sets `HAS_<METHOD>` to `true` for each method the
/// impl defines (unless the impl sets it) and `type OwnerModule = crate::LocalModule;` (the
/// type of the crate's `module!`) unless the impl sets it. A method a driver need not implement
/// has a default body that is never called: `build_error!(VTABLE_DEFAULT_ERROR)`.
///
/// # Examples
///
/// ```
/// use kernel_core::error::VTABLE_DEFAULT_ERROR;
/// use kernel_core::prelude::*;
///
/// # struct LocalModule;
/// # impl kernel_core::ModuleMetadata for LocalModule {
/// #     const NAME: &'static kernel_core::str::CStr = c"vtable_doctest";
/// #     // SAFETY: A doctest has no `THIS_MODULE`.
/// #     const THIS_MODULE: kernel_core::ThisModule = unsafe {
/// #         kernel_core::ThisModule::from_ptr(core::ptr::null_mut())
/// #     };
/// # }
/// # fn main() {
/// #[vtable]
/// pub trait Operations: Send + Sync + Sized {
///     fn foo(&self) -> Result<()> {
///         build_error!(VTABLE_DEFAULT_ERROR)
///     }
///
///     fn bar(&self) -> Result<()> {
///         build_error!(VTABLE_DEFAULT_ERROR)
///     }
/// }
///
/// struct Foo;
///
/// #[vtable]
/// impl Operations for Foo {
///     fn foo(&self) -> Result<()> {
///         Err(EINVAL)
///     }
/// }
///
/// assert_eq!(<Foo as Operations>::HAS_FOO, true);
/// assert_eq!(<Foo as Operations>::HAS_BAR, false);
/// # }
/// ```
#[proc_macro_attribute]
pub fn vtable(attr: TokenStream, item: TokenStream) -> TokenStream {
    match vtable::expand(attr, item) {
        Ok(expansion) => expansion,
        Err(error) => error.into_compile_error(),
    }
}

/// Exports a function that C code calls through a declaration in a header.
///
/// Linux 7.3's `#[export]`: the function's name is not mangled, and in the kernel its type is
/// checked against the header's declaration (through `bindings`, which includes it). The
/// function must be `extern "C"`. On the host there are no headers: it is only unmangled.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
///
/// /// `size_t my_driver_max_len(void);` in the driver's header.
/// #[export]
/// pub extern "C" fn my_driver_max_len() -> usize {
///     4096
/// }
///
/// assert_eq!(my_driver_max_len(), 4096);
/// ```
#[proc_macro_attribute]
pub fn export(attr: TokenStream, item: TokenStream) -> TokenStream {
    match export::expand(attr, item) {
        Ok(expansion) => expansion,
        Err(error) => error.into_compile_error(),
    }
}
