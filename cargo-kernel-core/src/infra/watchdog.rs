// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The watchdog: a process that kills every process group the run started when the runner
//! ends, however it ends.
//!
//! It is this program again, started with [`ENTRY`] as its only argument ([`answer_if_asked`],
//! which every `main` that runs children calls first), in a process group of its own and deaf
//! to SIGINT, SIGTERM and SIGHUP. It reads `add <group>` and `del <group>` lines from a pipe
//! whose other end only the runner holds. However the runner ends (it returns, panics, is
//! interrupted, or is killed with SIGKILL), the kernel closes that pipe, the watchdog's read
//! returns, and it kills every group still listed, with `kill(-group, SIGKILL)`. This needs no
//! `unsafe` code, no shell, and no `PR_SET_PDEATHSIG` (which follows the thread that spawned a
//! child, not the process).
//!
//! A program whose `main` cannot answer [`ENTRY`] (a test harness) names one that can
//! ([`use_program`]); one that names none fails its first spawn, saying so, rather than run
//! children nothing would stop.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::signal;
use std::ffi::{OsStr, OsString};
use std::io::{BufRead, BufReader, Write as _};
use std::os::unix::process::CommandExt as _;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use std::time::Duration;

/// The argument that makes this program the watchdog.
pub const ENTRY: &str = "__kernel-core-watchdog";

/// What the watchdog prints once it listens (anything a test harness prints comes before).
const READY: &str = "kernel-core watchdog: listening";

/// How long the watchdog may take to say it listens.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// Runs as the watchdog if this program was started as one (its first argument [`ENTRY`]),
/// and returns the exit status to end with; `None` otherwise.
pub fn answer_if_asked() -> Option<ExitCode> {
    if std::env::args_os().nth(1).as_deref() != Some(OsStr::new(ENTRY)) {
        return None;
    }
    watch_standard_input();
    Some(ExitCode::SUCCESS)
}

/// The watchdog's life: deaf to the signals that end the runner, it says it listens, keeps
/// the list of groups from standard input and kills those left when the input ends.
fn watch_standard_input() {
    // A handler that only sets a flag nobody reads: the signal no longer ends this process.
    let deaf = Arc::new(AtomicBool::new(false));
    for signal in [
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ] {
        let _ = signal_hook::flag::register(signal, deaf.clone());
    }
    let mut out = std::io::stdout();
    let _ = writeln!(out, "{READY}").and_then(|()| out.flush());
    watch(std::io::stdin().lock());
}

/// Keeps the list of live groups from `input`'s `add G` and `del G` lines; at its end, kills
/// the groups still listed. Returns them.
pub fn watch(input: impl BufRead) -> Vec<u32> {
    let mut groups: Vec<u32> = Vec::new();
    for line in input.lines().map_while(std::io::Result::ok) {
        let mut words = line.split_whitespace();
        let (Some(op), Some(Ok(group))) = (words.next(), words.next().map(str::parse::<u32>))
        else {
            continue;
        };
        match op {
            "add" => groups.push(group),
            "del" => groups.retain(|g| *g != group),
            _ => {}
        }
    }
    for group in &groups {
        signal::kill_group(*group);
    }
    groups
}

/// The program started as the watchdog, if not this one.
static PROGRAM: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Makes `program` the watchdog of this process's children: for a program whose `main`
/// cannot answer [`ENTRY`] (an integration test names the runner's binary, whose `main` does).
pub fn use_program(program: impl Into<PathBuf>) {
    *PROGRAM.lock().unwrap_or_else(PoisonError::into_inner) = Some(program.into());
}

/// The command that starts the watchdog.
fn command() -> Command {
    let chosen = PROGRAM
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    match chosen {
        Some(program) => {
            let mut cmd = Command::new(program);
            cmd.arg(ENTRY);
            cmd
        }
        // This library's unit tests: their harness runs the test that answers for it.
        None if cfg!(test) => {
            let mut cmd = Command::new("/proc/self/exe");
            cmd.args([
                "--exact",
                "infra::watchdog::tests::the_watchdog_of_this_test_binary",
                "--ignored",
                "--nocapture",
            ])
            .env(TEST_WATCHDOG, "1");
            cmd
        }
        // This program again, even if its file was replaced or removed since it started.
        None => {
            let mut cmd = Command::new("/proc/self/exe");
            cmd.arg(ENTRY);
            cmd
        }
    }
}

/// Set for the test that answers as the watchdog of this library's unit tests.
const TEST_WATCHDOG: &str = "KERNEL_CORE_TEST_WATCHDOG";

