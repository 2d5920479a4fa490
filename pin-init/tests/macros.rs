// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The macros of the pin-init crate, on the host and under Miri: every syntax form of
//! `pin_init!` and `init!`, what is dropped when an initializer fails or panics, `PinnedDrop`,
//! pinning (a self-referential value stays where it was initialized; `init!` pins nothing;
//! `Unpin` follows the pinned fields), `project()`, and the `Zeroable` derives.
//!
//! Kernel counterpart: the examples and tests of `rust/pin-init/` (Linux 7.3), whose macros
//! these are. Run with `cargo test -p kernel-core-pin-init` and
//! `cargo +nightly miri test -p kernel-core-pin-init`.

#![allow(missing_docs)]
// The inputs exercise the macros' parsing with the forms clippy would rewrite: `cfg(all())`,
// operators whose precedence matters, a closure called where it is written, `as` casts, and
// bounds in both places.
#![allow(
    clippy::non_minimal_cfg,
    clippy::precedence,
    clippy::redundant_closure_call,
    clippy::cast_lossless,
    clippy::multiple_bound_locations
)]

// The macros' expansions name `::pin_init`, as drivers name this crate.
extern crate kernel_core_pin_init as pin_init;

use core::{
    cell::RefCell,
    convert::Infallible,
    marker::{PhantomData, PhantomPinned},
    mem::MaybeUninit,
    pin::Pin,
    ptr::NonNull,
};
use std::{panic, rc::Rc};

use pin_init::{
    assert_pinned, init, init_zeroed, pin_data, pin_init, pin_init_from_closure, pinned_drop,
    stack_pin_init, stack_try_pin_init, Init, MaybeZeroable, PinInit, Zeroable,
};

/// The order in which values were dropped, by name.
#[derive(Clone, Default)]
struct Log(Rc<RefCell<Vec<&'static str>>>);

impl Log {
    fn noisy(&self, name: &'static str) -> Noisy {
        Noisy {
            name,
            log: self.clone(),
        }
    }

    fn take(&self) -> Vec<&'static str> {
        core::mem::take(&mut *self.0.borrow_mut())
    }
}

/// Logs its name when dropped.
struct Noisy {
    name: &'static str,
    log: Log,
}

impl Drop for Noisy {
    fn drop(&mut self) {
        self.log.0.borrow_mut().push(self.name);
    }
}

/// An initializer of a `Noisy` that needs its memory pinned (it is no `Init`).
fn pinned_noisy(log: &Log, name: &'static str) -> impl PinInit<Noisy, Failure> {
    let value = log.noisy(name);
    // SAFETY: The closure initializes the slot and returns `Ok`.
    unsafe {
        pin_init_from_closure(move |slot: *mut Noisy| {
            slot.write(value);
            Ok(())
        })
    }
}

/// Panics instead of making a `Noisy`.
fn boom() -> Noisy {
    panic!("value")
}

/// An initializer that fails, or panics, without writing anything.
fn failing<T>(panics: bool) -> impl PinInit<T, Failure> {
    // SAFETY: The closure never initializes the slot, and fails.
    unsafe {
        pin_init_from_closure(move |_slot: *mut T| {
            assert!(!panics, "initializer panicked");
            Err(Failure)
        })
    }
}

#[derive(Debug, PartialEq, Eq)]
struct Failure;

