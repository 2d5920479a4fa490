// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A 64-bit atomic for the host's own bookkeeping (record numbers, allocation counts) on every
//! host: `core`'s `AtomicU64` where the target has 64-bit atomics, and where it has none
//! (32-bit PowerPC, one of CI's emulated hosts) a `u64` behind a mutex with the same methods.
//! The orderings are then those of the mutex, which is at least as strong as any asked for.

#[cfg(target_has_atomic = "64")]
pub(crate) use core::sync::atomic::AtomicU64;

#[cfg(not(target_has_atomic = "64"))]
pub(crate) use fallback::AtomicU64;

#[cfg(not(target_has_atomic = "64"))]
mod fallback {
    use core::sync::atomic::Ordering;
    use std::sync::{Mutex, MutexGuard, PoisonError};

    /// `AtomicU64`'s methods that kernel-core uses, over a mutex.
    #[derive(Debug, Default)]
    pub(crate) struct AtomicU64(Mutex<u64>);

    impl AtomicU64 {
        pub(crate) const fn new(value: u64) -> Self {
            Self(Mutex::new(value))
        }

        fn value(&self) -> MutexGuard<'_, u64> {
            // A panic while the lock is held cannot leave a `u64` half-written.
            self.0.lock().unwrap_or_else(PoisonError::into_inner)
        }

        pub(crate) fn load(&self, _: Ordering) -> u64 {
            *self.value()
        }

        pub(crate) fn store(&self, value: u64, _: Ordering) {
            *self.value() = value;
        }

        pub(crate) fn fetch_add(&self, value: u64, _: Ordering) -> u64 {
            let mut current = self.value();
            let old = *current;
            *current = old.wrapping_add(value);
            old
        }

        pub(crate) fn compare_exchange(
            &self,
            expected: u64,
            new: u64,
            _: Ordering,
            _: Ordering,
        ) -> Result<u64, u64> {
            let mut current = self.value();
            if *current == expected {
                *current = new;
                Ok(expected)
            } else {
                Err(*current)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::AtomicU64;
    use core::sync::atomic::Ordering::Relaxed;

    #[test]
    fn counts_past_32_bits() {
        let a = AtomicU64::new(u64::from(u32::MAX));
        assert_eq!(a.fetch_add(2, Relaxed), u64::from(u32::MAX));
        assert_eq!(a.load(Relaxed), 1 << 32 | 1);
        assert_eq!(a.compare_exchange(1, 0, Relaxed, Relaxed), Err(1 << 32 | 1));
        assert_eq!(
            a.compare_exchange(1 << 32 | 1, 7, Relaxed, Relaxed),
            Ok(1 << 32 | 1)
        );
        a.store(u64::MAX, Relaxed);
        assert_eq!(a.fetch_add(1, Relaxed), u64::MAX);
        assert_eq!(a.load(Relaxed), 0);
    }
}
