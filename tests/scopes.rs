// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: the checks of a test's scope as a `#[kunit_tests]` case meets them (through the
//! harness's own `run_case`): fault injection and what an error path must do after it, leaks
//! as kmemleak reports them, locks left held as lockdep reports them. Each planted bug must
//! fail its case with the kernel's title and the bug's site; each variant without the bug must
//! pass.
//!
//! Every test here also runs under Miri:
//! `cargo +nightly miri test -p kernel-core-tests --test scopes`.

use kernel_core::alloc::AllocError;
use kernel_core::extras::{fault, leak, scope};
use kernel_core::kunit::__rt::{error_text, run_case};
use kernel_core::prelude::*;
use kernel_core::sync::{Arc, Mutex, SpinLock};
use kernel_core::{new_mutex, new_spinlock};

/// Runs `case` as the harness runs a `#[kunit_tests]` case named `name` (also its KUnit name,
/// here): `Err` with the
/// failure's message if the case fails.
fn run<T, E: core::fmt::Debug>(
    name: &'static str,
    case: impl FnOnce() -> core::result::Result<T, E>,
) -> core::result::Result<(), String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_case(name, name, || case().err().map(|e| error_text(&e)))
    }))
    .map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

/// The line of this file `delta` lines after the caller's, as a report prints it.
#[track_caller]
fn here(delta: u32) -> String {
    let at = core::panic::Location::caller();
    format!("{}:{}:", at.file(), at.line() + delta)
}

// --- Fault injection -----------------------------------------------------------------------

/// A driver's probe: a table, then an index. Returns its error, as an error path must.
fn probe() -> Result<(KVec<u32>, KBox<[u8; 64]>)> {
    let mut table = KVec::new();
    table.push(7, GFP_KERNEL)?;
    let index = KBox::new([0; 64], GFP_KERNEL)?;
    Ok((table, index))
}

/// The same probe with the failure of its second allocation unchecked.
fn probe_unchecked() -> (KVec<u32>, KBox<[u8; 64]>) {
    let mut table = KVec::new();
    // THE BUG: the failure is not checked, and the code goes on as if it had succeeded.
    let _ = table.push(7, GFP_KERNEL);
    let first = table[0];
    let index = KBox::new([first as u8; 64], GFP_KERNEL).expect("an index");
    (table, index)
}

#[test]
fn an_injected_failure_that_is_returned_passes() {
    for n in 1..=2 {
        run("scopes::returned", || {
            fault::fail_nth(n);
            probe().map(drop)
        })
        .unwrap();
    }
}

#[test]
fn an_unchecked_injected_failure_fails_with_fault_injection_s_title_and_the_site() {
    let failure = run("scopes::unchecked", || {
        fault::fail_nth(1);
        let (table, _index) = probe_unchecked();
        Ok::<_, Error>(table.len())
    })
    .unwrap_err();
    assert!(
        failure.starts_with("FAULT_INJECTION: forcing a failure.\n"),
        "{failure}"
    );
    // The allocation that failed: the push in `probe_unchecked`.
    assert!(
        failure.contains("allocation 1 of the test failed, as fail_nth asked: kmalloc("),
        "{failure}"
    );
    assert!(failure.contains("GFP_KERNEL) at "), "{failure}");
    assert!(failure.contains("index out of bounds"), "{failure}");
    // Nothing else is reported after a panic (what it left behind is no news).
    assert!(!failure.contains("unreferenced object"), "{failure}");
}

#[test]
fn the_same_code_without_an_injected_failure_passes() {
    run("scopes::uninjected", || {
        let (table, index) = probe_unchecked();
        assert_eq!(index[0], 7);
        Ok::<_, Error>(table.len())
    })
    .unwrap();
}

#[test]
fn an_error_without_an_injected_failure_fails_the_test() {
    let failure = run("scopes::error", || Err::<(), _>(EINVAL)).unwrap_err();
    assert!(
        failure.starts_with("the test function returned an error: EINVAL"),
        "{failure}"
    );
}

#[test]
fn an_error_path_that_leaks_after_an_injected_failure_fails_with_kmemleak_s_report() {
    let mut leaked = None;
    let site = here(4);
    let failure = run("scopes::leaky_error_path", || -> Result {
        fault::fail_nth(2);
        // THE BUG: the first allocation is leaked when the second fails.
        let table = KBox::into_raw(KBox::new([0_u32; 4], GFP_KERNEL)?);
        leaked = Some(table);
        let _index = KBox::new([0_u8; 64], GFP_KERNEL)?;
        // SAFETY: `table` came from `KBox::into_raw` above.
        drop(unsafe { KBox::from_raw(table) });
        leaked = None;
        Ok(())
    })
    .unwrap_err();
    // SAFETY: The leaked box's pointer, from `KBox::into_raw`.
    drop(unsafe { KBox::from_raw(leaked.unwrap()) });
    assert!(failure.starts_with("unreferenced object 0x"), "{failure}");
    assert!(
        failure.lines().next().unwrap().ends_with("(size 16):"),
        "{failure}"
    );
    assert!(failure.contains(&format!("    {site}")), "{failure}");
    assert!(
        failure.contains("kmemleak: 1 new suspected memory leaks"),
        "{failure}"
    );
}

