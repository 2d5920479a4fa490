// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Safe in-place and pinned initialisation: Linux 7.3's `pin_init` crate, for the host and for
//! Linux 6.12.
//!
//! Kernel counterpart: `rust/pin-init/` (Linux 7.3): `src/lib.rs`, which the kernel builds as
//! the crate `pin_init` and which every module crate reaches as `pin_init::`, and its proc
//! macros, `internal/src/` (`pin_init_internal`, written with `syn` and `quote`). Linux 6.12 has
//! no such crate: its initialisers are `macro_rules!` in `kernel::init`, its `Zeroable` has no
//! `zeroed()`, and `..Zeroable::zeroed()` was since renamed `..Zeroable::init_zeroed()`. This
//! crate is 7.3's API, written from scratch, so that one driver source builds on every kernel
//! and under `cargo test` (and Miri), with the same pinning guarantees:
//!
//! - **on the host** it is a crate of its own, which drivers depend on under the kernel's name,
//!   and which kernel-core's `alloc` and `sync` build on;
//! - **in a module built for Linux 6.12**, `kbuild/kernel-core.mk` builds it and passes it as
//!   `--extern pin_init=...`; on Linux 7.2 and 7.3 the module gets the kernel's own crate.
//!
//! Its macros (`#[pin_data]`, `#[pinned_drop]`, `#[derive(Zeroable)]`,
//! `#[derive(MaybeZeroable)]`, `pin_init!`, `init!`) come from `kernel-core-macros`, written
//! against `proc_macro` alone so that Kbuild can build them, and are re-exported here under
//! 7.3's names. Their expansions name the crate `::pin_init`, as 7.3's do.
//!
//! # Depending on it
//!
//! ```toml
//! [dependencies]
//! pin_init = { package = "kernel-core-pin-init", version = "=0.1.0" }
//! ```
//!
//! The dependency must be named `pin_init` (the macros' expansions refer to `::pin_init::...`),
//! so that `use pin_init::Zeroable;` reads as it does in Linux 7.3. A crate that names it
//! otherwise, such as this crate's own doctests and tests, adds
//! `extern crate kernel_core_pin_init as pin_init;` at its root.
//!
//! # Overview
//!
//! An initialiser is a value that knows how to write a `T` into memory it is handed, and may
//! fail with an `E`: [`PinInit<T, E>`] when the memory is pinned (it may not move afterwards,
//! so self-referential values and kernel locks, whose C struct is on a list, can live there),
//! [`Init<T, E>`] when it need not be. A `T` itself initialises a `T`, as does a `Result<T, E>`.
//!
//! - [`pin_init!`] and [`init!`] build initialisers of structs, field by field, with the
//!   syntax of a struct expression (`field <- initialiser` initialises a field in place);
//!   fields initialised before an error or a panic are dropped again;
//! - [`#[pin_data]`](macro@pin_data) says which fields are structurally pinned (`#[pin]`), and
//!   [`#[pinned_drop]`](macro@pinned_drop) gives such a struct a destructor that gets it pinned;
//! - [`Zeroable`] types may be initialised with zero bytes ([`init_zeroed`], or
//!   `..Zeroable::init_zeroed()` to end a `pin_init!`), and derive it;
//! - memory takes an initialiser with [`InPlaceWrite`], the kernel's `KBox::pin_init` and
//!   `Arc::pin_init` (`kernel::init::InPlaceInit`), or [`stack_pin_init!`] on the stack;
//! - [`pin_init_from_closure`] and the other functions build initialisers by hand.
//!
//! # Examples
//!
//! ```
//! # extern crate kernel_core_pin_init as pin_init;
//! use core::{cell::Cell, marker::PhantomPinned, pin::Pin};
//! use pin_init::{pin_data, pin_init, pinned_drop, stack_try_pin_init, PinInit};
//!
//! #[derive(Debug, PartialEq)]
//! struct NoSlot;
//!
//! /// A waiter on a queue: it must not move while queued.
//! #[pin_data(PinnedDrop)]
//! struct Waiter<'a> {
//!     #[pin]
//!     _pin: PhantomPinned,
//!     index: usize,
//!     queued: &'a Cell<usize>,
//! }
//!
//! impl<'a> Waiter<'a> {
//!     fn new(queued: &'a Cell<usize>, free: Option<usize>) -> impl PinInit<Self, NoSlot> {
//!         pin_init!(Self {
//!             index: free.ok_or(NoSlot)?,
//!             queued,
//!             _pin: PhantomPinned,
//!             _: {
//!                 queued.set(queued.get() + 1);
//!             },
//!         }? NoSlot)
//!     }
//! }
//!
//! #[pinned_drop]
//! impl PinnedDrop for Waiter<'_> {
//!     fn drop(self: Pin<&mut Self>) {
//!         self.queued.set(self.queued.get() - 1);
//!     }
//! }
//!
//! let queued = Cell::new(0);
//! {
//!     stack_try_pin_init!(let waiter = Waiter::new(&queued, Some(3)));
//!     assert_eq!(waiter.unwrap().index, 3);
//!     assert_eq!(queued.get(), 1);
//! }
//! assert_eq!(queued.get(), 0);
//!
//! stack_try_pin_init!(let none = Waiter::new(&queued, None));
//! assert_eq!(none.err(), Some(NoSlot));
//! ```
//!
//! By hand:
//!
//! ```
//! use core::mem::MaybeUninit;
//! # extern crate kernel_core_pin_init as pin_init;
//! use pin_init::{InPlaceWrite, Init};
//!
//! // Two initialisers of a `[u32; 4]`: the value itself, and all zero bits.
//! fn table(fill: bool) -> impl Init<[u32; 4]> {
//!     pin_init::init_scope(move || Ok(if fill { [7; 4] } else { pin_init::zeroed() }))
//! }
//!
//! static mut SLOT: MaybeUninit<[u32; 4]> = MaybeUninit::uninit();
//! let slot: &'static mut MaybeUninit<[u32; 4]> = unsafe { &mut *core::ptr::addr_of_mut!(SLOT) };
//! let Ok(table) = slot.write_init(table(true));
//! assert_eq!(*table, [7; 4]);
//! ```
//!
//! # Differences from Linux 7.3's crate
//!
//! None in behaviour: the same items at the same paths, the same macro syntax, the same
//! expansions (generated types, checks, drop order, hygiene). What differs:
//!
//! - [`raw_try_init`] accepts an unsized `T` (7.3's requires `T: Sized`): the slots the
//!   macros use call it for any field, where 7.3 calls `PinInit::__init` directly, a method
//!   Linux 6.12's trait names `__pinned_init`.
//! - Diagnostics: [`PinInit`], [`Init`] and [`Zeroable`] say what is missing when a type does
//!   not implement them (`#[diagnostic::on_unimplemented]`); the macros' own syntax errors are
//!   worded as this crate's, not `syn`'s; and where 7.3's macros panic or produce code that
//!   does not compile, these refuse the input with an error that says why: `#[pin_data]` on
//!   a tuple struct, a field named `slot` (the expansion's own pointer, which the field's
//!   binding would hide) or a raw identifier (`r#type`) in `pin_init!` and `init!`.
//! - No `std`, `alloc` or `unsafe-pinned` features: the kernel builds 7.3's crate without
//!   them, so `InPlaceInit` is the kernel's (`kernel::init`), as is `KBox::pin_init`.
//! - Without `syn`, the macros find the end of each field's expression at the first comma
//!   outside brackets, closure parameters, generic arguments (`::<A, B>`, `<A as B>::`) and
//!   types after `as` or `->`: where Rust's grammar has a comma at the top level of an
//!   expression.

