// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Child processes that never outlive the runner, and a clean `cargo`.
//!
//! The long children (make, QEMU, UML) each lead a process group of their own, so that a
//! timeout kills a child with everything it started (make's compilers). A watchdog outlives
//! them all: `sh`, in a group of its own and deaf to SIGINT, SIGTERM and SIGHUP, reading the
//! id of each new group from a pipe whose other end only the runner holds. However the runner
//! ends (it returns, panics, is interrupted, or is killed with SIGKILL), the kernel closes
//! that pipe, the watchdog's `read` returns, and it kills every group still listed. This needs
//! no `unsafe` code and no `PR_SET_PDEATHSIG` (which follows the thread that spawned a child,
//! not the process).
//!
//! SIGINT, SIGTERM and SIGHUP are caught ([`install_signal_handlers`]): the loop that waits for
//! a child sees [`interrupted`], kills its group, and the run ends with an [`Interrupted`]
//! error after writing what it knows; `main` exits with 128 + the signal's number. A runner
//! stuck elsewhere is ended by the handler itself after a grace period.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::{command, progress};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{mpsc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

/// The watchdog's script: `add G` and `del G` lines keep the list of live groups; at the end
/// of its input (the runner is gone), it kills them, with procps' `kill` (dash's builtin
/// takes no negative process ids).
const WATCHDOG: &str = "trap '' INT TERM HUP; groups=' '; \
    while read op group; do case $op in \
    add) groups=\"$groups$group \";; \
    del) groups=$(printf '%s' \"$groups\" | sed \"s/ $group / /\");; \
    esac; done; \
    for group in $groups; do env kill -s KILL -- \"-$group\" 2>/dev/null; done";

/// The watchdog and the pipe that keeps it waiting.
struct Watchdog {
    pipe: ChildStdin,
    _process: Child,
}

static WATCHDOG_PROCESS: OnceLock<Mutex<Option<Watchdog>>> = OnceLock::new();

/// Tells the watchdog (started on first use) `op` about `group`.
fn tell_watchdog(op: &str, group: u32) -> Result {
    let mut watchdog = WATCHDOG_PROCESS
        .get_or_init(|| Mutex::new(None))
        .lock()
        .expect("the watchdog lock is never poisoned");
    if watchdog.is_none() {
        let mut process = Command::new("sh")
            .args(["-c", WATCHDOG])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .doing("starting the watchdog of the run's children (sh)")?;
        let pipe = process.stdin.take().expect("piped");
        *watchdog = Some(Watchdog {
            pipe,
            _process: process,
        });
    }
    let pipe = &mut watchdog.as_mut().expect("started above").pipe;
    writeln!(pipe, "{op} {group}")
        .and_then(|()| pipe.flush())
        .doing("telling the watchdog of the run's children")
}

/// A child that leads its own process group, which the watchdog kills if the runner dies.
pub struct Group {
    child: Child,
    id: u32,
}

impl Group {
    /// The child process.
    pub fn child(&mut self) -> &mut Child {
        &mut self.child
    }

    /// Kills the child and everything it started.
    pub fn kill(&mut self) {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.id)])
            .stderr(Stdio::null())
            .status();
    }

    /// Passes the run's interrupt `signal` on to the child's group, so that a child that put
    /// its own children in groups of their own (nextest runs each test in one) stops them too;
    /// then kills the group if the child has not ended within a quarter of [`GRACE`].
    pub fn interrupt(&mut self, signal: i32) {
        let _ = Command::new("kill")
            .args([&format!("-{signal}"), "--", &format!("-{}", self.id)])
            .stderr(Stdio::null())
            .status();
        let start = Instant::now();
        while start.elapsed() < GRACE / 4 && matches!(self.child.try_wait(), Ok(None)) {
            thread::sleep(Duration::from_millis(20));
        }
        self.kill();
    }

    /// Waits for the child to end; the watchdog forgets its group.
    pub fn wait(&mut self) -> std::io::Result<ExitStatus> {
        let status = self.child.wait();
        let _ = tell_watchdog("del", self.id);
        status
    }
}

