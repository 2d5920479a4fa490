// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Lock order, as lockdep checks it (`kernel/locking/lockdep.c`,
//! `Documentation/locking/lockdep-design.rst`): lock classes, the locks each thread holds, the
//! order edges between classes, and the reports of a cycle and of recursive locking.
//!
//! # Classes
//!
//! A lock's class is its [`LockClassKey`](crate::sync::LockClassKey): one per `new_mutex!`,
//! `new_spinlock!`, `new_spinlock_irq!` or `static_lock_class!` call site, one per
//! `LockClassKey::new_dynamic()` key, as in the kernel. Its name is the lock's (the
//! `optional_name!`: the given one, or `file:line`), and across processes it is known by that
//! name and the source line that defined its key (`name@file:line:column`), not by an
//! address; a dynamic key's class is its process's alone. The class's number lives in the
//! key's detector word, so finding a lock's class costs one load.
//!
//! # Held locks and the graph
//!
//! Each thread keeps its held locks, with where each was taken. A lock taken (by `lock()`,
//! before it blocks or spins, so that a deadlock is reported instead of hanging; or by a
//! `CondVar` wait taking its lock back) while the thread holds others adds the edges lockdep
//! adds: from the most recent held lock that `lock()` took, and from the `try_lock()`ed ones
//! above it, to the new lock's class (the rest follow by transitivity). A `try_lock()` adds no
//! edge to its lock and checks nothing, but the lock is held, and orders what comes after it.
//!
//! A new edge (a pair of classes the thread has not checked before; the thread's cache is the
//! hot path, the process's graph is consulted only for a new pair) is checked against the
//! graph: if the new class already leads to the held one, the acquisition closes a cycle
//! (`WARNING: possible circular locking dependency detected`). Taking a class that the thread
//! already holds by `lock()` is `WARNING: possible recursive locking detected`. Either fails the
//! test taking the lock, with lockdep's report: the chain of the cycle, each edge with where
//! both of its locks were taken, by which thread (a test's, under `cargo test`) and process.
//!
//! # Across tests
//!
//! The graph lives as long as the process: under `cargo test`, every test of a test binary
//! (each on a thread of its own) adds to the same graph, so an AB-BA split over two tests that
//! never deadlocks is reported in the test that runs second. Under `cargo nextest`, which runs
//! each test in a process of its own with `NEXTEST_RUN_ID` set, the processes of one run also
//! share their edges through files: each process appends its new edges, with both sites, to a
//! file of its own in `std::env::temp_dir()/kernel-core-lockdep/<NEXTEST_RUN_ID>/`, and before
//! it checks a new edge, reads what the others appended since (a process appends before it
//! reads, so of two processes closing a cycle at the same time, at least one sees the
//! other's edge). Directories of other runs older than a day are removed when a run creates
//! its own; results never outlive their run. An I/O error (named with its path) leaves the
//! process checking in memory only, as it does without `NEXTEST_RUN_ID` and under Miri.
//!
//! # What differs from the kernel's lockdep
//!
//! - After a report the kernel turns lockdep off (`debug_locks_off()`); the host fails the
//!   test and goes on checking, so that every test that closes a cycle fails. The edge that
//!   closed it stays in the graph.
//! - No interrupt contexts, read locks, subclasses, nesting annotations or wait-context checks
//!   (`BUG: Invalid wait context`): kernel-core's host has no interrupts, no `rwlock`s, and
//!   its API has no `lock_nested()`. The usage marks printed after a class's name
//!   (`{+.+.}-{4:4}`) are those of a lock of its kind taken in process context.
//! - A chain's entries name, instead of a backtrace, where the edge's two locks were taken and
//!   by whom; `stack backtrace:` shows the host's backtrace when `RUST_BACKTRACE` asks for one.

use core::fmt::Write as _;
use core::panic::Location;
use core::sync::atomic::Ordering;
use std::borrow::ToOwned;
use std::collections::{HashMap, HashSet, VecDeque};
use std::string::{String, ToString};
use std::sync::{Mutex, PoisonError};
use std::vec::Vec;

use super::{backtrace, place, print_lock, task_name, with_task, Held, Report, Title};
use crate::env::sync::bindings::lock_class_key;
use crate::env::sync::hooks::{Acquire, LockKind, LockRef};