// Kbuild already passes `-Zcrate-attr=no_std`; a second one would warn.
#![cfg_attr(not(kernel), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]

use core::{cell::UnsafeCell, mem::MaybeUninit, pin::Pin};

// The macros' expansions name `::pin_init::...`; this makes those paths work in this crate too.
#[allow(unused_extern_crates)]
extern crate self as pin_init;

#[doc(hidden)]
pub mod __internal;

// The one place where the host and a Linux 6.12 module differ: whose `PinInit` and `Init` these
// are (kernel-core's own, or `kernel::init`'s), with the closure constructors and the
// implementations that need the traits' method.
#[cfg_attr(kernel, path = "env/kernel.rs")]
#[cfg_attr(not(kernel), path = "env/host.rs")]
mod env;

pub use env::{
    init_array_from_fn, init_from_closure, pin_init_array_from_fn, pin_init_from_closure, raw_init,
    raw_try_init, uninit, ChainInit, ChainPinInit, InPlaceWrite, Init, PinInit,
};

mod macros;

/// `InPlaceInit` and `InPlaceWrite` for `std`'s `Box` and `Arc`.
#[cfg(all(feature = "std", not(kernel)))]
mod std_alloc;
#[cfg(all(feature = "std", not(kernel)))]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use std_alloc::{AllocError, InPlaceInit};
mod zeroable;

