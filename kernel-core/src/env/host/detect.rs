// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host's bug detectors of `kernel::sync` (feature `std`): lock order and recursive locking,
//! as lockdep checks them, and sleeping in atomic context, as `might_sleep()` checks it.
//!
//! They sit behind the seams of `env/host/sync/hooks.rs` (and `might_alloc()` there, which
//! `alloc`'s backend calls for every request), and keep per thread what the kernel keeps per
//! task: the locks held, each with where it was taken ([`lockdep`]), and the preemption count,
//! the interrupt state and, on `PREEMPT_RT`, the RCU nesting that spinlocks leave
//! ([`atomic_sleep`]). What they find fails the test that did it, in the kernel's words:
//!
//! | report | when | module |
//! |---|---|---|
//! | `WARNING: possible circular locking dependency detected` | a lock is about to be taken (before it blocks or spins) in an order that closes a cycle of lock classes, whichever tests and threads (and, under `cargo nextest`, processes) recorded its edges | [`lockdep`] |
//! | `WARNING: possible recursive locking detected` | a lock is about to be taken (not by `try_lock()`) while the thread holds one of its class | [`lockdep`] |
//! | `BUG: sleeping function called from invalid context at <file>:<line>` | `might_sleep()` (`Mutex::lock()`, `CondVar::wait*()` once it released its guard's lock, `Completion` waits, `fsleep()`, `read_poll_timeout()`, an allocation whose flags allow direct reclaim, as `GFP_KERNEL`'s do) in atomic context: a `SpinLock` or `SpinLockIrq` held | [`atomic_sleep`] |
//!
//! # How a test fails
//!
//! The report is printed to the standard error as the kernel's log shows it (lockdep's framed
//! by its rule of `=`; the title on a line of its own, so that a log reader classifies it as it
//! classifies a kernel's console), then the thread unwinds with the report as its panic
//! message: a `String` that starts with the title and holds the whole report, which
//! `#[should_panic(expected = "possible circular locking dependency")]` and
//! [`extras::detectors`](crate::extras::detectors) recognize. It unwinds without the panic
//! hook (`std::panic::resume_unwind`), so the report is not printed a second time; a
//! thread that is already panicking reports nothing (its unwinding releases its locks).
//!
//! # Switches
//!
//! Read once per process, from the environment:
//!
//! - `KERNEL_CORE_DETECTORS=off` (or `0`, `false`, `no`) turns these detectors off: every
//!   hook returns at once (what the benchmark's ratio compares against);
//! - `KERNEL_CORE_PREEMPT_RT=1` (or `on`, `true`, `yes`) checks as a `PREEMPT_RT` kernel
//!   would: see [`atomic_sleep`].
//!
//! Under Miri the detectors run, but keep the lock order in memory only (no files, see
//! [`lockdep`]).

#[path = "detect/atomic_sleep.rs"]
pub(crate) mod atomic_sleep;
#[path = "detect/lockdep.rs"]
pub(crate) mod lockdep;

use core::cell::RefCell;
use core::fmt::Write as _;
use core::panic::Location;
use core::sync::atomic::{AtomicU8, Ordering};
use std::string::String;
use std::vec::Vec;

use super::sync::hooks::LockKind;

/// [`CONFIG`]'s bit: the value was read from the environment.
const KNOWN: u8 = 1;
/// [`CONFIG`]'s bit: the detectors are on.
const ON: u8 = 2;
/// [`CONFIG`]'s bit: check as `PREEMPT_RT` would.
const RT: u8 = 4;

/// The switches, read once: 0 until then.
static CONFIG: AtomicU8 = AtomicU8::new(0);

/// The switches.
#[inline]
fn config() -> u8 {
    let config = CONFIG.load(Ordering::Relaxed);
    if config != 0 {
        return config;
    }
    read_config()
}

/// Reads the switches from the environment.
#[cold]
fn read_config() -> u8 {
    let mut config = KNOWN;
    if switch("KERNEL_CORE_DETECTORS", true) {
        config |= ON;
    }
    if switch("KERNEL_CORE_PREEMPT_RT", false) {
        config |= RT;
    }
    CONFIG.store(config, Ordering::Relaxed);
    config
}

