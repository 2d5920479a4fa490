// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The C compiler's answers to Kbuild's probes, remembered.
//!
//! Every `make M=... modules` reads the kernel's top Makefile again, and that asks the C
//! compiler about twenty questions (`cc-option`, `cc-disable-warning`: `$(CC) -Werror <flags>
//! -c -x c /dev/null -o .tmp_<pid>/tmp`, judged by the exit status alone; see
//! `scripts/Makefile.compiler`). Each costs a compiler start, 20 to 100 ms: more than half a
//! second of every module build, asked again for each cell, each run, with the same answers.
//!
//! Module builds therefore get `CC=<a wrapper>` ([`wrapper`]), as `make CC="ccache gcc"`
//! wraps it: every compile goes to the real compiler unchanged; a probe is answered from the
//! cache if the same compiler (path, size and time of its file) was asked the same question
//! (its arguments, less the temporary output path) before, and otherwise asked, its exit
//! status remembered. Only what Kbuild's probes look like is answered: input `/dev/null`,
//! output in a `.tmp_*` directory, exit status 0 or 1. Kernel builds never use it.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::files;
use crate::infra::hash::{fnv, FNV_START};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The first argument of this program that makes it the wrapper: `<exe> __kernel-core-cc
/// <compiler> <arguments>...`.
const ENTRY: &str = "__kernel-core-cc";

/// Where the answers and the wrappers are.
fn dir() -> PathBuf {
    crate::infra::cache::dir().join("probes")
}

/// The path of a script that runs `cc` through this program, for `make CC=<path>`: written
/// once per program and compiler (atomically: another cell may be running it).
pub fn wrapper(cc: &str) -> Result<PathBuf> {
    let exe = std::env::current_exe().doing("finding this program's path")?;
    let quote = |s: &OsStr| format!("'{}'", s.to_string_lossy().replace('\'', r"'\''"));
    let script = format!(
        "#!/bin/sh\n# Written by cargo-kernel-core (src/pipeline/probes.rs): Kbuild's compiler probes are\n\
         # answered from its cache, everything else goes to {cc} unchanged.\n\
         exec {} {ENTRY} {} \"$@\"\n",
        quote(exe.as_os_str()),
        quote(OsStr::new(cc)),
    );
    let key = fnv(script.as_bytes(), FNV_START);
    let path = dir().join("bin").join(format!("cc-{key:016x}"));
    crate::infra::paths::check(&path, "the compiler wrapper")?;
    if fs::read(&path).is_ok_and(|old| old == script.as_bytes()) {
        return Ok(path);
    }
    // Another cell may be writing it too: each writes a file of its own, renamed into place.
    files::write_atomic(&path, &script, Some(0o755))?;
    Ok(path)
}

/// Runs as the wrapper if this program was started as one (its first argument
/// `__kernel-core-cc`), and returns the exit status to end with; `None` otherwise. Called
/// first thing by every `main` that runs cells.
pub fn answer_if_asked() -> Option<ExitCode> {
    let mut args = std::env::args_os().skip(1);
    if args.next().as_deref() != Some(OsStr::new(ENTRY)) {
        return None;
    }
    let Some(cc) = args.next() else {
        eprintln!("cargo-kernel-core {ENTRY}: no compiler given (this is the module builds' compiler wrapper; see src/pipeline/probes.rs)");
        return Some(ExitCode::from(2));
    };
    let args: Vec<OsString> = args.collect();
    Some(match answer(&cc, &args, &dir().join("answers")) {
        Ok(status) => ExitCode::from(status),
        Err(e) => {
            eprintln!("cargo-kernel-core {ENTRY}: {e}");
            ExitCode::from(2)
        }
    })
}

/// Whether `arg` names a path relative to the working directory: a `/` that does not start
/// an absolute path (`/x`, `-I/x`, `-fflag=/x`).
fn relative_path(arg: &[u8]) -> bool {
    match arg.iter().position(|&b| b == b'/') {
        None | Some(0) => false,
        Some(at) => {
            let before = &arg[..at];
            !(before.ends_with(b"=") || [&b"-I"[..], b"-L", b"-B", b"-F"].contains(&before))
        }
    }
}

