// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: `kernel_core::types` and `kernel_core::transmute` where they use `unsafe`, for
//! Miri: `Opaque`'s pin-initialisers into a `KBox` and into raw slots (success and failure),
//! `Opaque` written through shared references, `ScopeGuard` during a panic, and the byte views
//! of `transmute` against plain conversions.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;

use kernel_core::alloc::{flags::GFP_KERNEL, KBox};
use kernel_core::error::{code::EBUSY, Error};
use kernel_core::init::InPlaceInit;
use kernel_core::transmute::{AsBytes, FromBytes};
use kernel_core::types::{ForeignOwnable, Opaque, ScopeGuard};
use pin_init::Wrapper;

/// A C structure that its C `init` function fills.
#[repr(C)]
struct CDevice {
    id: u32,
    flags: u16,
}

/// What the C side's `init` does to the structure it receives.
///
/// # Safety
///
/// `dev` must be valid for writes.
unsafe fn c_device_init(dev: *mut CDevice, id: u32) {
    // SAFETY: The caller promises `dev` is valid for writes; the fields are written without
    // reading the uninitialized memory.
    unsafe {
        (&raw mut (*dev).id).write(id);
        (&raw mut (*dev).flags).write(0x8000);
    }
}

#[test]
fn ffi_init_into_a_box() {
    let dev: Pin<KBox<Opaque<CDevice>>> = KBox::pin_init(
        Opaque::ffi_init(|slot| {
            // SAFETY: `ffi_init` hands a pointer valid for writes.
            unsafe { c_device_init(slot, 7) }
        }),
        GFP_KERNEL,
    )
    .unwrap();
    // SAFETY: `c_device_init` wrote both fields.
    let (id, flags) = unsafe { ((*dev.get()).id, (*dev.get()).flags) };
    assert_eq!((id, flags), (7, 0x8000));
    // The C side may write through a shared reference.
    // SAFETY: Initialised above; nothing else reads it meanwhile.
    unsafe { (*dev.get()).flags |= 1 };
    // SAFETY: As above.
    assert_eq!(unsafe { (*dev.get()).flags }, 0x8001);
    assert_eq!(
        Opaque::cast_from(dev.get()),
        &*dev as *const Opaque<CDevice>
    );
}

#[test]
fn try_ffi_init_fails_into_a_box() {
    let failed = KBox::pin_init(
        Opaque::<CDevice>::try_ffi_init(|_slot| Err::<(), Error>(EBUSY)),
        GFP_KERNEL,
    );
    assert!(matches!(failed, Err(e) if e == EBUSY));
    let done = KBox::pin_init(
        Opaque::<u64>::try_ffi_init(|slot| {
            // SAFETY: `slot` is valid for writes.
            unsafe { slot.write(u64::MAX) };
            Ok::<(), Error>(())
        }),
        GFP_KERNEL,
    )
    .unwrap();
    // SAFETY: Written above.
    assert_eq!(unsafe { *done.get() }, u64::MAX);
}

#[test]
fn wrapper_pin_init_drops_nothing_on_failure() {
    /// Counts its drops.
    struct Counted<'a>(&'a Cell<u32>);
    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }
    let drops = Cell::new(0);
    let init = <Opaque<Counted<'_>> as Wrapper<Counted<'_>>>::pin_init(Counted(&drops));
    let boxed = KBox::pin_init(init, GFP_KERNEL).unwrap();
    drop(boxed); // `Opaque` never drops its content, as in the kernel
    assert_eq!(drops.get(), 0);

    // SAFETY: The closure fails without touching the slot.
    let failing =
        unsafe { pin_init::pin_init_from_closure::<Counted<'_>, Error>(|_slot| Err(EBUSY)) };
    let init = <Opaque<Counted<'_>> as Wrapper<Counted<'_>>>::pin_init(failing);
    let mut place = core::mem::MaybeUninit::<Opaque<Counted<'_>>>::uninit();
    // SAFETY: `place` is valid for writes and does not move.
    let result = unsafe { pin_init::raw_try_init(place.as_mut_ptr(), init) };
    assert_eq!(result, Err(EBUSY));
    assert_eq!(drops.get(), 0);
}

#[test]
fn opaque_constants_and_zeroes() {
    // `Opaque` is not `Sync`, so no `static`; its constructors are `const`.
    let shared = const { Opaque::<[u8; 4]>::zeroed() };
    // SAFETY: Zero bytes are a valid `[u8; 4]`.
    assert_eq!(unsafe { *shared.get() }, [0; 4]);
    let slot = const { Opaque::<u32>::uninit() };
    // SAFETY: Writing first, then reading what was written.
    unsafe {
        slot.get().write(3);
        assert_eq!(*slot.get(), 3);
    }
    let value = const { Opaque::new(7_u8) };
    // SAFETY: Initialised by `new`.
    assert_eq!(unsafe { *value.get() }, 7);
}

