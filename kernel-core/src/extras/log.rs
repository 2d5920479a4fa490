// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The kernel log of a host test: what [`pr_info!`](crate::pr_info) and its siblings printed,
//! read back as lines.
//!
//! An addition of kernel-core, for the host alone (feature `std`): in the kernel the log is the
//! kernel's (`dmesg`), and KUnit has no way to read it. A [`capture`] collects the lines that
//! the `pr_*!` macros print **in the thread that started it**, so that tests running in
//! parallel threads (as `cargo test` runs them) each see their own lines and no other test's.
//! Lines printed by threads that a test spawns are collected too once such a thread
//! [attaches](CaptureHandle::attach) to the capture.
//!
//! Each [`Line`] is one line as `dmesg -r` shows it: the level, then the text, which starts
//! with the printing module's name and `": "` (see [`print`](crate::print)); a message of
//! several lines is several lines; [`pr_cont!`](crate::pr_cont) extends the thread's open line.
//! A line compares equal to its `dmesg -r` form, `"<6>my_driver: probed"`. Lines still go to
//! standard error as well.
//!
//! # Examples
//!
//! ```
//! use kernel_core::extras::log::{self, Level};
//! use kernel_core::{pr_cont, pr_err, pr_info};
//!
//! fn probe(queues: u32) -> Result<(), ()> {
//!     if queues == 0 {
//!         pr_err!("no queues\n");
//!         return Err(());
//!     }
//!     pr_info!("{queues} queues:");
//!     for queue in 0..queues {
//!         pr_cont!(" {queue}");
//!     }
//!     pr_cont!("\n");
//!     Ok(())
//! }
//!
//! let log = log::capture();
//! assert_eq!(probe(0), Err(()));
//! assert_eq!(probe(2), Ok(()));
//! // A doctest's crate is `rust_out`: a driver's lines start with its own name.
//! assert_eq!(log.lines(), ["<3>rust_out: no queues", "<6>rust_out: 2 queues: 0 1"]);
//! let lines = log.take();
//! assert_eq!(lines[1].level(), Level::Info);
//! assert_eq!(lines[1].text(), "rust_out: 2 queues: 0 1");
//! assert!(log.lines().is_empty());
//! ```
//!
//! A thread the test spawns, attached to its capture:
//!
//! ```
//! use kernel_core::extras::log;
//!
//! let log = log::capture();
//! let handle = log.handle();
//! std::thread::spawn(move || {
//!     let _attached = handle.attach();
//!     kernel_core::pr_warn!("from a worker\n");
//! })
//! .join()
//! .unwrap();
//! std::thread::spawn(|| kernel_core::pr_warn!("not attached: not captured\n")).join().unwrap();
//! assert_eq!(log.lines(), ["<4>rust_out: from a worker"]);
//! ```

use core::fmt;
use core::marker::PhantomData;
use std::cell::RefCell;
use std::string::String;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::vec::Vec;

/// The level of a line: `KERN_EMERG` (0) to `KERN_DEBUG` (7) of
/// `include/linux/kern_levels.h`, the most severe first (and smallest).
///
/// # Examples
///
/// ```
/// use kernel_core::extras::log::Level;
///
/// assert!(Level::Err < Level::Info);
/// assert_eq!(Level::Info as u8, 6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Level {
    /// 0, [`pr_emerg!`](crate::pr_emerg): the system is unusable.
    Emerg = 0,
    /// 1, [`pr_alert!`](crate::pr_alert): action must be taken immediately.
    Alert = 1,
    /// 2, [`pr_crit!`](crate::pr_crit): critical conditions.
    Crit = 2,
    /// 3, [`pr_err!`](crate::pr_err): error conditions.
    Err = 3,
    /// 4, [`pr_warn!`](crate::pr_warn): warning conditions, and the level of a
    /// [`pr_cont!`](crate::pr_cont) that continues nothing.
    Warning = 4,
    /// 5, [`pr_notice!`](crate::pr_notice): normal but significant.
    Notice = 5,
    /// 6, [`pr_info!`](crate::pr_info): informational.
    Info = 6,
    /// 7, [`pr_debug!`](crate::pr_debug): debugging.
    Debug = 7,
}

