// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Reading a guest's console: the module loads that `/init` reports, the KTAP each one
//! printed, and the kernel's own reports of trouble.
//!
//! Trouble is recognized by the formats the kernel prints it in, never by a word anywhere in
//! a line, so a driver's `pr_info!("WARNING: fan low")` is no problem (Rust's `pr_*!` prefix
//! the module's name anyway). Each report is one [`Event`], with the lines that follow it (its
//! registers and call trace, up to its `---[ end trace ... ]---`) folded in, and with the case
//! that was running when it began:
//!
//! | kind | begins with |
//! |---|---|
//! | warning | `WARNING: CPU: 0 PID: 1 at file.c:42 f+0x1/0x2` (6.12), `WARNING: file.c:42 at f+0x1/0x2, CPU#0: insmod/1` (7.x), after `------------[ cut here ]------------` |
//! | BUG | `kernel BUG at file.c:42!`, `BUG: ...` (`BUG: sleeping function called from invalid context at ...`, ...) |
//! | Oops | `Oops: ...` (x86), `Internal error: Oops ...` (arm64), `Oops - ...` (riscv, loongarch), `Unable to handle kernel ...` |
//! | Rust panic | `rust_kernel: panicked at src/file.rs:10:5:` and the message on the next line |
//! | soft lockup | `watchdog: BUG: soft lockup - CPU#0 stuck for 10s! [kunit_try_catch:50]` |
//! | hung task | `INFO: task insmod:45 blocked for more than 10 seconds.` |
//! | RCU stall | `rcu: INFO: rcu_sched detected stalls on CPUs/tasks:`, `... self-detected stall on CPU` |
//! | kernel panic | `Kernel panic - not syncing: ...` |
//! | lost lines | `** 4815 printk messages dropped **` |
//! | kmemleak | `unreferenced object 0xffff888100a4c000 (size 64):` |
//! | fault injection | `FAULT_INJECTION: forcing a failure.` (a failure a host test did not handle) |
//! | model checker | `BUG: model checker: interleaving 4 fails: ...` (a host test's interleaving that kernel-core's model checker found failing) |
//!
//! A report that follows another before its end marker (the BUG and Oops a Rust panic raises,
//! an Oops after a BUG) is folded into it: one problem per event.

use crate::model::ktap;

/// What `/init` printed for a module: `kernel-core-init: begin <file>` opens a load, and
/// `insmod <file>: ok` or `: error <errno>` ends its init.
const INIT: &str = "kernel-core-init: ";

/// One module load, from its `begin` line to the next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Load {
    /// The module file, `mydrv.ko`.
    pub module: String,
    /// The kernel's lines while it loaded, ran its suites and unloaded (not `/init`'s).
    pub lines: Vec<String>,
    /// `Ok` once `insmod` succeeded, `Err(errno)` if it failed, `None` if `/init` never said.
    pub insmod: Option<Result<(), u32>>,
    /// The KTAP document its suites printed.
    pub ktap: Option<ktap::Document>,
}

/// A failed assertion (or expectation) in a case's output: KUnit's `# case: ASSERTION FAILED
/// at file:line` and what it printed of the assertion after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assertion {
    /// The `FAILED at` line, as KUnit's diagnostics have it: `case: ASSERTION FAILED at f:1`.
    pub at: String,
    /// The lines after it: C KUnit's indented `Expected x == y, but` and its operands, Rust's
    /// `Expected ... to be true, but is false` and its message at column 0 (`left: 1, right:
    /// 2`), without KTAP's indentation and without blank lines.
    pub lines: Vec<String>,
}

/// The most lines an [`Assertion`] keeps.
const MAX_ASSERTION: usize = 20;

impl Load {
    /// The assertions that failed in `suite`'s case `case`, each with the lines printed after
    /// its `FAILED at` line up to the case's result line. Lines at column 0 count only right
    /// after the assertion's own (Rust's message), and a kernel report ends them: those are
    /// other output.
    pub fn failed_assertions(&self, suite: &str, case: &str) -> Vec<Assertion> {
        let mut found = Vec::new();
        let mut current: Option<Assertion> = None;
        // Whether the current assertion's lines have reached its message at column 0.
        let mut in_message = false;
        let mut in_suite = false;
        for line in &self.lines {
            if let Some(name) = line.strip_prefix("    # Subtest: ") {
                in_suite = name.trim() == suite;
                continue;
            }
            if !in_suite {
                continue;
            }
            if ktap::result(line).is_some() {
                // The suite's own result: its cases are over.
                break;
            }
            if let Some(result) = line
                .strip_prefix("    ")
                .and_then(|l| ktap::result(l.trim()))
            {
                if result.name == case {
                    found.extend(current.take());
                    return found;
                }
                found.clear();
                current = None;
            } else if let Some(at) = failed_at(line, case) {
                found.extend(current.replace(Assertion {
                    at: at.to_string(),
                    lines: Vec::new(),
                }));
                in_message = false;
            } else if let Some(assertion) = &mut current {
                if !assertion_line(assertion, line, &mut in_message) {
                    found.extend(current.take());
                }
            }
        }
        Vec::new()
    }
}