/// The environment variable `name` as a switch, `default` if unset (or not understood, which
/// is said once per process, when the switches are read).
fn switch(name: &str, default: bool) -> bool {
    let Some(value) = std::env::var_os(name) else {
        return default;
    };
    match value.to_str().map(str::to_ascii_lowercase).as_deref() {
        Some("1" | "on" | "true" | "yes") => true,
        Some("0" | "off" | "false" | "no") => false,
        Some("") => default,
        _ => {
            std::eprintln!(
                "kernel-core: {name}={} is neither on nor off; taken as {}",
                value.to_string_lossy(),
                if default { "on" } else { "off" }
            );
            default
        }
    }
}

/// Whether the detectors are on (`KERNEL_CORE_DETECTORS`).
#[inline]
pub(crate) fn enabled() -> bool {
    config() & ON != 0
}

/// Whether the checks follow `PREEMPT_RT` (`KERNEL_CORE_PREEMPT_RT`).
#[inline]
pub(crate) fn preempt_rt() -> bool {
    config() & RT != 0
}

/// One lock that a thread holds, as lockdep's `struct held_lock` records it.
#[derive(Clone, Copy)]
pub(crate) struct Held {
    /// The lock's address (its state's): what a release is matched by.
    pub(crate) addr: usize,
    /// Its class, a number of [`lockdep`]'s.
    pub(crate) class: u32,
    /// Its kind.
    pub(crate) kind: LockKind,
    /// Where it was taken.
    pub(crate) at: &'static Location<'static>,
    /// Whether `try_lock()` took it.
    pub(crate) trylock: bool,
}

/// What the kernel keeps per task for these detectors, kept per thread.
pub(crate) struct Task {
    /// The locks held, oldest first (lockdep's `held_locks`).
    pub(crate) held: Vec<Held>,
    /// The (held class, new class) pairs this thread already found checked: the hot path's
    /// cache of [`lockdep`]'s graph (lockdep's chain cache plays this part).
    pub(crate) pairs: PairSet,
    /// The preemption count's `PREEMPT` part: spinlocks held (not with `PREEMPT_RT`).
    pub(crate) preempt: u32,
    /// How deep local interrupts are disabled (7.3's `HARDIRQ_DISABLE` part of the count).
    pub(crate) irqs_off: u32,
    /// With `PREEMPT_RT`, the RCU read-side nesting that the spinlocks held leave.
    pub(crate) rcu: u32,
    /// Where atomic context began (the outermost spinlock): `preempt_disable_ip`.
    pub(crate) atomic_at: Option<&'static Location<'static>>,
    /// Where local interrupts were last disabled, and that event's number.
    pub(crate) irqs_off_at: Option<(&'static Location<'static>, u32)>,
    /// The interrupt events so far (lockdep's `irq_events`).
    pub(crate) irq_events: u32,
}

impl Task {
    /// A thread that holds nothing.
    const fn new() -> Self {
        Self {
            held: Vec::new(),
            pairs: PairSet::new(),
            preempt: 0,
            irqs_off: 0,
            rcu: 0,
            atomic_at: None,
            irqs_off_at: None,
            irq_events: 0,
        }
    }
}

std::thread_local! {
    static TASK: RefCell<Task> = const { RefCell::new(Task::new()) };
}

#[cfg(feature = "loom")]
loom::thread_local! {
    /// A modelled thread's task (`extras::model`): loom's threads all run on the thread that
    /// runs the model, and each holds its own locks.
    static MODEL_TASK: RefCell<Task> = RefCell::new(Task::new());
}

