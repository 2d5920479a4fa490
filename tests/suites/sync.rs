// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::sync`: locks, condition variables, completions, `Arc`, `SetOnce`, `LockedBy`,
//! reference counts and atomics, as a driver uses them on one thread.
//!
//! Written against Linux 7.3's API only, with behaviour the kernel's own types have: the same
//! file runs on the host (kernel-core's own locks) and in the kernel (the kernel's `Mutex`,
//! `SpinLock`, `Arc`, ..., and on 6.12 kernel-core's bridges to them). So it uses no threads and
//! asserts nothing that one world does differently: no saturated `Refcount` (the kernel warns),
//! no panicking misuse, and of a timed wait only that no signal ended it. What needs threads is
//! in the host-only `tests/sync_*.rs`.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_sync)]
mod tests {
    use core::cell::Cell;
    use core::marker::PhantomPinned;
    use core::ptr::NonNull;

    use kernel_core::prelude::*;
    use kernel_core::sync::aref::{ARef, AlwaysRefCounted};
    use kernel_core::sync::atomic::{
        atomic_load, atomic_store, cmpxchg, xchg, Acquire, Atomic, AtomicFlag, Full, Relaxed,
        Release,
    };
    use kernel_core::sync::barrier::{dma_mb, mb, smp_mb, Read, Write};
    use kernel_core::sync::lock::{Backend, Guard, Lock};
    use kernel_core::sync::{
        new_condvar, new_mutex, new_spinlock, new_spinlock_irq, static_lock_class, Arc,
        ArcBorrow, Completion, CondVar, CondVarTimeoutResult, LockClassKey, LockedBy, Mutex,
        Refcount, SetOnce, SpinLock, UniqueArc,
    };
    use pin_init::stack_pin_init;

