// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The terminal's lines: each event that a person reads, as one line, and the lanes of cells
//! that run side by side kept apart.
//!
//! The first unfinished lane's lines are printed as they come; a later lane's wait until
//! every lane before it has finished, then come out together. The output is that of running
//! the cells one after another, in order, whatever the number of jobs: a cell's lines stay
//! together, and a run with `--jobs 1` prints each line when it happens.

use crate::infra::error::Result;
use crate::infra::progress;
use crate::model::cell;
use crate::model::event::{Event, Lane, Reporter};
use crate::model::report::PlanReport;
use std::sync::{Arc, Mutex, PoisonError};

/// The terminal reporter: its lines go to standard output (or, in tests, to a string).
pub struct Terminal {
    state: Mutex<State>,
    sink: Option<Arc<Mutex<String>>>,
}

/// The lanes of the cells that run now, if any.
#[derive(Default)]
struct State {
    lanes: Option<Lanes>,
}

/// Lanes: the first unfinished one (`head`) printed as it comes, the others held.
struct Lanes {
    head: usize,
    /// Each lane's text not printed yet, and whether it has finished.
    held: Vec<(String, bool)>,
}

impl Terminal {
    /// Lines to standard output.
    pub fn new() -> Self {
        Self {
            state: Mutex::new(State::default()),
            sink: None,
        }
    }

    /// Lines to `sink` (tests).
    pub fn writing_to(sink: Arc<Mutex<String>>) -> Self {
        Self {
            state: Mutex::new(State::default()),
            sink: Some(sink),
        }
    }

    /// `text` out now.
    fn out(&self, text: &str) {
        match &self.sink {
            Some(sink) => sink
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push_str(text),
            None => progress::print_now(text),
        }
    }

    /// `text` into `lane`: out now if it is the head lane (or no lanes are open), else held.
    fn write(&self, state: &mut State, lane: Option<&Lane>, text: &str) {
        match (&mut state.lanes, lane) {
            (Some(lanes), Some(lane)) if lane.index != lanes.head => {
                match lanes.held.get_mut(lane.index) {
                    Some((held, _)) => held.push_str(text),
                    None => self.out(text),
                }
            }
            // Under the lock: a lane that finishes meanwhile prints after this.
            _ => self.out(text),
        }
    }

    /// Marks `lane` finished: once every lane before it has finished too, the lanes after it
    /// print what they hold, in order, up to the next one still running.
    fn finish(&self, state: &mut State, lane: usize) {
        let Some(lanes) = &mut state.lanes else {
            return;
        };
        if let Some(entry) = lanes.held.get_mut(lane) {
            entry.1 = true;
        }
        while lanes.head < lanes.held.len() && lanes.held[lanes.head].1 {
            lanes.head += 1;
            let head = lanes.head;
            if let Some((held, _)) = lanes.held.get_mut(head) {
                let text = std::mem::take(held);
                self.out(&text);
            }
        }
    }

    /// Closes the lanes: whatever a lane that never finished holds is printed, in order,
    /// rather than lost.
    fn close(&self, state: &mut State) {
        if let Some(lanes) = state.lanes.take() {
            for (held, _) in lanes.held {
                self.out(&held);
            }
        }
    }
}

impl Default for Terminal {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let mut state =
            std::mem::take(self.state.get_mut().unwrap_or_else(PoisonError::into_inner));
        self.close(&mut state);
    }
}

/// A plan's line: `    7.3.4/x86_64 mydrv: 12 passed, 0 failed, 1 skipped: ok (JUnit: ...)`.
fn plan_line(cell: &str, plan: &PlanReport, judged: bool) -> String {
    let (passed, failed, skipped) = plan.counts();
    format!(
        "    {cell} {}: {passed} passed, {failed} failed, {skipped} skipped: {} (JUnit: {})",
        plan.name,
        match (plan.problems.is_empty(), judged) {
            (true, false) => "ok",
            (false, false) => "FAILED",
            // A self-test of the verdict: its judge, next, says whether this is what it meant.
            (true, true) => "ok (its judge decides)",
            (false, true) => "failed (its judge decides)",
        },
        plan.dir.join(cell::JUNIT).display()
    )
}

/// The line an event shows, if it shows one.
pub fn line(event: &Event<'_>) -> Option<String> {
    if let Some(line) = event.line() {
        return Some(line.text());
    }
    match event {
        Event::CellStarted { kernel, arch, plan } => {
            Some(format!("=== {plan} on Linux {kernel} / {arch} ==="))
        }
        // A plan that never booted (a module that did not build) says so in its problems.
        Event::PlanFinished {
            cell, plan, judged, ..
        } if plan.boot_seconds.is_some() => Some(plan_line(cell, plan, *judged)),
        Event::CellFailed {
            kernel,
            arch,
            error,
        } => Some(format!("    Linux {kernel} on {arch}: FAILED: {error}")),
        _ => None,
    }
}

