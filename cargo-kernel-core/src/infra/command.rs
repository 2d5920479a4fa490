// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Commands: shown as they run (`    $ command`), waited for so that an interrupt stops them
//! at once, or asked a question whose answer is their output.

use crate::infra::error::Result;
use crate::infra::process;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A `cargo` command free of the settings the cargo running this tool gave it (its toolchain,
/// compiler, target directory), so that it builds what it is pointed at as a user would.
pub fn cargo() -> Command {
    let mut cmd = Command::new("cargo");
    for variable in [
        "RUSTUP_TOOLCHAIN",
        "RUSTC",
        "RUSTDOC",
        "RUSTC_WRAPPER",
        "CARGO",
        "CARGO_TARGET_DIR",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_MANIFEST_DIR",
    ] {
        cmd.env_remove(variable);
    }
    cmd
}

/// Runs a command with its output shown, failing with `hint` if it fails.
pub fn run(cmd: &mut Command, hint: &str) -> Result {
    crate::note!("    $ {}", process::show(cmd));
    let status = status(cmd, hint)?;
    if !status.success() {
        anyhow::bail!("`{}` failed ({status}). {hint}", process::show(cmd));
    }
    Ok(())
}

/// Runs a command with its output shown and returns how it ended, failing with `hint` if it
/// cannot run.
pub fn status(cmd: &mut Command, hint: &str) -> Result<std::process::ExitStatus> {
    // In a process group of its own, which dies with the runner (`process::spawn`), and is
    // stopped at once when the run is interrupted.
    // Nothing it runs reads the terminal: a read from another process group would stop it.
    let mut group =
        process::spawn(cmd.stdin(Stdio::null())).map_err(|e| anyhow::anyhow!("{e}. {hint}"))?;
    group
        .wait_unless_interrupted()?
        .map_err(|e| anyhow::anyhow!("cannot wait for `{}`: {e}. {hint}", process::show(cmd)))
}

/// `cargo xtask` in the repository `repo`, as kernel-core's tools run one another.
pub fn cargo_xtask(repo: &Path) -> Command {
    let mut cmd = cargo();
    cmd.arg("xtask").current_dir(repo);
    cmd
}

/// Builds the checkout `repo`'s own `cargo-kernel-core` (in release mode, as `cargo install`
/// builds it, when `release`) and returns its directory, to put first on `PATH`.
pub fn build_runner(repo: &Path, release: bool) -> Result<PathBuf> {
    let mut build = cargo();
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

/// The file `program` names: itself if it holds a `/`, else the first executable file of
/// that name in a directory of `PATH` (as a shell finds it).
pub fn which(program: impl AsRef<std::ffi::OsStr>) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt as _;
    let program = Path::new(program.as_ref());
    let executable = |path: &Path| {
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.as_os_str().is_empty() {
        return None;
    }
    if program.components().count() > 1 || program.is_absolute() {
        return executable(program).then(|| program.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| executable(path))
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
    let key = format!(
        "{:?} {:?}",
        cmd.get_program(),
        cmd.get_args().collect::<Vec<_>>()
    );
    let known = ONCE_ANSWERS.lock().ok().and_then(|answers| {
        answers
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, a)| a.clone())
    });
    if known.is_some() {
        return known;
    }
    let answer = output(cmd)?;
    if let Ok(mut answers) = ONCE_ANSWERS.lock() {
        answers.push((key, answer.clone()));
    }
    Some(answer)
}

/// The answers [`output_once`] remembers: each command (its program and arguments, as text)
/// with its output.
static ONCE_ANSWERS: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

/// Forgets what [`output_once`] remembers of `program`'s answers: after this process changed
/// what they say (it installed a package, a toolchain or a target).
pub fn forget_outputs_of(program: &str) {
    let prefix = format!("{program:?} ");
    if let Ok(mut answers) = ONCE_ANSWERS.lock() {
        answers.retain(|(key, _)| !key.starts_with(&prefix));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_found_on_path_as_a_shell_finds_them() {
        let sh = which("sh").expect("sh is on PATH");
        assert!(sh.is_absolute() && sh.ends_with("sh"), "{}", sh.display());
        assert_eq!(which(&sh), Some(sh.clone()));
        assert_eq!(which("no-such-program-kernel-core"), None);
        assert_eq!(which("/nonexistent/sh"), None);
        assert_eq!(which(""), None);
        // A directory or a file that is not executable is no program.
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("plain"), "").unwrap();
        assert_eq!(which(dir.path().join("plain")), None);
        assert_eq!(which(dir.path()), None);
    }
}