/// The key of a probe run in `cwd`: `None` if `args` are not one. The working directory is
/// part of it only if an argument names a path relative to it.
fn probe_key(args: &[OsString], cwd: &Path) -> Option<Vec<u8>> {
    let devnull = args.iter().any(|a| a == "/dev/null");
    let compiles = args.iter().any(|a| a == "-c" || a == "-S" || a == "-E");
    let output = args.iter().position(|a| a == "-o")?;
    let temporary = args.get(output + 1).is_some_and(|o| {
        let o = Path::new(o);
        o.parent()
            .and_then(Path::file_name)
            .is_some_and(|d| d.as_bytes().starts_with(b".tmp_"))
    });
    // Reading standard input (`-`), the question is not in the arguments.
    let stdin = args.iter().any(|a| a == "-");
    if !(devnull && compiles && temporary) || stdin {
        return None;
    }
    let mut key = Vec::new();
    let mut relative = false;
    for (i, arg) in args.iter().enumerate() {
        if i != output + 1 {
            key.extend_from_slice(arg.as_bytes());
            key.push(0);
            relative |= relative_path(arg.as_bytes());
        }
    }
    if relative {
        key.extend_from_slice(b"cwd\0");
        key.extend_from_slice(cwd.as_os_str().as_bytes());
    }
    Some(key)
}

/// The compiler's identity: its resolved path, size and modification time.
fn identity(cc: &OsStr) -> Option<Vec<u8>> {
    let path = crate::infra::command::which(cc)?;
    let real = fs::canonicalize(path).ok()?;
    let meta = fs::metadata(&real).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some(
        format!(
            "{}\0{}\0{}\0",
            real.display(),
            meta.len(),
            modified.as_nanos()
        )
        .into_bytes(),
    )
}

