// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Child processes that never outlive the runner.
//!
//! Every child the runner waits for (make, QEMU, UML, the host suites, a plain command) leads
//! a process group of its own ([`spawn`]), so that a timeout or an interrupt stops it with
//! everything it started (make's compilers): a group is signalled with `kill(-group, signal)`
//! ([`signal_group`], through `rustix`). The [`watchdog`] kills every group still alive when
//! the runner ends, however it ends.
//!
//! SIGINT, SIGTERM and SIGHUP are caught ([`install_signal_handlers`]): every wait for a child
//! hears of them at once ([`on_interrupt`]), stops its group, and the run ends with an
//! [`Interrupted`] error after writing what it knows; `main` exits with 128 + the signal's
//! number. A runner stuck elsewhere is ended by the handler itself after a grace period.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::signal::{kill_group, signal_group};
use crate::infra::{progress, watchdog};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{ChildStderr, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::sync::{mpsc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// The interrupts' subscribers: each is told the signal the moment the run is interrupted.
type Subscribers = Vec<(u64, Box<dyn Fn(i32) + Send>)>;

static SUBSCRIBERS: Mutex<Subscribers> = Mutex::new(Vec::new());

/// Tells `tell` the signal as soon as the run is interrupted (at once if it already was),
/// until the returned subscription is dropped: how a wait sees an interrupt at once.
pub fn on_interrupt(tell: impl Fn(i32) + Send + 'static) -> Subscription {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    let mut subscribers = SUBSCRIBERS.lock().unwrap_or_else(PoisonError::into_inner);
    // Under the lock: a signal now is either seen here or told below, never lost.
    if let Some(signal) = interrupted() {
        tell(signal);
    }
    subscribers.push((id, Box::new(tell)));
    Subscription(id)
}

/// Ends an [`on_interrupt`] subscription when dropped.
pub struct Subscription(u64);

impl Drop for Subscription {
    fn drop(&mut self) {
        SUBSCRIBERS
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|(id, _)| *id != self.0);
    }
}

/// What a [`Group`]'s waiter hears.
enum Heard {
    /// The child ended.
    Ended(std::io::Result<ExitStatus>),
    /// The run was interrupted by this signal.
    Interrupted(i32),
}

/// A child that leads its own process group, which the watchdog kills if the runner dies.
/// A thread waits for the child, so that waiting for it blocks until it ends or the run is
/// interrupted, whichever comes first.
pub struct Group {
    id: u32,
    heard: mpsc::Receiver<Heard>,
    ended: Option<ExitStatus>,
    /// Whether the child ended (its status may not have been read).
    gone: bool,
    stdout: Option<ChildStdout>,
    stderr: Option<ChildStderr>,
    _interrupts: Subscription,
}

impl Group {
    /// The child's process id, which is its group's.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The child's standard output, if it was piped and not taken yet.
    pub fn take_stdout(&mut self) -> Option<ChildStdout> {
        self.stdout.take()
    }

    /// The child's standard error, if it was piped and not taken yet.
    pub fn take_stderr(&mut self) -> Option<ChildStderr> {
        self.stderr.take()
    }

    /// Kills the child and everything it started.
    pub fn kill(&mut self) {
        kill_group(self.id);
    }

    /// Passes the run's interrupt `signal` on to the child's group, so that a child that put
    /// its own children in groups of their own (nextest runs each test in one) stops them too;
    /// then kills the group if the child has not ended within a quarter of [`GRACE`].
    pub fn interrupt(&mut self, signal: i32) {
        signal_group(self.id, signal);
        let deadline = Instant::now() + GRACE / 4;
        while !self.gone {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.heard.recv_timeout(left) {
                Ok(heard) => {
                    self.hear(heard);
                }
                Err(_) => break,
            }
        }
        self.kill();
    }

    /// Notes what the waiter heard; the watchdog forgets a group whose child ended.
    fn hear(&mut self, heard: Heard) -> Option<std::io::Result<ExitStatus>> {
        match heard {
            Heard::Ended(status) => {
                self.gone = true;
                let _ = watchdog::tell("del", self.id);
                if let Ok(status) = &status {
                    self.ended = Some(*status);
                }
                Some(status)
            }
            Heard::Interrupted(_) => None,
        }
    }

    /// Waits for the child to end (an interrupt does not stop this wait: kill the group
    /// first).
    pub fn wait(&mut self) -> std::io::Result<ExitStatus> {
        if self.gone {
            return self
                .ended
                .ok_or_else(|| std::io::Error::other("its status could not be read"));
        }
        loop {
            let heard = self
                .heard
                .recv()
                .map_err(|_| std::io::Error::other("the child's waiter is gone"))?;
            if let Some(status) = self.hear(heard) {
                return status;
            }
        }
    }

    /// Waits for the child to end, or for the run to be interrupted: then the interrupt is
    /// passed on to the child's group ([`Self::interrupt`]) and this fails with
    /// [`Interrupted`] once the child is gone.
    pub fn wait_unless_interrupted(&mut self) -> Result<std::io::Result<ExitStatus>> {
        if self.gone {
            return Ok(self.wait());
        }
        loop {
            let heard = self
                .heard
                .recv()
                .map_err(|_| anyhow::anyhow!("the child's waiter is gone"))?;
            match heard {
                Heard::Interrupted(signal) => {
                    self.interrupt(signal);
                    let _ = self.wait();
                    return Err(Interrupted(signal).into());
                }
                heard => {
                    if let Some(status) = self.hear(heard) {
                        return Ok(status);
                    }
                }
            }
        }
    }
}

/// Renders a command for messages.
pub fn show(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for arg in cmd.get_args() {
        let arg = arg.to_string_lossy();
        if arg.contains(' ') || arg.is_empty() {
            s.push_str(&format!(" '{arg}'"));
        } else {
            s.push(' ');
            s.push_str(&arg);
        }
    }
    s
}

/// Spawns `cmd` as the leader of a process group of its own, which dies with the runner.
pub fn spawn(cmd: &mut Command) -> Result<Group> {
    let mut child = cmd
        .process_group(0)
        .spawn()
        .map_err(|e| anyhow::anyhow!("cannot run `{}`: {e}", show(cmd)))?;
    let id = child.id();
    if let Err(e) = watchdog::tell("add", id) {
        kill_group(id);
        let _ = child.wait();
        return Err(e);
    }
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    let (tell, heard) = mpsc::channel();
    let interrupts = {
        let tell = tell.clone();
        on_interrupt(move |signal| {
            let _ = tell.send(Heard::Interrupted(signal));
        })
    };
    thread::spawn(move || {
        let _ = tell.send(Heard::Ended(child.wait()));
    });
    Ok(Group {
        id,
        heard,
        ended: None,
        gone: false,
        stdout,
        stderr,
        _interrupts: interrupts,
    })
}

/// Kills every child the run started that is still alive (the watchdog does it as it ends).
pub fn kill_all() {
    watchdog::stop();
}

/// The signal that interrupted the run, if one did.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// How long an interrupted run may take to stop its children and write what it knows before
/// the handler ends it.
pub const GRACE: Duration = Duration::from_secs(10);

/// Catches SIGINT, SIGTERM and SIGHUP: [`interrupted`] reports them, and the waits for
/// children hear them at once ([`on_interrupt`]); if the run has not ended [`GRACE`] later,
/// the children are killed and the process exits with 128 + the signal.
pub fn install_signal_handlers() -> Result {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .doing("installing the signal handlers")?;
    thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            {
                let subscribers = SUBSCRIBERS.lock().unwrap_or_else(PoisonError::into_inner);
                SIGNAL.store(signal, Ordering::SeqCst);
                for (_, tell) in subscribers.iter() {
                    tell(signal);
                }
            }
            eprintln!(
                "\nkernel-core: {}: stopping the children and writing what is known",
                signal_name(signal)
            );
            thread::sleep(GRACE);
            kill_all();
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}

/// The signal that interrupted the run, if any.
pub fn interrupted() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// A signal's name, for messages.
pub fn signal_name(signal: i32) -> &'static str {
    match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        15 => "SIGTERM",
        _ => "a signal",
    }
}

