// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Progress output and errors: every long step says what it does, how long it took, and on
//! failure one line saying what to do.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// An error the user can act on: what went wrong and what to do, with what it was about
/// (every I/O error names its path).
pub use anyhow::Error;

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
        self.map_err(|e| anyhow::anyhow!("{}: {e}", path.as_ref().display()))
    }

    fn doing(self, what: &str) -> Result<T> {
        self.map_err(|e| anyhow::anyhow!("{what}: {e}"))
    }
}

/// The result of a step.
pub type Result<T = (), E = Error> = std::result::Result<T, E>;

/// Returns early with an [`Error`] built like `format!`.
#[macro_export]
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err(::anyhow::anyhow!($($arg)*))
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
    crate::say!("==> {what}");
    Instant::now()
}

/// Prints the end of a step.
pub fn done(what: &str, start: Instant) {
    crate::say!("    {what} ({})", elapsed(start.elapsed()));
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
    crate::say!("    $ {}", show(cmd));
    let status = status(cmd, hint)?;
    if !status.success() {
        bail!("`{}` failed ({status}). {hint}", show(cmd));
    }
    Ok(())
}

/// Runs a command with its output shown and returns how it ended, failing with `hint` if it
/// cannot run.
pub fn status(cmd: &mut Command, hint: &str) -> Result<std::process::ExitStatus> {
    // In a process group of its own, which dies with the runner (`process::spawn`), and is
    // stopped at once when the run is interrupted.
    // Nothing it runs reads the terminal: a read from another process group would stop it.
    let mut group = crate::process::spawn(cmd.stdin(std::process::Stdio::null()))
        .map_err(|e| anyhow::anyhow!("{e}. {hint}"))?;
    let status = loop {
        if let Some(signal) = crate::process::interrupted() {
            group.interrupt(signal);
            let _ = group.wait();
            return Err(crate::process::Interrupted(signal).into());
        }
        match group.child().try_wait() {
            Ok(Some(_)) => break group.wait(),
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => break Err(e),
        }
    }
    .map_err(|e| anyhow::anyhow!("cannot wait for `{}`: {e}. {hint}", show(cmd)))?;
    Ok(status)
}

/// `cargo xtask` in the repository `repo`, as kernel-core's tools run one another.
pub fn cargo_xtask(repo: &Path) -> Command {
    let mut cmd = crate::process::cargo();
    cmd.arg("xtask").current_dir(repo);
    cmd
}

/// Builds the checkout `repo`'s own `cargo-kernel-core` (in release mode, as `cargo install`
/// builds it, when `release`) and returns its directory, to put first on `PATH`.
pub fn build_runner(repo: &Path, release: bool) -> Result<PathBuf> {
    let mut build = crate::process::cargo();
    build.current_dir(repo).args(["build", "--quiet"]);
    if release {
        build.arg("--release");
    }
    build.args(["-p", "cargo-kernel-core", "--bin", "cargo-kernel-core"]);
    run(&mut build, "the runner failed to build")?;
    Ok(repo
        .join("target")
        .join(if release { "release" } else { "debug" }))
}

/// Runs a command and returns its standard output, or `None` if it cannot run or fails.
pub fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.stderr(Stdio::null()).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// [`output`] of a query whose answer does not change while this process runs (a tool's
/// `--version`, `rustup which`): run once, then answered from memory, so that a run over
/// fifteen cells asks each tool once. Failures are not remembered.
pub fn output_once(cmd: &mut Command) -> Option<String> {
    static ANSWERS: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());
    let key = format!(
        "{:?} {:?}",
        cmd.get_program(),
        cmd.get_args().collect::<Vec<_>>()
    );
    let known = ANSWERS.lock().ok().and_then(|answers| {
        answers
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, a)| a.clone())
    });
    if known.is_some() {
        return known;
    }
    let answer = output(cmd)?;
    if let Ok(mut answers) = ANSWERS.lock() {
        answers.push((key, answer.clone()));
    }
    Some(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_name_their_path() {
        let missing = Path::new("/nonexistent/kernel-core/file");
        let error = std::fs::read_to_string(missing).at(missing).unwrap_err();
        let error = error.to_string();
        assert!(
            error.starts_with("/nonexistent/kernel-core/file: "),
            "{error}"
        );
        let error = std::fs::read("/nonexistent")
            .doing("reading x")
            .unwrap_err();
        let error = error.to_string();
        assert!(error.starts_with("reading x: "), "{error}");
    }
}
