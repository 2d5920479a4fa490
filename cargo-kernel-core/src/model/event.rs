// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The run's event stream: what the pipeline (and the layers below it, through their
//! [progress lines](crate::infra::progress)) tells as it works, in order, each event tagged
//! with the lane of the cell it belongs to.
//!
//! The pipeline only emits ([`emit`]); what becomes of the events is up to the reporters
//! (the terminal's lines, JUnit, KTAP files, `run.json`, the summary table, JSON lines, in
//! [`crate::report`]), which the command that runs assembles at the top ([`Events::new`],
//! [`Events::install`]). Adding a reporter touches no file of the pipeline.
//!
//! The reporters of a thread are its own: the pipeline's scheduler takes the caller's along
//! into the threads it starts for cells, each in the cell's lane ([`Events::enter`]). A
//! thread with no reporters prints progress lines as they come, and nothing else.

use crate::infra::error::Result;
use crate::infra::progress::{self, Line};
use crate::model::console;
use crate::model::report::{Case, NotRun, PlanReport, Report};
use serde::{Serialize, Serializer};
use std::cell::RefCell;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The lane of a cell, when cells run side by side: where its events belong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Lane {
    /// The cell's place in the run, in matrix order: its output's place.
    pub index: usize,
    /// The cell's name ([`crate::model::cell::name`]): `7.3-um`.
    pub cell: String,
}

/// One event of a run.
#[derive(Debug, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event<'a> {
    /// Cells are about to run side by side, each in its own lane (`0..cells`).
    RunStarted {
        /// How many.
        cells: usize,
    },
    /// A cell starts: its kernel and architecture (the matrix's names), and its first plan.
    CellStarted {
        /// The kernel (`7.3`).
        kernel: &'a str,
        /// The architecture (`x86_64`).
        arch: &'a str,
        /// The first plan's name.
        plan: &'a str,
    },
    /// A step begins (`==> building module`).
    StepStarted {
        /// What it does.
        what: &'a str,
    },
    /// A step ended.
    StepDone {
        /// What it did.
        what: &'a str,
        /// How long it took.
        #[serde(rename = "seconds", serialize_with = "seconds")]
        elapsed: Duration,
    },
    /// A line of its own: `    $ make ...`, a warning, what a check found.
    Note {
        /// The line, as a terminal shows it.
        line: &'a str,
    },
    /// A module printed a KTAP document in a plan's boot.
    Ktap {
        /// The plan's directory.
        dir: &'a Path,
        /// The module (`mydrv.ko`).
        module: &'a str,
        /// The document's lines.
        lines: &'a [String],
    },
    /// The kernel reported trouble during a plan's boot (a WARN, an Oops, lost lines).
    KernelReport {
        /// `<kernel version>/<arch>`.
        cell: &'a str,
        /// The plan.
        plan: &'a str,
        /// The report, with its lines and where the guest was.
        report: &'a console::Event,
    },
    /// A case was judged: as its module declares it and KUnit reported it, with its
    /// diagnostic lines and the kernel's reports while it ran.
    CaseFinished {
        /// `<kernel version>/<arch>`.
        cell: &'a str,
        /// The plan.
        plan: &'a str,
        /// The case.
        case: &'a Case,
    },
    /// A plan was judged: its cases and problems (before the plan's own judge, if it has
    /// one, which decides in the cell's report).
    PlanFinished {
        /// `<kernel version>/<arch>`.
        cell: &'a str,
        /// What the plan found.
        plan: &'a PlanReport,
        /// The problems that belong to no case (a module that did not build or load, a WARN
        /// during an init): the first of `plan.problems`.
        outside_cases: usize,
        /// Whether the plan has a judge of its own (a self-test of the verdict).
        judged: bool,
    },
    /// A plan stopped with an error before it was judged (an interrupt, a command that could
    /// not run).
    PlanFailed {
        /// `<kernel version>/<arch>`.
        cell: &'a str,
        /// The plan's name.
        plan: &'a str,
        /// The plan's directory.
        dir: &'a Path,
        /// Why.
        error: &'a str,
    },
    /// A cell finished: its report.
    CellFinished {
        /// The report.
        report: &'a Report,
    },
    /// A cell could not run (its kernel did not build, say).
    CellFailed {
        /// The kernel (`7.3`).
        kernel: &'a str,
        /// The architecture (`x86_64`).
        arch: &'a str,
        /// Why.
        error: &'a str,
    },
    /// A cell's lane has nothing more to tell.
    LaneFinished,
    /// The cells are done: each cell's report, in matrix order, and the cells left out.
    RunFinished {
        /// The reports.
        reports: &'a [Report],
        /// The cells left out, with why.
        not_run: &'a [NotRun],
    },
}

/// A duration in seconds, for JSON.
fn seconds<S: Serializer>(elapsed: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(elapsed.as_secs_f64())
}

impl Event<'_> {
    /// The event of a progress line.
    pub fn of(line: Line<'_>) -> Event<'_> {
        match line {
            Line::Step(what) => Event::StepStarted { what },
            Line::Done(what, elapsed) => Event::StepDone { what, elapsed },
            Line::Note(line) => Event::Note { line },
        }
    }

    /// The progress line of this event, if it is one.
    pub fn line(&self) -> Option<Line<'_>> {
        match self {
            Event::StepStarted { what } => Some(Line::Step(what)),
            Event::StepDone { what, elapsed } => Some(Line::Done(what, *elapsed)),
            Event::Note { line } => Some(Line::Note(line)),
            _ => None,
        }
    }
}

