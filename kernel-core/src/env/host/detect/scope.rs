// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A test's scope: the allocations it made, its fault injection, and the checks at its end.
//!
//! A scope is opened on a thread ([`Owner::open`]); the thread and the threads that attach to
//! it (`extras::scope::Handle::attach`, as `extras::log`'s captures are joined) are its
//! members, and what they allocate through kernel-core's allocators belongs to it. A thread
//! keeps a stack of the scopes it is a member of: the innermost one gets its allocations. A
//! thread that a test spawns is not a member until it attaches: `std::thread::spawn` has no
//! hook through which a scope could follow it, and guessing (the one live scope, say) would
//! charge a test with another's allocations when `cargo test` runs tests in parallel.
//!
//! When the scope ends, each check of [`END_CHECKS`] looks at what it left: the live
//! allocations (kmemleak's report, [`leaks::check`](super::leaks::check)), and whatever a
//! detector adds there (lockdep's "still has locks held!", from its per-thread records). A
//! check returns a [`Report`] whose first line is its kernel title; the test fails with the
//! reports, as a panic whose message starts with the first title.
//!
//! # The report file
//!
//! With `KERNEL_CORE_SCOPE_REPORT=file` in the environment, every scope appends to `file` one
//! line of JSON when it ends (one `write` of a whole line, so that processes that append at
//! once, as nextest's do, do not mix their lines):
//!
//! ```text
//! {"test":"ring::tests::push","exe":"/…/deps/mydrv-0123abcd","cwd":"/…/mydrv",
//!  "allocations":5,"fail_nth":3,
//!  "injected":{"allocation":3,"site":"src/ring.rs:40:21","allocator":"kmalloc","size":64,"gfp":"GFP_KERNEL"},
//!  "outcome":"panic","message":"called `Result::unwrap()` on an `Err` value: AllocError",
//!  "verdict":"fail","reports":[{"detector":"fault injection","title":"FAULT_INJECTION: forcing a failure."}]}
//! ```
//!
//! (on one line). `test` is the test's name as `cargo test` lists it (`--exact` runs it
//! alone), `exe` and `cwd` the test binary and its working directory; `allocations` counts the
//! scope's fault-injection points (its allocations, and its reallocations that grow);
//! `fail_nth` is the `KERNEL_CORE_FAIL_NTH` it started with (0: none); `injected` the failure
//! injected, if any; `outcome` how the test's function ended (`ok`, `err`: it returned an
//! error, `panic`), with `message` the error or the panic's message; `verdict` whether the test
//! passes; `reports` what failed it, each with its detector, named as
//! `extras::detectors::Detector::name` names it and as `cargo kernel-core test` names a cell's
//! (`kmemleak`, `lockdep`: locks still held, `fault injection`), or `error` (an error returned
//! with no failure injected) or `panic` (a panic with none injected), and the report's first
//! line.

use crate::env::atomic64::AtomicU64;
use core::cell::RefCell;
use core::fmt::Write as _;
use core::marker::PhantomData;
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::any::Any;
use std::io::Write as _;
use std::path::PathBuf;
use std::string::{String, ToString};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::vec::Vec;

use super::faults::{self, Injection};
use super::held::{self, HeldLock};
use super::leaks;
use crate::extras::detectors::Detector;

/// What the environment asks of the process's scopes (see [the module](super)), read once.
pub(crate) struct Settings {
    /// Whether scopes keep books: `KERNEL_CORE_DETECTORS` is not `off`.
    pub(crate) on: bool,
    /// `KERNEL_CORE_FAIL_NTH`: the allocation each scope fails; 0 for none.
    pub(crate) fail_nth: u64,
    /// `KERNEL_CORE_ALLOW_LEAKS`: the tests whose leaks are not reported.
    pub(crate) allow_leaks: Vec<String>,
    /// `KERNEL_CORE_SCOPE_REPORT`: the file each scope appends its line to.
    pub(crate) report: Option<PathBuf>,
}

impl Settings {
    /// Whether `KERNEL_CORE_ALLOW_LEAKS` names the test `name`.
    pub(crate) fn leaks_allowed(&self, name: &str) -> bool {
        self.allow_leaks.iter().any(|entry| names_test(entry, name))
    }
}