impl Level {
    /// The level numbered `number` (0 to 7); a larger number is [`Level::Debug`].
    pub(crate) const fn from_number(number: u8) -> Self {
        match number {
            0 => Self::Emerg,
            1 => Self::Alert,
            2 => Self::Crit,
            3 => Self::Err,
            4 => Self::Warning,
            5 => Self::Notice,
            6 => Self::Info,
            _ => Self::Debug,
        }
    }
}

/// One line of the log: a level and a text, which begins with the printing module's name.
///
/// It displays, and compares equal to strings, in the form `dmesg -r` shows:
/// `<6>my_driver: probed`.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::log::{self, Level};
///
/// let log = log::capture();
/// kernel_core::pr_notice!("a\nb\n");
/// let lines = log.lines();
/// assert_eq!(lines, ["<5>rust_out: a", "<5>b"]);
/// assert_eq!(lines[1].level(), Level::Notice);
/// assert_eq!(lines[0].to_string(), "<5>rust_out: a");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    level: Level,
    text: String,
}

impl Line {
    /// The line's level.
    #[inline]
    pub fn level(&self) -> Level {
        self.level
    }

    /// The line's text, without its level: `my_driver: probed`.
    #[inline]
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{}>{}", self.level as u8, self.text)
    }
}

/// A line equals the string of its `dmesg -r` form, `<6>my_driver: probed`.
impl PartialEq<str> for Line {
    fn eq(&self, other: &str) -> bool {
        let level = [b'<', b'0' + self.level as u8, b'>'];
        other.as_bytes().strip_prefix(&level[..]) == Some(self.text.as_bytes())
    }
}

