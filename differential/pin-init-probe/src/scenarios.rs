// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Scenarios of in-place initialisation, written once and run on two `pin_init` crates: Linux
//! 7.3's own (this crate, `linux7_3_pin_init_probe`) and kernel-core's (`tests/pin_init.rs`
//! includes this file as a module of its own). Whichever crate `::pin_init` names is the one the
//! macros here expand to and the functions call.
//!
//! Each scenario records what happened, in order, as lines: every field initialiser that ran
//! or failed, every value expression, every code block, every drop and pinned drop, the
//! result, and a panic if one escaped. The differential tests run each scenario on both sides
//! for every combination of its inputs and require the same lines.
//!
//! The inputs choose where things go wrong: `fail` is the number of the initialiser that
//! returns an error, `panic` the number of the value expression that panics (`None`: none).

// `UnpinnedField` has a `PhantomPinned` field without `#[pin]` on purpose; Linux 7.3's
// `#[pin_data]` warns of it through a deprecated item.
#![allow(deprecated)]

use core::{
    cell::{Cell, RefCell, UnsafeCell},
    convert::Infallible,
    marker::{PhantomData, PhantomPinned},
    mem::{ManuallyDrop, MaybeUninit},
    num::{NonZeroU16, NonZeroU8, Wrapping},
    pin::Pin,
    ptr::NonNull,
};
use std::{
    format,
    panic::{self, AssertUnwindSafe},
    string::{String, ToString},
    vec::Vec,
};

use pin_init::{
    init, init_array_from_fn, init_from_closure, init_scope, init_zeroed, pin_data, pin_init,
    pin_init_array_from_fn, pin_init_from_closure, pin_init_scope, pinned_drop, stack_pin_init,
    stack_try_pin_init, zeroed, Init, MaybeZeroable, PinInit, Wrapper, Zeroable,
};

/// What a scenario recorded, in order.
pub type Trace = Vec<String>;

std::thread_local! {
    /// The lines of the scenario running on this thread.
    static LOG: RefCell<Trace> = const { RefCell::new(Vec::new()) };
}

/// Records one line.
fn log(line: impl Into<String>) {
    LOG.with(|log| log.borrow_mut().push(line.into()));
}

/// Runs `scenario` with an empty log and returns the log, with the line `panicked: <message>`
/// last if a panic escaped it. The panic message itself is not printed by the default hook:
/// callers that want quiet runs install their own.
fn record(scenario: impl FnOnce()) -> Trace {
    LOG.with(|log| log.borrow_mut().clear());
    if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(scenario)) {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        log(format!("panicked: {message}"));
    }
    LOG.with(|log| core::mem::take(&mut *log.borrow_mut()))
}

/// The error of the scenarios' initialisers: the number of the one that failed.
#[derive(Debug, PartialEq, Eq)]
pub struct Fail(pub usize);

/// A value that records its drop.
#[derive(Debug)]
pub struct Noisy(pub usize);

impl Drop for Noisy {
    fn drop(&mut self) {
        log(format!("drop {}", self.0));
    }
}

/// The closure of [`noisy`] and [`noisy_init`]: writes `Noisy(id)` to the slot, or fails if
/// `id` is `fail`, writing nothing.
///
/// # Safety
///
/// The closure's caller must pass a slot valid for writes (`PinInit::__init`'s contract).
unsafe fn write_noisy(
    id: usize,
    fail: Option<usize>,
) -> impl FnOnce(*mut Noisy) -> Result<(), Fail> {
    move |slot: *mut Noisy| {
        if fail == Some(id) {
            log(format!("fail {id}"));
            return Err(Fail(id));
        }
        // SAFETY: `slot` is valid for writes (this function's contract).
        unsafe { slot.write(Noisy(id)) };
        log(format!("init {id}"));
        Ok(())
    }
}