#[test]
fn fail_nth_counts_the_scope_s_points_and_reads_zero_once_injected() {
    let scope = scope::enter_as("scopes::counts");
    fault::fail_nth(3);
    let _a = KBox::new(1_u8, GFP_KERNEL).unwrap();
    assert_eq!(fault::read_fail_nth(), 2);
    let mut v = KVec::<u8>::with_capacity(1, GFP_KERNEL).unwrap();
    v.push(1, GFP_KERNEL).unwrap(); // fits: no point
    assert_eq!(v.push(2, GFP_KERNEL), Err(AllocError));
    assert_eq!(fault::read_fail_nth(), 0);
    assert_eq!(fault::injected().unwrap().allocation(), 3);
    assert_eq!(fault::allocations(), 3);
    // The vector kept its elements.
    assert_eq!(&v[..], [1]);
    drop((v, _a));
    scope.finish().unwrap();
}

#[test]
fn outside_every_scope_nothing_is_injected() {
    let scope = scope::enter_as("scopes::outside");
    fault::fail_nth(1);
    // Another thread, not attached: its allocations are no one's.
    std::thread::spawn(|| KBox::new(1_u8, GFP_KERNEL).map(drop))
        .join()
        .unwrap()
        .unwrap();
    assert_eq!(fault::allocations(), 0);
    assert_eq!(KBox::new(1_u8, GFP_KERNEL).err(), Some(AllocError));
    scope.finish().unwrap();
}

// --- Leaks ---------------------------------------------------------------------------------

#[test]
fn a_leaked_kbox_fails_with_kmemleak_s_report_and_its_site() {
    let mut leaked: Option<*mut [u8; 24]> = None;
    let site = here(2);
    let failure = run("scopes::leaked_kbox", || {
        let kept: &'static mut [u8; 24] = KBox::leak(KBox::new([0; 24], GFP_KERNEL)?);
        kept[0] = 1;
        leaked = Some(kept);
        Ok::<(), Error>(())
    })
    .unwrap_err();
    // SAFETY: The leaked box's pointer, from `KBox::leak`.
    drop(unsafe { KBox::from_raw(leaked.unwrap()) });
    let mut lines = failure.lines();
    let first = lines.next().unwrap();
    assert!(first.starts_with("unreferenced object 0x"), "{failure}");
    assert!(first.ends_with(" (size 24):"), "{failure}");
    assert!(lines.next().unwrap().starts_with("  comm \""), "{failure}");
    assert_eq!(lines.next(), Some("  backtrace:"), "{failure}");
    let trace = lines.next().unwrap();
    assert!(
        trace.starts_with(&format!("    {site}")),
        "{trace} vs {site}"
    );
    assert!(trace.ends_with(" (kmalloc)"), "{trace}");
}

#[test]
fn a_freed_kbox_passes() {
    run("scopes::freed_kbox", || {
        let kept = KBox::new([0_u8; 24], GFP_KERNEL)?;
        drop(kept);
        Ok::<(), Error>(())
    })
    .unwrap();
}

#[test]
fn leaked_kvecs_and_arcs_are_reported_one_entry_per_site() {
    let mut vecs = std::vec::Vec::new();
    let mut arc = None;
    let failure = run("scopes::leaked_many", || {
        for i in 0..3 {
            let mut v = KVec::new();
            v.push(i, GFP_KERNEL)?;
            vecs.push(v.into_raw_parts());
        }
        arc = Some(Arc::into_raw(Arc::new(5_u64, GFP_KERNEL)?));
        Ok::<(), Error>(())
    })
    .unwrap_err();
    for (ptr, len, capacity) in vecs {
        // SAFETY: The parts of a vector, from `into_raw_parts`.
        drop(unsafe { KVec::from_raw_parts(ptr, len, capacity) });
    }
    // SAFETY: The pointer of an `Arc`, from `into_raw`.
    drop(unsafe { Arc::from_raw(arc.unwrap()) });
    assert_eq!(
        failure.matches("unreferenced object 0x").count(),
        2,
        "{failure}"
    );
    assert!(
        failure.contains("  ... and 2 more object(s) with the same backtrace"),
        "{failure}"
    );
    assert!(
        failure.contains("kmemleak: 4 new suspected memory leaks"),
        "{failure}"
    );
}