/// The detector word of a dynamic key that has no class number yet.
const DYNAMIC: usize = usize::MAX;

/// A lock class.
struct Class {
    /// What names it across processes: `name@file:line:column` of its key's definition (and, for
    /// a dynamic key, its process and number).
    identity: String,
    /// The name reports print.
    name: String,
    /// The kind of its locks (of the first one seen).
    kind: LockKind,
    /// Whether its dynamic key was unregistered: its edges lead nowhere any more.
    dead: bool,
}

/// One order edge: a lock of one class taken while one of another was held.
struct Edge {
    /// Where the held lock was taken.
    prev_at: String,
    /// Where the lock was taken while it was held.
    next_at: String,
    /// Who took it: `comm/pid`.
    task: String,
}

/// The classes and their order, for the process.
struct Graph {
    /// Class `n` is `classes[n - 1]`.
    classes: Vec<Class>,
    /// The class of each identity.
    by_identity: HashMap<String, u32>,
    /// `after[n - 1]`: the classes taken while class `n` was held (lockdep's `locks_after`).
    after: Vec<Vec<u32>>,
    /// Every edge, with where it was taken.
    edges: HashMap<(u32, u32), Edge>,
    /// The edges this process checked and found in no cycle.
    checked: HashSet<(u32, u32)>,
    /// The dynamic keys given a class so far.
    dynamic: u64,
    /// The files of a nextest run.
    shared: files::Shared,
}

/// The process's graph, made at its first use.
static GRAPH: Mutex<Option<Graph>> = Mutex::new(None);

/// Runs `f` on the process's graph.
fn with_graph<R>(f: impl FnOnce(&mut Graph) -> R) -> R {
    let mut graph = GRAPH.lock().unwrap_or_else(PoisonError::into_inner);
    f(graph.get_or_insert_with(Graph::new))
}

impl Graph {
    /// No classes yet.
    fn new() -> Self {
        Self {
            classes: Vec::new(),
            by_identity: HashMap::new(),
            after: Vec::new(),
            edges: HashMap::new(),
            checked: HashSet::new(),
            dynamic: 0,
            shared: files::Shared::new(),
        }
    }

    /// The class of `identity`, made with `name` and `kind` if it is new.
    fn intern(&mut self, identity: &str, name: &str, kind: LockKind) -> u32 {
        if let Some(&id) = self.by_identity.get(identity) {
            return id;
        }
        self.classes.push(Class {
            identity: identity.to_owned(),
            name: name.to_owned(),
            kind,
            dead: false,
        });
        self.after.push(Vec::new());
        let id = u32::try_from(self.classes.len()).expect("fewer than 2^32 lock classes");
        self.by_identity.insert(identity.to_owned(), id);
        id
    }

    /// Class `id`.
    fn class(&self, id: u32) -> &Class {
        &self.classes[id as usize - 1]
    }

    /// Class `id`'s name, as a report prints it.
    fn name(&self, id: u32) -> &str {
        &self.class(id).name
    }

    /// Adds the edge `prev` → `next`, unless it is known.
    fn insert_edge(&mut self, prev: u32, next: u32, edge: Edge) {
        if let std::collections::hash_map::Entry::Vacant(vacant) = self.edges.entry((prev, next)) {
            vacant.insert(edge);
            self.after[prev as usize - 1].push(next);
        }
    }

    /// The shortest chain of edges from `from` to `to` (`from` first, `to` last), as lockdep's
    /// breadth-first search finds it; `None` if `to` cannot be reached.
    fn path(&self, from: u32, to: u32) -> Option<Vec<u32>> {
        // The class each class was reached from (0: not reached).
        let mut parent = std::vec![0_u32; self.classes.len() + 1];
        let mut queue = VecDeque::from([from]);
        while let Some(class) = queue.pop_front() {
            for &next in &self.after[class as usize - 1] {
                if next == from || parent[next as usize] != 0 || self.class(next).dead {
                    continue;
                }
                parent[next as usize] = class;
                if next == to {
                    let mut path = std::vec![to];
                    let mut at = to;
                    while at != from {
                        at = parent[at as usize];
                        path.push(at);
                    }
                    path.reverse();
                    return Some(path);
                }
                queue.push_back(next);
            }
        }
        None
    }