pub use zeroable::{init_zeroed, zeroed, Zeroable, ZeroableOption};

/// Declares which fields of a struct are structurally pinned, for [`pin_init!`] and
/// `project()`.
///
/// Put `#[pin_data]` on a struct with named fields and `#[pin]` on each field that must stay
/// pinned while the struct is (a lock, a list head, anything `!Unpin` whose address matters).
/// [`pin_init!`] then asks a [`PinInit`] for those fields and accepts an [`Init`] or a value
/// for the others. The macro also generates:
///
/// - `fn project(self: Pin<&mut Self>) -> <Name>Projection<'_>`, a struct of the same fields,
///   `Pin<&mut T>` for the pinned ones and `&mut T` for the others;
/// - `Unpin` for the struct only when every pinned field is `Unpin`;
/// - a `Drop` that calls your [`PinnedDrop`] when written `#[pin_data(PinnedDrop)]` (with an
///   `impl PinnedDrop` under [`#[pinned_drop]`](macro@pinned_drop)); without it, an `impl
///   Drop` for the struct does not compile, since `Drop::drop` gets `&mut Self` and could move
///   a pinned field out.
///
/// Fields may have `#[cfg]`s. A field of type `PhantomPinned` without `#[pin]` gets a warning
/// (it would not make the struct `!Unpin`). Generics, bounds and where clauses are kept.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use core::{marker::PhantomPinned, pin::Pin};
/// use pin_init::{pin_data, pin_init, stack_pin_init};
///
/// #[pin_data]
/// struct Device<T> {
///     #[pin]
///     queue: Queue,
///     stats: T,
/// }
///
/// #[pin_data]
/// struct Queue {
///     #[pin]
///     _pin: PhantomPinned,
///     depth: usize,
/// }
///
/// stack_pin_init!(let dev = pin_init!(Device {
///     queue <- pin_init!(Queue { _pin: PhantomPinned, depth: 8 }),
///     stats: 0_u64,
/// }));
/// let fields = dev.project();
/// let queue: Pin<&mut Queue> = fields.queue;
/// *fields.stats += 1;
/// assert_eq!(queue.depth, 8);
/// ```
///
/// With a pinned destructor:
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use core::{pin::Pin, sync::atomic::{AtomicUsize, Ordering}};
/// use pin_init::{pin_data, pinned_drop, PinnedDrop};
///
/// static RELEASED: AtomicUsize = AtomicUsize::new(0);
///
/// #[pin_data(PinnedDrop)]
/// struct Irq {
///     line: u32,
/// }
///
/// #[pinned_drop]
/// impl PinnedDrop for Irq {
///     fn drop(self: Pin<&mut Self>) {
///         RELEASED.fetch_add(self.line as usize, Ordering::Relaxed);
///     }
/// }
///
/// drop(Irq { line: 5 });
/// assert_eq!(RELEASED.load(Ordering::Relaxed), 5);
/// ```
pub use kernel_core_macros::pin_data;