impl Reporter for Terminal {
    fn report(&self, lane: Option<&Lane>, event: &Event<'_>) -> Result {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match event {
            Event::RunStarted { cells } => {
                self.close(&mut state);
                state.lanes = Some(Lanes {
                    head: 0,
                    held: vec![(String::new(), false); *cells],
                });
            }
            Event::LaneFinished => {
                if let Some(lane) = lane {
                    self.finish(&mut state, lane.index);
                }
            }
            Event::RunFinished { .. } => self.close(&mut state),
            event => {
                if let Some(line) = line(event) {
                    self.write(&mut state, lane, &format!("{line}\n"));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::event::{self, Events};
    use crate::pipeline::lanes::side_by_side;
    use std::time::Duration;

    fn lane(index: usize) -> Lane {
        Lane {
            index,
            cell: format!("cell-{index}"),
        }
    }

    fn note(terminal: &Terminal, lane_index: Option<usize>, line: &str) {
        let lane = lane_index.map(lane);
        terminal
            .report(lane.as_ref(), &Event::Note { line })
            .unwrap();
    }

    #[test]
    fn side_by_side_output_reads_as_one_cell_after_another() {
        let sink = Arc::new(Mutex::new(String::new()));
        let names: Vec<String> = (0..5).map(|i| format!("cell-{i}")).collect();
        for jobs in [1, 2, 3] {
            sink.lock().unwrap().clear();
            let events = Events::new(vec![Box::new(Terminal::writing_to(sink.clone()))]);
            {
                let _installed = events.install();
                side_by_side(
                    &names,
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
                        event::emit(&Event::StepStarted { what: "booting" })?;
                        Ok(())
                    },
                    |_| true,
                );
            }
            let expected: String = (0..5)
                .map(|i| format!("{i}: prepared\n{i}: built\n==> booting\n"))
                .collect();
            assert_eq!(*sink.lock().unwrap(), expected, "jobs {jobs}");
        }
    }

    #[test]
    fn a_lane_waits_for_the_lanes_before_it() {
        let sink = Arc::new(Mutex::new(String::new()));
        let terminal = Terminal::writing_to(sink.clone());
        terminal
            .report(None, &Event::RunStarted { cells: 3 })
            .unwrap();
        // Lane 1 writes while lane 0 runs: held back.
        note(&terminal, Some(1), "one");
        note(&terminal, Some(2), "two");
        terminal
            .report(Some(&lane(2)), &Event::LaneFinished)
            .unwrap();
        // Lane 2 finished first, but waits for lane 1; a line of no lane goes out at once.
        note(&terminal, None, "outside");
        assert_eq!(*sink.lock().unwrap(), "outside\n");
        note(&terminal, Some(0), "zero");
        terminal
            .report(Some(&lane(0)), &Event::LaneFinished)
            .unwrap();
        // Lane 1's text is out, and lane 1 now prints as it comes.
        assert_eq!(*sink.lock().unwrap(), "outside\nzero\none\n");
        note(&terminal, Some(1), "one again");
        terminal
            .report(Some(&lane(1)), &Event::LaneFinished)
            .unwrap();
        assert_eq!(
            *sink.lock().unwrap(),
            "outside\nzero\none\none again\ntwo\n"
        );
    }

    #[test]
    fn what_a_lane_that_never_finished_holds_is_printed_at_the_end() {
        let sink = Arc::new(Mutex::new(String::new()));
        {
            let terminal = Terminal::writing_to(sink.clone());
            terminal
                .report(None, &Event::RunStarted { cells: 2 })
                .unwrap();
            note(&terminal, Some(1), "held");
            assert!(sink.lock().unwrap().is_empty());
        }
        assert_eq!(*sink.lock().unwrap(), "held\n");
    }

    #[test]
    fn a_plan_s_line() {
        let plan = PlanReport {
            name: "mydrv".into(),
            cases: Vec::new(),
            problems: vec!["x".into()],
            warnings: Vec::new(),
            dir: "/t/7.3-um".into(),
            boot_seconds: Some(1.0),
        };
        let event = Event::PlanFinished {
            cell: "7.3.4/um",
            plan: &plan,
            outside_cases: 1,
            judged: false,
        };
        assert_eq!(
            line(&event).unwrap(),
            "    7.3.4/um mydrv: 0 passed, 0 failed, 0 skipped: FAILED (JUnit: /t/7.3-um/junit.xml)"
        );
        let unbooted = PlanReport {
            boot_seconds: None,
            ..plan.clone()
        };
        let event = Event::PlanFinished {
            cell: "7.3.4/um",
            plan: &unbooted,
            outside_cases: 1,
            judged: false,
        };
        assert_eq!(line(&event), None);
    }
}