    /// Adds the records other processes of the run appended since the last time.
    fn sync(&mut self) {
        for record in self.shared.read_others() {
            match record {
                files::Record::Edge {
                    prev,
                    next,
                    prev_at,
                    next_at,
                    task,
                } => {
                    let prev = self.intern(&prev.identity, &prev.name, prev.kind);
                    let next = self.intern(&next.identity, &next.name, next.kind);
                    self.insert_edge(
                        prev,
                        next,
                        Edge {
                            prev_at,
                            next_at,
                            task,
                        },
                    );
                }
                files::Record::Dead { identity } => {
                    if let Some(&id) = self.by_identity.get(&identity) {
                        self.classes[id as usize - 1].dead = true;
                    }
                }
            }
        }
    }

    /// The edge `prev` → `next` was taken (`prev` held at `prev_at`, `next` at `next_at`):
    /// records it if new, and checks it. `Err` with the chain from `next` back to `prev` if it
    /// closes a cycle.
    fn check_edge(
        &mut self,
        prev: u32,
        next: u32,
        prev_at: &Location<'_>,
        next_at: &Location<'_>,
    ) -> Result<(), Vec<u32>> {
        if self.checked.contains(&(prev, next)) {
            return Ok(());
        }
        if !self.edges.contains_key(&(prev, next)) {
            let edge = Edge {
                prev_at: place(prev_at),
                next_at: place(next_at),
                task: task_name(),
            };
            // Appended before the others' are read: see the module's docs.
            self.shared.append(&files::Record::Edge {
                prev: self.class_record(prev),
                next: self.class_record(next),
                prev_at: edge.prev_at.clone(),
                next_at: edge.next_at.clone(),
                task: edge.task.clone(),
            });
            self.insert_edge(prev, next, edge);
        }
        self.sync();
        if let Some(path) = self.path(next, prev) {
            return Err(path);
        }
        self.checked.insert((prev, next));
        Ok(())
    }

    /// Class `id` as a file's record names it.
    fn class_record(&self, id: u32) -> files::ClassRecord {
        let class = self.class(id);
        files::ClassRecord {
            identity: class.identity.clone(),
            name: class.name.clone(),
            kind: class.kind,
        }
    }
}

/// The class of `lock`: one load once its key has a number.
#[inline]
fn class_of(lock: &LockRef<'_>) -> u32 {
    let key = lock.class.key_ref();
    let id = key.detector_word().load(Ordering::Relaxed);
    if id != 0 && id != DYNAMIC {
        // Numbers are `u32`s: see `Graph::intern`.
        return id as u32;
    }
    new_class(lock, key)
}

/// Gives `lock`'s key its class.
#[cold]
fn new_class(lock: &LockRef<'_>, key: &lock_class_key) -> u32 {
    with_graph(|graph| {
        let word = key.detector_word();
        let id = word.load(Ordering::Relaxed);
        if id != 0 && id != DYNAMIC {
            return id as u32;
        }
        let name = lock.class.name().to_string_lossy();
        let mut identity = std::format!("{name}@{}", place(key.site()));
        if id == DYNAMIC {
            graph.dynamic += 1;
            let _ = write!(
                identity,
                "#dynamic.{}.{}",
                files::process_tag(),
                graph.dynamic
            );
        }
        let class = graph.intern(&identity, &name, lock.kind);
        word.store(class as usize, Ordering::Relaxed);
        class
    })
}

/// A dynamic key was made (`lockdep_register_key()`): its locks get a class of their own, known
/// to this process alone.
pub(crate) fn key_register(key: &lock_class_key) {
    key.detector_word().store(DYNAMIC, Ordering::Relaxed);
}

/// A dynamic key goes away (`lockdep_unregister_key()`): its class's edges lead nowhere any
/// more, here and in the other processes of the run.
pub(crate) fn key_unregister(key: &lock_class_key) {
    let id = key.detector_word().load(Ordering::Relaxed);
    if id == 0 || id == DYNAMIC {
        return;
    }
    with_graph(|graph| {
        let class = &mut graph.classes[id - 1];
        class.dead = true;
        let identity = class.identity.clone();
        graph.shared.append(&files::Record::Dead { identity });
    });
}

