// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Waiting on the host: `fsleep`, `udelay`, `cpu_relax`, `might_sleep` and `msecs_to_jiffies`
//! as `cargo` builds them, and the per-thread virtual time of
//! [`extras::virtual_time`](crate::extras::virtual_time).
//!
//! Its twin is `env/kernel/delay.rs`. The callers (`time::delay`, `io::poll`, `time`) clamp and
//! round first, as the kernel crate does; what arrives here is what the kernel's C receives.

/// Items that need a way to wait, and so a clock: on the host, with `std` on Linux (the
/// conditions of `time::Monotonic`); in the kernel, always.
macro_rules! with_sleep {
    ($($item:item)*) => {$(
        #[cfg(all(feature = "std", target_os = "linux"))]
        #[cfg_attr(docsrs, doc(cfg(all(feature = "std", target_os = "linux"))))]
        $item
    )*};
}
pub(crate) use with_sleep;

/// Items of the host alone, with `std` on Linux: nothing in the kernel.
macro_rules! host_std_only {
    ($($item:item)*) => {$(
        #[cfg(all(feature = "std", target_os = "linux"))]
        #[cfg_attr(docsrs, doc(cfg(all(feature = "std", target_os = "linux"))))]
        $item
    )*};
}
pub(crate) use host_std_only;

/// The host's `HZ`: 250, the default of `kernel/Kconfig.hz` (and of Debian's and Android's
/// kernels). A jiffy is then 4 ms.
pub(crate) const HZ: u32 = 250;

// `msecs_to_jiffies` below uses the formula for an `HZ` that divides 1000.
const _: () = assert!(HZ <= 1_000 && 1_000 % HZ == 0);

/// `__msecs_to_jiffies()` of `kernel/time/time.c` for [`HZ`]: "negative" values (as an `int`)
/// mean an infinite timeout, `MAX_JIFFY_OFFSET`; others round up to whole jiffies.
pub(crate) fn msecs_to_jiffies(msecs: u32) -> usize {
    // `((LONG_MAX >> 1) - 1)` of `include/linux/jiffies.h`.
    const MAX_JIFFY_OFFSET: usize = (isize::MAX as usize >> 1) - 1;
    const MSECS_PER_JIFFY: u32 = 1_000 / HZ;
    if msecs > i32::MAX as u32 {
        return MAX_JIFFY_OFFSET;
    }
    // Below 2^31, so the sum cannot overflow.
    msecs.div_ceil(MSECS_PER_JIFFY) as usize
}

#[cfg(all(feature = "std", target_os = "linux"))]
pub(crate) use waiting::*;

#[cfg(all(feature = "std", target_os = "linux"))]
mod waiting {
    use std::cell::Cell;

    /// `MAX_UDELAY_MS` of `include/linux/delay.h` where the architecture does not set its own
    /// (x86, arm64, riscv): the longest `udelay()` the kernel crate allows, in milliseconds.
    pub(crate) const MAX_UDELAY_MS: i64 = 5;

    /// `might_sleep()`: the seam of the host's sleeping-in-atomic check
    /// (`env/host/sync/hooks.rs`), with the caller's location.
    #[inline]
    #[track_caller]
    pub(crate) fn might_sleep() {
        crate::env::sync::hooks::might_sleep(core::panic::Location::caller());
    }

    /// The virtual time of one thread, while an `extras::virtual_time::VirtualTime` lives.
    #[derive(Clone, Copy)]
    struct Virtual {
        /// The monotonic clock's reading, in nanoseconds.
        now: i64,
        /// What a `cpu_relax()` costs, in nanoseconds, when the time did not move since the
        /// previous one (a polling round that did not wait).
        spin: i64,
        /// `now` at the previous `cpu_relax()` (at the start, before the first).
        relaxed_at: i64,
    }

    std::thread_local! {
        static VIRTUAL: Cell<Option<Virtual>> = const { Cell::new(None) };
    }

    /// The monotonic clock of this thread, if its time is virtual.
    #[inline]
    pub(crate) fn virtual_now() -> Option<i64> {
        VIRTUAL.with(|v| v.get().map(|v| v.now))
    }

    /// Makes this thread's time virtual, at `now` nanoseconds, a `cpu_relax()` that follows
    /// no wait costing `spin` nanoseconds. Returns `false`, changing nothing, if it already is.
    pub(crate) fn virtual_enter(now: i64, spin: i64) -> bool {
        VIRTUAL.with(|v| match v.get() {
            Some(_) => false,
            None => {
                v.set(Some(Virtual {
                    now,
                    spin,
                    relaxed_at: now,
                }));
                true
            }
        })
    }

    /// Makes this thread's time real again.
    pub(crate) fn virtual_leave() {
        VIRTUAL.with(|v| v.set(None));
    }

    /// Sets what one `cpu_relax()` costs in this thread's virtual time.
    pub(crate) fn virtual_set_spin(spin: i64) {
        VIRTUAL.with(|v| {
            if let Some(state) = v.get() {
                v.set(Some(Virtual { spin, ..state }));
            }
        });
    }

    /// Moves this thread's virtual time by `nanos`; `false` if its time is real.
    ///
    /// # Panics
    ///
    /// If the time would leave `0..=KTIME_MAX`.
    pub(crate) fn virtual_advance(nanos: i64) -> bool {
        VIRTUAL.with(|v| match v.get() {
            None => false,
            Some(state) => {
                v.set(Some(Virtual {
                    now: moved(state.now, nanos),
                    ..state
                }));
                true
            }
        })
    }

    /// A `cpu_relax()` in virtual time: `spin` nanoseconds if the time did not move since the
    /// previous one, so that a polling loop that does not sleep still reaches its timeout;
    /// `false` if the time is real.
    fn virtual_relax() -> bool {
        VIRTUAL.with(|v| match v.get() {
            None => false,
            Some(state) => {
                let now = if state.now == state.relaxed_at {
                    moved(state.now, state.spin)
                } else {
                    state.now
                };
                v.set(Some(Virtual {
                    now,
                    relaxed_at: now,
                    ..state
                }));
                true
            }
        })
    }

    /// `now + nanos`, in `0..=KTIME_MAX`.
    fn moved(now: i64, nanos: i64) -> i64 {
        match now.checked_add(nanos) {
            Some(next) if next >= 0 => next,
            _ => panic!("virtual time cannot leave 0..=KTIME_MAX"),
        }
    }

    /// `fsleep(usecs)`: a real sleep of at least `usecs`, or as much virtual time.
    #[track_caller]
    pub(crate) fn fsleep(usecs: usize) {
        might_sleep();
        if !virtual_advance(usecs as i64 * 1_000) {
            std::thread::sleep(std::time::Duration::from_micros(usecs as u64));
        }
    }

    /// `udelay(usecs)`: a busy wait of at least `usecs` on the monotonic clock, or as much
    /// virtual time.
    pub(crate) fn udelay(usecs: usize) {
        if !virtual_advance(usecs as i64 * 1_000) {
            use super::super::clock::{read, MONOTONIC};
            let start = read(MONOTONIC);
            while read(MONOTONIC) - start < usecs as i64 * 1_000 {
                core::hint::spin_loop();
            }
        }
    }

    /// `cpu_relax()`: the processor's spin-loop hint, or a step of virtual time.
    #[inline]
    pub(crate) fn cpu_relax() {
        if !virtual_relax() {
            core::hint::spin_loop();
        }
    }
}