/// As `PartialEq<str>`, for `assert_eq!(log.lines(), ["<6>..."])`.
impl PartialEq<&str> for Line {
    #[inline]
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

/// A record of the log: one message, with its continuations, which may span lines.
struct Record {
    /// Its number, shared with the printing thread's open record.
    id: u64,
    level: Level,
    text: String,
}

/// What a capture has collected, shared with the threads attached to it.
#[derive(Default)]
struct Shared {
    records: Mutex<Vec<Record>>,
}

impl Shared {
    /// The records, even if a thread panicked while holding them (they stay consistent: each
    /// change is a single push or assignment).
    fn records(&self) -> MutexGuard<'_, Vec<Record>> {
        self.records.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The lines of the records, after removing them with `take`.
    fn lines(&self, take: bool) -> Vec<Line> {
        let mut records = self.records();
        let records = if take {
            core::mem::take(&mut *records)
        } else {
            // The capture keeps them: copy the little that the lines need.
            records
                .iter()
                .map(|r| Record {
                    id: r.id,
                    level: r.level,
                    text: r.text.clone(),
                })
                .collect()
        };
        records
            .into_iter()
            .flat_map(|record| {
                let level = record.level;
                record
                    .text
                    .split('\n')
                    .map(|text| Line {
                        level,
                        text: String::from(text),
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    }
}

std::thread_local! {
    /// The captures that this thread's lines go to: the ones it started and attached to.
    static SINKS: RefCell<Vec<Arc<Shared>>> = const { RefCell::new(Vec::new()) };
}

/// Adds `shared` to this thread's captures.
fn enter(shared: &Arc<Shared>) {
    SINKS.with(|sinks| sinks.borrow_mut().push(Arc::clone(shared)));
}

/// Removes `shared` from this thread's captures (its latest entry, if entered twice).
fn leave(shared: &Arc<Shared>) {
    // During the thread's end the list may be gone already: nothing to remove then.
    let _ = SINKS.try_with(|sinks| {
        let mut sinks = sinks.borrow_mut();
        if let Some(at) = sinks.iter().rposition(|s| Arc::ptr_eq(s, shared)) {
            sinks.remove(at);
        }
    });
}

/// Gives the current text of the printing thread's record `id` to the thread's captures: the
/// record's first message adds it, a continuation updates it.
pub(crate) fn deliver(id: u64, level: Level, text: &str) {
    let _ = SINKS.try_with(|sinks| {
        for shared in sinks.borrow().iter() {
            let mut records = shared.records();
            match records.iter_mut().rev().find(|r| r.id == id) {
                Some(record) => {
                    record.text.clear();
                    record.text.push_str(text);
                }
                None => records.push(Record {
                    id,
                    level,
                    text: String::from(text),
                }),
            }
        }
    });
}

/// Starts collecting the lines that this thread prints with the `pr_*!` macros, until the
/// returned [`Capture`] is dropped.
///
/// Captures nest: a line goes to every capture of its thread.
///
/// # Examples
///
/// ```
/// let log = kernel_core::extras::log::capture();
/// kernel_core::pr_info!("one\n");
/// assert_eq!(log.lines(), ["<6>rust_out: one"]);
/// drop(log);
/// kernel_core::pr_info!("not captured\n");
/// ```
#[must_use = "the lines are captured only while the `Capture` lives"]
pub fn capture() -> Capture {
    let shared = Arc::new(Shared::default());
    enter(&shared);
    Capture {
        shared,
        _thread: PhantomData,
    }
}

/// The lines printed in this thread (and the threads attached to it) since [`capture`].
///
/// Not `Send`: it stops the capture in its thread when dropped. [`Capture::handle`] gives what
/// other threads use.
pub struct Capture {
    shared: Arc<Shared>,
    _thread: PhantomData<*const ()>,
}

impl Capture {
    /// The lines collected so far, which the capture keeps. A line still open (printed without
    /// its final newline) is there as it is so far.
    ///
    /// # Examples
    ///
    /// ```
    /// let log = kernel_core::extras::log::capture();
    /// kernel_core::pr_info!("reset");
    /// assert_eq!(log.lines(), ["<6>rust_out: reset"]);
    /// kernel_core::pr_cont!(" done\n");
    /// assert_eq!(log.lines(), ["<6>rust_out: reset done"]);
    /// ```
    pub fn lines(&self) -> Vec<Line> {
        self.shared.lines(false)
    }

    /// The lines collected so far, removed from the capture. A line still open is handed out
    /// as it is so far; a continuation after that gives the whole line again.
    ///
    /// # Examples
    ///
    /// ```
    /// let log = kernel_core::extras::log::capture();
    /// kernel_core::pr_err!("failed\n");
    /// assert_eq!(log.take(), ["<3>rust_out: failed"]);
    /// assert!(log.take().is_empty());
    /// ```
    pub fn take(&self) -> Vec<Line> {
        self.shared.lines(true)
    }

    /// A handle to this capture for other threads: `Send`, `Sync` and `Clone`; a thread that
    /// [attaches](CaptureHandle::attach) it adds its lines to the capture.
    ///
    /// # Examples
    ///
    /// ```
    /// let log = kernel_core::extras::log::capture();
    /// let handle = log.handle();
    /// std::thread::scope(|s| {
    ///     s.spawn(|| {
    ///         let _attached = handle.attach();
    ///         kernel_core::pr_info!("worker\n");
    ///     });
    /// });
    /// assert_eq!(handle.lines(), ["<6>rust_out: worker"]);
    /// ```
    pub fn handle(&self) -> CaptureHandle {
        CaptureHandle {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl Drop for Capture {
    fn drop(&mut self) {
        leave(&self.shared);
    }
}

impl fmt::Debug for Capture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Capture")
            .field("lines", &self.lines())
            .finish()
    }
}

/// A [`Capture`] as other threads reach it: they [`attach`](Self::attach) it, and can read
/// its lines too.
#[derive(Clone)]
pub struct CaptureHandle {
    shared: Arc<Shared>,
}

impl CaptureHandle {
    /// Adds the lines this thread prints to the capture, until the returned [`Attached`] is
    /// dropped.
    pub fn attach(&self) -> Attached {
        enter(&self.shared);
        Attached {
            shared: Arc::clone(&self.shared),
            _thread: PhantomData,
        }
    }

    /// The capture's lines so far, as [`Capture::lines`].
    pub fn lines(&self) -> Vec<Line> {
        self.shared.lines(false)
    }

    /// The capture's lines so far, removed from it, as [`Capture::take`].
    pub fn take(&self) -> Vec<Line> {
        self.shared.lines(true)
    }
}

impl fmt::Debug for CaptureHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CaptureHandle")
            .field("lines", &self.lines())
            .finish()
    }
}

/// A thread's attachment to a capture, from [`CaptureHandle::attach`]: while it lives, the
/// thread's lines go to the capture too.
#[must_use = "the thread's lines are captured only while this lives"]
pub struct Attached {
    shared: Arc<Shared>,
    _thread: PhantomData<*const ()>,
}

impl Drop for Attached {
    fn drop(&mut self) {
        leave(&self.shared);
    }
}

impl fmt::Debug for Attached {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Attached").finish_non_exhaustive()
    }
}