/// What an acquisition found wrong.
enum Problem {
    /// The class is held already.
    Recursive {
        prev: Held,
        next: Held,
        held: Vec<Held>,
    },
    /// The new edge `prev` → `next` closes the cycle `path` (from `next` to `prev`).
    Circular {
        prev: Held,
        next: Held,
        path: Vec<u32>,
        held: Vec<Held>,
    },
}

/// `lock` is being taken by the code at `at` (`lock_acquire()`): records it as held, after the
/// checks of a `lock()`. `Some` report if it would deadlock.
#[inline]
pub(crate) fn acquire(
    lock: LockRef<'_>,
    how: Acquire,
    at: &'static Location<'static>,
) -> Option<Report> {
    let new = Held {
        addr: lock.addr as usize,
        class: class_of(&lock),
        kind: lock.kind,
        at,
        trylock: how == Acquire::Try,
    };
    let problem = with_task(|task| {
        if !new.trylock && !task.held.is_empty() {
            if let Some(problem) = check(task, &new) {
                return Some(problem);
            }
        }
        task.held.push(new);
        None
    })
    .flatten()?;
    if std::thread::panicking() {
        // Reported by nobody: the thread is unwinding already (a `CondVar` wait taking its lock
        // back, say), and a second panic would abort the process.
        return None;
    }
    Some(with_graph(|graph| problem.report(graph)))
}

/// lockdep's `check_deadlock()` and `check_prevs_add()` for `new`, taken by `lock()`.
fn check(task: &mut super::Task, new: &Held) -> Option<Problem> {
    if let Some(prev) = task.held.iter().find(|held| held.class == new.class) {
        return Some(Problem::Recursive {
            prev: *prev,
            next: *new,
            held: task.held.clone(),
        });
    }
    for index in (0..task.held.len()).rev() {
        let prev = task.held[index];
        if !task.pairs.contains(prev.class, new.class) {
            let checked =
                with_graph(|graph| graph.check_edge(prev.class, new.class, prev.at, new.at));
            match checked {
                Ok(()) => task.pairs.insert(prev.class, new.class),
                Err(path) => {
                    return Some(Problem::Circular {
                        prev,
                        next: *new,
                        path,
                        held: task.held.clone(),
                    })
                }
            }
        }
        // lockdep stops after the first lock `lock()` took: it has its own edges already.
        if !prev.trylock {
            break;
        }
    }
    None
}

/// `lock` is being released (`lock_release()`).
#[inline]
pub(crate) fn release(lock: LockRef<'_>) {
    let addr = lock.addr as usize;
    with_task(|task| {
        if let Some(index) = task.held.iter().rposition(|held| held.addr == addr) {
            task.held.remove(index);
        }
    });
}

/// lockdep's list of the held locks, for another detector's report.
pub(crate) fn held_locks(out: &mut String, held: &[Held]) {
    with_graph(|graph| {
        super::held_locks(out, held, |class| graph.name(class).to_string());
    });
}

impl Problem {
    /// lockdep's report of the problem.
    #[cold]
    fn report(&self, graph: &Graph) -> Report {
        match self {
            Problem::Recursive { prev, next, held } => recursive(graph, prev, next, held),
            Problem::Circular {
                prev,
                next,
                path,
                held,
            } => circular(graph, prev, next, path, held),
        }
    }
}

/// `print_deadlock_bug()`'s report.
fn recursive(graph: &Graph, prev: &Held, next: &Held, held: &[Held]) -> Report {
    let mut report = Report::lockdep(Title::Recursive);
    let out = &mut report.body;
    let name = graph.name(next.class);
    let _ = writeln!(out, "{} is trying to acquire lock:", task_name());
    print_lock(out, next, name);
    let _ = writeln!(out, "\nbut task is already holding lock:");
    print_lock(out, prev, graph.name(prev.class));
    let _ = writeln!(out, "\nother info that might help us debug this:");
    let _ = writeln!(out, " Possible unsafe locking scenario:\n");
    let _ = writeln!(out, "       CPU0");
    let _ = writeln!(out, "       ----");
    let _ = writeln!(out, "  lock({});", graph.name(prev.class));
    let _ = writeln!(out, "  lock({name});");
    let _ = writeln!(out, "\n *** DEADLOCK ***\n");
    let _ = writeln!(out, " May be due to missing lock nesting notation\n");
    super::held_locks(out, held, |class| graph.name(class).to_string());
    backtrace(out, Some("\nstack backtrace:"));
    report
}

