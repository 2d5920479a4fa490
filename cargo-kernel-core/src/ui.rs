// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Progress output and errors: every long step says what it does, how long it took, and on
//! failure one line saying what to do.

use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// An error the user can act on: one line of what went wrong and what to do.
#[derive(Debug)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Adds to an I/O error what it was about: every I/O error names its path (or, for the few
/// that have none, what was being done).
pub trait Context<T> {
    /// `"<path>: <error>"`.
    fn at(self, path: impl AsRef<Path>) -> Result<T>;
    /// `"<what>: <error>"`.
    fn doing(self, what: &str) -> Result<T>;
}

impl<T> Context<T> for std::io::Result<T> {
    fn at(self, path: impl AsRef<Path>) -> Result<T> {
        self.map_err(|e| Error(format!("{}: {e}", path.as_ref().display())))
    }

    fn doing(self, what: &str) -> Result<T> {
        self.map_err(|e| Error(format!("{what}: {e}")))
    }
}

/// The result of an xtask step.
pub type Result<T = ()> = std::result::Result<T, Error>;

/// Returns early with an [`Error`] built like `format!`.
#[macro_export]
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::ui::Error(format!($($arg)*)))
    };
}

/// Formats a duration as `1m05s` or `4.2s`.
pub fn elapsed(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs >= 60.0 {
        format!("{}m{:02}s", d.as_secs() / 60, d.as_secs() % 60)
    } else {
        format!("{secs:.1}s")
    }
}

/// Prints the start of a step.
pub fn step(what: &str) -> Instant {
    println!("==> {what}");
    let _ = std::io::stdout().flush();
    Instant::now()
}

/// Prints the end of a step.
pub fn done(what: &str, start: Instant) {
    println!("    {what} ({})", elapsed(start.elapsed()));
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

/// Runs a command with its output shown, failing with `hint` if it fails.
pub fn run(cmd: &mut Command, hint: &str) -> Result {
    println!("    $ {}", show(cmd));
    let status = cmd
        .status()
        .map_err(|e| Error(format!("cannot run `{}`: {e}. {hint}", show(cmd))))?;
    if !status.success() {
        bail!("`{}` failed ({status}). {hint}", show(cmd));
    }
    Ok(())
}

/// Runs a command and returns its standard output, or `None` if it cannot run or fails.
pub fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.stderr(Stdio::null()).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// What [`run_logged`] saw.
pub struct Logged {
    /// The exit status, or `None` after a timeout.
    pub status: Option<ExitStatus>,
    /// The last lines of output, for error messages.
    pub tail: Vec<String>,
}

impl Logged {
    /// `Ok` if the command succeeded; otherwise prints its last lines and fails with
    /// "`what` failed" or "`what` timed out", naming its full `log`.
    pub fn succeeded(&self, what: &str, log: &Path) -> Result {
        match self.status {
            Some(status) if status.success() => Ok(()),
            status => {
                for line in &self.tail {
                    eprintln!("    | {line}");
                }
                bail!(
                    "{what} {} (full log: {})",
                    if status.is_none() {
                        "timed out"
                    } else {
                        "failed"
                    },
                    log.display()
                )
            }
        }
    }
}

/// Runs a long command with its output (stdout and stderr) written to `log`, printing a
/// progress line with the elapsed time and the latest output line every `every`, and killing
/// it after `timeout`.
pub fn run_logged(
    cmd: &mut Command,
    log: &Path,
    label: &str,
    every: Duration,
    timeout: Duration,
) -> Result<Logged> {
    let mut file = std::fs::File::create(log)
        .map_err(|e| Error(format!("cannot create {}: {e}", log.display())))?;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error(format!("cannot run `{}`: {e}", show(cmd))))?;
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
    let mut tail: Vec<String> = Vec::new();
    let mut timed_out = false;
    loop {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(line) => {
                writeln!(file, "{line}").at(log)?;
                tail.push(line);
                if tail.len() > 40 {
                    tail.remove(0);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if last_report.elapsed() >= every {
            last_report = Instant::now();
            let latest = tail.last().map(String::as_str).unwrap_or("");
            let latest: String = latest.trim().chars().take(70).collect();
            println!("    {label}: {} ... {latest}", elapsed(start.elapsed()));
            let _ = std::io::stdout().flush();
        }
        if start.elapsed() > timeout {
            timed_out = true;
            let _ = child.kill();
            break;
        }
    }
    let status = child
        .wait()
        .map_err(|e| Error(format!("waiting for `{}`: {e}", show(cmd))))?;
    for reader in readers {
        let _ = reader.join();
    }
    // Lines that arrived after a timeout kill.
    while let Ok(line) = rx.try_recv() {
        writeln!(file, "{line}").at(log)?;
        tail.push(line);
    }
    Ok(Logged {
        status: (!timed_out).then_some(status),
        tail,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_name_their_path() {
        let missing = Path::new("/nonexistent/kernel-core/file");
        let error = std::fs::read_to_string(missing).at(missing).unwrap_err();
        assert!(
            error.0.starts_with("/nonexistent/kernel-core/file: "),
            "{}",
            error.0
        );
        let error = std::fs::read("/nonexistent")
            .doing("reading x")
            .unwrap_err();
        assert!(error.0.starts_with("reading x: "), "{}", error.0);
    }
}