/// Implements [`PinnedDrop`] for a `#[pin_data(PinnedDrop)]` struct, safely.
///
/// Write `impl PinnedDrop for Type { fn drop(self: Pin<&mut Self>) { ... } }` under it (the
/// trait may be named `PinnedDrop` or `pin_init::PinnedDrop`, with generics on the impl as
/// needed). The macro makes it the `unsafe impl` of the trait, whose `drop` takes a token that
/// only the `Drop` generated by [`#[pin_data(PinnedDrop)]`](macro@pin_data) can make: nothing
/// else can call it. An `unsafe impl`, `impl !PinnedDrop` or an inherent impl is an error.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use core::{cell::Cell, pin::Pin};
/// use pin_init::{pin_data, pinned_drop, PinnedDrop};
///
/// #[pin_data(PinnedDrop)]
/// struct Guard<'a> {
///     released: &'a Cell<bool>,
/// }
///
/// #[pinned_drop]
/// impl PinnedDrop for Guard<'_> {
///     fn drop(self: Pin<&mut Self>) {
///         self.released.set(true);
///     }
/// }
///
/// let released = Cell::new(false);
/// drop(Guard { released: &released });
/// assert!(released.get());
/// ```
pub use kernel_core_macros::pinned_drop;

/// Derives [`Zeroable`] for a struct or union whose fields are all [`Zeroable`].
///
/// Every type parameter gets a `Zeroable` bound; a field whose type is not `Zeroable` is a
/// compile error at that field. Enums are refused.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use pin_init::Zeroable;
///
/// #[derive(Zeroable)]
/// pub struct Descriptor {
///     pub(crate) addr: u64,
///     buf: *mut u8,
///     len: usize,
/// }
///
/// #[derive(Zeroable)]
/// pub union Word {
///     signed: i64,
///     unsigned: u64,
/// }
///
/// #[derive(Zeroable)]
/// struct Pair<T>(T, T);
///
/// assert_eq!(Descriptor::zeroed().len, 0);
/// assert_eq!(unsafe { Word::zeroed().unsigned }, 0);
/// assert_eq!(Pair::<u8>::zeroed().1, 0);
/// ```
pub use kernel_core_macros::Zeroable;

/// Derives [`Zeroable`] for a struct or union exactly when all of its fields are [`Zeroable`]:
/// unlike [`macro@Zeroable`], a field that is not makes no error, only no impl.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use pin_init::{MaybeZeroable, Zeroable};
///
/// // Implements `Zeroable`.
/// #[derive(MaybeZeroable)]
/// pub struct Counters {
///     hits: u64,
///     misses: u64,
/// }
///
/// // Does not implement `Zeroable`: a reference is never null.
/// #[derive(MaybeZeroable)]
/// pub struct Named {
///     name: &'static str,
///     hits: u64,
/// }
///
/// // For a generic type, wherever its fields are.
/// #[derive(MaybeZeroable)]
/// pub struct Cell<T>(T);
///
/// fn zeroed<T: Zeroable>() -> T {
///     T::zeroed()
/// }
/// assert_eq!(zeroed::<Counters>().misses, 0);
/// assert_eq!(zeroed::<Cell<u32>>().0, 0);
/// # let _ = Named { name: "", hits: 0 };
/// ```
pub use kernel_core_macros::MaybeZeroable;