/// Whether an entry of `KERNEL_CORE_ALLOW_LEAKS` names the test `name`: the whole name, its
/// last parts (after a `::`), or a prefix of it ending in `*`.
fn names_test(entry: &str, name: &str) -> bool {
    if let Some(prefix) = entry.strip_suffix('*') {
        return name.starts_with(prefix);
    }
    name == entry
        || name
            .strip_suffix(entry)
            .is_some_and(|head| head.ends_with("::"))
}

/// The process's [`Settings`].
///
/// # Panics
///
/// If `KERNEL_CORE_FAIL_NTH` is not a number.
pub(crate) fn settings() -> &'static Settings {
    static SETTINGS: OnceLock<Settings> = OnceLock::new();
    SETTINGS.get_or_init(|| {
        // The one switch of every host detector, read once (`env/host/detect.rs`).
        let on = crate::env::detect::enabled();
        let fail_nth = match std::env::var("KERNEL_CORE_FAIL_NTH") {
            Err(_) => 0,
            Ok(n) => n.trim().parse().unwrap_or_else(|_| {
                panic!("KERNEL_CORE_FAIL_NTH={n}: not a number of allocations (1 fails the first)")
            }),
        };
        let allow_leaks = std::env::var("KERNEL_CORE_ALLOW_LEAKS")
            .unwrap_or_default()
            .split([',', ' ', '\n'])
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(String::from)
            .collect();
        let report = std::env::var_os("KERNEL_CORE_SCOPE_REPORT")
            .filter(|path| !path.is_empty())
            .map(PathBuf::from);
        Settings {
            on,
            fail_nth,
            allow_leaks,
            report,
        }
    })
}

/// How many scopes that keep books are open in the process: while none is, the allocation
/// seam's hooks return at once.
static OPEN: AtomicUsize = AtomicUsize::new(0);

/// Whether any scope that keeps books is open.
#[inline]
pub(crate) fn any_open() -> bool {
    OPEN.load(Relaxed) != 0
}

/// A scope, shared by its owner, its members and the allocations it keeps books of.
pub(crate) struct State {
    /// The scope's number in the process, from 1.
    pub(crate) id: u64,
    /// The test's name.
    pub(crate) name: String,
    /// The test's KUnit name, `suite::case`, when a `#[kunit_tests]` suite runs it.
    pub(crate) kunit: Option<String>,
    /// Whether it keeps books (`KERNEL_CORE_DETECTORS` was not `off` when it opened).
    pub(crate) books: bool,
    /// Its fault-injection points so far: allocations, and reallocations that grow.
    pub(crate) allocations: AtomicU64,
    /// The number of the point that fails, counted as `allocations`; 0 for none.
    pub(crate) fail_at: AtomicU64,
    /// Whether the test set the target itself (`extras::fault::fail_nth()`), rather than
    /// `KERNEL_CORE_FAIL_NTH`.
    pub(crate) fail_set_by_test: AtomicBool,
    /// The failure injected, once it was.
    pub(crate) injected: Mutex<Option<Injection>>,
    /// Whether the test's leaks are not reported (`extras::leak::allow()`,
    /// `KERNEL_CORE_ALLOW_LEAKS`).
    pub(crate) leaks_allowed: AtomicBool,
    /// The locks that threads still held when they left the scope.
    pub(crate) left_held: Mutex<Vec<HeldLock>>,
    /// Whether it ended: its allocations are no longer its own.
    pub(crate) ended: AtomicBool,
}

