// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Cells run side by side, and their output kept apart.
//!
//! A run over many cells spends most of its time in one module build or one boot at a time,
//! each of which keeps one core busy. [`side_by_side`] runs `jobs` cells at once: the calling
//! thread prepares them one after another (the kernel's cache check or build, which prints
//! what it does), the longest first ([`longest_first`]), and `jobs` workers run them.
//!
//! What a cell prints goes to its own lane ([`crate::note!`]). The first unfinished lane's
//! lines are printed as they come; a later lane's wait until every lane before it has
//! finished, then come out together. The output is that of running the cells one after another, in order,
//! whatever the number of jobs: a cell's lines stay together, and a run with `--jobs 1` prints
//! each line when it happens.

use std::cell::RefCell;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};

/// The lanes of one run.
pub struct Lanes {
    state: Mutex<State>,
    /// Where their text goes: standard output, or (in tests) a string.
    sink: Option<Arc<Mutex<String>>>,
}

struct State {
    /// The first lane that has not finished: the one printed as it comes.
    head: usize,
    /// Each lane's text not printed yet, and whether it has finished.
    lanes: Vec<(String, bool)>,
}

thread_local! {
    /// The lane the calling thread writes to.
    static CURRENT: RefCell<Option<(Arc<Lanes>, usize)>> = const { RefCell::new(None) };
}

/// Writes `text` to the calling thread's lane, or to standard output if it has none.
pub fn write(text: &str) {
    let current = CURRENT.with(|c| c.borrow().clone());
    match current {
        Some((lanes, lane)) => lanes.write(lane, text),
        None => print_now(text),
    }
}

fn print_now(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

impl State {
    /// Nothing to write twice: `text` goes out now, to `sink` or standard output.
    fn out(sink: &Option<Arc<Mutex<String>>>, text: &str) {
        match sink {
            Some(sink) => sink
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push_str(text),
            None => print_now(text),
        }
    }
}

impl Lanes {
    /// `count` lanes, the first one printed as it comes.
    pub fn new(count: usize) -> Arc<Self> {
        Self::with_sink(count, None)
    }

    fn with_sink(count: usize, sink: Option<Arc<Mutex<String>>>) -> Arc<Self> {
        // Progress lines go to the calling thread's lane.
        crate::infra::progress::set_sink(Box::new(|line| write(&format!("{}\n", line.text()))));
        Arc::new(Self {
            state: Mutex::new(State {
                head: 0,
                lanes: vec![(String::new(), false); count],
            }),
            sink,
        })
    }

    fn write(&self, lane: usize, text: &str) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if lane == state.head {
            // Under the lock: a lane that finishes meanwhile prints after this.
            State::out(&self.sink, text);
        } else if let Some((buffer, _)) = state.lanes.get_mut(lane) {
            buffer.push_str(text);
        } else {
            State::out(&self.sink, text);
        }
    }

    /// Makes `lane` the calling thread's until the returned guard is dropped.
    pub fn enter(self: &Arc<Self>, lane: usize) -> Entered {
        let previous = CURRENT.with(|c| c.replace(Some((self.clone(), lane))));
        Entered { previous }
    }

    /// Marks `lane` finished: once every lane before it has finished too, the lanes after it
    /// print what they have, in order, up to the next one still running.
    pub fn finish(&self, lane: usize) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(entry) = state.lanes.get_mut(lane) {
            entry.1 = true;
        }
        while state.head < state.lanes.len() && state.lanes[state.head].1 {
            state.head += 1;
            let head = state.head;
            if let Some((buffer, _)) = state.lanes.get_mut(head) {
                let text = std::mem::take(buffer);
                State::out(&self.sink, &text);
            }
        }
    }
}

impl Drop for Lanes {
    /// Whatever a lane that never finished holds is printed, in order, rather than lost.
    fn drop(&mut self) {
        let state = self.state.get_mut().unwrap_or_else(PoisonError::into_inner);
        for (buffer, _) in &mut state.lanes {
            State::out(&self.sink, &std::mem::take(buffer));
        }
    }
}

/// Undoes [`Lanes::enter`] when dropped.
pub struct Entered {
    previous: Option<(Arc<Lanes>, usize)>,
}

