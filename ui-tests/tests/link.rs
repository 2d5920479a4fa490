// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Link-fail tests: an optimized binary that keeps a `build_assert!` it cannot prove must fail
//! its final link, with either linker, with LTO too, and the linker's first lines must name the
//! assertion's `file:line:column` and the function that holds it; one whose assertions are all
//! provable must link and run; a false `build_assert!` or `build_error!` in const evaluation must
//! be a compile error carrying its message in an optimized build too; and a debug build must
//! panic at the failing assertion instead.
//!
//! These are real builds: each test runs `cargo build` (the cargo that runs the tests, `CARGO`)
//! on a fixture in `fixtures/`, a package of its own (with its own `[workspace]`) that depends
//! on kernel-core by path. Only a final link shows the effect, which trybuild cannot check.
//! The fixtures build into `<target>/ui-link/<linker>/`, a target directory of their own, so
//! that they never wait for the lock of the build running the tests, and so that two tests
//! never replace each other's binaries; it is kept between runs, so only the first run of a
//! toolchain compiles kernel-core.
//!
//! Linkers, on x86_64 Linux, where rustc 1.90 made rust-lld the default:
//!
//! | | rustc >= 1.90 | rustc < 1.90 |
//! |---|---|---|
//! | rust-lld | the default | `-Clink-arg=-fuse-ld=lld` with the toolchain's `gcc-ld` wrapper |
//! | GNU ld | `-Clinker-features=-lld` | the default (`cc` runs `ld`) |
//!
//! Each test checks that it got the linker it asked for: from the `.comment` section of the
//! binary it links (rust-lld writes `Linker: LLD`), or from who printed the link error.

#![cfg(target_os = "linux")]

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `<major>.<minor>` of the rustc that builds this test, from `build.rs`.
const RUSTC: &str = env!("KC_UI_RUSTC");

/// The start of the linker's backstop message when `build_error` survives (see
/// `build-error/build.rs`).
const LINKED: &str = "kernel-core: build_error was linked";

/// Where that message sends the reader.
const DOCS: &str = "docs.rs/kernel-core";

/// The start of the undefined symbol that names a surviving `build_assert!` (see
/// `build_error_here!` in `build-error/src/lib.rs`), before `<file>:<line>:<column>`.
const SITE: &str = "kernel-core: build_assert!() not proven at ";

/// How many lines of the linker's output must name the site and its function.
const FIRST_LINES: usize = 3;

/// The function of fixture `unprovable` that holds the assertion once `checked_count`, which
/// is `#[inline(always)]`, is inlined into it.
const CALLER: &str = "kc_link_unprovable::main";

/// The linker a fixture is linked with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Linker {
    /// The LLVM linker shipped with the toolchain.
    RustLld,
    /// The system's GNU ld (BFD), through `cc`.
    GnuLd,
}

impl Linker {
    /// The name used in messages.
    fn name(self) -> &'static str {
        match self {
            Linker::RustLld => "rust-lld",
            Linker::GnuLd => "GNU ld",
        }
    }

    /// The name of the fixtures' target directory for this linker.
    fn target_dir_name(self) -> &'static str {
        match self {
            Linker::RustLld => "rust-lld",
            Linker::GnuLd => "gnu-ld",
        }
    }

    /// The fixtures' target directory for this linker.
    fn target_dir(self) -> PathBuf {
        // `CARGO_TARGET_TMPDIR` is `<target>/tmp`, wherever the target directory is.
        let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .parent()
            .expect("CARGO_TARGET_TMPDIR is inside the target directory");
        target.join("ui-link").join(self.target_dir_name())
    }

    /// The `RUSTFLAGS` that select this linker with this toolchain.
    fn rustflags(self) -> String {
        match (self, default_is_rust_lld()) {
            (Linker::RustLld, true) | (Linker::GnuLd, false) => String::new(),
            (Linker::GnuLd, true) => "-Clinker-features=-lld".to_owned(),
            (Linker::RustLld, false) => {
                // What rustc >= 1.90 passes itself: `cc -fuse-ld=lld`, finding `ld.lld` in the
                // toolchain's `gcc-ld` directory, a wrapper around rust-lld.
                let gcc_ld = Path::new(&rustc_output(&["--print", "sysroot"]))
                    .join("lib/rustlib")
                    .join(host())
                    .join("bin/gcc-ld");
                assert!(
                    gcc_ld.join("ld.lld").is_file(),
                    "rustc {RUSTC} has no {}: cannot link with rust-lld",
                    gcc_ld.join("ld.lld").display()
                );
                format!("-Clink-arg=-fuse-ld=lld -Clink-arg=-B{}", gcc_ld.display())
            }
        }
    }
}