/// A pinned initialiser of `Noisy(id)` that fails if `id` is `fail`.
fn noisy(id: usize, fail: Option<usize>) -> impl PinInit<Noisy, Fail> {
    // SAFETY: `pin_init_from_closure` calls the closure with a slot valid for writes; on `Ok`
    // it has written a valid `Noisy` there, on `Err` nothing, and nothing needs dropping.
    unsafe { pin_init_from_closure(write_noisy(id, fail)) }
}

/// An initialiser (that pins nothing) of `Noisy(id)` that fails if `id` is `fail`.
fn noisy_init(id: usize, fail: Option<usize>) -> impl Init<Noisy, Fail> {
    // SAFETY: As in `noisy`; nothing here pins the value, so it may move later.
    unsafe { init_from_closure(write_noisy(id, fail)) }
}

/// A value expression: `Noisy(id)`, or a panic if `id` is `panic`.
fn value(id: usize, panic: Option<usize>) -> Noisy {
    log(format!("value {id}"));
    if panic == Some(id) {
        panic!("value {id} panics");
    }
    Noisy(id)
}

/// A struct with pinned and unpinned fields of every kind, and a pinned drop.
#[pin_data(PinnedDrop)]
pub struct Pinned {
    #[pin]
    a: Noisy,
    b: Noisy,
    #[pin]
    c: Noisy,
    d: usize,
    e: Noisy,
    #[pin]
    _pin: PhantomPinned,
}

#[pinned_drop]
impl PinnedDrop for Pinned {
    fn drop(self: Pin<&mut Self>) {
        log(format!("pinned_drop d={}", self.d));
    }
}

/// `pin_init!` of [`Pinned`]: initialisers (`<-`), values (`:`), a code block (`_: {}`), a value
/// that reads an earlier field, and the error type after `?`; then the value pinned on the
/// stack, projected, and dropped.
pub fn pinned_struct(fail: Option<usize>, panic: Option<usize>) -> Trace {
    record(|| {
        let init = pin_init!(Pinned {
            a <- noisy(0, fail),
            b: value(1, panic),
            _: {
                log("code block");
            },
            c <- noisy(2, fail),
            d: b.0 + 10,
            e <- noisy_init(4, fail),
            _pin: PhantomPinned,
        }? Fail);
        stack_try_pin_init!(let pinned: Pinned = init);
        match pinned {
            Ok(mut pinned) => {
                let projected = pinned.as_mut().project();
                log(format!(
                    "ok a={} b={} c={} d={} e={}",
                    projected.a.0, projected.b.0, projected.c.0, projected.d, projected.e.0
                ));
                *projected.d += 1;
            }
            Err(err) => log(format!("err {err:?}")),
        }
    })
}

/// The same struct from `pin_init!` with `#[default_error(..)]` instead of `?`, and a `?` that
/// propagates out of `stack_try_pin_init!` (`=?`).
pub fn default_error(fail: Option<usize>) -> Trace {
    record(|| {
        let run = || -> Result<usize, Fail> {
            stack_try_pin_init!(let pinned: Pinned =? pin_init!(#[default_error(Fail)] Pinned {
                a <- noisy(0, fail),
                b: Noisy(1),
                c <- noisy(2, fail),
                d: 7,
                e <- noisy_init(4, fail),
                _pin: PhantomPinned,
            }));
            Ok(pinned.d)
        };
        log(format!("{:?}", run()));
    })
}

/// A struct without pinned fields, initialised by `init!` in a slot that may then move.
#[derive(Debug)]
pub struct Plain {
    a: Noisy,
    b: Noisy,
    c: Noisy,
    d: [u8; 3],
}

/// `init!` of [`Plain`] into an uninitialised slot, which is then moved out and dropped.
pub fn plain_struct(fail: Option<usize>, panic: Option<usize>) -> Trace {
    record(|| {
        let init = init!(Plain {
            a <- noisy_init(0, fail),
            b: value(1, panic),
            _: {
                log("code block");
            },
            c <- noisy_init(2, fail),
            d: [a.0 as u8, b.0 as u8, c.0 as u8],
        }? Fail);
        let mut slot = MaybeUninit::<Plain>::uninit();
        // SAFETY: `slot` is valid for writes and not otherwise in use.
        match unsafe { pin_init::raw_try_init(slot.as_mut_ptr(), init) } {
            Ok(()) => {
                // SAFETY: `raw_try_init` returned `Ok`: the slot holds a valid `Plain`, which
                // `init!` does not pin, so it may move out.
                let plain = unsafe { slot.assume_init() };
                log(format!("ok {:?}", plain.d));
            }
            Err(err) => log(format!("err {err:?}")),
        }
    })
}