/// An initializer of a struct, in place and pinned: [`impl PinInit<T, E>`](PinInit), written
/// as a struct expression.
///
/// The struct needs [`#[pin_data]`](macro@pin_data). The error type `E` is
/// [`Infallible`](core::convert::Infallible) unless the initializer ends with `? ErrorType` (or a wrapping macro gives
/// another default with `#[default_error(ErrorType)]` in front, as the kernel's
/// `try_pin_init!` does). The fields are written as in a struct expression, with these forms:
///
/// - `field: value` (or `field` for `field: field`): the value is moved into the field, which
///   may be `#[pin]` (a value that was movable until now has nothing pinned yet);
/// - `field <- initializer`: the field is initialized in place by an initializer of its type,
///   a [`PinInit`] if the field is `#[pin]`, else an [`Init`] (values are both);
/// - `_: { code }`: runs the code at that point;
/// - `#[cfg(...)]` on any of them;
/// - `..Zeroable::init_zeroed()` at the end: the struct (which must be [`Zeroable`]) is zeroed
///   first, and the fields not named stay zero.
///
/// Fields are initialized in the order written, and each one's name is bound, for the
/// expressions after it, to the field in place (`&mut T`, or `Pin<&mut T>` if pinned). With
/// `&this in` in front, `this` is a [`NonNull`](core::ptr::NonNull) to the struct being
/// initialized (for pointers into itself; never to read a field not yet initialized). Every
/// field must be named once, unless the struct was zeroed; an unaligned (packed) field is an
/// error.
///
/// An expression may return early with `?` (the error converted with `From`), and an
/// initializer may fail or panic: the fields already initialized are then dropped in place, in
/// reverse order, and the memory is left uninitialized.
///
/// As in Linux 7.3, the expressions see the expansion's pointer to the struct, `slot`: a field
/// may not be named `slot` (an error says so), nor with a raw identifier.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use core::{convert::Infallible, marker::PhantomPinned};
/// use pin_init::{pin_data, pin_init, stack_try_pin_init, PinInit, Zeroable};
///
/// #[derive(Debug, PartialEq)]
/// enum Error {
///     TooSmall,
/// }
///
/// #[pin_data]
/// #[derive(Zeroable)]
/// struct Ring {
///     #[pin]
///     _pin: PhantomPinned,
///     // Points into `buf`.
///     head: *mut u8,
///     buf: [u8; 16],
///     size: usize,
///     flags: u32,
/// }
///
/// impl Ring {
///     fn new(size: usize) -> impl PinInit<Self, Error> {
///         pin_init!(&this in Self {
///             size: if size < 4 { return Err(Error::TooSmall) } else { size },
///             buf: [0; 16],
///             // SAFETY: `buf` is initialized; only a pointer to it is made.
///             head: unsafe { (&raw mut (*this.as_ptr()).buf).cast() },
///             _pin: PhantomPinned,
///             // `flags` is left zero.
///             ..Zeroable::init_zeroed()
///         }? Error)
///     }
/// }
///
/// stack_try_pin_init!(let ring = Ring::new(8));
/// let ring = ring.unwrap();
/// assert_eq!((ring.size, ring.flags), (8, 0));
/// assert_eq!(ring.head.cast_const(), ring.buf.as_ptr());
///
/// stack_try_pin_init!(let small = Ring::new(2));
/// assert_eq!(small.err(), Some(Error::TooSmall));
///
/// // Initializers compose: a field of a pinned struct, initialized in place.
/// #[pin_data]
/// struct Device {
///     #[pin]
///     rx: Ring,
///     id: u32,
/// }
///
/// fn device(id: u32) -> impl PinInit<Device, Error> {
///     pin_init!(Device { rx <- Ring::new(16), id }? Error)
/// }
/// # stack_try_pin_init!(let dev = device(1));
/// # assert_eq!(dev.unwrap().id, 1);
/// # let _: Option<Infallible> = None;
/// ```
pub use kernel_core_macros::pin_init;

/// An initializer of a struct, in place, not pinned: [`impl Init<T, E>`](Init), written as a
/// struct expression.
///
/// The syntax and the guarantees are those of [`pin_init!`], but no field is pinned: every
/// `<-` takes an [`Init`], and the struct needs no `#[pin_data]`. Use it for values that may
/// move once initialized, too big for the stack, for example.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use core::mem::MaybeUninit;
/// use pin_init::{init, init_zeroed, Init, InPlaceWrite};
///
/// struct Log {
///     lines: [[u8; 80]; 128],
///     next: usize,
/// }
///
/// impl Log {
///     fn new() -> impl Init<Self> {
///         init!(Self {
///             lines <- init_zeroed(),
///             next: 0,
///         })
///     }
/// }
///
/// static mut LOG: MaybeUninit<Log> = MaybeUninit::uninit();
/// // SAFETY: Nothing else refers to `LOG`.
/// let log: &'static mut MaybeUninit<Log> = unsafe { &mut *core::ptr::addr_of_mut!(LOG) };
/// let Ok(log) = log.write_init(Log::new());
/// assert_eq!((log.next, log.lines[127][79]), (0, 0));
/// ```
pub use kernel_core_macros::init;

