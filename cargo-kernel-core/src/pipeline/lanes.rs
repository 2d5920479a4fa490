// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Cells run side by side, each in its own lane.
//!
//! A run over many cells spends most of its time in one module build or one boot at a time,
//! each of which keeps one core busy. [`side_by_side`] runs `jobs` cells at once: the calling
//! thread prepares them one after another (the kernel's cache check or build, which says
//! what it does), the longest first ([`longest_first`]), and `jobs` workers run them.
//!
//! Everything a cell's work emits carries the cell's lane ([`Lane`]): the calling thread's
//! reporters go along into each worker ([`Events::enter`]). The lanes open with
//! [`Event::RunStarted`] and each ends with [`Event::LaneFinished`], so that the terminal
//! can print the lanes' lines as if the cells had run one after another, in order
//! ([`crate::report::terminal`]).

use crate::model::event::{self, Event, Events, Lane};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Mutex, PoisonError};

/// The number of jobs when none is asked for: one per core.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs the items `0..names.len()`, `jobs` at a time, each in its own lane (item `i`'s lane
/// is the `i`-th, named `names[i]`, whatever the order they run in): `prepare(i)` on the
/// calling thread, for each `i` of `order` in turn (`None`: nothing to run), then
/// `work(i, prepared)` on one of `jobs` workers, which take the prepared items in that order.
/// Returns each item's result, by item; `None` for an item skipped, or not started because
/// one failed with an error for which `stops(error)` holds.
///
/// `order` is a permutation of `0..names.len()`: the longest items first keeps a long one from
/// running alone at the end ([`longest_first`]).
pub fn side_by_side<P: Send, T: Send>(
    names: &[String],
    order: &[usize],
    jobs: usize,
    mut prepare: impl FnMut(usize) -> anyhow::Result<Option<P>>,
    work: impl Fn(usize, P) -> anyhow::Result<T> + Sync,
    stops: impl Fn(&anyhow::Error) -> bool + Sync,
) -> Vec<Option<anyhow::Result<T>>> {
    let count = order.len();
    assert!(
        {
            let mut sorted = order.to_vec();
            sorted.sort_unstable();
            sorted.iter().copied().eq(0..count) && names.len() == count
        },
        "side_by_side: the order {order:?} is not a permutation of 0..{count}"
    );
    let events = Events::current();
    let lane = |i: usize| Lane {
        index: i,
        cell: names[i].clone(),
    };
    // In lane `i`, with the caller's reporters: what `f` emits is the lane's.
    let in_lane = |i: usize, f: &mut dyn FnMut()| {
        let _entered = events.as_ref().map(|e| e.enter(Some(lane(i))));
        f();
    };
    let finish = |i: usize| in_lane(i, &mut || drop(event::emit(&Event::LaneFinished)));
    let _ = event::emit(&Event::RunStarted { cells: count });
    let results: Vec<Mutex<Option<anyhow::Result<T>>>> =
        (0..count).map(|_| Mutex::new(None)).collect();
    let stopped = AtomicBool::new(false);
    let (send, receive) = mpsc::channel::<(usize, P)>();
    let receive = Mutex::new(receive);
    let record = |i: usize, result: anyhow::Result<T>| {
        if let Err(e) = &result {
            if stops(e) {
                stopped.store(true, Ordering::SeqCst);
            }
        }
        *results[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(result);
    };
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let next = receive
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .recv();
                let Ok((i, prepared)) = next else { break };
                let mut prepared = Some(prepared);
                if !stopped.load(Ordering::SeqCst) {
                    in_lane(i, &mut || {
                        if let Some(prepared) = prepared.take() {
                            record(i, work(i, prepared));
                        }
                    });
                }
                finish(i);
            });
        }
        for &i in order {
            if stopped.load(Ordering::SeqCst) {
                finish(i);
                continue;
            }
            let mut prepared = None;
            in_lane(i, &mut || prepared = Some(prepare(i)));
            match prepared.expect("prepared above") {
                Ok(Some(prepared)) => {
                    // The workers outlive this loop: the send cannot fail.
                    let _ = send.send((i, prepared));
                }
                Ok(None) => finish(i),
                Err(e) => {
                    record(i, Err(e));
                    finish(i);
                }
            }
        }
        drop(send);
    });
    results
        .into_iter()
        .map(|r| r.into_inner().unwrap_or_else(PoisonError::into_inner))
        .collect()
}