/// Whether this toolchain links with rust-lld by default (x86_64 Linux, rustc 1.90 and later).
fn default_is_rust_lld() -> bool {
    let (major, minor) = RUSTC
        .split_once('.')
        .expect("KC_UI_RUSTC is <major>.<minor>");
    let version = (
        major.parse::<u32>().expect("a major version"),
        minor.parse::<u32>().expect("a minor version"),
    );
    cfg!(all(target_arch = "x86_64", target_env = "gnu")) && version >= (1, 90)
}

/// What `rustc <args>` prints, trimmed: the same rustc as the fixtures' cargo uses.
fn rustc_output(args: &[&str]) -> String {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| OsString::from("rustc"));
    let output = Command::new(&rustc)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("running rustc {args:?}: {e}"));
    assert!(output.status.success(), "rustc {args:?} failed");
    String::from_utf8(output.stdout)
        .expect("rustc prints UTF-8")
        .trim()
        .to_owned()
}

/// The host triple, from `rustc -vV`.
fn host() -> String {
    rustc_output(&["-vV"])
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .to_owned()
}

/// The directory of fixture `name`.
fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

/// A finished `cargo build` of a fixture.
struct Build {
    /// The command, for messages.
    command: String,
    /// Its output.
    output: Output,
    /// The binary it builds, when it succeeds.
    binary: PathBuf,
}

impl Build {
    /// Cargo's standard error.
    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }
}

/// Runs `cargo build --offline` on fixture `name`, optimized if `release`, with `linker`.
fn build(name: &str, release: bool, linker: Linker) -> Build {
    build_with(name, release, linker, false)
}

/// [`build`], with fat link-time optimization if `lto` (in a target directory of its own, so
/// that the two never rebuild each other's dependencies).
fn build_with(name: &str, release: bool, linker: Linker, lto: bool) -> Build {
    // The cargo that runs this test (so the same toolchain), else the one that built it.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from(env!("CARGO")));
    let manifest = fixture(name).join("Cargo.toml");
    let mut target_dir = linker.target_dir();
    if lto {
        target_dir.set_file_name(format!("{}-lto", linker.target_dir_name()));
    }
    let rustflags = linker.rustflags();
    let mut cmd = Command::new(&cargo);
    cmd.args(["build", "--offline", "--color=never", "--manifest-path"])
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&target_dir);
    if release {
        cmd.arg("--release");
    }
    if lto {
        cmd.env("CARGO_PROFILE_RELEASE_LTO", "fat");
    }
    // Only the flags chosen here: not those of the build running the tests.
    cmd.env("RUSTFLAGS", &rustflags)
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("KERNEL_CORE_BUILD_ASSERT");
    if !lto {
        cmd.env_remove("CARGO_PROFILE_RELEASE_LTO");
    }
    let command = format!(
        "{}RUSTFLAGS='{rustflags}' {} build --offline{} --manifest-path {} --target-dir {}",
        if lto {
            "CARGO_PROFILE_RELEASE_LTO=fat "
        } else {
            ""
        },
        Path::new(&cargo).display(),
        if release { " --release" } else { "" },
        manifest.display(),
        target_dir.display(),
    );
    let output = cmd
        .output()
        .unwrap_or_else(|e| panic!("running `{command}`: {e}"));
    let profile = if release { "release" } else { "debug" };
    Build {
        command,
        output,
        binary: target_dir.join(profile).join(format!("kc-link-{name}")),
    }
}

/// Runs a fixture's binary with `RUST_BACKTRACE=0`.
fn run(binary: &Path) -> Output {
    Command::new(binary)
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", binary.display()))
}

/// The `(line, column)` of the one line of fixture `name`'s `src/main.rs` that starts with
/// `macro` (such as `build_assert!(`), as `line!()` and `column!()` count them.
fn site_of(name: &str, macro_: &str) -> (usize, usize) {
    let path = fixture(name).join("src/main.rs");
    let source = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let sites: Vec<(usize, usize)> = source
        .lines()
        .enumerate()
        .filter_map(|(i, text)| {
            let column = text.find(macro_)?;
            text[..column]
                .trim()
                .is_empty()
                .then_some((i + 1, column + 1))
        })
        .collect();
    match sites[..] {
        [site] => site,
        _ => panic!(
            "{} should have exactly one line starting with `{macro_}`, has {}",
            path.display(),
            sites.len()
        ),
    }
}