/// The error of a run that a signal interrupted: `main` exits with 128 + `signal`.
#[derive(Debug)]
pub struct Interrupted(pub i32);

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "interrupted by {}", signal_name(self.0))
    }
}

impl std::error::Error for Interrupted {}

/// The exit code for a run that ended with `error`: 128 + the signal for an interrupted one,
/// 1 otherwise.
pub fn exit_code(error: &anyhow::Error) -> u8 {
    error
        .downcast_ref::<Interrupted>()
        .map_or(1, |i| u8::try_from(128 + i.0).unwrap_or(1))
}

/// How a tool's `main` ends: success, or the error printed, every child stopped and the exit
/// code of [`exit_code`].
pub fn finish(result: anyhow::Result<()>) -> std::process::ExitCode {
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            kill_all();
            std::process::ExitCode::from(exit_code(&e))
        }
    }
}

/// What a [`Monitor`] tells [`run_logged`] after a line, or after a second without one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Control {
    /// Go on.
    Continue,
    /// Kill the child now: the monitor has seen enough (a hang, say), for this reason.
    Stop(String),
}

/// Watches a child's output as it comes.
pub trait Monitor {
    /// A line of output.
    fn line(&mut self, line: &str) -> Control;
    /// Called about every 200 ms, with how long ago the last line came.
    fn quiet(&mut self, since_last_line: Duration) -> Control;
}