/// The items `0..seconds.len()` by how long each is expected to take, longest first; those
/// not known (`None`) keep their order, after the known ones.
pub fn longest_first(seconds: &[Option<f64>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..seconds.len()).collect();
    // A stable sort: equal and unknown items keep their order.
    order.sort_by(|&a, &b| {
        let key = |i: usize| seconds[i].map_or(f64::NEG_INFINITY, |s| s);
        key(b).total_cmp(&key(a))
    });
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn names(count: usize) -> Vec<String> {
        (0..count).map(|i| format!("cell-{i}")).collect()
    }

    #[test]
    fn every_item_runs_once_and_results_keep_their_order() {
        for jobs in [1, 2, 5] {
            let results = side_by_side(
                &names(7),
                &[0, 1, 2, 3, 4, 5, 6],
                jobs,
                |i| Ok((i != 3).then_some(i * 10)),
                |i, p| {
                    // Later items finish first.
                    std::thread::sleep(Duration::from_millis(((7 - i) * 3) as u64));
                    Ok(p + 1)
                },
                |_| true,
            );
            let got: Vec<Option<usize>> =
                results.into_iter().map(|r| r.map(|r| r.unwrap())).collect();
            assert_eq!(
                got,
                [
                    Some(1),
                    Some(11),
                    Some(21),
                    None,
                    Some(41),
                    Some(51),
                    Some(61)
                ],
                "jobs {jobs}"
            );
        }
    }

    #[test]
    fn an_error_that_stops_starts_nothing_after_it() {
        let started = Mutex::new(Vec::new());
        let results = side_by_side(
            &names(6),
            &[0, 1, 2, 3, 4, 5],
            1,
            |i| {
                if i == 2 {
                    anyhow::bail!("kernel build failed")
                }
                Ok(Some(i))
            },
            |i, _| {
                started.lock().unwrap().push(i);
                Ok(i)
            },
            |_| true,
        );
        assert!(matches!(&results[2], Some(Err(e)) if e.to_string() == "kernel build failed"));
        assert!(
            results[3..].iter().all(Option::is_none),
            "nothing after it ran"
        );
        assert!(!started.lock().unwrap().contains(&4));
        // An error that does not stop the run: the others still run.
        let results = side_by_side(
            &names(4),
            &[3, 2, 1, 0],
            2,
            |i| Ok(Some(i)),
            |i, _| if i == 1 { anyhow::bail!("no") } else { Ok(i) },
            |_| false,
        );
        assert!(results[1].as_ref().is_some_and(|r| r.is_err()));
        assert_eq!(
            results.iter().filter(|r| matches!(r, Some(Ok(_)))).count(),
            3
        );
    }

    #[test]
    fn the_longest_known_items_go_first() {
        assert_eq!(
            longest_first(&[Some(1.0), None, Some(7.5), Some(1.0), None, Some(3.0)]),
            [2, 5, 0, 3, 1, 4]
        );
        assert_eq!(longest_first(&[None, None]), [0, 1]);
        assert!(longest_first(&[]).is_empty());
    }

    #[test]
    #[should_panic(expected = "not a permutation")]
    fn an_order_that_misses_an_item_is_a_bug() {
        side_by_side(
            &names(3),
            &[0, 0, 2],
            1,
            |i| Ok(Some(i)),
            |i, _| Ok(i),
            |_| true,
        );
    }
}