impl State {
    /// The failure injected, if any (even if a thread panicked while holding it: each change is
    /// a single assignment).
    pub(crate) fn injected(&self) -> MutexGuard<'_, Option<Injection>> {
        self.injected.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A thread's membership of a scope.
struct Member {
    state: Arc<State>,
    /// The thread's name, which reports give as the kernel gives a task's `comm`.
    comm: Arc<str>,
}

std::thread_local! {
    /// The scopes this thread is a member of, the innermost last.
    static MEMBERSHIP: RefCell<Vec<Member>> = const { RefCell::new(Vec::new()) };
}

/// The name of this thread, as a report's `comm`.
fn comm() -> Arc<str> {
    Arc::from(std::thread::current().name().unwrap_or("<unnamed>"))
}

/// Makes this thread a member of `state`, innermost.
pub(crate) fn join(state: &Arc<State>) {
    let member = Member {
        state: Arc::clone(state),
        comm: comm(),
    };
    MEMBERSHIP.with(|m| m.borrow_mut().push(member));
}

/// Ends this thread's latest membership of `state`: the locks it still holds of the scope are
/// the scope's, for its end.
pub(crate) fn part(state: &Arc<State>) {
    held::leave(state);
    // During the thread's end the list may be gone already: nothing to remove then.
    let _ = MEMBERSHIP.try_with(|m| {
        let mut m = m.borrow_mut();
        if let Some(at) = m.iter().rposition(|x| Arc::ptr_eq(&x.state, state)) {
            m.remove(at);
        }
    });
}

/// Calls `f` with this thread's innermost scope and the thread's `comm`, if it is a member of
/// one. `f` must not join or part scopes.
#[inline]
pub(crate) fn with_current<R>(f: impl FnOnce(&Arc<State>, &Arc<str>) -> R) -> Option<R> {
    MEMBERSHIP
        .try_with(|m| m.borrow().last().map(|x| f(&x.state, &x.comm)))
        .ok()
        .flatten()
}

/// This thread's innermost scope.
pub(crate) fn current() -> Option<Arc<State>> {
    with_current(|state, _| Arc::clone(state))
}

/// What failed a test: one of the host's detectors, or the test itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    /// A detector's report.
    Detector(Detector),
    /// An error that the test returned with no failure injected.
    Error,
    /// A panic of the test's with no failure injected.
    Panic,
}

impl Cause {
    /// Its name in the report line: the detector's [`Detector::name`] (`kmemleak`, `lockdep`,
    /// `fault injection`), or `error`, `panic`.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Cause::Detector(detector) => detector.name(),
            Cause::Error => "error",
            Cause::Panic => "panic",
        }
    }
}

/// What a detector found at a scope's end: its first line is the kernel's title.
pub(crate) struct Report {
    /// What failed the test: [`Detector::Kmemleak`], ...
    pub(crate) cause: Cause,
    /// The report, title first.
    pub(crate) text: String,
}

impl Report {
    /// A detector's report.
    pub(crate) fn of(detector: Detector, text: String) -> Self {
        Self {
            cause: Cause::Detector(detector),
            text,
        }
    }

    /// The report's first line.
    pub(crate) fn title(&self) -> &str {
        self.text.lines().next().unwrap_or("")
    }
}

/// What an end-of-scope check sees.
pub(crate) struct Ending<'a> {
    /// The scope.
    pub(crate) state: &'a State,
    /// Whether its test returned (a value or an error). After a panic the checks only forget
    /// what they kept: the panic is the test's failure, and what it left behind is no news.
    pub(crate) returned: bool,
}