/// Answers one invocation: a probe from the answers in `answers` (or the compiler, remembered
/// there), anything else by the compiler itself.
fn answer(cc: &OsStr, args: &[OsString], answers: &Path) -> Result<u8> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let key = probe_key(args, &cwd).and_then(|question| {
        let mut key = identity(cc)?;
        key.extend(question);
        Some(fnv(&key, FNV_START))
    });
    let Some(key) = key else {
        // Not a probe: the compiler, in this process's place.
        let error = Command::new(cc).args(args).exec();
        anyhow::bail!("cannot run {}: {error}", cc.to_string_lossy());
    };
    let file = answers.join(format!("{key:016x}"));
    if let Some(status) = fs::read_to_string(&file)
        .ok()
        .and_then(|s| s.trim().parse::<u8>().ok())
    {
        return Ok(status);
    }
    let status = Command::new(cc)
        .args(args)
        .status()
        .doing(&format!("running {}", cc.to_string_lossy()))?;
    let code = match status.code() {
        Some(code @ (0 | 1)) => code as u8,
        // A crash or an odd status is not an answer to remember.
        Some(code) => return Ok(u8::try_from(code).unwrap_or(1)),
        None => return Ok(1),
    };
    files::write_atomic(&file, format!("{code}\n"), None)?;
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    fn args(s: &str) -> Vec<OsString> {
        s.split(' ').map(OsString::from).collect()
    }

    #[test]
    fn only_kbuilds_probes_are_answered() {
        let probe = "-Werror -D__KERNEL__ -fcf-protection=none -c -x c /dev/null -o .tmp_6210/tmp";
        let (here, there) = (Path::new("/m/one"), Path::new("/m/two"));
        let key = probe_key(&args(probe), here).expect("a cc-option probe");
        // The temporary directory's name is no part of the question, nor, with only absolute
        // paths, the working directory.
        let other = probe.replace(".tmp_6210", ".tmp_99");
        assert_eq!(probe_key(&args(&other), there), Some(key.clone()));
        // Another flag is another question.
        let flag = probe.replace("none", "full");
        assert_ne!(probe_key(&args(&flag), here), Some(key));
        // A path relative to the working directory makes it part of the question.
        for relative in ["-I./include", "-include include/x.h", "-fprofile-use=x/y"] {
            let probe = format!("-I/abs {relative} -c -x c /dev/null -o .tmp_1/tmp");
            assert_ne!(
                probe_key(&args(&probe), here),
                probe_key(&args(&probe), there),
                "{relative}"
            );
        }
        let absolute =
            "-I/abs -isystem /usr/x -fmacro-prefix-map=/a/= -c -x c /dev/null -o .tmp_1/tmp";
        assert_eq!(
            probe_key(&args(absolute), here),
            probe_key(&args(absolute), there)
        );
        for not_a_probe in [
            // A real compile.
            "-c -o dma_engine.mod.o dma_engine.mod.c",
            // Output not in a temporary directory.
            "-c -x c /dev/null -o out.o",
            // as-instr reads its question from standard input.
            "-c -x assembler-with-cpp -o .tmp_1/tmp -",
            // -dM -E with no output.
            "-dM -E /dev/null",
            "--version",
        ] {
            assert_eq!(probe_key(&args(not_a_probe), here), None, "{not_a_probe}");
        }
    }

    #[test]
    fn a_probe_is_asked_once_and_its_status_kept() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        // A compiler that counts its runs and knows only `-fgood`.
        let cc = dir.join("cc");
        let count = dir.join("count");
        fs::write(
            &cc,
            format!(
                "#!/bin/sh\necho run >> '{}'\nfor a; do [ \"$a\" = -fgood ] && exit 0; done\nexit 1\n",
                count.display()
            ),
        )
        .unwrap();
        fs::set_permissions(&cc, fs::Permissions::from_mode(0o755)).unwrap();
        let answers = dir.join("answers");
        let runs = || {
            fs::read_to_string(&count)
                .unwrap_or_default()
                .lines()
                .count()
        };
        for (flag, status) in [("-fgood", 0), ("-fbad", 1)] {
            for tmp in [".tmp_1/tmp", ".tmp_2/tmp", ".tmp_3/tmp"] {
                let probe = args(&format!("-Werror {flag} -c -x c /dev/null -o {tmp}"));
                assert_eq!(answer(cc.as_os_str(), &probe, &answers).unwrap(), status);
            }
        }
        assert_eq!(runs(), 2, "each question asked once");
        // A changed compiler is asked again.
        let mut text = fs::read_to_string(&cc).unwrap();
        text.push_str("# a new version\n");
        fs::write(&cc, text).unwrap();
        let probe = args("-Werror -fgood -c -x c /dev/null -o .tmp_4/tmp");
        assert_eq!(answer(cc.as_os_str(), &probe, &answers).unwrap(), 0);
        assert_eq!(runs(), 3);
    }

    #[test]
    fn cells_may_write_the_wrapper_at_once() {
        // A compiler name of this test's own (the wrappers are in the cache).
        let unique = files::scratch_dir("kc-test-cc-").unwrap();
        let cc = unique
            .path()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let paths: Vec<PathBuf> = std::thread::scope(|scope| {
            let writers: Vec<_> = (0..8).map(|_| scope.spawn(|| wrapper(&cc))).collect();
            writers
                .into_iter()
                .map(|w| w.join().unwrap().unwrap())
                .collect()
        });
        assert!(paths.windows(2).all(|w| w[0] == w[1]));
        let script = fs::read_to_string(&paths[0]).unwrap();
        assert!(
            script.contains(&format!("{ENTRY} '{cc}' \"$@\"")),
            "{script}"
        );
        fs::remove_file(&paths[0]).unwrap();
    }

    #[test]
    fn a_compiler_is_known_by_its_file() {
        let sh = identity(OsStr::new("sh")).expect("sh is on PATH");
        assert_eq!(identity(OsStr::new("sh")), Some(sh));
        assert_eq!(identity(OsStr::new("no-such-compiler-kc")), None);
    }
}