/// A monitor that watches nothing.
pub struct NoMonitor;

impl Monitor for NoMonitor {
    fn line(&mut self, _line: &str) -> Control {
        Control::Continue
    }
    fn quiet(&mut self, _since_last_line: Duration) -> Control {
        Control::Continue
    }
}

/// How a logged child ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// It exited by itself.
    Exited(ExitStatus),
    /// It ran past its timeout and was killed.
    TimedOut,
    /// Its monitor stopped it, for this reason.
    Stopped(String),
}

/// What [`run_logged`] saw.
pub struct Logged {
    /// How the child ended.
    pub ending: Ending,
    /// The last lines of output.
    pub tail: Vec<String>,
}

impl Logged {
    /// Whether it exited successfully.
    pub fn success(&self) -> bool {
        matches!(&self.ending, Ending::Exited(status) if status.success())
    }

    /// `Ok` if the command succeeded; otherwise fails with "`what` failed" (its first error
    /// lines from `log`) or "`what` timed out", naming its full `log`.
    pub fn succeeded(&self, what: &str, log: &Path) -> Result {
        if self.success() {
            return Ok(());
        }
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let errors = crate::infra::build_log::first_errors(&text, 30);
        let shown = if errors.is_empty() {
            &self.tail
        } else {
            &errors
        };
        let mut message = format!(
            "{what} {} (full log: {})",
            match &self.ending {
                Ending::TimedOut => "timed out".to_string(),
                Ending::Stopped(why) => format!("was stopped: {why}"),
                Ending::Exited(status) => format!("failed ({status})"),
            },
            log.display()
        );
        for line in shown {
            message.push_str("\n    | ");
            message.push_str(line);
        }
        Err(anyhow::anyhow!(message))
    }
}

/// What [`run_logged`] hears while the child runs.
enum Output {
    /// A line of its output.
    Line(String),
    /// A pipe was closed.
    Closed,
    /// The run was interrupted by this signal.
    Interrupted(i32),
}

/// How many of the last lines [`Logged::tail`] keeps.
const TAIL: usize = 40;

/// What a logged child is given beside its command: output it stands for that came before
/// it, and work to start beside it.
#[derive(Default)]
pub struct Feed {
    /// Lines that the log starts with and the monitor sees first, as if the child had printed
    /// them: the output of the run a resumed guest was saved from.
    pub prefix: String,
    /// Run on a thread of its own once the child runs (loading a saved guest into QEMU).
    pub started: Option<Box<dyn FnOnce() + Send>>,
}

/// Runs a long command in the run's process group, with its output (stdout and stderr)
/// written to `log` and shown to `monitor` line by line; prints a progress line with the
/// elapsed time and the latest line every `every`; kills it after `timeout`, when the monitor
/// says so, or when the run is interrupted (then it fails with [`Interrupted`]).
pub fn run_logged(
    cmd: &mut Command,
    log: &Path,
    label: &str,
    every: Duration,
    timeout: Duration,
    monitor: &mut dyn Monitor,
) -> Result<Logged> {
    run_logged_fed(cmd, Feed::default(), log, label, every, timeout, monitor)
}