#[test]
fn a_test_that_keeps_an_object_says_so() {
    let mut table: Option<*mut [u32; 8]> = None;
    run("scopes::not_leak", || {
        let kept: &'static mut [u32; 8] = KBox::leak(KBox::new([0; 8], GFP_KERNEL)?);
        assert!(leak::not_leak(kept.as_ptr()));
        table = Some(kept);
        Ok::<(), Error>(())
    })
    .unwrap();
    let mut byte: Option<*mut u8> = None;
    run("scopes::allow", || {
        leak::allow();
        byte = Some(KBox::leak(KBox::new(1_u8, GFP_KERNEL)?));
        Ok::<(), Error>(())
    })
    .unwrap();
    // SAFETY: The pointers of boxes, from `KBox::leak`.
    unsafe {
        drop(KBox::from_raw(table.unwrap()));
        drop(KBox::from_raw(byte.unwrap()));
    }
}

#[test]
fn an_attached_thread_s_leak_is_the_test_s() {
    let mut leaked: Option<&'static mut u16> = None;
    let failure = run("scopes::attached", || {
        leaked = Some(
            scope::spawn(|| KBox::leak(KBox::new(3_u16, GFP_KERNEL).unwrap()))
                .join()
                .unwrap(),
        );
        Ok::<(), Error>(())
    })
    .unwrap_err();
    // SAFETY: The pointer of a box, from `KBox::leak`.
    drop(unsafe { KBox::from_raw(leaked.unwrap()) });
    assert!(failure.starts_with("unreferenced object 0x"), "{failure}");
    assert!(failure.contains("(size 2):"), "{failure}");
}

#[test]
fn a_kvec_grown_by_a_helper_thread_and_freed_by_the_test_is_no_leak() {
    run("scopes::grown_elsewhere", || {
        let mut v = KVec::<u64>::new();
        v.push(1, GFP_KERNEL)?;
        let v = scope::spawn(move || {
            for i in 0..64 {
                v.push(i, GFP_KERNEL).unwrap();
            }
            v
        })
        .join()
        .unwrap();
        assert_eq!(v.len(), 65);
        drop(v);
        Ok::<(), Error>(())
    })
    .unwrap();
}

// --- Locks left held -----------------------------------------------------------------------

/// A reset that takes the device's lock, and on error forgets to release it (`bug`).
fn reset(state: &Mutex<u32>, bug: bool) -> Result {
    let guard = state.lock();
    let spare = KBox::new(0_u32, GFP_KERNEL);
    if spare.is_err() {
        if bug {
            // THE BUG: the error path returns with the lock held.
            core::mem::forget(guard);
        }
        return Err(ENOMEM);
    }
    drop(guard);
    Ok(())
}

#[test]
fn an_error_path_that_leaves_a_lock_held_fails_with_lockdep_s_report() {
    let state = KBox::pin_init(new_mutex!(0_u32, "dev_state"), GFP_KERNEL).unwrap();
    let failure = run("scopes::lock_held", || {
        fault::fail_nth(1);
        reset(&state, true)
    })
    .unwrap_err();
    let first = failure.lines().next().unwrap();
    assert!(first.starts_with("WARNING: "), "{failure}");
    assert!(first.ends_with(" still has locks held!"), "{failure}");
    assert!(failure.contains("1 lock held by "), "{failure}");
    assert!(
        failure.contains(" (dev_state){+.+.}-{4:4}, at: "),
        "{failure}"
    );
    // The lock was taken in `reset`, called from the case.
    assert!(failure.contains(file!()), "{failure}");
}

#[test]
fn an_error_path_that_releases_its_lock_passes() {
    let state = KBox::pin_init(new_mutex!(0_u32, "dev_state"), GFP_KERNEL).unwrap();
    run("scopes::lock_released", || {
        fault::fail_nth(1);
        reset(&state, false)
    })
    .unwrap();
    // And the lock is free.
    assert!(state.try_lock().is_some());
}

#[test]
fn a_spinlock_left_held_by_an_attached_thread_is_reported() {
    let lock: Arc<SpinLock<u8>> =
        Arc::pin_init(new_spinlock!(0_u8, "irq_state"), GFP_KERNEL).unwrap();
    let failure = run("scopes::spin_held", || {
        let lock = lock.clone();
        scope::spawn(move || core::mem::forget(lock.lock()))
            .join()
            .unwrap();
        Ok::<(), Error>(())
    })
    .unwrap_err();
    assert!(failure.contains("still has locks held!"), "{failure}");
    assert!(
        failure.contains(" (irq_state){+.+.}-{3:3}, at: "),
        "{failure}"
    );
}