/// A check at a scope's end: a report of what it found wrong, or `None`. It also forgets what
/// it kept of the scope.
pub(crate) type EndCheck = fn(&Ending<'_>) -> Option<Report>;

/// The checks at every scope's end, in order: kmemleak's, then lockdep's locks still held (the
/// owner's thread runs them, after the test's function returned, so the held locks it reads
/// are the owner's, and those of the threads that left the scope).
pub(crate) static END_CHECKS: &[EndCheck] = &[leaks::check, held::check];

/// How a test's function ended.
pub(crate) enum Outcome {
    /// It returned, with no error.
    Ok,
    /// It returned this error (its `Debug`).
    Err(String),
    /// It panicked with this message.
    Panic(String),
}

/// What becomes of the test.
pub(crate) enum Verdict {
    /// It passes.
    Pass,
    /// It fails with these reports, the first title first.
    Fail(Vec<Report>),
    /// Its own panic stands.
    Unwind,
}

/// A scope, held by the thread that opened it: not `Send`, as it is that thread's membership.
pub(crate) struct Owner {
    state: Arc<State>,
    /// Whether it was closed (its checks ran).
    closed: bool,
    _thread: PhantomData<*const ()>,
}

impl Owner {
    /// Opens a scope named `name` on this thread, with the environment's `fail_nth`.
    pub(crate) fn open(name: String, kunit: Option<String>) -> Self {
        static IDS: AtomicU64 = AtomicU64::new(1);
        let settings = settings();
        let leaks_allowed = settings.leaks_allowed(&name);
        let state = Arc::new(State {
            id: IDS.fetch_add(1, Relaxed),
            name,
            kunit,
            books: settings.on,
            allocations: AtomicU64::new(0),
            fail_at: AtomicU64::new(if settings.on { settings.fail_nth } else { 0 }),
            fail_set_by_test: AtomicBool::new(false),
            injected: Mutex::new(None),
            leaks_allowed: AtomicBool::new(leaks_allowed),
            left_held: Mutex::new(Vec::new()),
            ended: AtomicBool::new(false),
        });
        if state.books {
            OPEN.fetch_add(1, Relaxed);
        }
        join(&state);
        Owner {
            state,
            closed: false,
            _thread: PhantomData,
        }
    }

    /// The scope's state.
    pub(crate) fn state(&self) -> &Arc<State> {
        &self.state
    }

    /// Ends the scope after its test's function ended with `outcome`: runs the checks, writes
    /// the report line if asked, and says what becomes of the test.
    pub(crate) fn close(mut self, outcome: &Outcome) -> Verdict {
        self.closed = true;
        let returned = !matches!(outcome, Outcome::Panic(_));
        let mut reports = self.end(returned);
        let state = &self.state;
        let injected = state.injected().clone();
        // What fails the test besides the checks' reports, first; and whether it passes.
        let (first, pass) = match (outcome, &injected) {
            (Outcome::Panic(message), Some(injection)) => (
                Some((
                    Cause::Detector(Detector::FaultInjection),
                    faults::unhandled(injection, message, &state.name),
                )),
                false,
            ),
            (Outcome::Panic(message), None) => (Some((Cause::Panic, message.clone())), false),
            (Outcome::Err(error), Some(injection)) => {
                if reports.is_empty() {
                    faults::note_returned(injection, error);
                }
                (None, reports.is_empty())
            }
            (Outcome::Err(error), None) => (
                Some((
                    Cause::Error,
                    std::format!("the test function returned an error: {error}"),
                )),
                false,
            ),
            (Outcome::Ok, _) => (None, reports.is_empty()),
        };
        if let Some((cause, text)) = first {
            reports.insert(0, Report { cause, text });
        }
        write_record(state, outcome, injected.as_ref(), pass, &reports);
        match outcome {
            _ if pass => Verdict::Pass,
            // Its own panic stands, with its own message and location.
            Outcome::Panic(_) if injected.is_none() => Verdict::Unwind,
            _ => Verdict::Fail(reports),
        }
    }

    /// Ends the scope: it keeps no more books, and the checks run (with `returned`).
    fn end(&self, returned: bool) -> Vec<Report> {
        let state = &self.state;
        if state.ended.swap(true, Relaxed) {
            return Vec::new();
        }
        if state.books {
            OPEN.fetch_sub(1, Relaxed);
        }
        let ending = Ending { state, returned };
        END_CHECKS
            .iter()
            .filter_map(|check| check(&ending))
            .collect()
    }
}

impl Drop for Owner {
    fn drop(&mut self) {
        if !self.closed {
            // Dropped without `close`: during a panic, or by an owner that checks nothing.
            let _ = self.end(false);
            if std::thread::panicking() {
                if let Some(injection) = self.state.injected().as_ref() {
                    std::eprintln!(
                        "{}",
                        faults::unhandled(injection, "(see above)", &self.state.name)
                    );
                }
            }
        }
        part(&self.state);
    }
}

/// The reports, one after the other.
pub(crate) fn join_reports(reports: &[Report]) -> String {
    let mut text = String::new();
    for report in reports {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(report.text.trim_end());
    }
    text
}

/// The message of a panic's payload.
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(message) = payload.downcast_ref::<&str>() {
        (*message).to_string()
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message.clone()
    } else {
        "(a panic without a message)".to_string()
    }
}

/// Runs the function of the test `name` (as `cargo test` lists it; `kunit`, `suite::case`, is
/// its KUnit name) in a scope of its own, and fails the test as the scope's checks and the
/// fault-injection rules say: see `kunit_rt::run_case`. `case` returns the `Debug` of the error
/// its test function returned.
#[track_caller]
pub(crate) fn run_case(name: &str, kunit: &str, case: impl FnOnce() -> Option<String>) {
    let owner = Owner::open(name.to_string(), Some(kunit.to_string()));
    let result = std::panic::catch_unwind(core::panic::AssertUnwindSafe(case));
    let (outcome, payload) = match result {
        Ok(None) => (Outcome::Ok, None),
        Ok(Some(error)) => (Outcome::Err(error), None),
        Err(payload) => (Outcome::Panic(panic_message(&*payload)), Some(payload)),
    };
    match (owner.close(&outcome), payload) {
        (Verdict::Pass, _) => {}
        (Verdict::Fail(reports), _) => panic!("{}", join_reports(&reports)),
        (Verdict::Unwind, Some(payload)) => std::panic::resume_unwind(payload),
        (Verdict::Unwind, None) => unreachable!("only a panic unwinds"),
    }
}