#[derive(Debug, PartialEq, Eq)]
struct Wider(&'static str);

impl From<Failure> for Wider {
    fn from(_: Failure) -> Self {
        Wider("failure")
    }
}

impl From<Infallible> for Failure {
    fn from(never: Infallible) -> Self {
        match never {}
    }
}

/// Pins `init` in a fresh `Box`, as `KBox::pin_init` does in the kernel.
fn boxed<T, E>(init: impl PinInit<T, E>) -> Result<Pin<Box<T>>, E> {
    let mut memory = Box::<T>::new_uninit();
    // SAFETY: The memory is valid for a `T`, and a `Box`'s content never moves once pinned
    // below; on an error it is freed uninitialized, as `raw_try_init` allows.
    unsafe { pin_init::raw_try_init(memory.as_mut_ptr(), init)? };
    // SAFETY: Initialized just above.
    Ok(Box::into_pin(unsafe { memory.assume_init() }))
}

/// Moves `init`'s value into a fresh `Box`, which an `Init` allows.
fn moved<T, E>(init: impl Init<T, E>) -> Result<T, E> {
    let mut memory = MaybeUninit::<T>::uninit();
    // SAFETY: The memory is valid for a `T`; an `Init` does not need it pinned.
    unsafe { pin_init::raw_try_init(memory.as_mut_ptr(), init)? };
    // SAFETY: Initialized just above.
    Ok(unsafe { memory.assume_init() })
}

/// Whether a type implements a trait, for concrete types (by auto-ref: the `&Probe` impl is
/// only chosen when the one on `Probe` does not apply).
macro_rules! implements {
    ($ty:ty: $trait:path) => {{
        struct Probe<T: ?Sized>(PhantomData<T>);
        // One of the two traits is unused in each expansion: that is the answer.
        #[allow(dead_code)]
        trait Yes {
            fn check(&self) -> bool {
                true
            }
        }
        impl<T: ?Sized + $trait> Yes for Probe<T> {}
        #[allow(dead_code)]
        trait No {
            fn check(&self) -> bool {
                false
            }
        }
        impl<T: ?Sized> No for &Probe<T> {}
        (&Probe::<$ty>(PhantomData)).check()
    }};
}

// -------------------------------------------------------------------------------------------
// Syntax

#[pin_data]
struct Every {
    #[pin]
    pinned: Noisy,
    plain: u32,
    shorthand: u64,
    later: u32,
    #[cfg(all())]
    present: u8,
    #[cfg(any())]
    absent: u8,
}

#[test]
fn every_syntax_form() {
    let log = &Log::default();
    let shorthand = 40;
    let ran = &core::cell::Cell::new(false);
    let init = pin_init!(Every {
        pinned <- pinned_noisy(log, "pinned"),
        // An earlier field, by name: `Pin<&mut Noisy>` here, since `pinned` is `#[pin]`.
        plain: pinned.name.len() as u32,
        _: {
            ran.set(true);
        },
        shorthand,
        // `plain` is `&mut u32` to the field in place.
        later: {
            *plain += 1;
            *plain * 2
        },
        #[cfg(all())]
        present: 1,
        #[cfg(any())]
        absent: 2,
        #[cfg(any())]
        present: 3,
    }? Failure);
    let every = boxed(init).unwrap();
    assert!(ran.get());
    assert_eq!(every.pinned.name, "pinned");
    assert_eq!((every.plain, every.shorthand, every.later), (7, 40, 14));
    assert_eq!(every.present, 1);
    drop(every);
    assert_eq!(log.take(), ["pinned"]);
}

#[pin_data]
#[derive(Zeroable)]
struct Buffer {
    // Points into `bytes` once initialized.
    cursor: *mut u8,
    bytes: [u8; 8],
    len: usize,
    flags: u32,
    #[pin]
    _pin: PhantomPinned,
}

#[test]
fn this_and_zeroing() {
    let init = pin_init!(&this in Buffer {
        bytes: [0xaa; 8],
        // SAFETY: Only the address of `bytes`, which is initialized, is taken.
        cursor: unsafe { (&raw mut (*this.as_ptr()).bytes).cast::<u8>().add(2) },
        _pin: PhantomPinned,
        ..Zeroable::init_zeroed()
    });
    let buffer = boxed(init).unwrap();
    assert_eq!((buffer.len, buffer.flags), (0, 0));
    assert_eq!(buffer.cursor.cast_const(), buffer.bytes[2..].as_ptr());

    // Everything zero but one field.
    let buffer = boxed(pin_init!(Buffer {
        len: 3,
        ..Zeroable::init_zeroed()
    }))
    .unwrap();
    assert!(buffer.cursor.is_null());
    assert_eq!((buffer.bytes, buffer.len, buffer.flags), ([0; 8], 3, 0));
}

#[pin_data]
struct Generic<'a, T: Clone, U = u8, const N: usize = 2>
where
    U: Copy + Default,
{
    #[pin]
    items: [T; N],
    extra: U,
    name: &'a str,
    // `Self` in a field's type.
    next: Option<NonNull<Self>>,
}

impl<'a, T: Clone> Generic<'a, T> {
    fn new(item: T, name: &'a str) -> impl PinInit<Self> {
        pin_init!(Self {
            items: [item.clone(), item],
            extra: 9,
            name,
            next: None,
        })
    }
}

#[test]
fn generics_and_paths() {
    let name = String::from("generic");
    let generic = boxed(Generic::new(5_i16, &name)).unwrap();
    assert_eq!(
        (generic.items, generic.extra, generic.name),
        ([5; 2], 9, "generic")
    );
    assert!(generic.next.is_none());

    // A path with generic arguments, some of them with commas inside.
    let init = pin_init!(Generic::<'_, (u8, u8), u16, 3> {
        items: [(1, 2); 3],
        extra: core::mem::size_of::<(u32, u16)>() as u16,
        name: "turbofish",
        next: None,
    });
    let generic = boxed(init).unwrap();
    assert_eq!((generic.items[2], generic.extra), ((1, 2), 8));
}