/// Turns a pinned initialiser of `T` into one of `U`, writing through a pointer cast.
///
/// # Safety
///
/// A `T` written at a `U`'s address must be a valid `U`, with `U`'s pinning invariants.
///
/// # Examples
///
/// ```
/// use core::cell::UnsafeCell;
/// # extern crate kernel_core_pin_init as pin_init;
///
/// // SAFETY: `UnsafeCell<u32>` has the layout of `u32`.
/// let init = unsafe { pin_init::cast_pin_init::<u32, UnsafeCell<u32>, _>(9_u32) };
/// let mut slot = core::mem::MaybeUninit::<UnsafeCell<u32>>::uninit();
/// // SAFETY: `slot` is valid for writes and does not move.
/// unsafe { pin_init::raw_init(slot.as_mut_ptr(), init) };
/// // SAFETY: initialised just above.
/// assert_eq!(unsafe { slot.assume_init() }.into_inner(), 9);
/// ```
#[inline]
pub const unsafe fn cast_pin_init<T, U, E>(init: impl PinInit<T, E>) -> impl PinInit<U, E> {
    // SAFETY: The slot of a `U` is one of a `T` by the caller's promise; `init` upholds the
    // contract for it.
    unsafe { pin_init_from_closure(|slot: *mut U| raw_try_init(slot.cast::<T>(), init)) }
}

/// Turns an initialiser of `T` into one of `U`, writing through a pointer cast.
///
/// # Safety
///
/// A `T` written at a `U`'s address must be a valid `U`.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// // SAFETY: `Wrapping<u8>` has the layout of `u8`.
/// let init = unsafe { pin_init::cast_init::<u8, core::num::Wrapping<u8>, _>(255_u8) };
/// let mut slot = core::mem::MaybeUninit::uninit();
/// // SAFETY: `slot` is valid for writes.
/// unsafe { pin_init::raw_init(slot.as_mut_ptr(), init) };
/// // SAFETY: initialised just above.
/// assert_eq!(unsafe { slot.assume_init() } + core::num::Wrapping(1), core::num::Wrapping(0));
/// ```
#[inline]
pub const unsafe fn cast_init<T, U, E>(init: impl Init<T, E>) -> impl Init<U, E> {
    // SAFETY: As `cast_pin_init`, and `init` does not rely on pinning.
    unsafe { init_from_closure(|slot: *mut U| raw_try_init(slot.cast::<T>(), init)) }
}

/// A pinned initialiser whose own initialiser is made only when it runs, by `make_init`, which
/// may fail first (for example, an allocation the value needs).
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// let init = pin_init::pin_init_scope(|| {
///     let base: u32 = "40".parse().map_err(|_| "not a number")?;
///     // The initialiser it makes must have the same error type: a `Result` is one.
///     Ok(Ok::<u32, &str>(base + 2))
/// });
/// let mut slot = core::mem::MaybeUninit::<u32>::uninit();
/// // SAFETY: `slot` is valid for writes and does not move.
/// unsafe { pin_init::raw_try_init(slot.as_mut_ptr(), init) }.unwrap();
/// // SAFETY: initialised just above.
/// assert_eq!(unsafe { slot.assume_init() }, 42);
/// ```
#[inline]
pub fn pin_init_scope<T, E, F, I>(make_init: F) -> impl PinInit<T, E>
where
    F: FnOnce() -> Result<I, E>,
    I: PinInit<T, E>,
{
    // SAFETY: On `make_init`'s error nothing was written; otherwise `init` upholds the contract
    // for the slot it is handed, which is this one.
    unsafe { pin_init_from_closure(move |slot: *mut T| raw_try_init(slot, make_init()?)) }
}