/// The running watchdog: the pipe that keeps it waiting, and its output, kept open.
struct Running {
    pipe: ChildStdin,
    process: Child,
    _output: ChildStdout,
}

static RUNNING: Mutex<Option<Running>> = Mutex::new(None);

/// Starts the watchdog ([`command`]) and waits until it listens.
fn start() -> Result<Running> {
    start_with(command())
}

/// Starts `cmd` as the watchdog and waits until it listens.
fn start_with(mut cmd: Command) -> Result<Running> {
    let program = OsString::from(cmd.get_program());
    let mut process = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .doing("starting the watchdog of the run's children")?;
    let pipe = process.stdin.take().expect("piped");
    let output = process.stdout.take().expect("piped");
    // Its output is read aside, so that one that never speaks cannot stop the run.
    let (said, heard) = mpsc::channel();
    std::thread::spawn(move || {
        let mut output = BufReader::new(output);
        let mut line = String::new();
        let listening = loop {
            line.clear();
            match output.read_line(&mut line) {
                Ok(0) | Err(_) => break false,
                Ok(_) if line.trim_end() == READY => break true,
                Ok(_) => {}
            }
        };
        let _ = said.send((listening, output.into_inner()));
    });
    match heard.recv_timeout(START_TIMEOUT) {
        Ok((true, output)) => Ok(Running {
            pipe,
            process,
            _output: output,
        }),
        _ => {
            let _ = process.kill();
            let _ = process.wait();
            anyhow::bail!(
                "the watchdog of the run's children did not start: {} does not answer `{ENTRY}` \
                 (the `main` of a program that runs children calls \
                 cargo_kernel_core::commands::answer_if_asked() first; a test harness names a \
                 program that does with infra::watchdog::use_program)",
                program.to_string_lossy()
            )
        }
    }
}

/// Tells the watchdog (started on first use) about `group`: `add` or `del`.
pub fn tell(op: &str, group: u32) -> Result {
    let mut running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
    if running.is_none() {
        *running = Some(start()?);
    }
    let pipe = &mut running.as_mut().expect("started above").pipe;
    writeln!(pipe, "{op} {group}")
        .and_then(|()| pipe.flush())
        .doing("telling the watchdog of the run's children")
}

/// Ends the watchdog, which kills every group it still lists, and waits for it.
pub fn stop() {
    let running = RUNNING
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    if let Some(Running {
        pipe, mut process, ..
    }) = running
    {
        drop(pipe);
        let _ = process.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// Not a test: the watchdog of this test binary's children ([`command`]).
    #[test]
    #[ignore = "started by the tests that spawn children, as their watchdog"]
    fn the_watchdog_of_this_test_binary() {
        if std::env::var_os(TEST_WATCHDOG).is_some() {
            watch_standard_input();
        }
    }

    fn sleeper() -> Child {
        Command::new("sleep")
            .arg("1000")
            .process_group(0)
            .spawn()
            .unwrap()
    }

    #[test]
    fn the_groups_left_are_killed_when_the_input_ends() {
        let (mut kept, mut gone) = (sleeper(), sleeper());
        let input = format!(
            "add 999999\nadd {}\nnonsense\nadd {}\ndel 999999\ndel {}\n",
            kept.id(),
            gone.id(),
            gone.id()
        );
        assert_eq!(watch(input.as_bytes()), [kept.id()]);
        assert!(!kept.wait().unwrap().success(), "the listed group died");
        assert!(
            gone.try_wait().unwrap().is_none(),
            "a forgotten group lives"
        );
        let _ = gone.kill();
        let _ = gone.wait();
    }

    #[test]
    fn the_watchdog_outlives_its_pipe_only_to_kill() {
        // A watchdog process of its own, fed by hand, as the runner feeds it.
        let mut watchdog = start().unwrap();
        let mut sleeper = sleeper();
        writeln!(watchdog.pipe, "add {}", sleeper.id()).unwrap();
        watchdog.pipe.flush().unwrap();
        let started = Instant::now();
        drop(watchdog.pipe);
        watchdog.process.wait().unwrap();
        assert!(
            !sleeper.wait().unwrap().success(),
            "the sleeper outlived it"
        );
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn a_program_that_does_not_answer_is_refused() {
        let refused = start_with(Command::new("/bin/true"))
            .err()
            .map(|e| e.to_string());
        let refused = refused.expect("/bin/true is no watchdog");
        assert!(refused.contains("/bin/true does not answer"), "{refused}");
    }
}