/// `init_array_from_fn` and `pin_init_array_from_fn` of `N` elements, the element `fail`
/// failing.
pub fn arrays<const N: usize>(fail: Option<usize>) -> Trace {
    record(|| {
        log("init_array_from_fn");
        let init = init_array_from_fn::<_, N, Noisy, Fail>(|i| noisy_init(i, fail));
        let mut slot = MaybeUninit::<[Noisy; N]>::uninit();
        // SAFETY: `slot` is valid for writes and not otherwise in use.
        match unsafe { pin_init::raw_try_init(slot.as_mut_ptr(), init) } {
            // SAFETY: `Ok`: every element is initialised.
            Ok(()) => drop(unsafe { slot.assume_init() }),
            Err(err) => log(format!("err {err:?}")),
        }
        log("pin_init_array_from_fn");
        stack_try_pin_init!(let pinned: [Noisy; N] =
            pin_init_array_from_fn::<_, N, Noisy, Fail>(|i| noisy(i, fail)));
        match pinned {
            Ok(pinned) => log(format!("ok {}", pinned.len())),
            Err(err) => log(format!("err {err:?}")),
        }
    })
}

/// `chain` and `pin_chain`: the closure runs on the initialised value; when it fails, the value
/// is dropped.
pub fn chains(fail: Option<usize>, chain_fails: bool) -> Trace {
    record(|| {
        let then = |noisy: &mut Noisy| {
            log(format!("chain sees {}", noisy.0));
            if chain_fails {
                return Err(Fail(100));
            }
            noisy.0 += 100;
            Ok(())
        };
        let mut slot = MaybeUninit::<Noisy>::uninit();
        // SAFETY: `slot` is valid for writes and not otherwise in use.
        match unsafe { pin_init::raw_try_init(slot.as_mut_ptr(), noisy_init(0, fail).chain(then)) }
        {
            // SAFETY: `Ok`: the slot holds a valid `Noisy`, not pinned.
            Ok(()) => drop(unsafe { slot.assume_init() }),
            Err(err) => log(format!("err {err:?}")),
        }
        stack_try_pin_init!(let pinned: Noisy = noisy(1, fail).pin_chain(|noisy: Pin<&mut Noisy>| {
            log(format!("pin_chain sees {}", noisy.0));
            if chain_fails {
                return Err(Fail(101));
            }
            Ok(())
        }));
        match pinned {
            Ok(pinned) => log(format!("ok {}", pinned.0)),
            Err(err) => log(format!("err {err:?}")),
        }
    })
}

/// `pin_init_scope` and `init_scope`: the closure runs first and may fail before any
/// initialiser exists.
pub fn scopes(scope_fails: bool, fail: Option<usize>) -> Trace {
    record(|| {
        stack_try_pin_init!(let pinned: Noisy = pin_init_scope(move || {
            log("pin scope");
            if scope_fails {
                return Err(Fail(200));
            }
            Ok(noisy(0, fail))
        }));
        match pinned {
            Ok(pinned) => log(format!("ok {}", pinned.0)),
            Err(err) => log(format!("err {err:?}")),
        }
        let mut slot = MaybeUninit::<Noisy>::uninit();
        let init = init_scope(move || {
            log("scope");
            if scope_fails {
                return Err(Fail(201));
            }
            Ok(noisy_init(1, fail))
        });
        // SAFETY: `slot` is valid for writes and not otherwise in use.
        match unsafe { pin_init::raw_try_init(slot.as_mut_ptr(), init) } {
            // SAFETY: `Ok`: the slot holds a valid `Noisy`.
            Ok(()) => drop(unsafe { slot.assume_init() }),
            Err(err) => log(format!("err {err:?}")),
        }
    })
}