#[pin_data]
struct Expressions {
    sum: fn(u32, u32) -> u32,
    pair: (u8, u8),
    list: Vec<(u8, u8)>,
    wide: u64,
    smaller: bool,
    label: &'static str,
    typed: fn(u32, u32) -> u32,
    option: Option<(u8, u8)>,
    both: bool,
    shifted: u32,
    array: [u8; 2],
}

#[test]
fn expressions_with_commas_and_angles() {
    let (a, b) = (1_u32, 2_u32);
    let init = pin_init!(Expressions {
        // Closure parameters, and a closure with a return type with generics.
        sum: |x, y| x + y,
        pair: <(u8, u8) as Default>::default(),
        list: (|| -> Vec<(u8, u8)> { Vec::<(u8, u8)>::from([(1, 2)]) })(),
        wide: a as u64 + (b as u64) << 1,
        smaller: a < b,
        label: if a > b { "a" } else { "b" },
        typed: move |x: u32, y: u32| -> u32 { x * y },
        option: Some::<(u8, u8)>((3, 4)),
        both: a < b && b > 1,
        shifted: a << 2 | b >> 1,
        array: <[u8; 2]>::default(),
    });
    let value = boxed(init).unwrap();
    assert_eq!((value.sum)(2, 3), 5);
    assert_eq!((value.pair, value.list.as_slice()), ((0, 0), &[(1, 2)][..]));
    assert_eq!((value.wide, value.smaller, value.label), (6, true, "b"));
    assert_eq!(((value.typed)(2, 3), value.option), (6, Some((3, 4))));
    assert_eq!((value.both, value.shifted, value.array), (true, 5, [0; 2]));
}

#[pin_data]
struct UnitPinned;

#[pin_data]
struct Empty {}

#[pin_data]
struct EmptyTuple();

#[pin_data]
struct Unsized<T: ?Sized> {
    len: usize,
    #[pin]
    items: T,
}

#[test]
fn empty_and_unsized_structs() {
    stack_pin_init!(let unit = pin_init!(UnitPinned {}));
    let _: UnitPinnedProjection<'_> = unit.project();
    stack_pin_init!(let empty = init!(Empty {}));
    let _: EmptyProjection<'_> = empty.project();
    stack_pin_init!(let tuple = pin_init!(EmptyTuple {}));
    let _: EmptyTupleProjection<'_> = tuple.project();

    // An unsized last field, reached through an unsizing coercion of a sized one.
    let mut sized = boxed(pin_init!(Unsized::<[u8; 3]> {
        len: 3,
        items: [1, 2, 3]
    }))
    .unwrap();
    let fields = sized.as_mut().project();
    let items: Pin<&mut [u8; 3]> = fields.items;
    assert_eq!((*fields.len, *items), (3, [1, 2, 3]));
    let mut unsized_box: Pin<Box<Unsized<[u8]>>> = sized;
    let fields = unsized_box.as_mut().project();
    let items: Pin<&mut [u8]> = fields.items;
    assert_eq!((*fields.len, &*items), (3, &[1, 2, 3][..]));
}