/// Spawns `cmd` as the leader of a process group of its own, which dies with the runner.
pub fn spawn(cmd: &mut Command) -> Result<Group> {
    let child = cmd
        .process_group(0)
        .spawn()
        .map_err(|e| anyhow::anyhow!("cannot run `{}`: {e}", command::show(cmd)))?;
    let id = child.id();
    tell_watchdog("add", id)?;
    Ok(Group { child, id })
}

/// Kills every child the run started that is still alive (the watchdog does it as it ends).
pub fn kill_all() {
    let watchdog = WATCHDOG_PROCESS.get().and_then(|w| w.lock().ok()?.take());
    if let Some(mut watchdog) = watchdog {
        drop(watchdog.pipe);
        let _ = watchdog._process.wait();
    }
}

/// The signal that interrupted the run, if one did.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// How long an interrupted run may take to stop its children and write what it knows before
/// the handler ends it.
pub const GRACE: Duration = Duration::from_secs(10);

/// Catches SIGINT, SIGTERM and SIGHUP: [`interrupted`] reports them to the loops that wait for
/// children; if the run has not ended [`GRACE`] later, the children are killed and the process
/// exits with 128 + the signal.
pub fn install_signal_handlers() -> Result {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .doing("installing the signal handlers")?;
    thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            SIGNAL.store(signal, Ordering::SeqCst);
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

/// How many of the last lines [`Logged::tail`] keeps.
const TAIL: usize = 40;

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
    let mut file = std::fs::File::create(log).at(log)?;
    let mut group = spawn(
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )?;
    let child = group.child();
    let (tx, rx) = mpsc::channel::<String>();
    let readers: Vec<_> = [
        Box::new(child.stdout.take().expect("piped")) as Box<dyn Read + Send>,
        Box::new(child.stderr.take().expect("piped")),
    ]
    .into_iter()
    .map(|pipe| {
        let tx = tx.clone();
        thread::spawn(move || {
            for line in BufReader::new(pipe).split(b'\n').map_while(|l| l.ok()) {
                let line = String::from_utf8_lossy(&line)
                    .trim_end_matches('\r')
                    .to_string();
                if tx.send(line).is_err() {
                    break;
                }
            }
        })
    })
    .collect();
    drop(tx);

    let start = Instant::now();
    let mut last_report = Instant::now();
    let mut last_line = Instant::now();
    let mut tail: Vec<String> = Vec::new();
    let mut ending = None;
    loop {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(line) => {
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
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
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
        if let Some(signal) = interrupted() {
            group.kill();
            let _ = group.wait();
            return Err(Interrupted(signal).into());
        }
        if ending.is_some() {
            group.kill();
            break;
        }
    }
    let status = group
        .wait()
        .map_err(|e| anyhow::anyhow!("waiting for `{}`: {e}", command::show(cmd)))?;
    for reader in readers {
        let _ = reader.join();
    }
    // Lines that arrived after a kill.
    while let Ok(line) = rx.try_recv() {
        writeln!(file, "{line}").at(log)?;
        monitor.line(&line);
        tail.push(line);
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
        let pid = group.child().id();
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
    fn the_watchdog_kills_the_groups_when_its_pipe_closes() {
        // A watchdog of its own, fed by hand: a group it was told of dies when its input ends.
        let mut sleeper = Command::new("sleep")
            .arg("1000")
            .process_group(0)
            .spawn()
            .unwrap();
        let mut watchdog = Command::new("sh")
            .args(["-c", WATCHDOG])
            .stdin(Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap();
        let mut pipe = watchdog.stdin.take().unwrap();
        writeln!(pipe, "add 999999").unwrap();
        writeln!(pipe, "add {}", sleeper.id()).unwrap();
        writeln!(pipe, "del 999999").unwrap();
        drop(pipe);
        watchdog.wait().unwrap();
        let status = sleeper.wait().unwrap();
        assert!(!status.success(), "the sleeper outlived the watchdog");
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
        let dir = std::env::temp_dir().join(format!("kc-process-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("log");
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
        let _ = std::fs::remove_dir_all(&dir);
    }
}
