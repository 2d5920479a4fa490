// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: kernel-core's `CondVar` on real threads: a bounded queue with producers and
//! consumers, every waiter woken by `notify_all`, a timed wait woken before its timeout (with
//! jiffies left) and one that times out, and the wait's lock held again on return. The
//! kernel's wake-up rules hold: a notification with no waiter is lost, a waiter queued before
//! it unlocked is not (no wake-up between the unlock and the sleep is missed).
//!
//! Every test here also runs under Miri:
//! `cargo +nightly miri test -p kernel-core-tests --test sync_condvar`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use kernel_core::prelude::*;
use kernel_core::sync::{
    new_condvar, new_mutex, new_spinlock, CondVar, CondVarTimeoutResult, Mutex, SpinLock,
};

/// Items through the queue.
const ITEMS: usize = if cfg!(miri) { 12 } else { 2_000 };

/// The queue's capacity: small, so that producers wait for room as consumers wait for items.
const CAPACITY: usize = 4;

/// A bounded queue behind a mutex, with a condition variable for each direction.
#[pin_data]
struct Queue {
    #[pin]
    items: Mutex<KVec<usize>>,
    #[pin]
    not_empty: CondVar,
    #[pin]
    not_full: CondVar,
}

impl Queue {
    fn new() -> impl PinInit<Self> {
        pin_init!(Self {
            items <- new_mutex!(KVec::new()),
            not_empty <- new_condvar!("not_empty"),
            not_full <- new_condvar!("not_full"),
        })
    }

    fn push(&self, item: usize) {
        let mut items = self.items.lock();
        while items.len() == CAPACITY {
            self.not_full.wait(&mut items);
        }
        items.push(item, GFP_KERNEL).expect("within capacity");
        drop(items);
        self.not_empty.notify_one();
    }

    fn pop(&self) -> usize {
        let mut items = self.items.lock();
        while items.is_empty() {
            self.not_empty.wait(&mut items);
        }
        let item = items.remove(0).expect("not empty");
        drop(items);
        self.not_full.notify_one();
        item
    }
}

#[test]
fn producers_and_consumers_pass_every_item_once() -> Result {
    let queue = KBox::pin_init(Queue::new(), GFP_KERNEL)?;
    let queue: &Queue = &queue;
    let sum = AtomicUsize::new(0);
    thread::scope(|s| {
        for producer in 0..2 {
            s.spawn(move || {
                for item in (producer..ITEMS).step_by(2) {
                    queue.push(item);
                }
            });
        }
        for _ in 0..2 {
            let sum = &sum;
            s.spawn(move || {
                for _ in 0..ITEMS / 2 {
                    sum.fetch_add(queue.pop(), Ordering::Relaxed);
                }
            });
        }
    });
    assert_eq!(sum.load(Ordering::Relaxed), ITEMS * (ITEMS - 1) / 2);
    assert!(queue.items.lock().is_empty());
    Ok(())
}

/// A flag behind a spinlock, and the condition variable of its changes.
#[pin_data]
struct Gate {
    #[pin]
    open: SpinLock<bool>,
    #[pin]
    changed: CondVar,
}

fn gate() -> Result<Pin<KBox<Gate>>> {
    KBox::pin_init(
        pin_init!(Gate {
            open <- new_spinlock!(false),
            changed <- new_condvar!(),
        }),
        GFP_KERNEL,
    )
}

#[test]
fn notify_all_wakes_every_waiter() -> Result {
    let gate = gate()?;
    let gate: &Gate = &gate;
    let waiting = AtomicUsize::new(0);
    thread::scope(|s| {
        for _ in 0..3 {
            let waiting = &waiting;
            s.spawn(move || {
                let mut open = gate.open.lock();
                waiting.fetch_add(1, Ordering::Relaxed);
                while !*open {
                    gate.changed.wait(&mut open);
                }
            });
        }
        // Each waiter counts itself under the lock, before its first wait: once all three have,
        // the notification below cannot come before any of them queued itself.
        while waiting.load(Ordering::Relaxed) < 3 {
            thread::yield_now();
        }
        *gate.open.lock() = true;
        gate.changed.notify_all();
    });
    Ok(())
}

#[test]
fn a_timed_wait_is_woken_with_time_left() -> Result {
    let gate = gate()?;
    let gate: &Gate = &gate;
    thread::scope(|s| {
        let mut open = gate.open.lock();
        s.spawn(move || {
            // Takes the lock once the waiter gave it up in its wait.
            *gate.open.lock() = true;
            gate.changed.notify_sync();
        });
        // A long timeout (250 jiffies: a second), which the notification ends early; a
        // spurious wake-up would go round again.
        let mut left = 250;
        while !*open {
            match gate.changed.wait_interruptible_timeout(&mut open, left) {
                CondVarTimeoutResult::Woken { jiffies } => left = jiffies,
                CondVarTimeoutResult::Timeout => panic!("the notification came first"),
                CondVarTimeoutResult::Signal { .. } => panic!("no signals on the host"),
            }
        }
        assert!(left > 0);
    });
    Ok(())
}

#[test]
fn a_timed_wait_without_notification_times_out_with_the_lock_held() -> Result {
    let value = KBox::pin_init(new_mutex!(1_u32), GFP_KERNEL)?;
    let changed = KBox::pin_init(new_condvar!(), GFP_KERNEL)?;
    // A notification before the wait is lost.
    changed.notify_all();
    let mut guard = value.lock();
    let result = changed.wait_interruptible_timeout(&mut guard, 1);
    assert!(matches!(result, CondVarTimeoutResult::Timeout));
    assert!(value.try_lock().is_none());
    *guard += 1;
    drop(guard);
    assert_eq!(*value.lock(), 2);
    // Interruptible waits see no signal: `false`, once notified.
    Ok(())
}

#[test]
fn interruptible_waits_report_no_signal() -> Result {
    let gate = gate()?;
    let gate: &Gate = &gate;
    thread::scope(|s| {
        let mut open = gate.open.lock();
        s.spawn(move || {
            *gate.open.lock() = true;
            gate.changed.notify_one();
        });
        while !*open {
            assert!(!gate.changed.wait_interruptible(&mut open));
        }
        *open = false;
        drop(open);
        s.spawn(move || {
            *gate.open.lock() = true;
            gate.changed.notify_all();
        });
        let mut open = gate.open.lock();
        while !*open {
            assert!(!gate.changed.wait_interruptible_freezable(&mut open));
        }
    });
    Ok(())
}

#[cfg(not(miri))]
#[test]
fn with_virtual_time_a_timed_wait_times_out_at_once() -> Result {
    use kernel_core::extras::virtual_time::VirtualTime;
    use kernel_core::time::{Delta, Instant, Monotonic};

    let value = KBox::pin_init(new_mutex!(()), GFP_KERNEL)?;
    let changed = KBox::pin_init(new_condvar!(), GFP_KERNEL)?;
    let _time = VirtualTime::start();
    let start = Instant::<Monotonic>::now();
    let real = std::time::Instant::now();
    let mut guard = value.lock();
    // 1,000 jiffies: four seconds of the thread's virtual time, none of the real clock's.
    let result = changed.wait_interruptible_timeout(&mut guard, 1_000);
    assert!(matches!(result, CondVarTimeoutResult::Timeout));
    assert_eq!(start.elapsed(), Delta::from_secs(4));
    assert!(real.elapsed() < std::time::Duration::from_secs(2));
    Ok(())
}