/// The diagnostic of `case`'s `# case: ASSERTION FAILED at f:1` (or `EXPECTATION FAILED`)
/// line, if `line` is one.
fn failed_at<'a>(line: &'a str, case: &str) -> Option<&'a str> {
    let diagnostic = line.strip_prefix("    # ")?;
    let rest = diagnostic.strip_prefix(case)?.strip_prefix(": ")?;
    (rest.starts_with("ASSERTION FAILED at ") || rest.starts_with("EXPECTATION FAILED at "))
        .then_some(diagnostic.trim_end())
}

/// Adds `line` to `assertion` if it is one of its lines; `false` when it ends it (another
/// diagnostic, a kernel report, indented output after its message at column 0, too many
/// lines). `in_message` says whether its lines have reached that message.
fn assertion_line(assertion: &mut Assertion, line: &str, in_message: &mut bool) -> bool {
    if line.trim().is_empty() {
        return true;
    }
    let own = match line.strip_prefix("    ") {
        Some(indented) => (!indented.starts_with("# ") && !*in_message).then_some(indented),
        None => {
            let report = line == "------------[ cut here ]------------"
                || line.starts_with("---[ end trace")
                || is_rule(line)
                || ordinary(line)
                || begins(line, false).is_some();
            *in_message = true;
            (!report && !assertion.lines.is_empty()).then_some(line)
        }
    };
    match own {
        Some(own) if assertion.lines.len() < MAX_ASSERTION => {
            assertion.lines.push(own.trim_end().to_string());
            true
        }
        _ => false,
    }
}

/// The kind of a kernel report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Warning,
    Bug,
    Oops,
    RustPanic,
    SoftLockup,
    HungTask,
    RcuStall,
    KernelPanic,
    Dropped,
    /// KASAN's report of a bad memory access.
    Kasan,
    /// KFENCE's.
    Kfence,
    /// UBSAN's report of undefined behaviour in C.
    Ubsan,
    /// lockdep's (a lock order that could deadlock, a bad unlock, suspicious RCU usage).
    Lockdep,
    /// Sleeping in atomic context: `DEBUG_ATOMIC_SLEEP`'s report, or the scheduler's
    /// "scheduling while atomic".
    AtomicSleep,
    /// kmemleak's object left allocated: `unreferenced object 0x... (size N):` (the kernel's
    /// `/sys/kernel/debug/kmemleak`, a host test's scope at its end).
    Kmemleak,
    /// Fault injection's failure that a host test did not handle: `FAULT_INJECTION: forcing
    /// a failure.`
    FaultInjection,
    /// The host's model checker (`kernel_core::extras::model`): an interleaving of a test's
    /// threads in which it failed, `BUG: model checker: interleaving N fails: ...`.
    ModelChecker,
}

impl Kind {
    /// Whether it means a case (or a module's init) hangs: what the boot stops for.
    pub fn is_hang(self) -> bool {
        matches!(self, Kind::SoftLockup | Kind::HungTask | Kind::RcuStall)
    }

    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Warning => "WARNING",
            Kind::Bug => "BUG",
            Kind::Oops => "Oops",
            Kind::RustPanic => "panic",
            Kind::SoftLockup => "soft lockup",
            Kind::HungTask => "hung task",
            Kind::RcuStall => "RCU stall",
            Kind::KernelPanic => "kernel panic",
            Kind::Dropped => "lost log lines",
            Kind::Kasan => "KASAN report",
            Kind::Kfence => "KFENCE report",
            Kind::Ubsan => "UBSAN report",
            Kind::Lockdep => "lockdep report",
            Kind::AtomicSleep => "sleep in atomic context",
            Kind::Kmemleak => "memory leak",
            Kind::FaultInjection => "failure injected",
            Kind::ModelChecker => "failing interleaving",
        }
    }

    /// What caught it: the detector a failure names (`KASAN`, `lockdep`, ...).
    pub fn detector(self) -> &'static str {
        match self {
            Kind::Warning => "WARN",
            Kind::Bug => "BUG",
            Kind::Oops => "Oops",
            Kind::RustPanic => "Rust panic",
            Kind::SoftLockup => "soft-lockup detector",
            Kind::HungTask => "hung-task detector",
            Kind::RcuStall => "RCU stall detector",
            Kind::KernelPanic => "kernel panic",
            Kind::Dropped => "printk",
            Kind::Kasan => "KASAN",
            Kind::Kfence => "KFENCE",
            Kind::Ubsan => "UBSAN",
            Kind::Lockdep => "lockdep",
            Kind::AtomicSleep => "atomic-sleep check",
            Kind::Kmemleak => "kmemleak",
            Kind::FaultInjection => "fault injection",
            Kind::ModelChecker => "model checker",
        }
    }

    /// Whether a line of `=` ends its report (KASAN's and KFENCE's close with one).
    fn ends_with_rule(self) -> bool {
        matches!(self, Kind::Kasan | Kind::Kfence)
    }
}

/// Whether `line` is a rule of `=` signs, which frames KASAN's and KFENCE's reports and opens
/// lockdep's.
fn is_rule(line: &str) -> bool {
    line.len() >= 20 && line.bytes().all(|b| b == b'=')
}