/// Runs `f` on the calling thread's [`Task`] (a modelled thread's own, inside a model);
/// `None` while the thread's locals are being destroyed (nothing is checked then) or if `f`
/// runs inside another call (never: the detectors take no lock of kernel-core's).
#[inline]
pub(crate) fn with_task<R>(f: impl FnOnce(&mut Task) -> R) -> Option<R> {
    #[cfg(feature = "loom")]
    if super::sync::platform::in_model() {
        // Unwinding out of a failed model, loom's locals may be gone: nothing is checked.
        if super::sync::platform::model_failed() {
            return None;
        }
        return MODEL_TASK
            .try_with(|task| task.try_borrow_mut().ok().map(|mut task| f(&mut task)))
            .ok()
            .flatten();
    }
    TASK.try_with(|task| task.try_borrow_mut().ok().map(|mut task| f(&mut task)))
        .ok()
        .flatten()
}

/// A set of (held class, new class) pairs, by a cheap hash: the set a thread consults on each
/// acquisition under another lock.
pub(crate) struct PairSet {
    /// Open addressing, linear probing; 0 is a free slot (class numbers start at 1); the
    /// length is 0 or a power of two.
    slots: Vec<u64>,
    /// The pairs in it.
    len: usize,
}

impl PairSet {
    /// No pairs.
    const fn new() -> Self {
        Self {
            slots: Vec::new(),
            len: 0,
        }
    }

    /// The pair as one word.
    #[inline]
    fn word(prev: u32, next: u32) -> u64 {
        (u64::from(prev) << 32) | u64::from(next)
    }

    /// The first slot to probe for `word`.
    #[inline]
    fn start(&self, word: u64) -> usize {
        // Fibonacci hashing: the top bits of the product, as many as the table needs.
        let hash = word.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (hash >> 32) as usize & (self.slots.len() - 1)
    }

    /// Whether the pair is in the set.
    #[inline]
    pub(crate) fn contains(&self, prev: u32, next: u32) -> bool {
        if self.slots.is_empty() {
            return false;
        }
        let word = Self::word(prev, next);
        let mut slot = self.start(word);
        loop {
            match self.slots[slot] {
                0 => return false,
                found if found == word => return true,
                _ => slot = (slot + 1) & (self.slots.len() - 1),
            }
        }
    }

    /// Adds the pair.
    pub(crate) fn insert(&mut self, prev: u32, next: u32) {
        if (self.len + 1) * 2 > self.slots.len() {
            let size = ((self.len + 1) * 4).next_power_of_two();
            let old = core::mem::replace(&mut self.slots, std::vec![0; size]);
            self.len = 0;
            for word in old.into_iter().filter(|&word| word != 0) {
                self.insert_word(word);
            }
        }
        self.insert_word(Self::word(prev, next));
    }

    /// Adds `word`, with room for it.
    fn insert_word(&mut self, word: u64) {
        let mut slot = self.start(word);
        loop {
            match self.slots[slot] {
                0 => {
                    self.slots[slot] = word;
                    self.len += 1;
                    return;
                }
                found if found == word => return,
                _ => slot = (slot + 1) & (self.slots.len() - 1),
            }
        }
    }
}

/// Which detector a report is of: every host detector's title, those of this module's and
/// those of a test's scope (`env/host/detect/scoped.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Title {
    /// lockdep's cycle.
    Circular,
    /// lockdep's class taken twice.
    Recursive,
    /// `__might_resched()`'s.
    AtomicSleep,
    /// kmemleak's object left allocated (its title goes on with the address and the size).
    Kmemleak,
    /// Fault injection's `fail_dump()`.
    FaultInjection,
    /// lockdep's `debug_check_no_locks_held()` (its title has the task before).
    LocksHeld,
    /// The model checker's failed interleaving (`extras::model`; its title goes on with the
    /// interleaving and the panic).
    ModelChecker,
}

impl Title {
    /// Every title.
    const ALL: [Title; 7] = [
        Title::Circular,
        Title::Recursive,
        Title::AtomicSleep,
        Title::Kmemleak,
        Title::FaultInjection,
        Title::LocksHeld,
        Title::ModelChecker,
    ];