/// The lines the linker printed, from a failed build's standard error: what follows rustc's
/// `error: linking with ... failed` and its notes on the command line, without rustc's
/// `= note: ` prefix and indentation. Empty if no link failed.
fn linker_output(stderr: &str) -> Vec<&str> {
    let mut lines = stderr.lines();
    if !lines.any(|line| line.starts_with("error: linking with")) {
        return Vec::new();
    }
    lines
        .map(|line| line.trim_start().trim_start_matches("= note:").trim())
        // rustc's own lines: the empty `|`, the command, and that parts of it are left out.
        .skip_while(|line| {
            line.is_empty()
                || *line == "|"
                || line.contains("\"cc\"")
                || line.starts_with("some arguments are omitted")
        })
        .take_while(|line| !line.is_empty())
        .collect()
}

/// Asserts that fixture `unprovable` fails its optimized link with `linker` (and fat LTO if
/// `lto`), and that the first [`FIRST_LINES`] lines the linker prints name the assertion's
/// `src/main.rs:<line>:<column>` and the function that holds it, or, with LTO and a rustc that
/// cannot keep the site (before 1.86), kernel-core's backstop message.
fn unprovable_fails_the_link(linker: Linker, lto: bool) {
    let build = build_with("unprovable", true, linker, lto);
    let stderr = build.stderr();
    let context = format!(
        "release build{} of fixtures/unprovable linked with {}, by\n  {}\nstderr:\n{stderr}",
        if lto { " with LTO" } else { "" },
        linker.name(),
        build.command
    );
    assert!(
        !build.output.status.success(),
        "an unprovable build_assert! built: the link check did not fire; {context}"
    );
    let output = linker_output(&stderr);
    assert!(
        !output.is_empty(),
        "the build failed, but not in the link; {context}"
    );
    let first = &output[..output.len().min(FIRST_LINES)];

    // The backstop: with GNU ld it comes first; lld stops at the undefined symbol before it.
    if let Some(line) = output.iter().find(|line| line.contains(LINKED)) {
        assert!(
            line.contains(DOCS),
            "the backstop message does not point to {DOCS:?}; {context}"
        );
    }
    if lto && !site_survives_lto() {
        assert!(
            first.iter().any(|line| line.contains(LINKED)),
            "rustc {RUSTC} with LTO: the first lines of the linker should hold {LINKED:?}; {context}"
        );
        return;
    }

    let (line, column) = site_of("unprovable", "build_assert!(");
    let symbol = format!("{SITE}src/main.rs:{line}:{column}");
    let site = first
        .iter()
        .find(|text| text.contains(&symbol))
        .unwrap_or_else(|| {
            panic!(
                "the first {FIRST_LINES} lines of the linker do not name {symbol:?}: {first:#?}; {context}"
            )
        });
    // With LTO the optimizer may move the call into a copy of `build_error_at`: the site is
    // still named, the function may not be.
    if !lto {
        assert!(
            first.iter().any(|text| text.contains(CALLER)),
            "the first {FIRST_LINES} lines of the linker do not name the function {CALLER}: {first:#?}; {context}"
        );
    }
    // "rust-lld: error: undefined symbol: kernel-core: ..." or, from GNU ld,
    // "...: undefined reference to `kernel-core: ...'" after "/usr/bin/ld: ...: in function".
    match linker {
        Linker::RustLld => assert!(
            site.starts_with("rust-lld: error: undefined symbol: "),
            "not reported by rust-lld: {site:?}; {context}"
        ),
        Linker::GnuLd => assert!(
            site.contains("undefined reference to `")
                && first
                    .iter()
                    .any(|text| text.contains("ld: ") && !text.contains("lld")),
            "not reported by GNU ld: {first:#?}; {context}"
        ),
    }
}

/// Whether `build_error_at` keeps its site through LTO with this rustc: with
/// `core::hint::black_box`, a `const fn` from 1.86 on (see `build-error/build.rs`).
fn site_survives_lto() -> bool {
    let (major, minor) = RUSTC
        .split_once('.')
        .expect("KC_UI_RUSTC is <major>.<minor>");
    (
        major.parse::<u32>().expect("a major version"),
        minor.parse::<u32>().expect("a minor version"),
    ) >= (1, 86)
}