/// An initialiser whose own initialiser is made only when it runs, by `make_init`.
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// let init = pin_init::init_scope(|| Ok::<_, ()>(Ok::<[u8; 2], ()>([7; 2])));
/// let mut slot = core::mem::MaybeUninit::<[u8; 2]>::uninit();
/// // SAFETY: `slot` is valid for writes.
/// unsafe { pin_init::raw_try_init(slot.as_mut_ptr(), init) }.unwrap();
/// // SAFETY: initialised just above.
/// assert_eq!(unsafe { slot.assume_init() }, [7; 2]);
/// ```
#[inline]
pub fn init_scope<T, E, F, I>(make_init: F) -> impl Init<T, E>
where
    F: FnOnce() -> Result<I, E>,
    I: Init<T, E>,
{
    // SAFETY: As `pin_init_scope`, and `init` does not rely on pinning.
    unsafe { init_from_closure(move |slot: *mut T| raw_try_init(slot, make_init()?)) }
}

/// The drop of a `#[pin_data(PinnedDrop)]` type, which gets its value pinned: implement it with
/// `#[pinned_drop]`, never by hand.
///
/// # Safety
///
/// Only `#[pinned_drop]` may implement it; only the `Drop` that `#[pin_data]` generates may call
/// [`drop`](PinnedDrop::drop) (it alone can make an [`OnlyCallFromDrop`](__internal::OnlyCallFromDrop)).
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use core::{cell::Cell, pin::Pin};
/// use pin_init::{pin_data, pinned_drop};
///
/// #[pin_data(PinnedDrop)]
/// struct Counted<'a> {
///     live: &'a Cell<u32>,
/// }
///
/// #[pinned_drop]
/// impl PinnedDrop for Counted<'_> {
///     fn drop(self: Pin<&mut Self>) {
///         self.live.set(self.live.get() - 1);
///     }
/// }
///
/// let live = Cell::new(1);
/// drop(Counted { live: &live });
/// assert_eq!(live.get(), 0);
/// ```
pub unsafe trait PinnedDrop: __internal::HasPinData {
    /// Drops the pinned value's own resources; its fields are dropped afterwards.
    fn drop(self: Pin<&mut Self>, only_call_from_drop: __internal::OnlyCallFromDrop);
}

/// A type that can be initialised in place of a `T`, which it wraps with the same layout:
/// `UnsafeCell<T>`, `MaybeUninit<T>`.
///
/// # Examples
///
/// ```
/// use core::cell::UnsafeCell;
/// # extern crate kernel_core_pin_init as pin_init;
/// use pin_init::Wrapper;
///
/// let init = <UnsafeCell<u8> as Wrapper<u8>>::pin_init(4_u8);
/// let mut slot = core::mem::MaybeUninit::<UnsafeCell<u8>>::uninit();
/// // SAFETY: `slot` is valid for writes and does not move.
/// unsafe { pin_init::raw_init(slot.as_mut_ptr(), init) };
/// // SAFETY: initialised just above.
/// assert_eq!(unsafe { slot.assume_init() }.into_inner(), 4);
/// ```
pub trait Wrapper<T> {
    /// The wrapper's initialiser, from its content's.
    fn pin_init<E>(value_init: impl PinInit<T, E>) -> impl PinInit<Self, E>;
}

impl<T> Wrapper<T> for UnsafeCell<T> {
    #[inline]
    fn pin_init<E>(value_init: impl PinInit<T, E>) -> impl PinInit<Self, E> {
        // SAFETY: `UnsafeCell<T>` is `repr(transparent)` over `T`.
        unsafe { cast_pin_init(value_init) }
    }
}

impl<T> Wrapper<T> for MaybeUninit<T> {
    #[inline]
    fn pin_init<E>(value_init: impl PinInit<T, E>) -> impl PinInit<Self, E> {
        // SAFETY: `MaybeUninit<T>` has the layout of `T`, and an initialised one is valid.
        unsafe { cast_pin_init(value_init) }
    }
}