/// `print_circular_bug()`'s report: `path` goes from `next`'s class to `prev`'s.
fn circular(graph: &Graph, prev: &Held, next: &Held, path: &[u32], held: &[Held]) -> Report {
    let mut report = Report::lockdep(Title::Circular);
    let out = &mut report.body;
    let task = task_name();
    let _ = writeln!(out, "{task} is trying to acquire lock:");
    print_lock(out, next, graph.name(next.class));
    let _ = writeln!(out, "\nbut task is already holding lock:");
    print_lock(out, prev, graph.name(prev.class));
    let _ = writeln!(out, "\nwhich lock already depends on the new lock.\n\n");
    let _ = writeln!(out, "the existing dependency chain (in reverse order) is:");
    let entry = |out: &mut String, depth: usize, class: u32, held: u32, edge: &Edge| {
        let (name, kind) = (graph.name(class), graph.class(class).kind);
        let _ = writeln!(out, "\n-> #{depth} ({name}){}:", super::marks(kind));
        let _ = writeln!(out, "       {name} taken at {}", edge.next_at);
        let held = graph.name(held);
        let _ = writeln!(
            out,
            "       while {held} was held, taken at {}",
            edge.prev_at
        );
        let _ = writeln!(out, "       by {}", edge.task);
    };
    for depth in (1..path.len()).rev() {
        let (held, class) = (path[depth - 1], path[depth]);
        if let Some(edge) = graph.edges.get(&(held, class)) {
            entry(out, depth, class, held, edge);
        }
    }
    let this = Edge {
        prev_at: place(prev.at),
        next_at: place(next.at),
        task: task.clone(),
    };
    entry(out, 0, next.class, prev.class, &this);

    let _ = writeln!(out, "\nother info that might help us debug this:\n");
    let (source, target) = (graph.name(next.class), graph.name(prev.class));
    // The class the held one was reached from.
    let parent = graph.name(path[path.len().saturating_sub(2)]);
    if path.len() > 2 {
        let _ = writeln!(out, "Chain exists of:");
        let _ = writeln!(out, "  {source} --> {parent} --> {target}\n");
    }
    let _ = writeln!(out, " Possible unsafe locking scenario:\n");
    let _ = writeln!(out, "       CPU0                    CPU1");
    let _ = writeln!(out, "       ----                    ----");
    let _ = writeln!(out, "  lock({target});");
    let _ = writeln!(out, "                               lock({parent});");
    let _ = writeln!(out, "                               lock({target});");
    let _ = writeln!(out, "  lock({source});");
    let _ = writeln!(out, "\n *** DEADLOCK ***\n");
    super::held_locks(out, held, |class| graph.name(class).to_string());
    backtrace(out, Some("\nstack backtrace:"));
    report
}

/// The files that the processes of a nextest run share their edges through.
mod files {
    use std::borrow::ToOwned;
    use std::collections::HashMap;
    use std::ffi::OsString;
    use std::fs::{self, File, OpenOptions};
    use std::io::{self, Read as _, Seek as _, SeekFrom, Write as _};
    use std::path::{Path, PathBuf};
    use std::string::String;
    use std::sync::OnceLock;
    use std::time::{Duration, SystemTime};
    use std::vec::Vec;

    use crate::env::sync::hooks::LockKind;

    /// The directory under the system's temporary one.
    const ROOT: &str = "kernel-core-lockdep";

    /// How old another run's directory must be to be removed.
    const STALE: Duration = Duration::from_secs(24 * 60 * 60);