/// What consumes the event stream: the terminal, JUnit, KTAP files, `run.json`, the summary,
/// JSON lines.
pub trait Reporter: Send + Sync {
    /// Takes `event`, which comes from `lane` (`None`: from outside any cell's lane). An error
    /// (a file that cannot be written) fails what emitted the event.
    fn report(&self, lane: Option<&Lane>, event: &Event<'_>) -> Result;
}

/// The reporters of a run, in the order they take each event.
#[derive(Clone)]
pub struct Events {
    reporters: Arc<Vec<Box<dyn Reporter>>>,
}

thread_local! {
    /// The calling thread's reporters, and the lane it works in.
    static CURRENT: RefCell<Option<(Events, Option<Lane>)>> = const { RefCell::new(None) };
}

impl Events {
    /// These reporters, in this order.
    pub fn new(reporters: Vec<Box<dyn Reporter>>) -> Self {
        // From now on, the lower layers' progress lines are events too.
        progress::set_sink(Box::new(|line| {
            let _ = emit(&Event::of(line));
        }));
        Self {
            reporters: Arc::new(reporters),
        }
    }

    /// Makes these the calling thread's reporters, outside any lane, until the returned
    /// guard is dropped.
    pub fn install(&self) -> Entered {
        self.enter(None)
    }

    /// Makes these the calling thread's reporters, in `lane`, until the returned guard is
    /// dropped.
    pub fn enter(&self, lane: Option<Lane>) -> Entered {
        let previous = CURRENT.with(|c| c.replace(Some((self.clone(), lane))));
        Entered { previous }
    }

    /// The calling thread's reporters, if it has any.
    pub fn current() -> Option<Events> {
        CURRENT.with(|c| c.borrow().as_ref().map(|(events, _)| events.clone()))
    }

    /// Gives `event` from `lane` to every reporter, in order; the first error, once all had
    /// it.
    fn report(&self, lane: Option<&Lane>, event: &Event<'_>) -> Result {
        let mut first = Ok(());
        for reporter in self.reporters.iter() {
            let result = reporter.report(lane, event);
            if first.is_ok() {
                first = result;
            }
        }
        first
    }
}

/// Undoes [`Events::install`] or [`Events::enter`] when dropped.
pub struct Entered {
    previous: Option<(Events, Option<Lane>)>,
}

impl Drop for Entered {
    fn drop(&mut self) {
        let previous = self.previous.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

/// Emits `event` to the calling thread's reporters, tagged with its lane. A thread with no
/// reporters prints a progress line's event and drops the others.
pub fn emit(event: &Event<'_>) -> Result {
    let current = CURRENT.with(|c| c.borrow().clone());
    match current {
        Some((events, lane)) => events.report(lane.as_ref(), event),
        None => {
            if let Some(line) = event.line() {
                progress::print_now(&format!("{}\n", line.text()));
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Records what it is given.
    struct Record(Arc<Mutex<Vec<String>>>);

    impl Reporter for Record {
        fn report(&self, lane: Option<&Lane>, event: &Event<'_>) -> Result {
            let lane = lane.map_or("-".to_string(), |l| l.cell.clone());
            self.0
                .lock()
                .unwrap()
                .push(format!("{lane} {}", serde_json::to_string(event).unwrap()));
            Ok(())
        }
    }

    #[test]
    fn events_reach_the_reporters_of_their_thread_with_their_lane() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let events = Events::new(vec![Box::new(Record(seen.clone()))]);
        {
            let _installed = events.install();
            emit(&Event::RunStarted { cells: 1 }).unwrap();
            let lane = Lane {
                index: 0,
                cell: "7.3-um".into(),
            };
            std::thread::scope(|scope| {
                let events = Events::current().expect("installed");
                scope.spawn(move || {
                    let _entered = events.enter(Some(lane));
                    // A lower layer's progress line is an event of the lane.
                    progress::note("    $ make");
                    progress::done("built", std::time::Instant::now());
                });
            });
        }
        emit(&Event::LaneFinished).unwrap();
        let seen = seen.lock().unwrap();
        assert_eq!(
            seen[..2],
            [
                r#"- {"event":"run-started","cells":1}"#,
                r#"7.3-um {"event":"note","line":"    $ make"}"#,
            ]
        );
        assert!(
            seen[2].starts_with(r#"7.3-um {"event":"step-done","what":"built","seconds":"#),
            "{seen:?}"
        );
        assert_eq!(seen.len(), 3, "nothing after the guard was dropped");
    }

    #[test]
    fn the_first_error_fails_the_emitter_once_every_reporter_had_the_event() {
        struct Fails;
        impl Reporter for Fails {
            fn report(&self, _: Option<&Lane>, _: &Event<'_>) -> Result {
                anyhow::bail!("disk full")
            }
        }
        let seen = Arc::new(Mutex::new(Vec::new()));
        let events = Events::new(vec![Box::new(Fails), Box::new(Record(seen.clone()))]);
        let _installed = events.install();
        let e = emit(&Event::LaneFinished).unwrap_err();
        assert_eq!(e.to_string(), "disk full");
        assert_eq!(seen.lock().unwrap().len(), 1);
    }
}