/// Values as initialisers (`T` for `Init<T>`, `Result<T, E>` for `Init<T, E>`), `Wrapper` for
/// `UnsafeCell` and `MaybeUninit`, and `stack_pin_init!` of an infallible one.
pub fn values_and_wrappers(fail: Option<usize>) -> Trace {
    record(|| {
        stack_pin_init!(let plain: Noisy = Noisy(0));
        log(format!("value {}", plain.0));
        let result = if fail == Some(1) {
            Err(Fail(1))
        } else {
            Ok(Noisy(1))
        };
        stack_try_pin_init!(let from_result: Noisy = result);
        log(format!("{:?}", from_result.map(|noisy| noisy.0)));
        stack_try_pin_init!(let cell: UnsafeCell<Noisy> =
            <UnsafeCell<Noisy> as Wrapper<Noisy>>::pin_init(noisy(2, fail)));
        match cell {
            // SAFETY: Nothing else refers to the cell's value.
            Ok(cell) => log(format!("cell {}", unsafe { &*cell.get() }.0)),
            Err(err) => log(format!("err {err:?}")),
        }
        stack_try_pin_init!(let uninit: MaybeUninit<Noisy> =
            <MaybeUninit<Noisy> as Wrapper<Noisy>>::pin_init(noisy(3, fail)));
        match uninit {
            Ok(mut uninit) => {
                // SAFETY: The wrapper's initialiser initialised the value; it is dropped here,
                // once, as `MaybeUninit` never drops it.
                unsafe { uninit.as_mut().get_unchecked_mut().assume_init_drop() };
            }
            Err(err) => log(format!("err {err:?}")),
        }
    })
}

/// A struct whose fields are all `Zeroable`.
#[pin_data]
#[derive(Zeroable)]
pub struct Zeros {
    a: u32,
    b: Option<NonNull<u8>>,
    c: [u16; 3],
    d: (u8, i64),
    e: Option<&'static u8>,
    f: Wrapping<u8>,
}

/// `..Zeroable::init_zeroed()` after some fields, `init_zeroed()` in a field, `zeroed()` and
/// `Zeroable::zeroed()`: the values read back.
pub fn zeroes(first: u32) -> Trace {
    record(|| {
        stack_pin_init!(let partial: Zeros = pin_init!(Zeros {
            a: first,
            c: [1, 2, 3],
            ..Zeroable::init_zeroed()
        }));
        log(format!(
            "partial {} {:?} {:?} {:?} {:?} {}",
            partial.a, partial.b, partial.c, partial.d, partial.e, partial.f.0
        ));
        stack_pin_init!(let fields: Zeros = pin_init!(Zeros {
            a <- init_zeroed(),
            b: None,
            c <- init_zeroed(),
            d: (1, -1),
            e: None,
            f: Wrapping(first as u8),
        }));
        log(format!(
            "fields {} {:?} {:?} {}",
            fields.a, fields.c, fields.d, fields.f.0
        ));
        let whole: Zeros = zeroed();
        let method = <Zeros as Zeroable>::zeroed();
        log(format!(
            "zeroed {} {} {:?} {:?}",
            whole.a, method.a, whole.c, method.d
        ));
    })
}

/// `&this in`: a field that points at another field of the same value, which stays where it
/// was initialised.
#[pin_data]
pub struct SelfRef {
    buf: [u8; 8],
    ptr: *const u8,
    #[pin]
    _pin: PhantomPinned,
}