    /// What names this process's file and dynamic classes: its id and the time it started
    /// (a process id alone may come back within a run).
    pub(super) fn process_tag() -> &'static str {
        static TAG: OnceLock<String> = OnceLock::new();
        TAG.get_or_init(|| {
            let nanos = SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map_or(0, |since| since.as_nanos());
            std::format!("{}-{nanos}", std::process::id())
        })
    }

    /// A class, as a record names it.
    pub(super) struct ClassRecord {
        pub(super) identity: String,
        pub(super) name: String,
        pub(super) kind: LockKind,
    }

    /// One line of a file.
    pub(super) enum Record {
        /// An edge: `E`, the two classes, where each lock was taken, by whom.
        Edge {
            prev: ClassRecord,
            next: ClassRecord,
            prev_at: String,
            next_at: String,
            task: String,
        },
        /// A dynamic class whose key went away: `D` and its identity.
        Dead { identity: String },
    }

    /// A kind's name in a record.
    fn kind_name(kind: LockKind) -> &'static str {
        match kind {
            LockKind::Mutex => "mutex",
            LockKind::SpinLock => "spinlock",
            LockKind::SpinLockIrq => "spinlock_irq",
        }
    }

    /// The kind a record names.
    fn kind_of(name: &str) -> Option<LockKind> {
        match name {
            "mutex" => Some(LockKind::Mutex),
            "spinlock" => Some(LockKind::SpinLock),
            "spinlock_irq" => Some(LockKind::SpinLockIrq),
            _ => None,
        }
    }

    /// `field` with `\`, tabs, newlines and carriage returns escaped.
    fn escape(out: &mut String, field: &str) {
        for c in field.chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\t' => out.push_str("\\t"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                c => out.push(c),
            }
        }
    }

    /// An escaped field, restored; `None` if it is not one [`escape`] makes.
    fn unescape(field: &str) -> Option<String> {
        let mut out = String::with_capacity(field.len());
        let mut chars = field.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            out.push(match chars.next()? {
                '\\' => '\\',
                't' => '\t',
                'n' => '\n',
                'r' => '\r',
                _ => return None,
            });
        }
        Some(out)
    }

    impl Record {
        /// The record as a line of a file.
        pub(super) fn line(&self) -> String {
            let mut fields: Vec<&str> = Vec::new();
            match self {
                Record::Edge {
                    prev,
                    next,
                    prev_at,
                    next_at,
                    task,
                } => {
                    fields.extend(["E", &prev.identity, &prev.name, kind_name(prev.kind)]);
                    fields.extend([next.identity.as_str(), &next.name, kind_name(next.kind)]);
                    fields.extend([prev_at.as_str(), next_at, task]);
                }
                Record::Dead { identity } => fields.extend(["D", identity.as_str()]),
            }
            let mut line = String::new();
            for (i, field) in fields.iter().enumerate() {
                if i != 0 {
                    line.push('\t');
                }
                escape(&mut line, field);
            }
            line.push('\n');
            line
        }

        /// The record of a line (without its newline); `None` for one this version does not
        /// know.
        pub(super) fn parse(line: &str) -> Option<Self> {
            let fields = line
                .split('\t')
                .map(unescape)
                .collect::<Option<Vec<String>>>()?;
            match fields.as_slice() {
                [e, prev_identity, prev_name, prev_kind, next_identity, next_name, next_kind, prev_at, next_at, task]
                    if e == "E" =>
                {
                    Some(Record::Edge {
                        prev: ClassRecord {
                            identity: prev_identity.clone(),
                            name: prev_name.clone(),
                            kind: kind_of(prev_kind)?,
                        },
                        next: ClassRecord {
                            identity: next_identity.clone(),
                            name: next_name.clone(),
                            kind: kind_of(next_kind)?,
                        },
                        prev_at: prev_at.clone(),
                        next_at: next_at.clone(),
                        task: task.clone(),
                    })
                }
                [d, identity] if d == "D" => Some(Record::Dead {
                    identity: identity.clone(),
                }),
                _ => None,
            }
        }
    }

    /// The run's directory, and what this process wrote and read of it.
    pub(super) struct Shared {
        /// `<temp>/kernel-core-lockdep/<NEXTEST_RUN_ID>`; `None` to check in memory only.
        dir: Option<PathBuf>,
        /// This process's file, once it wrote a record.
        file: Option<File>,
        /// This process's file's name.
        own: OsString,
        /// How many bytes of each other file were read (up to the end of a whole line).
        read: HashMap<OsString, u64>,
    }

    impl Shared {
        /// The run's directory, if there is a run of several processes: nextest's
        /// `NEXTEST_RUN_ID` is set (and not under Miri, which has no files).
        pub(super) fn new() -> Self {
            let run = std::env::var("NEXTEST_RUN_ID").ok().filter(|id| {
                !id.is_empty()
                    && id
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            });
            let dir = run
                .filter(|_| !cfg!(miri))
                .map(|run| std::env::temp_dir().join(ROOT).join(run));
            Self {
                dir,
                file: None,
                own: std::format!("{}.edges", process_tag()).into(),
                read: HashMap::new(),
            }
        }

        /// Stops using the files after an error with `path`, saying so.
        fn broken(&mut self, path: &Path, error: &io::Error) {
            std::eprintln!(
                "kernel-core lockdep: {}: {error}; lock order is checked within this process \
                 only from now on",
                path.display()
            );
            self.dir = None;
            self.file = None;
        }

        /// Appends `record` to this process's file, made (with the run's directory) at the
        /// first record.
        pub(super) fn append(&mut self, record: &Record) {
            let Some(dir) = self.dir.clone() else { return };
            if self.file.is_none() {
                if let Err(error) = fs::create_dir_all(&dir) {
                    return self.broken(&dir, &error);
                }
                if let Some(root) = dir.parent() {
                    remove_stale(root, &dir);
                }
                let path = dir.join(&self.own);
                match OpenOptions::new().append(true).create(true).open(&path) {
                    Ok(file) => self.file = Some(file),
                    Err(error) => return self.broken(&path, &error),
                }
            }
            let line = record.line();
            if let Some(file) = &mut self.file {
                if let Err(error) = file.write_all(line.as_bytes()) {
                    let path = dir.join(&self.own);
                    self.broken(&path, &error);
                }
            }
        }

        /// The records that the other processes' files gained since the last call.
        pub(super) fn read_others(&mut self) -> Vec<Record> {
            let mut records = Vec::new();
            let Some(dir) = self.dir.clone() else {
                return records;
            };
            let entries = match fs::read_dir(&dir) {
                Ok(entries) => entries,
                // Nobody wrote a record yet.
                Err(error) if error.kind() == io::ErrorKind::NotFound => return records,
                Err(error) => {
                    self.broken(&dir, &error);
                    return records;
                }
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                if name == self.own || !name.to_string_lossy().ends_with(".edges") {
                    continue;
                }
                let done = self.read.get(&name).copied().unwrap_or(0);
                let Ok(metadata) = entry.metadata() else {
                    continue;
                };
                if metadata.len() <= done {
                    continue;
                }
                let path = entry.path();
                match read_from(&path, done) {
                    Ok(bytes) => {
                        // Whole lines only: a writer may be in the middle of one.
                        let Some(end) = bytes.iter().rposition(|&b| b == b'\n') else {
                            continue;
                        };
                        let text = String::from_utf8_lossy(&bytes[..end]);
                        records.extend(text.split('\n').filter_map(Record::parse));
                        self.read.insert(name.to_owned(), done + end as u64 + 1);
                    }
                    // Removed meanwhile: another run's cleanup cannot remove this run's
                    // directory, so its writer is gone.
                    Err(error) if error.kind() == io::ErrorKind::NotFound => {}
                    Err(error) => {
                        self.broken(&path, &error);
                        break;
                    }
                }
            }
            records
        }
    }

    /// The bytes of the file at `path` from `offset` on.
    fn read_from(path: &Path, offset: u64) -> io::Result<Vec<u8>> {
        let mut file = File::open(path)?;
        file.seek(SeekFrom::Start(offset))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    /// Removes the directories under `root` of runs other than `ours` that were last changed
    /// more than a day ago.
    fn remove_stale(root: &Path, ours: &Path) {
        let Ok(entries) = fs::read_dir(root) else {
            return;
        };
        let now = SystemTime::now();
        for entry in entries.flatten() {
            let path = entry.path();
            if path == ours {
                continue;
            }
            let old = entry
                .metadata()
                .and_then(|metadata| metadata.modified())
                .is_ok_and(|modified| now.duration_since(modified).is_ok_and(|age| age > STALE));
            if !old {
                continue;
            }
            match fs::remove_dir_all(&path) {
                Ok(()) => {}
                // Another process of this run removed it first.
                Err(error) if error.kind() == io::ErrorKind::NotFound => {}
                Err(error) => std::eprintln!(
                    "kernel-core lockdep: cannot remove another run's {}: {error}",
                    path.display()
                ),
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn records_survive_their_line() {
            let class = |identity: &str, name: &str, kind| ClassRecord {
                identity: identity.into(),
                name: name.into(),
                kind,
            };
            let edge = Record::Edge {
                prev: class("a@x.rs:1:2", "a\twith a tab", LockKind::Mutex),
                next: class("b\\@y.rs:3:4", "b\nnew line\r", LockKind::SpinLockIrq),
                prev_at: "x.rs:5:6".into(),
                next_at: "y.rs:7:8".into(),
                task: "tests::t/12".into(),
            };
            let line = edge.line();
            assert_eq!(line.matches('\n').count(), 1);
            assert!(line.ends_with('\n'));
            let Some(Record::Edge {
                prev,
                next,
                prev_at,
                next_at,
                task,
            }) = Record::parse(line.trim_end_matches('\n'))
            else {
                panic!("not parsed back: {line:?}");
            };
            assert_eq!(
                (prev.identity.as_str(), prev.name.as_str(), prev.kind),
                ("a@x.rs:1:2", "a\twith a tab", LockKind::Mutex)
            );
            assert_eq!(
                (next.identity.as_str(), next.name.as_str(), next.kind),
                ("b\\@y.rs:3:4", "b\nnew line\r", LockKind::SpinLockIrq)
            );
            assert_eq!(
                (prev_at.as_str(), next_at.as_str()),
                ("x.rs:5:6", "y.rs:7:8")
            );
            assert_eq!(task, "tests::t/12");

            let dead = Record::Dead {
                identity: "d@z.rs:1:1#dynamic.1-2.3".into(),
            }
            .line();
            assert!(matches!(
                Record::parse(dead.trim_end()),
                Some(Record::Dead { identity }) if identity == "d@z.rs:1:1#dynamic.1-2.3"
            ));
        }

        #[test]
        fn unknown_or_damaged_lines_are_skipped() {
            for line in [
                "",
                "X\ta",
                "E\ttoo\tfew",
                "D\ta\tb",
                "D\tbad escape \\q",
                "E\ta\ta\tsemaphore\tb\tb\tmutex\tx\ty\tz",
            ] {
                assert!(Record::parse(line).is_none(), "{line:?}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph of `n` classes named `c1`..`cn`, without files.
    fn graph(n: u32) -> Graph {
        let mut graph = Graph::new();
        for i in 1..=n {
            let name = std::format!("c{i}");
            assert_eq!(graph.intern(&name, &name, LockKind::Mutex), i);
        }
        graph
    }

    fn edge() -> Edge {
        Edge {
            prev_at: String::new(),
            next_at: String::new(),
            task: String::new(),
        }
    }

    #[test]
    fn paths_are_the_shortest_and_skip_dead_classes() {
        let mut g = graph(5);
        for (a, b) in [(1, 2), (2, 3), (3, 4), (1, 4), (4, 5)] {
            g.insert_edge(a, b, edge());
        }
        assert_eq!(g.path(1, 5), Some(std::vec![1, 4, 5]));
        assert_eq!(g.path(2, 5), Some(std::vec![2, 3, 4, 5]));
        assert_eq!(g.path(5, 1), None);
        g.classes[3].dead = true;
        assert_eq!(g.path(1, 5), None);
        assert_eq!(g.path(1, 3), Some(std::vec![1, 2, 3]));
    }

    #[test]
    fn a_known_identity_keeps_its_class() {
        let mut g = graph(2);
        assert_eq!(g.intern("c2", "other name", LockKind::SpinLock), 2);
        assert_eq!(g.name(2), "c2");
        assert_eq!(g.intern("c3", "c3", LockKind::SpinLock), 3);
    }
}
