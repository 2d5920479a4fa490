// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Every cell whose architecture has SMP runs an SMP kernel on two virtual CPUs or more,
//! because a driver's races, lock-order bugs and missing locks only show where CPUs run at
//! once: on a uniprocessor kernel a spinlock is only a preemption toggle.
//!
//! This suite proves it from inside the guest. It runs work on every online CPU at once
//! (`kbuild/every_cpu.c`: each CPU waits in `on_each_cpu()`'s IPI until all have arrived), and
//! checks that at least two CPUs are online, that each of them ran the work, and that atomic
//! updates from all of them at once add up. A kernel built without `CONFIG_SMP`, or booted on
//! one CPU, fails it. UML has no SMP: there its cases are compiled out (`#[cfg(CONFIG_SMP)]`),
//! and KUnit reports them skipped.

#[kernel_core::kunit::kunit_tests(kernel_core_smp)]
mod tests {
    #[cfg_attr(not(CONFIG_SMP), allow(unused_imports))]
    use core::ffi::{c_uint, c_void};
    #[cfg_attr(not(CONFIG_SMP), allow(unused_imports))]
    use core::sync::atomic::{AtomicU32, Ordering};

    #[cfg(CONFIG_SMP)]
    extern "C" {
        fn kernel_core_online_cpus() -> c_uint;
        fn kernel_core_on_every_cpu(
            work: unsafe extern "C" fn(data: *mut c_void, cpu: c_uint),
            data: *mut c_void,
        ) -> c_uint;
    }

    /// What the CPUs did: a bit per CPU that ran the work, and a count they all added to.
    #[cfg(CONFIG_SMP)]
    struct Seen {
        cpus: AtomicU32,
        total: AtomicU32,
    }

    /// How many atomic additions each CPU makes.
    #[cfg(CONFIG_SMP)]
    const ADDS: u32 = 100_000;

    #[cfg(CONFIG_SMP)]
    unsafe extern "C" fn work(data: *mut c_void, cpu: c_uint) {
        // SAFETY: `data` is the case's `Seen`, alive until every CPU has returned.
        let seen = unsafe { &*data.cast::<Seen>() };
        seen.cpus.fetch_or(1 << (cpu % 32), Ordering::Relaxed);
        for _ in 0..ADDS {
            seen.total.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[cfg(CONFIG_SMP)]
    #[test]
    fn at_least_two_cpus_are_online() {
        // SAFETY: no requirement.
        let online = unsafe { kernel_core_online_cpus() };
        assert!(online >= 2, "an SMP cell boots on two CPUs or more");
    }

    #[cfg(CONFIG_SMP)]
    #[test]
    fn every_cpu_runs_work_at_once() {
        let seen = Seen {
            cpus: AtomicU32::new(0),
            total: AtomicU32::new(0),
        };
        // SAFETY: `work` only uses `seen`, which outlives the call.
        let together =
            unsafe { kernel_core_on_every_cpu(work, core::ptr::addr_of!(seen).cast_mut().cast()) };
        // SAFETY: no requirement.
        let online = unsafe { kernel_core_online_cpus() };
        assert!(together >= 2, "the CPUs ran the work at the same time");
        assert_eq!(together, online);
        assert_eq!(seen.cpus.load(Ordering::Relaxed).count_ones(), online);
        assert_eq!(seen.total.load(Ordering::Relaxed), online * ADDS);
    }
}