/// Initialises a [`SelfRef`] and reads its own buffer through its pointer.
pub fn self_reference(byte: u8) -> Trace {
    record(|| {
        stack_pin_init!(let value: SelfRef = pin_init!(&this in SelfRef {
            buf: [byte; 8],
            // SAFETY: `this` points at the value being initialised; only a raw pointer to its
            // field is made, no reference.
            ptr: unsafe { (&raw const (*this.as_ptr()).buf).cast() },
            _pin: PhantomPinned,
        }));
        let same = core::ptr::eq(value.ptr, value.buf.as_ptr());
        // SAFETY: `ptr` points at `buf`, which lives as long as `value`.
        let read = unsafe { *value.ptr.add(7) };
        log(format!("points at its buffer: {same}, reads {read}"));
    })
}

/// `#[derive(MaybeZeroable)]` on a struct whose fields are all `Zeroable`.
#[derive(MaybeZeroable)]
// Only its traits are probed: its fields are never read.
#[allow(dead_code)]
pub struct MaybeYes {
    a: u8,
    b: Option<NonZeroU16>,
}

/// `#[derive(MaybeZeroable)]` on a struct with a field that is not `Zeroable`.
#[derive(MaybeZeroable)]
// Only its traits are probed: its fields are never read.
#[allow(dead_code)]
pub struct MaybeNo {
    a: u8,
    b: &'static u8,
}

/// `#[derive(Zeroable)]` on a generic struct.
#[derive(Zeroable)]
// Only its traits are probed: its fields are never read.
#[allow(dead_code)]
pub struct Generic<T> {
    t: T,
    n: u32,
}

/// A `#[pin_data]` struct whose only `!Unpin` field is not pinned.
#[pin_data]
pub struct UnpinnedField {
    a: PhantomPinned,
    #[pin]
    b: u8,
}

/// A `#[pin_data]` struct whose `!Unpin` field is pinned.
#[pin_data]
pub struct PinnedField {
    a: u8,
    #[pin]
    b: PhantomPinned,
}

// `implements!($ty: $tr)`, shared with the differential tests' helpers.
include!("../../tests/common/implements.rs");

/// `(type, implements $tr)` for each type.
macro_rules! table {
    ($tr:path: $($ty:ty),* $(,)?) => {
        [$((stringify!($ty), implements!($ty: $tr))),*].to_vec()
    };
}

/// Which types are `Zeroable`: the standard types the crate could implement it for, the
/// derives' results, and `#[pin_data]`'s.
pub fn zeroable_types() -> Vec<(&'static str, bool)> {
    table!(Zeroable:
        u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, bool, char, f32, f64,
        (), (u8,), (u8, u16, u32), (u8, char), [u8; 0], [u8; 4], [char; 0], [char; 2], [u8],
        str, Infallible, PhantomData<char>, PhantomPinned, MaybeUninit<char>, UnsafeCell<u8>,
        UnsafeCell<char>, Cell<u8>, Cell<char>, ManuallyDrop<u8>, ManuallyDrop<char>,
        Wrapping<u8>, Wrapping<char>, NonZeroU8, Option<NonZeroU8>, Option<u8>, Option<char>,
        Option<NonNull<u8>>, Option<NonNull<[u8]>>, Option<&'static u8>,
        Option<&'static mut u8>, Option<&'static [u8]>, Option<&'static str>, &'static u8,
        *const u8, *mut u8, *const [u8], *mut str, NonNull<u8>, Option<fn()>,
        Option<extern "C" fn(u8) -> u8>, Option<unsafe fn()>, fn(), Option<Noisy>, Noisy,
        Zeros, MaybeYes, MaybeNo, Generic<u8>, Generic<char>, Pinned, SelfRef,
        UnpinnedField, PinnedField,
    )
}

/// Which types `#[pin_data]` and the derives leave `Unpin`, `Send` and `Sync`.
pub fn auto_traits() -> Vec<(&'static str, bool)> {
    let mut all = table!(Unpin: Pinned, Plain, Zeros, SelfRef, UnpinnedField, PinnedField);
    all.extend(table!(Send: Pinned, Plain, Zeros, SelfRef, UnpinnedField, PinnedField));
    all.extend(table!(Sync: Pinned, Plain, Zeros, SelfRef, UnpinnedField, PinnedField));
    all
}
