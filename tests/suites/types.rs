// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::types`: `ScopeGuard` runs its cleanup exactly once unless dismissed, `Opaque`
//! hands out pointers to its content, `()`, `KBox` and `Pin<KBox>` go to C and back as
//! `ForeignOwnable`, and `NotThreadSafe` is a zero-sized value. In the kernel these are the
//! kernel's own items.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_types)]
mod tests {
    use core::cell::Cell;
    use core::pin::Pin;
    use kernel_core::alloc::{flags::GFP_KERNEL, KBox};
    use kernel_core::types::{ForeignOwnable, NotThreadSafe, Opaque, ScopeGuard};

    #[test]
    fn scope_guard_runs_on_drop() {
        let runs = Cell::new(0);
        {
            let _guard = ScopeGuard::new(|| runs.set(runs.get() + 1));
            assert_eq!(runs.get(), 0);
        }
        assert_eq!(runs.get(), 1);
    }

    #[test]
    fn scope_guard_dismissed_does_not_run() {
        let runs = Cell::new(0);
        let guard = ScopeGuard::new_with_data(41, |_| runs.set(runs.get() + 1));
        assert_eq!(*guard + 1, 42);
        assert_eq!(guard.dismiss(), 41);
        assert_eq!(runs.get(), 0);
    }

    #[test]
    fn scope_guard_passes_its_data() {
        let seen = Cell::new(0);
        {
            let mut guard = ScopeGuard::new_with_data(1, |value| seen.set(value));
            *guard += 2;
        }
        assert_eq!(seen.get(), 3);
    }

    #[test]
    fn opaque_pointers() {
        let value = Opaque::new(0x55_u32);
        let ptr = value.get();
        assert_eq!(Opaque::cast_into(&value), ptr);
        assert_eq!(Opaque::cast_from(ptr), &value as *const Opaque<u32>);
        // SAFETY: Initialised by `new`; `Opaque` allows writes through a shared reference.
        unsafe { *ptr += 1 };
        // SAFETY: As above.
        assert_eq!(unsafe { *value.get() }, 0x56);

        let zeroed = Opaque::<[u64; 2]>::zeroed();
        // SAFETY: Zero bytes are a valid `[u64; 2]`.
        assert_eq!(unsafe { *zeroed.get() }, [0, 0]);

        let uninit = Opaque::<u16>::uninit();
        // SAFETY: The pointer is valid for writes; the value is read after it is written.
        unsafe { uninit.get().write(7) };
        // SAFETY: Written just above.
        assert_eq!(unsafe { *uninit.get() }, 7);
        assert_eq!(size_of::<Opaque<u16>>(), size_of::<u16>());
    }

    #[test]
    fn unit_is_foreign_ownable() {
        let ptr = ().into_foreign();
        assert!(!ptr.is_null());
        assert_eq!(<() as ForeignOwnable>::FOREIGN_ALIGN, align_of::<()>());
        assert!(ptr.is_aligned());
        // SAFETY: `ptr` comes from `into_foreign`.
        let () = unsafe { <()>::borrow(ptr) };
        // SAFETY: As above, and taken back once.
        let () = unsafe { <()>::from_foreign(ptr) };
        // SAFETY: Null is allowed.
        assert!(unsafe { <()>::try_from_foreign(core::ptr::null_mut()) }.is_none());
    }

    #[test]
    fn kbox_goes_to_c_and_back() {
        let Ok(state) = KBox::new(0x1234_u64, GFP_KERNEL) else {
            return;
        };
        let ptr = state.into_foreign();
        assert!(!ptr.is_null());
        assert_eq!(ptr.addr() % <KBox<u64> as ForeignOwnable>::FOREIGN_ALIGN, 0);
        assert!(<KBox<u64> as ForeignOwnable>::FOREIGN_ALIGN >= align_of::<u64>());
        // SAFETY: `ptr` comes from `into_foreign`; nothing else reaches it during the borrows.
        unsafe {
            *KBox::<u64>::borrow_mut(ptr) += 1;
            assert_eq!(*KBox::<u64>::borrow(ptr), 0x1235);
        }
        // SAFETY: As above, taken back once.
        let back = unsafe { KBox::<u64>::from_foreign(ptr) };
        assert_eq!(*back, 0x1235);
    }

    #[test]
    fn pinned_kbox_goes_to_c_and_back() {
        let Ok(state) = KBox::pin(Cell::new(7_u32), GFP_KERNEL) else {
            return;
        };
        let address = core::ptr::from_ref(&*state).addr();
        let ptr = state.into_foreign();
        assert_eq!(ptr.addr(), address); // never moved
        // SAFETY: `ptr` comes from `into_foreign`; nothing else reaches it during the borrow.
        let borrowed: Pin<&Cell<u32>> = unsafe { Pin::<KBox<Cell<u32>>>::borrow(ptr) };
        borrowed.set(8);
        // SAFETY: As above, taken back once.
        let back = unsafe { Pin::<KBox<Cell<u32>>>::from_foreign(ptr) };
        assert_eq!(back.get(), 8);
        // SAFETY: A null pointer is allowed.
        assert!(unsafe { KBox::<u8>::try_from_foreign(core::ptr::null_mut()) }.is_none());
    }

    #[test]
    fn not_thread_safe_is_zero_sized() {
        struct Local {
            value: u8,
            _marker: NotThreadSafe,
        }
        let local = Local {
            value: 1,
            _marker: NotThreadSafe,
        };
        assert_eq!(local.value, 1);
        assert_eq!(size_of::<Local>(), 1);
    }
}