    /// A value that counts how often it is dropped.
    struct Counted<'a> {
        drops: &'a Cell<usize>,
        value: u32,
    }

    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.drops.set(self.drops.get() + 1);
        }
    }

    /// Takes `lock` twice: the second attempt must fail while the first guard lives.
    /// Whether a held spinlock refuses `try_lock`: not on a uniprocessor kernel without
    /// spinlock debugging (UML's cell), where a spinlock only disables preemption and
    /// `spin_trylock()` always succeeds; everywhere else, the host included.
    const SPINLOCKS_EXCLUDE: bool = cfg!(any(not(kernel), CONFIG_SMP, CONFIG_DEBUG_SPINLOCK));

    fn exclusive<T, B: Backend>(lock: &Lock<T, B>) -> bool {
        let guard = lock.lock();
        let second = lock.try_lock().is_none();
        let same = core::ptr::eq(guard.lock_ref(), lock);
        drop(guard);
        let third = lock.try_lock().is_some();
        second && same && third
    }

    #[test]
    fn a_mutex_guards_its_data() -> Result {
        let m = KBox::pin_init(new_mutex!(0_u32), GFP_KERNEL)?;
        *m.lock() += 1;
        {
            let mut guard = m.lock();
            *guard += 2;
            assert_eq!(*guard, 3);
        }
        assert_eq!(*m.lock(), 3);
        assert!(exclusive(&m));
        Ok(())
    }

    #[test]
    fn spinlocks_guard_their_data() -> Result {
        stack_pin_init!(let s = new_spinlock!([0_u8; 4], "suite_spinlock"));
        s.lock()[2] = 7;
        assert_eq!(*s.lock(), [0, 0, 7, 0]);
        assert!(!SPINLOCKS_EXCLUDE || exclusive(&s));

        stack_pin_init!(let i = new_spinlock_irq!(5_i64));
        *i.lock() -= 6;
        assert_eq!(*i.lock(), -1);
        assert!(!SPINLOCKS_EXCLUDE || exclusive(&i));
        Ok(())
    }

    #[test]
    fn try_lock_fails_while_held_and_gives_the_data_after() -> Result {
        let m = KBox::pin_init(new_mutex!(10_u16), GFP_KERNEL)?;
        let held = m.lock();
        assert!(m.try_lock().is_none());
        drop(held);
        let guard = m.try_lock();
        assert_eq!(guard.as_deref(), Some(&10));
        Ok(())
    }

    #[test]
    fn a_lock_made_with_new_and_a_static_class() -> Result {
        let key = static_lock_class!();
        assert!(!key.as_ptr().is_null());
        let m = KBox::pin_init(Mutex::new(1_u8, c"suite_mutex", key), GFP_KERNEL)?;
        // A class of its own: two locks of one class held together, a mutex and a spinlock at
        // that, are what lockdep reports as recursive locking (Linux 6.12's did, here).
        let s = KBox::pin_init(SpinLock::new(2_u8, c"suite_spin", static_lock_class!()), GFP_KERNEL)?;
        assert_eq!(*m.lock() + *s.lock(), 3);
        // Two call sites, two classes: where a key holds anything. Without lockdep the kernel's
        // `lock_class_key` is an empty struct, and two empty statics may share an address (they
        // did on 7.3's riscv64 cell).
        if core::mem::size_of::<kernel_core::sync::LockClassKey>() != 0 {
            assert!(static_lock_class!().as_ptr() != static_lock_class!().as_ptr());
        }
        Ok(())
    }

    #[test]
    fn a_dynamic_class_key_is_made_and_dropped() -> Result {
        let key = KBox::pin_init(LockClassKey::new_dynamic(), GFP_KERNEL)?;
        assert!(!key.as_ptr().is_null());
        drop(key);
        Ok(())
    }

    #[test]
    fn a_guard_pins_data_that_is_not_unpin() -> Result {
        struct Pinned {
            value: u32,
            _pin: PhantomPinned,
        }
        let m = KBox::pin_init(
            new_mutex!(Pinned {
                value: 4,
                _pin: PhantomPinned,
            }),
            GFP_KERNEL,
        )?;
        let mut guard = m.lock();
        let pinned = guard.as_mut();
        assert_eq!(pinned.value, 4);
        assert_eq!(guard.value, 4);
        Ok(())
    }

    #[test]
    fn a_guard_can_be_made_for_a_held_lock() -> Result {
        let m = KBox::pin_init(new_mutex!(8_u32), GFP_KERNEL)?;
        let forgotten = core::mem::ManuallyDrop::new(m.lock());
        // SAFETY: This thread holds the lock, whose first guard is forgotten.
        let guard = unsafe { Guard::new(forgotten.lock_ref(), ()) };
        assert_eq!(*guard, 8);
        drop(guard);
        assert!(m.try_lock().is_some());
        Ok(())
    }

    #[test]
    fn locked_by_gives_access_to_the_owner_s_holder() -> Result {
        struct Directory {
            bytes: u64,
        }
        let dir = KBox::pin_init(new_mutex!(Directory { bytes: 0 }), GFP_KERNEL)?;
        let file = LockedBy::new(&dir, 0_u64);
        {
            let mut guard = dir.lock();
            guard.bytes += 10;
            *file.access_mut(&mut guard) += 10;
        }
        let guard = dir.lock();
        assert_eq!(*file.access(&guard), guard.bytes);
        Ok(())
    }

    #[test]
    fn a_global_lock_guards_its_static() {
        kernel_core::sync::global_lock! {
            // SAFETY: Initialised below, once, before its first use.
            unsafe(uninit) static SUITE_COUNTER: Mutex<u32> = 5;
        }
        // SAFETY: Called once, before any other use.
        unsafe { SUITE_COUNTER.init() };
        *SUITE_COUNTER.lock() += 1;
        assert_eq!(*SUITE_COUNTER.lock(), 6);
        let held = SUITE_COUNTER.lock();
        assert!(SUITE_COUNTER.try_lock().is_none());
        drop(held);

        let mut counted = kernel_core::sync::GlobalLockedBy::<u32, SUITE_COUNTER>::new(1);
        *counted.get_mut() += 1;
        let mut guard = SUITE_COUNTER.lock();
        *counted.as_mut(&mut guard) += 1;
        assert_eq!(*counted.as_ref(&guard), 3);
    }

    #[test]
    fn a_notification_without_waiters_is_lost_and_a_timed_wait_ends() -> Result {
        let value = KBox::pin_init(new_mutex!(0_u32), GFP_KERNEL)?;
        let changed: Pin<KBox<CondVar>> = KBox::pin_init(new_condvar!("suite_cv"), GFP_KERNEL)?;
        changed.notify_one();
        changed.notify_all();
        changed.notify_sync();
        let mut guard = value.lock();
        match changed.wait_interruptible_timeout(&mut guard, 1) {
            CondVarTimeoutResult::Timeout => {}
            // A spurious wake-up may end it early, with at most the jiffy it was given.
            CondVarTimeoutResult::Woken { jiffies } => assert!(jiffies <= 1),
            CondVarTimeoutResult::Signal { .. } => panic!("a signal in a test"),
        }
        // The lock is held again.
        *guard += 1;
        drop(guard);
        assert_eq!(*value.lock(), 1);
        Ok(())
    }

    #[test]
    fn a_completed_completion_does_not_wait() -> Result {
        let done = KBox::pin_init(Completion::new(), GFP_KERNEL)?;
        done.complete_all();
        done.wait_for_completion();
        done.wait_for_completion();
        Ok(())
    }

    #[test]
    fn set_once_is_set_once() {
        let drops = Cell::new(0);
        {
            let slot = SetOnce::new();
            assert!(slot.as_ref().is_none());
            assert!(slot.populate(Counted {
                drops: &drops,
                value: 1
            }));
            assert!(!slot.populate(Counted {
                drops: &drops,
                value: 2
            }));
            // The refused value was dropped.
            assert_eq!(drops.get(), 1);
            assert_eq!(slot.as_ref().map(|c| c.value), Some(1));
        }
        assert_eq!(drops.get(), 2);

        let copy = SetOnce::<u8>::default();
        assert_eq!(copy.copy(), None);
        assert!(copy.populate(9));
        assert_eq!(copy.copy(), Some(9));
    }

    #[test]
    fn atomics_of_every_width() {
        macro_rules! each {
            ($($ty:ty),*) => {$({
                let x = Atomic::<$ty>::new(40);
                assert_eq!(x.load(Relaxed), 40);
                x.store(41, Release);
                assert_eq!(x.load(Acquire), 41);
                assert_eq!(x.xchg(42, Full), 41);
                assert_eq!(x.xchg(43, Acquire), 42);
                assert_eq!(x.xchg(44, Release), 43);
                assert_eq!(x.xchg(45, Relaxed), 44);
                assert_eq!(x.cmpxchg(0, 1, Full), Err(45));
                assert_eq!(x.cmpxchg(45, 46, Relaxed), Ok(45));
                assert_eq!(x.cmpxchg(46, 47, Acquire), Ok(46));
                assert_eq!(x.cmpxchg(47, 48, Release), Ok(47));
                // SAFETY: `x` is alive and only accessed atomically.
                unsafe { atomic_store(x.as_ptr(), 49, Relaxed) };
                // SAFETY: As above.
                assert_eq!(unsafe { atomic_load(x.as_ptr(), Acquire) }, 49);
                // SAFETY: As above.
                assert_eq!(unsafe { xchg(x.as_ptr(), 50, Full) }, 49);
                // SAFETY: As above.
                assert_eq!(unsafe { cmpxchg(x.as_ptr(), 50, 51, Full) }, Ok(50));
                let mut x = x;
                *x.get_mut() += 1;
                assert_eq!(x.load(Relaxed), 52);
            })*};
        }
        each!(i8, i16, i32, i64, u32, u64, isize, usize);
    }

    #[test]
    fn atomic_arithmetic_wraps() {
        macro_rules! each {
            ($($ty:ty),*) => {$({
                let x = Atomic::<$ty>::new(<$ty>::MAX);
                x.add(1, Relaxed);
                assert_eq!(x.load(Relaxed), <$ty>::MIN);
                assert_eq!(x.fetch_sub(1, Full), <$ty>::MIN);
                assert_eq!(x.fetch_add(3, Acquire), <$ty>::MAX);
                assert_eq!(x.fetch_add(1, Release), <$ty>::MIN + 2);
                assert_eq!(x.fetch_sub(2, Relaxed), <$ty>::MIN + 3);
                assert_eq!(x.fetch_sub(1, Acquire), <$ty>::MIN + 1);
                assert_eq!(x.fetch_add(0, Full), <$ty>::MIN);
            })*};
        }
        each!(i32, i64, u32, u64, isize, usize);
    }

    #[test]
    fn atomic_bools_flags_and_pointers() {
        let b = Atomic::new(false);
        assert_eq!(b.cmpxchg(false, true, Full), Ok(false));
        assert!(b.load(Relaxed));

        let mut flag = AtomicFlag::new(false);
        assert!(!flag.xchg(true, Full));
        assert_eq!(flag.cmpxchg(false, true, Relaxed), Err(true));
        assert_eq!(flag.cmpxchg(true, false, Acquire), Ok(true));
        flag.store(true, Release);
        assert!(flag.load(Acquire));
        *flag.get_mut() = false;
        assert!(!flag.load(Relaxed));

        let mut a = 1_u32;
        let mut b = 2_u32;
        let p = Atomic::new(core::ptr::from_mut(&mut a));
        assert_eq!(p.xchg(core::ptr::from_mut(&mut b), Full), core::ptr::from_mut(&mut a));
        // SAFETY: `p` points to `b`, alive and not otherwise borrowed.
        assert_eq!(unsafe { *p.load(Acquire) }, 2);
        let c = Atomic::new(core::ptr::null::<u8>());
        assert!(c.load(Relaxed).is_null());
    }

    #[test]
    fn barriers_run() {
        mb(Read);
        mb(Write);
        mb(Full);
        smp_mb(Read);
        smp_mb(Write);
        smp_mb(Full);
        dma_mb(Read);
        dma_mb(Write);
        dma_mb(Full);
    }

    #[test]
    fn refcounts_count() {
        let r = Refcount::new(1);
        r.inc();
        r.inc();
        r.dec();
        assert_eq!(r.as_atomic().load(Relaxed), 2);
        assert!(!r.dec_and_test());
        assert!(r.dec_and_test());
        r.set(3);
        assert_eq!(r.as_atomic().load(Relaxed), 3);
    }

    #[test]
    fn arcs_share_and_drop_once() -> Result {
        let drops = Cell::new(0);
        let a = Arc::new(
            Counted {
                drops: &drops,
                value: 5,
            },
            GFP_KERNEL,
        )?;
        let b = a.clone();
        assert!(Arc::ptr_eq(&a, &b));
        assert!(core::ptr::eq(&*a, &*b));
        drop(a);
        assert_eq!(drops.get(), 0);
        assert_eq!(b.value, 5);
        drop(b);
        assert_eq!(drops.get(), 1);

        let other = Arc::new(5_u32, GFP_KERNEL)?;
        let twin = Arc::new(5_u32, GFP_KERNEL)?;
        assert!(!Arc::ptr_eq(&other, &twin));
        Ok(())
    }

    #[test]
    fn arcs_go_raw_and_come_back() -> Result {
        let a = Arc::new(77_u64, GFP_KERNEL)?;
        let raw = Arc::as_ptr(&a);
        let back_raw = a.into_raw();
        assert_eq!(raw, back_raw);
        // SAFETY: From `into_raw`, and the `Arc` it came from is gone, so its reference is ours.
        let borrowed = unsafe { ArcBorrow::from_raw(back_raw) };
        let again: Arc<u64> = borrowed.into();
        assert_eq!(*again, 77);
        // SAFETY: From `into_raw`, given back once.
        let a = unsafe { Arc::from_raw(back_raw) };
        assert!(Arc::ptr_eq(&a, &again));
        let borrow = a.as_arc_borrow();
        let copy = borrow;
        assert_eq!(*copy, 77);
        Ok(())
    }

    #[test]
    fn into_unique_or_drop_takes_the_last_reference_only() -> Result {
        let drops = Cell::new(0);
        let a = Arc::new(
            Counted {
                drops: &drops,
                value: 3,
            },
            GFP_KERNEL,
        )?;
        let b = a.clone();
        assert!(Arc::into_unique_or_drop(a).is_none());
        assert_eq!(drops.get(), 0);
        let unique = Arc::into_unique_or_drop(b).expect("the last reference");
        assert_eq!(unique.value, 3);
        drop(unique);
        assert_eq!(drops.get(), 1);
        Ok(())
    }

    #[test]
    fn unique_arcs_change_then_share() -> Result {
        let mut u = UniqueArc::new(10_u32, GFP_KERNEL)?;
        *u += 1;
        let shared: Arc<u32> = u.into();
        assert_eq!(*shared, 11);

        let slot = UniqueArc::<[u8; 3]>::new_uninit(GFP_KERNEL)?;
        let written = slot.write([1, 2, 3]);
        let pinned = Pin::from(written);
        let shared: Arc<[u8; 3]> = pinned.into();
        assert_eq!(*shared, [1, 2, 3]);

        let lock: Arc<SpinLock<u8>> = Arc::pin_init(new_spinlock!(4), GFP_KERNEL)?;
        *lock.lock() += 1;
        assert_eq!(*lock.clone().lock(), 5);

        let init: Arc<u16> = Arc::init(pin_init::init_zeroed(), GFP_KERNEL)?;
        assert_eq!(*init, 0);
        Ok(())
    }

    #[test]
    fn arefs_count_references_of_their_object() {
        struct Object {
            refs: Cell<usize>,
        }

        // SAFETY: The test's objects outlive every reference taken of them.
        unsafe impl AlwaysRefCounted for Object {
            fn inc_ref(&self) {
                self.refs.set(self.refs.get() + 1);
            }

            unsafe fn dec_ref(obj: NonNull<Self>) {
                // SAFETY: The caller gives back a reference, so `obj` is alive.
                let obj = unsafe { obj.as_ref() };
                obj.refs.set(obj.refs.get() - 1);
            }
        }

        let object = Object { refs: Cell::new(1) };
        let a = ARef::from(&object);
        let b = a.clone();
        assert_eq!(object.refs.get(), 3);
        drop(a);
        let raw = ARef::into_raw(b);
        assert_eq!(object.refs.get(), 2);
        // SAFETY: `raw` carries the reference `into_raw` kept.
        drop(unsafe { ARef::from_raw(raw) });
        assert_eq!(object.refs.get(), 1);
    }
}