/// `text` as a JSON string.
fn json_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The report line of a scope (see [the module](self)).
fn record_line(
    state: &State,
    outcome: &Outcome,
    injected: Option<&Injection>,
    pass: bool,
    reports: &[Report],
) -> String {
    let mut line = String::from("{\"test\":");
    json_string(&mut line, &state.name);
    line.push_str(",\"kunit\":");
    match &state.kunit {
        Some(kunit) => json_string(&mut line, kunit),
        None => line.push_str("null"),
    }
    let exe = std::env::current_exe().map_or_else(|_| String::new(), |p| p.display().to_string());
    let cwd = std::env::current_dir().map_or_else(|_| String::new(), |p| p.display().to_string());
    line.push_str(",\"exe\":");
    json_string(&mut line, &exe);
    line.push_str(",\"cwd\":");
    json_string(&mut line, &cwd);
    let _ = write!(
        line,
        ",\"allocations\":{},\"fail_nth\":{},\"injected\":",
        state.allocations.load(Relaxed),
        if state.books { settings().fail_nth } else { 0 }
    );
    match injected {
        None => line.push_str("null"),
        Some(injection) => {
            let _ = write!(line, "{{\"allocation\":{},\"site\":", injection.number);
            json_string(&mut line, &faults::site(injection.site));
            line.push_str(",\"allocator\":");
            json_string(&mut line, injection.allocator);
            let _ = write!(line, ",\"size\":{},\"gfp\":", injection.size);
            json_string(&mut line, &faults::gfp_names(injection.flags));
            line.push('}');
        }
    }
    let (kind, message) = match outcome {
        Outcome::Ok => ("ok", None),
        Outcome::Err(error) => ("err", Some(error)),
        Outcome::Panic(message) => ("panic", Some(message)),
    };
    let _ = write!(line, ",\"outcome\":\"{kind}\",\"message\":");
    match message {
        None => line.push_str("null"),
        Some(message) => json_string(&mut line, message),
    }
    let _ = write!(
        line,
        ",\"verdict\":\"{}\",\"reports\":[",
        if pass { "pass" } else { "fail" }
    );
    for (i, report) in reports.iter().enumerate() {
        if i > 0 {
            line.push(',');
        }
        line.push_str("{\"detector\":");
        json_string(&mut line, report.cause.name());
        line.push_str(",\"title\":");
        json_string(&mut line, report.title());
        line.push('}');
    }
    line.push_str("]}\n");
    line
}

/// Appends the scope's report line to `KERNEL_CORE_SCOPE_REPORT`'s file, if it is set.
///
/// # Panics
///
/// If the file cannot be written, naming it: the run that asked for it would miss the test.
fn write_record(
    state: &State,
    outcome: &Outcome,
    injected: Option<&Injection>,
    pass: bool,
    reports: &[Report],
) {
    let Some(path) = &settings().report else {
        return;
    };
    let line = record_line(state, outcome, injected, pass, reports);
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut file| file.write_all(line.as_bytes()));
    if let Err(error) = written {
        panic!(
            "cannot append the scope report of {} to {} (KERNEL_CORE_SCOPE_REPORT): {error}",
            state.name,
            path.display()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowed_leaks_name_tests_whole_by_their_last_parts_or_by_a_prefix() {
        let name = "ring::tests::keeps_its_table";
        for entry in [
            name,
            "tests::keeps_its_table",
            "keeps_its_table",
            "ring::*",
            "*",
        ] {
            assert!(names_test(entry, name), "{entry}");
        }
        for entry in [
            "its_table",
            "ring::tests",
            "ring",
            "s::keeps_its_table",
            "ring::x*",
        ] {
            assert!(!names_test(entry, name), "{entry}");
        }
    }

    #[test]
    fn json_strings_are_escaped() {
        let mut out = String::new();
        json_string(&mut out, "a\"b\\c\nd\u{1}é");
        assert_eq!(out, "\"a\\\"b\\\\c\\nd\\u0001é\"");
    }
}