/// [`run_logged`], with the log's first lines from `feed`, and its work started beside the child.
pub fn run_logged_fed(
    cmd: &mut Command,
    feed: Feed,
    log: &Path,
    label: &str,
    every: Duration,
    timeout: Duration,
    monitor: &mut dyn Monitor,
) -> Result<Logged> {
    let mut file = std::fs::File::create(log).at(log)?;
    let mut tail: Vec<String> = Vec::new();
    for line in feed.prefix.lines() {
        writeln!(file, "{line}").at(log)?;
        monitor.line(line);
        tail.push(line.to_string());
    }
    tail.drain(..tail.len().saturating_sub(TAIL));
    let mut group = spawn(
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )?;
    if let Some(started) = feed.started {
        thread::spawn(started);
    }
    let (tx, rx) = mpsc::channel::<Output>();
    let readers: Vec<_> = [
        Box::new(group.take_stdout().expect("piped")) as Box<dyn Read + Send>,
        Box::new(group.take_stderr().expect("piped")),
    ]
    .into_iter()
    .map(|pipe| {
        let tx = tx.clone();
        thread::spawn(move || {
            for line in BufReader::new(pipe).split(b'\n').map_while(|l| l.ok()) {
                let line = String::from_utf8_lossy(&line)
                    .trim_end_matches('\r')
                    .to_string();
                if tx.send(Output::Line(line)).is_err() {
                    break;
                }
            }
            let _ = tx.send(Output::Closed);
        })
    })
    .collect();
    // An interrupt is heard at once.
    let interrupts = on_interrupt(move |signal| {
        let _ = tx.send(Output::Interrupted(signal));
    });

    let start = Instant::now();
    let mut last_report = Instant::now();
    let mut last_line = Instant::now();
    let mut ending = None;
    let mut open_pipes = 2;
    while open_pipes > 0 {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(Output::Line(line)) => {
                last_line = Instant::now();
                writeln!(file, "{line}").at(log)?;
                if let Control::Stop(why) = monitor.line(&line) {
                    ending.get_or_insert(Ending::Stopped(why));
                }
                tail.push(line);
                if tail.len() > TAIL {
                    tail.remove(0);
                }
            }
            Ok(Output::Interrupted(signal)) => {
                group.kill();
                let _ = group.wait();
                return Err(Interrupted(signal).into());
            }
            Ok(Output::Closed) => open_pipes -= 1,
            Err(mpsc::RecvTimeoutError::Disconnected) => open_pipes = 0,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Control::Stop(why) = monitor.quiet(last_line.elapsed()) {
                    ending.get_or_insert(Ending::Stopped(why));
                }
            }
        }
        if last_report.elapsed() >= every {
            last_report = Instant::now();
            let latest: String = tail
                .last()
                .map(String::as_str)
                .unwrap_or("")
                .trim()
                .chars()
                .take(70)
                .collect();
            crate::note!(
                "    {label}: {} ... {latest}",
                progress::elapsed(start.elapsed())
            );
        }
        if start.elapsed() > timeout {
            ending.get_or_insert(Ending::TimedOut);
        }
        if ending.is_some() {
            group.kill();
            break;
        }
    }
    drop(interrupts);
    let status = group
        .wait()
        .map_err(|e| anyhow::anyhow!("waiting for `{}`: {e}", show(cmd)))?;
    for reader in readers {
        let _ = reader.join();
    }
    // Lines that arrived after a kill.
    while let Ok(output) = rx.try_recv() {
        if let Output::Line(line) = output {
            writeln!(file, "{line}").at(log)?;
            monitor.line(&line);
            tail.push(line);
        }
    }
    Ok(Logged {
        ending: ending.unwrap_or(Ending::Exited(status)),
        tail,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_leads_its_own_group() {
        let mut group = spawn(Command::new("sleep").arg("1000")).unwrap();
        let pid = group.id();
        let pgid = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .unwrap()
            .rsplit(')')
            .next()
            .unwrap()
            .split_whitespace()
            .nth(2)
            .unwrap()
            .parse::<i32>()
            .unwrap();
        assert_eq!(pgid, pid as i32);
        group.kill();
        assert!(!group.wait().unwrap().success());
    }

    #[test]
    fn a_wait_ends_when_the_child_does() {
        let mut group = spawn(Command::new("sh").args(["-c", "exit 3"])).unwrap();
        let status = group.wait_unless_interrupted().unwrap().unwrap();
        assert_eq!(status.code(), Some(3));
        assert_eq!(group.wait().unwrap().code(), Some(3), "and stays known");
    }

    #[test]
    fn a_monitor_stops_a_child_and_a_timeout_kills_one() {
        struct StopAt(&'static str);
        impl Monitor for StopAt {
            fn line(&mut self, line: &str) -> Control {
                if line == self.0 {
                    Control::Stop(format!("saw {line}"))
                } else {
                    Control::Continue
                }
            }
            fn quiet(&mut self, _: Duration) -> Control {
                Control::Continue
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        let logged = run_logged(
            Command::new("sh").args(["-c", "echo one; echo two; sleep 100"]),
            &log,
            "sh",
            Duration::from_secs(60),
            Duration::from_secs(60),
            &mut StopAt("two"),
        )
        .unwrap();
        assert_eq!(logged.ending, Ending::Stopped("saw two".into()));
        assert_eq!(std::fs::read_to_string(&log).unwrap(), "one\ntwo\n");
        let started = Instant::now();
        let logged = run_logged(
            Command::new("sleep").arg("100"),
            &log,
            "sleep",
            Duration::from_secs(60),
            Duration::from_millis(300),
            &mut NoMonitor,
        )
        .unwrap();
        assert_eq!(logged.ending, Ending::TimedOut);
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