impl Drop for Entered {
    fn drop(&mut self) {
        let previous = self.previous.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

/// The number of jobs when none is asked for: one per core.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs the items `0..order.len()`, `jobs` at a time, each in its own lane (item `i`'s output
/// comes `i`-th, whatever the order they run in): `prepare(i)` on the calling thread, for each
/// `i` of `order` in turn (`None`: nothing to run), then `work(i, prepared)` on one of `jobs`
/// workers, which take the prepared items in that order. Returns each item's result, by
/// item; `None` for an item skipped, or not started because one failed with an error for
/// which `stops(error)` holds.
///
/// `order` is a permutation of `0..order.len()`: the longest items first keeps a long one from
/// running alone at the end ([`longest_first`]).
pub fn side_by_side<P: Send, T: Send>(
    order: &[usize],
    jobs: usize,
    prepare: impl FnMut(usize) -> anyhow::Result<Option<P>>,
    work: impl Fn(usize, P) -> anyhow::Result<T> + Sync,
    stops: impl Fn(&anyhow::Error) -> bool + Sync,
) -> Vec<Option<anyhow::Result<T>>> {
    run_in(&Lanes::new(order.len()), order, jobs, prepare, work, stops)
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

/// [`side_by_side`] in the lanes `lanes`.
fn run_in<P: Send, T: Send>(
    lanes: &Arc<Lanes>,
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
            sorted.iter().copied().eq(0..count)
        },
        "side_by_side: the order {order:?} is not a permutation of 0..{count}"
    );
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
                if !stopped.load(Ordering::SeqCst) {
                    let _entered = lanes.enter(i);
                    record(i, work(i, prepared));
                }
                lanes.finish(i);
            });
        }
        for &i in order {
            if stopped.load(Ordering::SeqCst) {
                lanes.finish(i);
                continue;
            }
            let prepared = {
                let _entered = lanes.enter(i);
                prepare(i)
            };
            match prepared {
                Ok(Some(prepared)) => {
                    // The workers outlive this loop: the send cannot fail.
                    let _ = send.send((i, prepared));
                }
                Ok(None) => lanes.finish(i),
                Err(e) => {
                    record(i, Err(e));
                    lanes.finish(i);
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn every_item_runs_once_and_results_keep_their_order() {
        for jobs in [1, 2, 5] {
            let results = side_by_side(
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
    fn side_by_side_output_reads_as_one_cell_after_another() {
        let sink = Arc::new(Mutex::new(String::new()));
        for jobs in [1, 2, 3] {
            sink.lock().unwrap().clear();
            let lanes = Lanes::with_sink(5, Some(sink.clone()));
            run_in(
                &lanes,
                &[4, 0, 2, 1, 3],
                jobs,
                |i| {
                    crate::note!("{i}: prepared");
                    Ok(Some(i))
                },
                |i, _| {
                    crate::note!("{i}: built");
                    // Later cells are quicker: they finish while earlier ones still run.
                    std::thread::sleep(Duration::from_millis(((5 - i) * 4) as u64));
                    crate::note!("{i}: booted");
                    Ok(())
                },
                |_| true,
            );
            drop(lanes);
            let expected: String = (0..5)
                .map(|i| format!("{i}: prepared\n{i}: built\n{i}: booted\n"))
                .collect();
            assert_eq!(*sink.lock().unwrap(), expected, "jobs {jobs}");
        }
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
        side_by_side(&[0, 0, 2], 1, |i| Ok(Some(i)), |i, _| Ok(i), |_| true);
    }

    #[test]
    fn a_lane_waits_for_the_lanes_before_it() {
        let lanes = Lanes::new(3);
        // Lane 1 writes while lane 0 runs: held back.
        lanes.write(1, "one\n");
        assert_eq!(lanes.state.lock().unwrap().lanes[1].0, "one\n");
        lanes.write(2, "two\n");
        lanes.finish(2);
        // Lane 2 finished first, but waits for lane 1.
        assert_eq!(lanes.state.lock().unwrap().head, 0);
        lanes.finish(0);
        {
            let state = lanes.state.lock().unwrap();
            // Lane 1's text is out, and lane 1 now prints as it comes.
            assert_eq!(state.head, 1);
            assert!(state.lanes[1].0.is_empty());
            assert_eq!(state.lanes[2].0, "two\n");
        }
        lanes.finish(1);
        let state = lanes.state.lock().unwrap();
        assert_eq!(state.head, 3);
        assert!(state.lanes.iter().all(|(text, _)| text.is_empty()));
    }

    #[test]
    fn a_thread_writes_to_the_lane_it_entered_and_only_while_entered() {
        let lanes = Lanes::new(2);
        {
            let _entered = lanes.enter(1);
            crate::note!("held {}", 1);
        }
        crate::note!("not in a lane");
        assert_eq!(lanes.state.lock().unwrap().lanes[1].0, "held 1\n");
    }
}