/// Where the guest was when something happened: the module loading, and within its KTAP the
/// suite and the index of the case running (the number of results the suite had printed).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Position {
    pub module: Option<String>,
    pub suite: Option<String>,
    pub case_index: usize,
}

/// One kernel report.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Event {
    pub kind: Kind,
    /// The line that says what it is (for a panic, with its message).
    pub headline: String,
    /// `file:line` the kernel named, if it did.
    pub location: Option<String>,
    /// All its lines, trace included.
    pub lines: Vec<String>,
    /// Where the guest was when it began.
    pub during: Position,
}

impl Event {
    /// Its headline, with what it means where the kernel's words do not say it.
    pub fn summary(&self) -> String {
        let detector = self.kind.detector();
        let named = if matches!(
            self.kind,
            Kind::Lockdep | Kind::AtomicSleep | Kind::Kmemleak | Kind::FaultInjection
        ) {
            format!("{detector}: {}", self.headline)
        } else {
            self.headline.clone()
        };
        match self.hint() {
            Some(hint) => format!("{named} ({hint})"),
            None => named,
        }
    }

    /// The whole report, as the kernel printed it (as many lines as a report keeps).
    pub fn text(&self) -> String {
        self.lines.join("\n")
    }

    /// What a report means that its headline does not say: an Oops in one of the compiler's
    /// runtime functions that the kernel's `rust/compiler_builtins.rs` defines to panic
    /// (64-bit division on 32-bit arm, floats, 128-bit integers).
    fn hint(&self) -> Option<&'static str> {
        let in_builtin = self.lines.iter().any(|l| {
            let l = strip_time(l);
            ["PC is at __rust__", "PC is at __aeabi_"]
                .iter()
                .any(|p| l.starts_with(p))
                || l.contains("division/modulo should not be used")
        });
        in_builtin.then_some(
            "the code called a compiler runtime function the kernel does not have: on 32-bit \
             arm, a 64-bit division, which Rust's own `{}` of a u64 or i64 does too; print \
             those with kernel_core::extras::fmt::Decimal and divide u32s or through Delta",
        )
    }
}

/// The whole console, parsed.
#[derive(Clone, Debug, Default)]
pub struct Log {
    pub loads: Vec<Load>,
    pub events: Vec<Event>,
    /// Whether `/init` reached its end.
    pub done: bool,
    /// How many CPUs the kernel brought up, as it said (`smp: Brought up 1 node, 2 CPUs`);
    /// `None` for a kernel that did not say (no SMP).
    pub cpus: Option<u32>,
}

/// Strips a `[    1.234567] ` printk timestamp.
pub fn strip_time(line: &str) -> &str {
    let trimmed = line.trim_end_matches('\r');
    if let Some(rest) = trimmed.strip_prefix('[') {
        if let Some((stamp, rest)) = rest.split_once("] ") {
            if stamp.trim().chars().all(|c| c.is_ascii_digit() || c == '.') {
                return rest;
            }
        }
    }
    trimmed
}