/// Asserts that fixture `provable` links optimized with `linker` and prints what it should.
fn provable_links_and_runs(linker: Linker) {
    let build = build("provable", true, linker);
    let stderr = build.stderr();
    let context = format!(
        "release build of fixtures/provable linked with {}, by\n  {}\nstderr:\n{stderr}",
        linker.name(),
        build.command
    );
    assert!(
        build.output.status.success(),
        "provable build_assert!/build_error! failed to build; {context}"
    );

    // The `.comment` section says which rustc compiled it and whether LLD linked it.
    let binary = std::fs::read(&build.binary)
        .unwrap_or_else(|e| panic!("reading {}: {e}; {context}", build.binary.display()));
    let has = |needle: &str| binary.windows(needle.len()).any(|w| w == needle.as_bytes());
    assert!(
        has(&format!("rustc version {RUSTC}.")),
        "{} was not compiled by rustc {RUSTC}, the toolchain running the tests; {context}",
        build.binary.display()
    );
    assert_eq!(
        has("Linker: LLD"),
        linker == Linker::RustLld,
        "{} was not linked by {}; {context}",
        build.binary.display(),
        linker.name()
    );

    let output = run(&build.binary);
    assert!(
        output.status.success(),
        "{} failed: {}",
        build.binary.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "register 3 at 0x10c\n41 + 1 = 42\n",
        "unexpected output of {} ({})",
        build.binary.display(),
        linker.name()
    );
}

#[test]
fn release_unprovable_build_assert_fails_the_link_naming_its_site_with_rust_lld() {
    unprovable_fails_the_link(Linker::RustLld, false);
}

#[test]
fn release_unprovable_build_assert_fails_the_link_naming_its_site_with_gnu_ld() {
    unprovable_fails_the_link(Linker::GnuLd, false);
}

/// GNU ld with LTO is the one unsupported combination (see `build-error/src/lib.rs`).
#[test]
fn release_lto_unprovable_build_assert_fails_the_link_with_rust_lld() {
    unprovable_fails_the_link(Linker::RustLld, true);
}

/// Optimized, a false `build_assert!` or `build_error!` met in const evaluation is still a
/// compile error carrying its message: the site-naming expansion changes nothing there.
#[test]
fn release_false_build_assert_in_const_is_a_compile_error() {
    let linker = if default_is_rust_lld() {
        Linker::RustLld
    } else {
        Linker::GnuLd
    };
    let build = build("const-false", true, linker);
    let stderr = build.stderr();
    let context = format!(
        "release build of fixtures/const-false, by\n  {}\nstderr:\n{stderr}",
        build.command
    );
    assert!(
        !build.output.status.success(),
        "a false build_assert! in const evaluation built; {context}"
    );
    assert!(
        linker_output(&stderr).is_empty(),
        "the build should fail in const evaluation, before any link; {context}"
    );
    for (message, macro_) in [
        ("shift too large", "build_assert!("),
        ("index out of range", "build_error!("),
    ] {
        let (line, column) = site_of("const-false", macro_);
        // rustc 1.85 words it `the evaluated program panicked at '<message>', <file:line:col>`.
        let error = format!("error[E0080]: evaluation panicked: {message}");
        let old_error = format!("the evaluated program panicked at '{message}'");
        assert!(
            stderr.contains("error[E0080]")
                && (stderr.contains(&error) || stderr.contains(&old_error)),
            "no {error:?} (or {old_error:?}); {context}"
        );
        // rustc points at the macro call inside the const fn.
        let at = format!("src/main.rs:{line}:{column}");
        assert!(
            stderr.contains(&at),
            "the error does not point at {at}; {context}"
        );
    }
}

#[test]
fn release_provable_build_asserts_link_and_run_with_rust_lld() {
    provable_links_and_runs(Linker::RustLld);
}

#[test]
fn release_provable_build_asserts_link_and_run_with_gnu_ld() {
    provable_links_and_runs(Linker::GnuLd);
}

/// Unoptimized, an unprovable `build_assert!` builds and panics where it stands, with its
/// message: how a link error is traced back to its assertion.
#[test]
fn debug_unprovable_build_assert_builds_and_panics_at_its_location() {
    let linker = if default_is_rust_lld() {
        Linker::RustLld
    } else {
        Linker::GnuLd
    };
    let build = build("unprovable", false, linker);
    assert!(
        build.output.status.success(),
        "the debug build of fixtures/unprovable failed, by\n  {}\nstderr:\n{}",
        build.command,
        build.stderr()
    );

    // The assertion is the one line that starts with `build_assert!(`.
    let (line, column) = site_of("unprovable", "build_assert!(");
    let location = format!("src/main.rs:{line}:{column}");

    // Without arguments, the argument count is 1 and the assertion `count > 1` fails.
    let output = run(&build.binary);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(101),
        "{} should have panicked; stderr:\n{stderr}",
        build.binary.display()
    );
    assert!(
        stderr.contains(&format!("panicked at {location}:"))
            && stderr.contains("unprovable: the argument count is only known at run time"),
        "the panic should name the assertion's message and {location}; stderr:\n{stderr}"
    );
}