    /// The report's first line, as the kernel prints it, or its fixed part: the sleep's
    /// continues with `at <file>:<line>`, kmemleak's with the object's address and size
    /// (`unreferenced object 0x... (size N):`), the model checker's with the interleaving and
    /// the panic, and the locks held's is `WARNING: <comm>/<pid> still has locks held!`.
    pub(crate) const fn text(self) -> &'static str {
        match self {
            Title::Circular => "WARNING: possible circular locking dependency detected",
            Title::Recursive => "WARNING: possible recursive locking detected",
            Title::AtomicSleep => "BUG: sleeping function called from invalid context",
            Title::Kmemleak => "unreferenced object 0x",
            Title::FaultInjection => "FAULT_INJECTION: forcing a failure.",
            Title::LocksHeld => "still has locks held!",
            Title::ModelChecker => "BUG: model checker: ",
        }
    }

    /// The title whose report `message` is.
    pub(crate) fn of(message: &str) -> Option<Self> {
        let first = message.lines().next()?;
        Self::ALL.into_iter().find(|title| match title {
            Title::AtomicSleep | Title::Kmemleak | Title::ModelChecker => {
                first.starts_with(title.text())
            }
            Title::LocksHeld => {
                first.starts_with("WARNING: ") && first.ends_with(" still has locks held!")
            }
            _ => first == title.text(),
        })
    }
}

/// A report being written: its title line, then the rest.
pub(crate) struct Report {
    /// lockdep frames its title with rules of `=` and `-` this long; `__might_resched()` does
    /// not (0).
    rule: usize,
    /// The first line.
    title: String,
    /// The lines after the title (and its rule).
    pub(crate) body: String,
}

impl Report {
    /// A report of lockdep's: the title between its rules, the kernel's identification line.
    pub(crate) fn lockdep(title: Title) -> Self {
        let title = String::from(title.text());
        let mut body = String::new();
        let _ = writeln!(body, "{}", ident());
        let _ = writeln!(body, "{}", "-".repeat(title.len()));
        Self {
            rule: title.len(),
            title,
            body,
        }
    }

    /// A report without rules, titled `title`.
    pub(crate) fn plain(title: String) -> Self {
        Self {
            rule: 0,
            title,
            body: String::new(),
        }
    }

    /// Prints the report to the standard error as the kernel's log shows it, then unwinds the
    /// thread with it as the panic message.
    #[cold]
    pub(crate) fn fail(self) -> ! {
        let mut log = String::new();
        if self.rule != 0 {
            let _ = writeln!(log);
            let _ = writeln!(log, "{}", "=".repeat(self.rule));
        }
        let _ = writeln!(log, "{}", self.title);
        log.push_str(&self.body);
        // One write: the lines of reports of parallel tests do not mix.
        std::eprint!("{log}");
        let message = std::format!("{}\n{}", self.title, self.body.trim_end());
        std::panic::resume_unwind(std::boxed::Box::new(message))
    }
}

/// The line that identifies the kernel after a report's title (`print_kernel_ident()`): here
/// kernel-core's version and the host.
fn ident() -> String {
    std::format!(
        "kernel-core {} (host, {}) Not tainted",
        env!("CARGO_PKG_VERSION"),
        if preempt_rt() {
            "PREEMPT_RT"
        } else {
            "PREEMPT"
        }
    )
}

/// The task's `comm/pid`, as the kernel's reports name it: the thread's name (a test's, under
/// `cargo test`) and the process's id.
pub(crate) fn task_name() -> String {
    std::format!("{}/{}", comm(), pid())
}

/// The thread's name (`comm`).
pub(crate) fn comm() -> String {
    std::thread::current()
        .name()
        .unwrap_or("<unnamed>")
        .replace(['\t', '\n'], " ")
}

/// The process's id.
pub(crate) fn pid() -> u32 {
    std::process::id()
}

/// `file:line:column` of `at`.
pub(crate) fn place(at: &Location<'_>) -> String {
    std::format!("{}:{}:{}", at.file(), at.line(), at.column())
}

/// The usage and wait-type marks that lockdep prints after a class's name (`{+.+.}-{4:4}`),
/// as a lock of `kind` taken in process context gets them: the host has no interrupt
/// context, so a class is never used in one; a `SpinLockIrq` is taken with interrupts off.
pub(crate) fn marks(kind: LockKind) -> &'static str {
    match kind {
        LockKind::Mutex => "{+.+.}-{4:4}",
        LockKind::SpinLock => "{+.+.}-{3:3}",
        LockKind::SpinLockIrq => "{..+.}-{3:3}",
    }
}