#[test]
fn scope_guard_runs_during_a_panic() {
    let cleaned = Cell::new(false);
    let result = catch_unwind(AssertUnwindSafe(|| {
        let _guard = ScopeGuard::new(|| cleaned.set(true));
        panic!("probe failed");
    }));
    assert!(result.is_err());
    assert!(cleaned.get());

    // Guards run in reverse order of creation, as values drop.
    let order = Cell::new(0_u32);
    {
        let _first = ScopeGuard::new(|| order.set(order.get() * 10 + 1));
        let _second = ScopeGuard::new(|| order.set(order.get() * 10 + 2));
    }
    assert_eq!(order.get(), 21);
}

#[test]
fn boxes_round_trip_through_c_and_drop_once() {
    /// Counts its drops.
    struct Counted<'a>(&'a Cell<u32>, [u64; 3]);
    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }
    let drops = Cell::new(0);
    let ptr = KBox::new(Counted(&drops, [1, 2, 3]), GFP_KERNEL)
        .unwrap()
        .into_foreign();
    // SAFETY: `ptr` comes from `into_foreign`; the borrows end before `from_foreign`.
    unsafe {
        KBox::<Counted<'_>>::borrow_mut(ptr).1[0] = 10;
        assert_eq!(KBox::<Counted<'_>>::borrow(ptr).1, [10, 2, 3]);
    }
    assert_eq!(drops.get(), 0);
    // SAFETY: Taken back once.
    drop(unsafe { KBox::<Counted<'_>>::from_foreign(ptr) });
    assert_eq!(drops.get(), 1);

    let pinned = KBox::pin(Counted(&drops, [0; 3]), GFP_KERNEL).unwrap();
    let ptr = pinned.into_foreign();
    // SAFETY: `ptr` comes from `into_foreign`; the borrow ends before `try_from_foreign`.
    let view = unsafe { Pin::<KBox<Counted<'_>>>::borrow_mut(ptr) };
    assert_eq!(view.1, [0; 3]);
    // SAFETY: Taken back once.
    drop(unsafe { Pin::<KBox<Counted<'_>>>::try_from_foreign(ptr) });
    assert_eq!(drops.get(), 2);
}

#[test]
fn unit_round_trips_through_c() {
    let ptr = ().into_foreign();
    assert!(!ptr.is_null());
    // SAFETY: `ptr` comes from `into_foreign`.
    unsafe {
        <()>::borrow(ptr);
        <()>::borrow_mut(ptr);
        <() as ForeignOwnable>::from_foreign(ptr);
    }
}

#[test]
fn byte_views_against_plain_conversions() {
    #[repr(C)]
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Pair {
        a: u32,
        b: u16,
        c: u16,
    }
    // SAFETY: Integers only.
    unsafe impl FromBytes for Pair {}
    // SAFETY: Integers only, no padding.
    unsafe impl AsBytes for Pair {}

    let value = Pair {
        a: 0x0102_0304,
        b: 0x0506,
        c: 0x0708,
    };
    let mut expected = Vec::new();
    expected.extend_from_slice(&value.a.to_ne_bytes());
    expected.extend_from_slice(&value.b.to_ne_bytes());
    expected.extend_from_slice(&value.c.to_ne_bytes());
    assert_eq!(value.as_bytes(), &expected[..]);

    for offset in 0..4 {
        let mut buffer = [0_u8; 16];
        buffer[offset..offset + 8].copy_from_slice(&expected);
        assert_eq!(
            Pair::from_bytes_copy(&buffer[offset..offset + 8]),
            Some(value)
        );
        let (copy, rest) = Pair::from_bytes_copy_prefix(&buffer[offset..]).unwrap();
        assert_eq!((copy, rest.len()), (value, 8 - offset));
        match Pair::from_bytes(&buffer[offset..offset + 8]) {
            Some(view) => {
                assert_eq!(*view, value);
                assert!(core::ptr::from_ref(view).is_aligned());
            }
            None => assert!(!buffer[offset..].as_ptr().cast::<Pair>().is_aligned()),
        }
    }

    let mut words = [0_u32; 4];
    let bytes = words.as_bytes_mut();
    bytes[4..8].copy_from_slice(&9_u32.to_ne_bytes());
    let (first, rest) = u32::from_bytes_mut_prefix(bytes).unwrap();
    *first = 1;
    rest[8..12].copy_from_slice(&7_u32.to_ne_bytes());
    assert_eq!(words, [1, 9, 0, 7]);
    let view = <[u32; 4]>::from_bytes_mut(words.as_bytes_mut()).unwrap();
    view[2] = 5;
    assert_eq!(words, [1, 9, 5, 7]);
}