/// What a report's first line is, and the `file:line` it names; `after_rule` says whether the
/// line before it was a rule of `=` (lockdep's reports open with one).
fn begins(line: &str, after_rule: bool) -> Option<(Kind, Option<String>)> {
    if let Some(rest) = line.strip_prefix("BUG: KASAN: ") {
        return Some((Kind::Kasan, function_of(rest)));
    }
    if let Some(rest) = line.strip_prefix("BUG: KFENCE: ") {
        return Some((Kind::Kfence, function_of(rest)));
    }
    if let Some(rest) = line.strip_prefix("UBSAN: ") {
        // `UBSAN: array-index-out-of-bounds in lib/x.c:12:34`.
        let location = rest.rsplit_once(" in ").map(|(_, l)| l.trim().to_string());
        return Some((Kind::Ubsan, location));
    }
    if line.starts_with("BUG: sleeping function called from invalid context")
        || line.starts_with("BUG: scheduling while atomic")
    {
        let location = line
            .rsplit_once(" at ")
            .map(|(_, l)| l.trim())
            .filter(|l| l.contains(':') && !l.contains(' '));
        return Some((Kind::AtomicSleep, location.map(String::from)));
    }
    // lockdep (and its RCU checks): `WARNING: possible circular locking dependency detected`
    // and the like, under a rule of `=`, never in a WARN()'s `at file:line` form; and its
    // `WARNING: comm/pid still has locks held!`, which a host test's panic message begins
    // without the rule.
    if (after_rule || line.ends_with(" still has locks held!"))
        && line.starts_with("WARNING: ")
        && !line.contains(", CPU#")
    {
        return Some((Kind::Lockdep, None));
    }
    if line.starts_with("unreferenced object 0x") {
        return Some((Kind::Kmemleak, None));
    }
    if line == "FAULT_INJECTION: forcing a failure." {
        return Some((Kind::FaultInjection, None));
    }
    // The host's model checker names itself, as KASAN does (before the generic `BUG: `).
    if line.starts_with("BUG: model checker: ") {
        return Some((Kind::ModelChecker, None));
    }
    if let Some(rest) = line.strip_prefix("WARNING: ") {
        // 6.12: `CPU: 0 PID: 1 at file:line func`; 7.x: `file:line at func, CPU#0: comm/pid`,
        // or `at func, CPU#0: ...` without a file.
        if let Some(rest) = rest.strip_prefix("CPU: ") {
            let (_, after) = rest.split_once(" at ")?;
            let location = after.split_whitespace().next().filter(|l| l.contains(':'));
            return Some((Kind::Warning, location.map(String::from)));
        }
        if rest.starts_with("at ") && rest.contains(", CPU#") {
            return Some((Kind::Warning, None));
        }
        let (location, after) = rest.split_once(" at ")?;
        if after.contains(", CPU#") && location.contains(':') && !location.contains(' ') {
            return Some((Kind::Warning, Some(location.to_string())));
        }
        return None;
    }
    if let Some(rest) = line.strip_prefix("kernel BUG at ") {
        return Some((Kind::Bug, Some(rest.trim_end_matches('!').to_string())));
    }
    // Subsystems prefix some reports with their name: `watchdog: `, `rcu: `, `rust_kernel: `.
    let without_prefix = line
        .split_once(": ")
        .filter(|(prefix, _)| {
            prefix != &"BUG"
                && prefix != &"INFO"
                && prefix
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
        .map_or(line, |(_, rest)| rest);
    if without_prefix.starts_with("BUG: soft lockup") {
        return Some((Kind::SoftLockup, None));
    }
    if line.starts_with("BUG: ") {
        let location = line
            .rsplit_once(" at ")
            .map(|(_, l)| l.trim())
            .filter(|l| l.contains(':') && !l.contains(' '));
        return Some((Kind::Bug, location.map(String::from)));
    }
    if line.starts_with("Oops: ")
        || line.starts_with("Oops - ")
        || line.starts_with("Internal error: Oops")
        || line.starts_with("Unable to handle kernel ")
        || line.starts_with("general protection fault")
    {
        return Some((Kind::Oops, None));
    }
    if let Some(rest) = without_prefix.strip_prefix("panicked at ") {
        let location = rest.trim_end_matches(':');
        return Some((Kind::RustPanic, Some(location.to_string())));
    }
    if line.starts_with("INFO: task ") && line.contains(" blocked") {
        return Some((Kind::HungTask, None));
    }
    if without_prefix.starts_with("INFO: ")
        && (line.contains("detected stalls on CPUs") || line.contains("self-detected stall"))
    {
        return Some((Kind::RcuStall, None));
    }
    if line.starts_with("Kernel panic - not syncing") {
        return Some((Kind::KernelPanic, None));
    }
    if line.starts_with("** ") && line.ends_with(" printk messages dropped **") {
        return Some((Kind::Dropped, None));
    }
    None
}

/// The function a KASAN or KFENCE headline names: `slab-out-of-bounds in f+0x1/0x2`.
fn function_of(rest: &str) -> Option<String> {
    rest.split_once(" in ")
        .map(|(_, f)| f.split_whitespace().next().unwrap_or_default().to_string())
}

/// Whether `line` is ordinary output that ends an open report: `/init`'s lines and KTAP.
fn ordinary(line: &str) -> bool {
    let trimmed = line.trim_start();
    line.starts_with(INIT)
        || trimmed.starts_with("KTAP version")
        || trimmed.starts_with("# Subtest:")
        || trimmed.starts_with("1..")
        || ktap::result(trimmed).is_some()
}

/// The most lines one report keeps.
const MAX_REPORT: usize = 200;

/// The most lines a `cut here` waits through for its report to begin (its message, printed
/// before the `WARNING:` line); more, and they were no report's.
const MAX_CUT_HERE: usize = 8;

/// Reads a console line by line, as it comes (for the boot's monitor) or all at once
/// ([`parse`]).
#[derive(Default)]
pub struct Reader {
    log: Log,
    position: Position,
    /// The report being read, and whether its end marker was seen.
    open: Option<Event>,
    /// A `cut here` line and the lines after it (a WARN's message), whose report has not
    /// said what it is yet; empty when no `cut here` waits.
    cut_here: Vec<String>,
    /// Whether the previous line was a rule of `=`.
    after_rule: bool,
}

impl Reader {
    /// Where the guest is now.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The log so far (an open report not included).
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// Reads one raw console line; returns the report it began, if it began one.
    pub fn line(&mut self, raw: &str) -> Option<Kind> {
        let line = strip_time(raw);
        let began = self.trouble(line);
        self.progress(line);
        self.after_rule = is_rule(line);
        began
    }

    /// Follows the reports; returns the kind of a report `line` begins.
    fn trouble(&mut self, line: &str) -> Option<Kind> {
        if line == "------------[ cut here ]------------" {
            if self
                .open
                .as_ref()
                .is_some_and(|e| e.kind == Kind::RustPanic)
            {
                self.push_open(line);
            } else {
                self.close();
                self.cut_here = vec![line.to_string()];
            }
            return None;
        }
        if line.starts_with("---[ end trace") {
            self.push_open(line);
            self.close();
            self.cut_here.clear();
            return None;
        }
        if is_rule(line) {
            if self.open.as_ref().is_some_and(|e| e.kind.ends_with_rule()) {
                self.push_open(line);
                self.close();
            }
            return None;
        }
        if let Some((kind, location)) = begins(line, self.after_rule) {
            let folds = self.open.as_ref().is_some_and(|open| {
                open.kind == Kind::RustPanic
                    || matches!(kind, Kind::Oops | Kind::KernelPanic)
                        && matches!(open.kind, Kind::Bug | Kind::Oops | Kind::Warning)
            });
            if folds && kind != Kind::Dropped {
                self.push_open(line);
                return None;
            }
            self.close();
            let mut lines = std::mem::take(&mut self.cut_here);
            lines.push(line.to_string());
            let event = Event {
                kind,
                headline: line.to_string(),
                location,
                lines,
                during: self.position.clone(),
            };
            if kind == Kind::Dropped {
                self.log.events.push(event);
            } else {
                self.open = Some(event);
            }
            return Some(kind);
        }
        if ordinary(line) {
            self.close();
            self.cut_here.clear();
        } else if !self.cut_here.is_empty() {
            self.wait_after_cut_here(line);
        } else if let Some(open) = &mut self.open {
            // A Rust panic's message is the line after `panicked at`.
            if open.kind == Kind::RustPanic && open.lines.len() == 1 {
                open.headline = format!("{} {}", open.headline, line.trim());
            }
            if open.lines.len() < MAX_REPORT {
                open.lines.push(line.to_string());
            }
        }
        None
    }

    /// Keeps `line`, printed after a `cut here` and before its report's first line (a WARN's
    /// message), for the report; forgets them all once that is more than a report's message.
    fn wait_after_cut_here(&mut self, line: &str) {
        if self.cut_here.len() < MAX_CUT_HERE {
            self.cut_here.push(line.to_string());
        } else {
            self.cut_here.clear();
        }
    }

    /// Adds `line` to the open report, if there is one and it has room.
    fn push_open(&mut self, line: &str) {
        if let Some(open) = &mut self.open {
            if open.lines.len() < MAX_REPORT {
                open.lines.push(line.to_string());
            }
        }
    }

    /// Ends the open report, if there is one.
    fn close(&mut self) {
        if let Some(event) = self.open.take() {
            self.log.events.push(event);
        }
    }

    /// Follows `/init`'s loads and the KTAP progress.
    fn progress(&mut self, line: &str) {
        if let Some(rest) = line.strip_prefix("smp: Brought up ") {
            // `1 node, 2 CPUs`.
            self.log.cpus = rest
                .split(", ")
                .nth(1)
                .and_then(|cpus| cpus.split_whitespace().next())
                .and_then(|n| n.parse().ok());
        }
        if let Some(rest) = line.strip_prefix(INIT) {
            if let Some(module) = rest.strip_prefix("begin ") {
                self.log.loads.push(Load {
                    module: module.trim().to_string(),
                    ..Load::default()
                });
                self.position = Position {
                    module: Some(module.trim().to_string()),
                    ..Position::default()
                };
            } else if rest.starts_with("done") {
                self.log.done = true;
            } else if let Some(load) = self.log.loads.last_mut() {
                if let Some(outcome) = rest
                    .strip_prefix("insmod ")
                    .and_then(|r| r.strip_prefix(load.module.as_str()))
                    .and_then(|r| r.strip_prefix(": "))
                {
                    load.insmod = Some(match outcome.strip_prefix("error ") {
                        Some(errno) => Err(errno.trim().parse().unwrap_or(0)),
                        None => Ok(()),
                    });
                    self.position.suite = None;
                }
            }
            return;
        }
        if let Some(load) = self.log.loads.last_mut() {
            load.lines.push(line.to_string());
        }
        if let Some(name) = line.strip_prefix("    # Subtest: ") {
            self.position.suite = Some(name.trim().to_string());
            self.position.case_index = 0;
        } else if line.starts_with("    ") && ktap::result(line.trim()).is_some() {
            self.position.case_index += 1;
        } else if ktap::result(line).is_some() {
            self.position.suite = None;
        }
    }

    /// Ends the reading: closes an open report, parses each load's KTAP.
    pub fn finish(mut self) -> Log {
        self.close();
        for load in &mut self.log.loads {
            load.ktap = ktap::document(&load.lines);
        }
        self.log
    }
}

/// Parses a whole console log.
pub fn parse(text: &str) -> Log {
    let mut reader = Reader::default();
    for line in text.lines() {
        reader.line(line);
    }
    reader.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "\
[    0.5] booting
kernel-core-init: begin mydrv.ko
KTAP version 1
1..1
    KTAP version 1
    # Subtest: mydrv_ring
    # module: mydrv
    1..3
    ok 1 first
[    1.1] ------------[ cut here ]------------
[    1.1] WARNING: src/ring.rs:12 at mydrv::ring::check+0x10/0x20 [mydrv], CPU#0: kunit_try_catch/50
[    1.1] Modules linked in: mydrv(O)
[    1.1] Call Trace:
[    1.1]  <TASK>
[    1.1]  mydrv::ring::check+0x10/0x20 [mydrv]
[    1.1] ---[ end trace 0000000000000000 ]---
    ok 2 second
[    1.2] rust_kernel: panicked at src/ring.rs:40:9:
[    1.2] the ring overflowed
[    1.2] ------------[ cut here ]------------
[    1.2] kernel BUG at rust/helpers/bug.c:7!
[    1.2] Oops: invalid opcode: 0000 [#1] SMP
[    1.2] Call Trace:
[    1.2] ---[ end trace 0000000000000000 ]---
    # third: try faulted: last line seen src/ring.rs:39
    not ok 3 third
not ok 1 mydrv_ring
[    1.3] mydrv: WARNING: fan low
WARNING: nothing like the kernel's
** 4815 printk messages dropped **
kernel-core-init: insmod mydrv.ko: ok
kernel-core-init: begin other.ko
kernel-core-init: insmod other.ko: error 2
kernel-core-init: done
";

    #[test]
    fn loads_and_their_ktap() {
        let log = parse(LOG);
        assert!(log.done);
        assert_eq!(log.loads.len(), 2);
        assert_eq!(log.loads[0].insmod, Some(Ok(())));
        assert_eq!(log.loads[1].insmod, Some(Err(2)));
        let ktap = log.loads[0].ktap.as_ref().unwrap();
        assert_eq!(ktap.suites[0].cases.len(), 3);
        assert_eq!(ktap.suites[0].cases[2].outcome, ktap::Outcome::Fail);
        assert!(log.loads[1].ktap.is_none());
    }

    #[test]
    fn one_event_per_report_in_the_kernel_s_formats() {
        let log = parse(LOG);
        let kinds: Vec<_> = log.events.iter().map(|e| e.kind).collect();
        assert_eq!(kinds, [Kind::Warning, Kind::RustPanic, Kind::Dropped]);
        let warning = &log.events[0];
        assert_eq!(warning.location.as_deref(), Some("src/ring.rs:12"));
        assert_eq!(warning.lines[0], "------------[ cut here ]------------");
        assert_eq!(warning.lines.len(), 7);
        assert_eq!(warning.during.suite.as_deref(), Some("mydrv_ring"));
        assert_eq!(warning.during.case_index, 1, "the second case was running");
        let panic = &log.events[1];
        assert_eq!(
            panic.headline,
            "rust_kernel: panicked at src/ring.rs:40:9: the ring overflowed"
        );
        assert_eq!(panic.location.as_deref(), Some("src/ring.rs:40:9"));
        assert!(
            panic.lines.iter().any(|l| l.starts_with("Oops: ")),
            "folded"
        );
        assert_eq!(panic.during.case_index, 2);
        assert_eq!(log.events[2].during.module.as_deref(), Some("mydrv.ko"));
    }

    #[test]
    fn other_formats() {
        for (line, kind, location) in [
            (
                "WARNING: CPU: 0 PID: 1 at drivers/x.c:42 f+0x1/0x2",
                Kind::Warning,
                Some("drivers/x.c:42"),
            ),
            (
                "WARNING: at f+0x1/0x2, CPU#0: insmod/1",
                Kind::Warning,
                None,
            ),
            ("kernel BUG at mm/slub.c:9!", Kind::Bug, Some("mm/slub.c:9")),
            (
                "BUG: sleeping function called from invalid context at kernel/sched/core.c:8000",
                Kind::AtomicSleep,
                Some("kernel/sched/core.c:8000"),
            ),
            (
                "watchdog: BUG: soft lockup - CPU#0 stuck for 10s! [kunit_try_catch:50]",
                Kind::SoftLockup,
                None,
            ),
            (
                "INFO: task insmod:45 blocked for more than 10 seconds.",
                Kind::HungTask,
                None,
            ),
            (
                "rcu: INFO: rcu_sched detected stalls on CPUs/tasks:",
                Kind::RcuStall,
                None,
            ),
            ("Internal error: Oops - BUG: 0 [#1] SMP", Kind::Oops, None),
            (
                "Unable to handle kernel paging request at virtual address 0",
                Kind::Oops,
                None,
            ),
            (
                "Kernel panic - not syncing: Fatal exception",
                Kind::KernelPanic,
                None,
            ),
        ] {
            let (k, l) = begins(line, false).unwrap_or_else(|| panic!("{line}"));
            assert_eq!((k, l.as_deref()), (kind, location), "{line}");
        }
        for line in [
            "mydrv: WARNING: fan low",
            "WARNING: fan low",
            "BUGS: none",
            "INFO: all good",
            "kernel-core-init: insmod x.ko: ok",
        ] {
            assert_eq!(begins(line, false), None, "{line}");
        }
    }

    #[test]
    fn the_detectors_reports_are_whole_and_named() {
        // KASAN, framed by rules; lockdep, under a rule, with no end marker of its own; a
        // `scheduling while atomic`; UBSAN between `cut here` and its end of trace. Each in
        // the case that was running, its whole text kept.
        let lines = [
            "kernel-core-init: begin m.ko",
            "KTAP version 1",
            "1..1",
            "    KTAP version 1",
            "    # Subtest: s",
            "    1..4",
            "==================================================================",
            "BUG: KASAN: slab-out-of-bounds in m::tests::oob+0x63/0x90 [m]",
            "Write of size 1 at addr ffff888002bd7a4d by task kunit_try_catch/95",
            "",
            "Call Trace:",
            " <TASK>",
            " m::tests::oob+0x63/0x90 [m]",
            " </TASK>",
            "==================================================================",
            "Disabling lock debugging due to kernel taint",
            "    ok 1 oob",
            "",
            "======================================================",
            "WARNING: possible circular locking dependency detected",
            "7.3.4 #1 Tainted: G    B      O",
            "------------------------------------------------------",
            "kunit_try_catch/97 is trying to acquire lock:",
            " *** DEADLOCK ***",
            "stack backtrace:",
            "    ok 2 b_then_a",
            "BUG: scheduling while atomic: kunit_try_catch/98/0x00000002",
            "Call Trace:",
            "    ok 3 sleeps",
            "------------[ cut here ]------------",
            "UBSAN: shift-out-of-bounds in drivers/x.c:12:34",
            "shift exponent 40 is too large for 32-bit type 'int'",
            "---[ end trace ]---",
            "    ok 4 shifts",
            "ok 1 s",
            "smp: Brought up 1 node, 2 CPUs",
        ];
        let log = parse(&lines.join("\n"));
        let kinds: Vec<_> = log.events.iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            [Kind::Kasan, Kind::Lockdep, Kind::AtomicSleep, Kind::Ubsan]
        );
        let kasan = &log.events[0];
        assert_eq!(kasan.location.as_deref(), Some("m::tests::oob+0x63/0x90"));
        assert!(kasan
            .text()
            .ends_with("=================================================================="));
        assert!(kasan.text().contains("Write of size 1"), "{}", kasan.text());
        assert!(
            !kasan.text().contains("Disabling lock debugging"),
            "closed by its rule"
        );
        assert_eq!(kasan.during.case_index, 0);
        let lockdep = &log.events[1];
        assert_eq!(
            lockdep.summary(),
            "lockdep: WARNING: possible circular locking dependency detected"
        );
        assert!(lockdep.text().contains("*** DEADLOCK ***"));
        assert_eq!(lockdep.during.case_index, 1);
        assert!(log.events[2]
            .summary()
            .starts_with("atomic-sleep check: BUG: scheduling"));
        assert_eq!(log.events[2].during.case_index, 2);
        let ubsan = &log.events[3];
        assert_eq!(ubsan.location.as_deref(), Some("drivers/x.c:12:34"));
        assert!(ubsan
            .text()
            .starts_with("------------[ cut here ]------------"));
        assert!(ubsan.text().contains("shift exponent 40"));
        assert_eq!(ubsan.during.case_index, 3);
        assert_eq!(log.cpus, Some(2));
        // A driver's own rule and warning are neither.
        let quiet = parse("====================\nm: WARNING: fan low\n");
        assert!(quiet.events.is_empty());
        assert_eq!(quiet.cpus, None);
    }

    #[test]
    fn the_scope_s_reports_of_a_host_test_name_their_detectors() {
        let log = parse(
            "thread 'a::b' panicked at src/lib.rs:3:5:\n\
             unreferenced object 0x5555 (size 64):\n\
             \x20 comm \"a::b\", pid 42\n\
             \n\
             WARNING: a::b/42 still has locks held!\n\
             1 lock held by a::b/42:\n\
             \n\
             FAULT_INJECTION: forcing a failure.\n\
             name failslab, interval 1\n",
        );
        let summaries: Vec<_> = log.events.iter().map(Event::summary).collect();
        assert_eq!(
            summaries,
            [
                "kmemleak: unreferenced object 0x5555 (size 64):",
                "lockdep: WARNING: a::b/42 still has locks held!",
                "fault injection: FAULT_INJECTION: forcing a failure.",
            ]
        );
        // A driver's own line is none of them.
        assert!(parse("m: WARNING: fan still has locks held!\n")
            .events
            .is_empty());
    }

    #[test]
    fn the_model_checker_s_report_of_a_host_test_names_itself() {
        let log = parse(
            "thread 'a::b' panicked at src/lib.rs:3:5:\n\
             assertion `left == right` failed: lost an update\n\
             BUG: model checker: interleaving 4 fails: assertion `left == right` failed: lost an update\n\
             \x20 left: 1\n\
             \x20right: 2\n\
             The model checker (loom) ran the test's threads in 4 interleavings.\n",
        );
        assert_eq!(log.events.len(), 1, "{:?}", log.events);
        let event = &log.events[0];
        assert_eq!(event.kind, Kind::ModelChecker);
        assert_eq!(event.kind.detector(), "model checker");
        assert_eq!(
            event.summary(),
            "BUG: model checker: interleaving 4 fails: assertion `left == right` failed: lost an update"
        );
        assert!(event.text().contains(" right: 2"));
        // Another BUG is not the model checker's.
        assert_eq!(parse("BUG: model checked\n").events[0].kind, Kind::Bug);
    }

    #[test]
    fn a_warn_s_message_between_cut_here_and_its_headline_is_in_its_report() {
        let log = parse(
            "[    1.0] ------------[ cut here ]------------\n\
             [    1.0] Unexpected DAIF value: 0x3c0 (expected 0xc0)\n\
             [    1.0] WARNING: arch/arm64/kernel/process.c:740 at __switch_to+0x1/0x2, CPU#0: a/1\n\
             [    1.0] Call trace:\n\
             [    1.0] ---[ end trace 0000000000000000 ]---\n",
        );
        assert_eq!(log.events.len(), 1);
        let warn = &log.events[0];
        assert_eq!(warn.kind, Kind::Warning);
        assert_eq!(
            warn.lines[..3],
            [
                "------------[ cut here ]------------",
                "Unexpected DAIF value: 0x3c0 (expected 0xc0)",
                "WARNING: arch/arm64/kernel/process.c:740 at __switch_to+0x1/0x2, CPU#0: a/1",
            ]
        );
        assert!(warn.headline.starts_with("WARNING: "), "{}", warn.headline);
        // A `cut here` that no report follows makes nothing of the lines after it, whether
        // KTAP, its end of trace or too many lines come first.
        for after in [
            "m: a line\n    ok 1 a\nm: another\n".to_string(),
            "m: a line\n---[ end trace 0000000000000000 ]---\nm: another\n".to_string(),
            "m: a line\n".repeat(MAX_CUT_HERE + 1),
        ] {
            let text = format!("------------[ cut here ]------------\n{after}Call Trace:\n");
            assert!(parse(&text).events.is_empty(), "{text}");
        }
        let late = format!(
            "------------[ cut here ]------------\n{}WARNING: at f+0x1/0x2, CPU#0: a/1\n",
            "m: a line\n".repeat(MAX_CUT_HERE + 1)
        );
        assert_eq!(
            parse(&late).events[0].lines,
            ["WARNING: at f+0x1/0x2, CPU#0: a/1"]
        );
    }

    #[test]
    fn a_failed_assertion_s_lines_are_those_of_its_case() {
        let lines = [
            "    KTAP version 1",
            "    # Subtest: s",
            "    1..4",
            // Rust's kunit: the message at column 0.
            "    # a: ASSERTION FAILED at src/s.rs:12",
            "    Expected x == y to be true, but is false",
            "",
            "left: 1, right: 2",
            "    not ok 1 a",
            // C KUnit: two expectations, their operands indented.
            "    # b: EXPECTATION FAILED at lib/s.c:7",
            "    Expected x == 1, but",
            "        x == 2 (0x2)",
            "    # b: EXPECTATION FAILED at lib/s.c:8",
            "    Expected y, but",
            "    # b: a note",
            "    not ok 2 b",
            // A kernel report after the assertion is no part of it, nor what follows it.
            "    # c: ASSERTION FAILED at src/s.rs:30",
            "    Expected z to be true, but is false",
            "BUG: scheduling while atomic: kunit_try_catch/45/0x00000002",
            "more of the report",
            "    not ok 3 c",
            "    ok 4 d",
            "ok 1 s",
        ];
        let load = Load {
            module: "m.ko".to_string(),
            lines: lines.iter().map(|l| l.to_string()).collect(),
            ..Load::default()
        };
        let a = load.failed_assertions("s", "a");
        assert_eq!(
            a,
            [Assertion {
                at: "a: ASSERTION FAILED at src/s.rs:12".to_string(),
                lines: vec![
                    "Expected x == y to be true, but is false".to_string(),
                    "left: 1, right: 2".to_string()
                ],
            }]
        );
        let b = load.failed_assertions("s", "b");
        assert_eq!(b.len(), 2);
        assert_eq!(b[0].lines, ["Expected x == 1, but", "    x == 2 (0x2)"]);
        assert_eq!(b[1].at, "b: EXPECTATION FAILED at lib/s.c:8");
        assert_eq!(b[1].lines, ["Expected y, but"]);
        let c = load.failed_assertions("s", "c");
        assert_eq!(c[0].lines, ["Expected z to be true, but is false"]);
        assert!(load.failed_assertions("s", "d").is_empty());
        assert!(load.failed_assertions("other", "a").is_empty());
    }

    #[test]
    fn an_oops_in_a_compiler_builtin_is_explained() {
        let log = parse(
            "[    1.0] kernel-core-init: begin m.ko\n\
             [    1.1] Internal error: Oops - undefined instruction: 0 [#1] ARM\n\
             [    1.1] Modules linked in: m(O+)\n\
             [    1.1] PC is at __rust__adddf3+0x0/0x4\n\
             [    1.1] LR is at _RNvMsk_NtNtNtCs1_4core3fmt3num3impy10__fmt_inner+0x5c/0x16c\n\
             [    1.2] ---[ end trace 0000000000000000 ]---\n",
        );
        assert_eq!(log.events.len(), 1);
        let summary = log.events[0].summary();
        assert!(
            summary.starts_with("Internal error: Oops - undefined instruction"),
            "{summary}"
        );
        assert!(
            summary.contains("kernel_core::extras::fmt::Decimal"),
            "{summary}"
        );
        let plain = parse("[    1.1] Oops: general protection fault: 0000 [#1] SMP\n[    1.1] RIP: 0010:f+0x1/0x2\n");
        assert_eq!(plain.events[0].summary(), plain.events[0].headline);
    }
}