/// The kernel's `try_pin_init!`: `pin_init!` with another default error.
macro_rules! try_pin_init {
    ($($args:tt)*) => {
        ::pin_init::pin_init!(#[default_error(Failure)] $($args)*)
    };
}

/// The kernel's `try_init!`.
macro_rules! try_init {
    ($($args:tt)*) => {
        ::pin_init::init!(#[default_error(Failure)] $($args)*)
    };
}

#[pin_data]
struct Pair {
    #[pin]
    first: Noisy,
    second: Noisy,
}

#[test]
fn default_error_and_explicit_error() {
    let log = &Log::default();
    let fails: Result<_, Failure> = boxed(try_pin_init!(Pair {
        first <- pinned_noisy(log, "first"),
        second <- Err(Failure),
    }));
    assert_eq!(fails.err(), Some(Failure));
    assert_eq!(log.take(), ["first"]);

    // `? Error` wins over the default, and errors convert with `From`.
    let fails = boxed(try_pin_init!(Pair {
        first <- pinned_noisy(log, "first"),
        second <- Err(Failure),
    }? Wider));
    assert_eq!(fails.err(), Some(Wider("failure")));
    assert_eq!(log.take(), ["first"]);

    let ok = moved(try_init!(Pair {
        first: log.noisy("a"),
        second: log.noisy("b"),
    }))
    .unwrap();
    drop(ok);
    assert_eq!(log.take(), ["a", "b"]);
}

#[test]
fn default_error_is_infallible() {
    fn infallible<T>(init: impl PinInit<T, Infallible>) -> impl PinInit<T, Infallible> {
        init
    }
    let log = &Log::default();
    stack_pin_init!(let pair = infallible(pin_init!(Pair {
        first: log.noisy("1"),
        second: log.noisy("2"),
    })));
    assert_eq!(pair.second.name, "2");
}

// -------------------------------------------------------------------------------------------
// Failures and panics

#[pin_data]
struct Four {
    #[pin]
    a: Noisy,
    b: Noisy,
    #[pin]
    c: Noisy,
    d: Noisy,
}

#[test]
fn an_error_drops_exactly_the_fields_initialized_so_far() {
    let log = &Log::default();
    // Fails at the third field: the first two are dropped, in reverse order.
    let fails = boxed(pin_init!(Four {
        a <- pinned_noisy(log, "a"),
        b: log.noisy("b"),
        c <- failing(false),
        d: log.noisy("d"),
    }? Failure));
    assert_eq!(fails.err(), Some(Failure));
    assert_eq!(log.take(), ["b", "a"]);

    // An early return with `?` in a value: the same.
    let parse = |text: &str| text.parse::<u8>().map_err(|_| Failure);
    let fails = boxed(pin_init!(Four {
        a <- pinned_noisy(log, "a"),
        b: {
            parse("x")?;
            log.noisy("b")
        },
        c <- pinned_noisy(log, "c"),
        d: log.noisy("d"),
    }? Failure));
    assert_eq!(fails.err(), Some(Failure));
    assert_eq!(log.take(), ["a"]);

    // From a `_: { code }` block, after three fields.
    let fails = boxed(pin_init!(Four {
        a <- pinned_noisy(log, "a"),
        b: log.noisy("b"),
        c <- pinned_noisy(log, "c"),
        _: {
            parse("300")?;
        },
        d: log.noisy("d"),
    }? Failure));
    assert_eq!(fails.err(), Some(Failure));
    assert_eq!(log.take(), ["c", "b", "a"]);

    // The first field failing drops nothing.
    let fails = boxed(pin_init!(Four {
        a <- failing(false),
        b: log.noisy("b"),
        c <- pinned_noisy(log, "c"),
        d: log.noisy("d"),
    }? Failure));
    assert_eq!(fails.err(), Some(Failure));
    assert!(log.take().is_empty());

    // Success drops nothing until the value is dropped, then every field once.
    let four = boxed(pin_init!(Four {
        a <- pinned_noisy(log, "a"),
        b: log.noisy("b"),
        c <- pinned_noisy(log, "c"),
        d: log.noisy("d"),
    }? Failure))
    .unwrap();
    assert!(log.take().is_empty());
    drop(four);
    assert_eq!(log.take(), ["a", "b", "c", "d"]);
}

#[test]
fn init_drops_the_same_on_error() {
    let log = &Log::default();
    let fails = moved(init!(Four {
        a: log.noisy("a"),
        b: log.noisy("b"),
        c: log.noisy("c"),
        d <- Err::<Noisy, _>(Failure),
    }? Failure));
    assert_eq!(fails.err(), Some(Failure));
    assert_eq!(log.take(), ["c", "b", "a"]);
}

#[test]
fn a_panic_drops_the_fields_initialized_before_it() {
    let log = &Log::default();
    let result = panic::catch_unwind(panic::AssertUnwindSafe(|| {
        boxed(pin_init!(Four {
            a <- pinned_noisy(log, "a"),
            b: log.noisy("b"),
            c <- failing(true),
            d: log.noisy("d"),
        }? Failure))
    }));
    assert!(result.is_err());
    assert_eq!(log.take(), ["b", "a"]);

    // A panic in a value expression.
    let result = panic::catch_unwind(panic::AssertUnwindSafe(|| {
        moved(init!(Four {
            a: log.noisy("a"),
            b: log.noisy("b"),
            c: log.noisy("c"),
            d: boom(),
        }))
    }));
    assert!(result.is_err());
    assert_eq!(log.take(), ["c", "b", "a"]);
}

std::thread_local! {
    /// The values of the `Tally`s dropped, in order.
    static TALLIES: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// Zeroable, and logs its value when dropped.
#[derive(Zeroable)]
struct Tally(u32);

impl Drop for Tally {
    fn drop(&mut self) {
        TALLIES.with(|t| t.borrow_mut().push(self.0));
    }
}

#[test]
fn zeroed_fields_are_not_dropped_on_error() {
    #[pin_data]
    #[derive(Zeroable)]
    struct Partly {
        kept: Tally,
        zero: Tally,
        #[pin]
        other: Tally,
    }
    let init = pin_init!(Partly {
        kept: Tally(1),
        other <- failing(false),
        ..Zeroable::init_zeroed()
    }? Failure);
    assert_eq!(boxed(init).err(), Some(Failure));
    assert_eq!(TALLIES.with(|t| t.take()), [1]);

    let partly = boxed(pin_init!(Partly {
        other: Tally(3),
        ..Zeroable::init_zeroed()
    }))
    .unwrap();
    assert_eq!((partly.kept.0, partly.zero.0, partly.other.0), (0, 0, 3));
    drop(partly);
    assert_eq!(TALLIES.with(|t| t.take()), [0, 0, 3]);
}

// -------------------------------------------------------------------------------------------
// PinnedDrop

#[pin_data(PinnedDrop)]
struct Registration<T: core::fmt::Debug> {
    log: Log,
    #[pin]
    member: Noisy,
    value: T,
}

#[pinned_drop]
impl<T: core::fmt::Debug> PinnedDrop for Registration<T> {
    fn drop(self: Pin<&mut Self>) {
        // Runs pinned, before the fields are dropped.
        assert_eq!(format!("{:?}", self.value), "7");
        self.log.0.borrow_mut().push("pinned drop");
    }
}

#[test]
fn pinned_drop_runs_before_the_fields() {
    let log = &Log::default();
    let registration = boxed(pin_init!(Registration {
        log: log.clone(),
        member <- pinned_noisy(log, "member"),
        value: 7,
    }? Failure))
    .unwrap();
    drop(registration);
    assert_eq!(log.take(), ["pinned drop", "member"]);

    // Not for a value that failed to initialize: it never existed.
    let fails = boxed(pin_init!(Registration {
        log: log.clone(),
        member <- pinned_noisy(log, "member"),
        value: 7,
        _: {
            Err(Failure)?;
        },
    }? Failure));
    assert!(fails.is_err());
    assert_eq!(log.take(), ["member"]);

    // Also from the stack.
    {
        stack_pin_init!(let on_stack = pin_init!(Registration {
            log: log.clone(),
            member: log.noisy("stack"),
            value: 7,
        }));
        assert_eq!(on_stack.member.name, "stack");
    }
    assert_eq!(log.take(), ["pinned drop", "stack"]);
}

// `::pin_init::PinnedDrop` is accepted too.
#[pin_data(PinnedDrop)]
struct Pathed {
    hit: Rc<RefCell<bool>>,
}

#[pinned_drop]
impl pin_init::PinnedDrop for Pathed {
    fn drop(self: Pin<&mut Self>) {
        *self.hit.borrow_mut() = true;
    }
}

#[test]
fn pinned_drop_through_a_path() {
    let hit = Rc::new(RefCell::new(false));
    drop(Pathed { hit: hit.clone() });
    assert!(*hit.borrow());
}

// -------------------------------------------------------------------------------------------
// Pinning

#[pin_data]
struct SelfRef {
    value: u64,
    // Points to `value`.
    ptr: *const u64,
    #[pin]
    _pin: PhantomPinned,
}

impl SelfRef {
    fn new(value: u64) -> impl PinInit<Self> {
        pin_init!(&this in Self {
            value,
            // SAFETY: Only the address of the field is taken.
            ptr: unsafe { &raw const (*this.as_ptr()).value },
            _pin: PhantomPinned,
        })
    }

    fn get(self: Pin<&Self>) -> u64 {
        // SAFETY: `ptr` points to `self.value`, which has not moved: `self` is pinned.
        unsafe { *self.ptr }
    }
}

#[test]
fn a_self_referential_value_stays_put() {
    let boxed_value = boxed(SelfRef::new(11)).unwrap();
    let address = &boxed_value.value as *const u64;
    assert_eq!(boxed_value.ptr, address);
    // Moving the box moves the pointer to the value, not the value.
    let moved_box = [boxed_value];
    assert_eq!(moved_box[0].ptr, address);
    assert_eq!(moved_box[0].as_ref().get(), 11);

    stack_pin_init!(let on_stack = SelfRef::new(12));
    assert_eq!(on_stack.ptr, &on_stack.value as *const u64);
    assert_eq!(on_stack.as_ref().get(), 12);
}

#[pin_data]
struct PinnedPhantom {
    #[pin]
    _pin: PhantomPinned,
}

#[pin_data]
struct PinnedU32 {
    #[pin]
    value: u32,
    unpinned: PhantomData<*const u8>,
}

#[pin_data]
struct Nested {
    #[pin]
    inner: PinnedPhantom,
}

#[pin_data]
struct NotPinnedNested {
    inner: PinnedPhantom,
}

#[pin_data]
struct GenericPinned<T> {
    #[pin]
    value: T,
}

#[test]
fn unpin_follows_the_pinned_fields() {
    assert!(!implements!(PinnedPhantom: Unpin));
    assert!(implements!(PinnedU32: Unpin));
    assert!(!implements!(Nested: Unpin));
    assert!(implements!(NotPinnedNested: Unpin));
    assert!(implements!(GenericPinned<u8>: Unpin));
    assert!(!implements!(GenericPinned<PhantomPinned>: Unpin));
}

#[allow(deprecated)] // `#[pin_data]` warns of the `PhantomPinned` without `#[pin]`.
mod warned {
    use super::*;

    #[pin_data]
    pub(super) struct Unpinned {
        pub(super) _pin: PhantomPinned,
    }
}

#[test]
fn phantom_pinned_without_pin_does_nothing() {
    assert!(implements!(warned::Unpinned: Unpin));
}

#[test]
fn init_pins_nothing_and_pin_init_may_take_pinned_initializers() {
    let log = &Log::default();
    // `init!` on a `#[pin_data]` struct: every field by value or `Init`, and the result is an
    // `Init`, so the value may move.
    let pair = moved(init!(Pair {
        first: log.noisy("first"),
        second <- Ok::<_, Failure>(log.noisy("second")),
    }? Failure))
    .unwrap();
    let moved_pair = Box::new(pair);
    assert_eq!(moved_pair.first.name, "first");
    drop(moved_pair);
    assert_eq!(log.take(), ["first", "second"]);

    // `pin_init!` takes an initializer that needs pinning for a `#[pin]` field, and a value.
    let pair = boxed(pin_init!(Pair {
        first <- pinned_noisy(log, "first"),
        second: log.noisy("second"),
    }? Failure))
    .unwrap();
    drop(pair);
    assert_eq!(log.take(), ["first", "second"]);

    // `init!` needs no `#[pin_data]`, and nests.
    struct Plain {
        pair: Pair,
        n: u8,
    }
    let plain = moved(init!(Plain {
        pair <- init!(Pair { first: log.noisy("x"), second: log.noisy("y") }),
        n: 1,
    }))
    .unwrap();
    assert_eq!((plain.pair.second.name, plain.n), ("y", 1));
    drop(plain);
    assert_eq!(log.take(), ["x", "y"]);
}

#[test]
fn project_pins_exactly_the_pinned_fields() {
    let log = &Log::default();
    let mut four = boxed(pin_init!(Four {
        a <- pinned_noisy(log, "a"),
        b: log.noisy("b"),
        c <- pinned_noisy(log, "c"),
        d: log.noisy("d"),
    }? Failure))
    .unwrap();
    let fields = four.as_mut().project();
    let a: Pin<&mut Noisy> = fields.a;
    let b: &mut Noisy = fields.b;
    let c: Pin<&mut Noisy> = fields.c;
    b.name = "B";
    *fields.d = log.noisy("D");
    assert_eq!((a.name, c.name), ("a", "c"));
    assert_eq!(log.take(), ["d"]);
    drop(four);
    assert_eq!(log.take(), ["a", "B", "c", "D"]);
}

assert_pinned!(Four, a, Noisy);
assert_pinned!(GenericPinned<u8>, value, u8);

impl<T> GenericPinned<T> {
    fn value(self: Pin<&mut Self>) -> Pin<&mut T> {
        assert_pinned!(GenericPinned<T>, value, T, inline);
        self.project().value
    }
}

#[test]
fn assert_pinned_in_a_function() {
    stack_pin_init!(let generic = pin_init!(GenericPinned { value: 3_u8 }));
    assert_eq!(*generic.value(), 3);
}

#[test]
fn stack_initializers() {
    let log = &Log::default();
    {
        stack_try_pin_init!(let fails: Pair = pin_init!(Pair {
            first <- pinned_noisy(log, "first"),
            second <- Err(Failure),
        }? Failure));
        assert_eq!(fails.err(), Some(Failure));
        assert_eq!(log.take(), ["first"]);
    }
    fn with_question_mark(log: &Log) -> Result<&'static str, Failure> {
        stack_try_pin_init!(let pair =? pin_init!(Pair {
            first <- pinned_noisy(log, "first"),
            second: log.noisy("second"),
        }? Failure));
        Ok(pair.second.name)
    }
    assert_eq!(with_question_mark(log), Ok("second"));
    assert_eq!(log.take(), ["first", "second"]);
}

// -------------------------------------------------------------------------------------------
// Zeroable and MaybeZeroable

#[derive(Zeroable, Debug, PartialEq)]
struct Named {
    a: u32,
    b: Option<&'static u8>,
    c: [i16; 3],
    d: *const (),
}

#[derive(Zeroable, Debug, PartialEq)]
struct Tuple(u8, bool, (u16, char));

#[derive(Zeroable, Debug, PartialEq)]
struct Unit;

// `T: 'a` is needed, as with Linux 7.3's derive: its check of the field types is a function,
// which does not get the struct's implied bounds.
#[allow(explicit_outlives_requirements)]
#[derive(Zeroable)]
struct Bounded<'a, T: Copy + 'a, const N: usize>
where
    T: PartialEq,
{
    values: [T; N],
    borrowed: Option<&'a T>,
}

#[derive(Zeroable)]
union Either {
    signed: i32,
    unsigned: u32,
}

#[test]
fn zeroable_derive() {
    assert_eq!(
        Named::zeroed(),
        Named {
            a: 0,
            b: None,
            c: [0; 3],
            d: core::ptr::null()
        }
    );
    assert_eq!(Tuple::zeroed(), Tuple(0, false, (0, '\0')));
    assert_eq!(Unit::zeroed(), Unit);
    let bounded = Bounded::<'_, u64, 4>::zeroed();
    assert_eq!((bounded.values, bounded.borrowed), ([0; 4], None));
    // SAFETY: Both fields are integers, valid for any bits.
    assert_eq!(unsafe { Either::zeroed().unsigned }, 0);
    let _ = Either { signed: 1 };

    // The derive bounds the parameters: `Bounded<&u8, 1>` is not `Zeroable`.
    assert!(implements!(Bounded<'static, u8, 1>: Zeroable));
    assert!(!implements!(Bounded<'static, &'static u8, 1>: Zeroable));

    // And the initializer.
    let named = moved(Named::init_zeroed()).unwrap();
    assert_eq!(named.c, [0; 3]);
    let named = moved(init!(Named {
        a: 5,
        ..Zeroable::init_zeroed()
    }))
    .unwrap();
    assert_eq!((named.a, named.b), (5, None));
    let tuple = moved(init_zeroed::<Tuple>()).unwrap();
    assert_eq!(tuple, Tuple(0, false, (0, '\0')));
}

#[derive(MaybeZeroable)]
struct MaybeYes {
    a: u64,
    b: Option<NonNull<u8>>,
}

#[derive(MaybeZeroable)]
struct MaybeNo {
    a: u64,
    b: &'static u8,
}

#[derive(MaybeZeroable)]
struct MaybeGeneric<T>(T, u8);

#[test]
fn maybe_zeroable_derive() {
    assert!(implements!(MaybeYes: Zeroable));
    assert!(!implements!(MaybeNo: Zeroable));
    assert!(implements!(MaybeGeneric<u32>: Zeroable));
    assert!(!implements!(MaybeGeneric<&'static u32>: Zeroable));
    assert!(!implements!(MaybeGeneric<Box<u32>>: Zeroable));
    let yes = MaybeYes::zeroed();
    assert_eq!((yes.a, yes.b), (0, None));
    assert_eq!(MaybeGeneric::<u32>::zeroed().0, 0);
    let no = MaybeNo { a: 1, b: &2 };
    assert_eq!((no.a, *no.b), (1, 2));
    let _ = MaybeGeneric(0_u8, 0).1;
}

/// A struct declared by a `macro_rules!` that passes its visibility as a `$v:vis` fragment, as
/// binder's `impl_flags!` does: the derives take it like a written one, public or private.
macro_rules! declare_flags {
    ($(#[$meta:meta])* $v:vis struct $name:ident($inner:ty);) => {
        $(#[$meta])*
        $v struct $name($v $inner);
    };
}

declare_flags! {
    #[derive(Zeroable, Debug, PartialEq)]
    pub struct PublicFlags(u32);
}

declare_flags! {
    #[derive(Zeroable, Debug, PartialEq)]
    struct PrivateFlags(u64);
}

#[test]
fn derives_take_a_visibility_fragment() {
    assert_eq!(PublicFlags::zeroed(), PublicFlags(0));
    assert_eq!(PrivateFlags::zeroed(), PrivateFlags(0));
}