/// lockdep's list of the locks a task holds (`lockdep_print_held_locks()`: `locks held by
/// comm/pid: N, ...`, without the CPU the host does not have), each named by `name(class)`.
pub(crate) fn held_locks(out: &mut String, held: &[Held], name: impl Fn(u32) -> String) {
    let _ = writeln!(
        out,
        "locks held by {}: {}{}",
        task_name(),
        held.len(),
        if held.is_empty() { "" } else { ":" }
    );
    for (i, lock) in held.iter().enumerate() {
        let _ = write!(out, " #{i}: ");
        print_lock(out, lock, &name(lock.class));
    }
}

/// One held lock as lockdep prints it (`print_lock()`): its address, class and marks, where it
/// was taken.
pub(crate) fn print_lock(out: &mut String, lock: &Held, name: &str) {
    let _ = writeln!(
        out,
        "{:016x} ({name}){}, at: {}",
        lock.addr,
        marks(lock.kind),
        place(lock.at)
    );
}

/// The end of a report: lockdep's `stack backtrace:` (`heading`, if any), then what
/// `dump_stack()` prints: the line naming the task and the kernel (`PID: 42 Comm: name
/// kernel-core ... (host, PREEMPT) Not tainted`), `Call Trace:` and the host's backtrace, if
/// `RUST_BACKTRACE` asks for one.
pub(crate) fn backtrace(out: &mut String, heading: Option<&str>) {
    if let Some(heading) = heading {
        let _ = writeln!(out, "{heading}");
    }
    let _ = writeln!(out, "PID: {} Comm: {} {}", pid(), comm(), ident());
    let _ = writeln!(out, "Call Trace:");
    let trace = std::backtrace::Backtrace::capture();
    if trace.status() == std::backtrace::BacktraceStatus::Captured {
        for line in std::format!("{trace}").lines() {
            let _ = writeln!(out, " {line}");
        }
    } else {
        let _ = writeln!(out, " (set RUST_BACKTRACE=1 for the host's backtrace)");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_sets_find_what_they_hold_and_nothing_else() {
        let mut set = PairSet::new();
        assert!(!set.contains(1, 2));
        for prev in 1..40 {
            for next in 1..40 {
                if (prev + next) % 3 == 0 {
                    set.insert(prev, next);
                }
            }
        }
        set.insert(3, 3);
        for prev in 1..45 {
            for next in 1..45 {
                let expected = prev < 40 && next < 40 && (prev + next) % 3 == 0;
                assert_eq!(set.contains(prev, next), expected, "({prev}, {next})");
            }
        }
        assert_eq!(set.len, 39 * 39 / 3);
        assert!(set.slots.len().is_power_of_two());
    }

    #[test]
    fn titles_are_recognized_on_the_first_line_only() {
        assert_eq!(
            Title::of("WARNING: possible circular locking dependency detected\nmore"),
            Some(Title::Circular)
        );
        assert_eq!(
            Title::of("BUG: sleeping function called from invalid context at a.rs:3\n"),
            Some(Title::AtomicSleep)
        );
        assert_eq!(
            Title::of("WARNING: possible recursive locking detected"),
            Some(Title::Recursive)
        );
        assert_eq!(
            Title::of("note\nWARNING: possible recursive locking detected"),
            None
        );
        assert_eq!(
            Title::of("WARNING: possible recursive locking detected, or not"),
            None
        );
        assert_eq!(
            Title::of("unreferenced object 0x5555 (size 64):\n  comm"),
            Some(Title::Kmemleak)
        );
        assert_eq!(
            Title::of("FAULT_INJECTION: forcing a failure.\nname"),
            Some(Title::FaultInjection)
        );
        assert_eq!(
            Title::of("WARNING: t::a/42 still has locks held!\n1 lock held"),
            Some(Title::LocksHeld)
        );
    }
}
