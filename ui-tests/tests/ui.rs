// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Compile-fail tests: each misuse of kernel-core is a compile error that says what is wrong.
//!
//! The cases live once, in `ui/cases/`: `pass_*.rs` must build and run, every other file must
//! fail to compile. rustc words its errors differently from one release to the next, so the
//! expected output lives per toolchain, in `ui/rust-<major>.<minor>/`, next to relative symlinks
//! to the cases (trybuild looks for `x.stderr` beside `x.rs`). `build.rs` says which rustc
//! builds this test (`KC_UI_RUSTC`), and the test picks that directory.
//!
//! The run always includes a pass case, because only then does trybuild use `cargo build`
//! instead of `cargo check`: `const_assert!` and `Alignment::new` fail after
//! monomorphization, which `cargo check` never reaches.
//!
//! For a new toolchain, or after changing a case, regenerate the expectations with
//! `TRYBUILD=overwrite cargo +<toolchain> test -p kernel-core-ui-tests --test ui` (this also
//! creates the directory and its symlinks) and review every `.stderr` it writes.

use std::fs;
use std::path::{Path, PathBuf};

/// `<major>.<minor>` of the rustc that builds this test, from `build.rs`.
const RUSTC: &str = env!("KC_UI_RUSTC");

/// The case sources, sorted by name, as paths relative to the package root.
fn cases(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(root.join("ui/cases"))
        .expect("reading ui/cases")
        .map(|entry| entry.expect("reading ui/cases").file_name())
        .map(|name| name.into_string().expect("case names are UTF-8"))
        .filter(|name| name.ends_with(".rs"))
        .collect();
    names.sort();
    names
}

/// Makes `ui/rust-<RUSTC>/` hold a symlink to each case, or says how to when not overwriting.
fn expectations(root: &Path, cases: &[String]) -> PathBuf {
    let overwrite = std::env::var_os("TRYBUILD").is_some_and(|v| v == "overwrite");
    let dir = root.join(format!("ui/rust-{RUSTC}"));
    // `cargo +nightly` sets `RUSTUP_TOOLCHAIN=nightly`: name the toolchain as the user did.
    let toolchain = std::env::var("RUSTUP_TOOLCHAIN")
        .map(|name| format!(" +{name}"))
        .unwrap_or_default();
    let how = format!(
        "create them with `TRYBUILD=overwrite cargo{toolchain} test -p kernel-core-ui-tests --test ui` \
         (which also makes the symlinks to ../cases/), then review every .stderr it writes"
    );
    if !dir.is_dir() {
        assert!(
            overwrite,
            "no compile-fail expectations for rustc {RUSTC}: ui-tests/ui/rust-{RUSTC}/ does not exist; {how}"
        );
        fs::create_dir(&dir).expect("creating the expectation directory");
    }
    for case in cases {
        let link = dir.join(case);
        if link.symlink_metadata().is_ok() {
            assert!(
                link.is_file(),
                "{} is not a symlink to ../cases/{case}",
                link.display()
            );
            continue;
        }
        assert!(
            overwrite,
            "ui-tests/ui/rust-{RUSTC}/ has no {case} (a symlink to ../cases/{case}) nor its expected output; {how}"
        );
        symlink(&format!("../cases/{case}"), &link);
    }
    dir
}

#[cfg(unix)]
fn symlink(target: &str, link: &Path) {
    std::os::unix::fs::symlink(target, link)
        .unwrap_or_else(|e| panic!("creating {}: {e}", link.display()));
}

#[cfg(not(unix))]
fn symlink(_target: &str, link: &Path) {
    panic!(
        "{}: creating expectations needs symlinks (Unix)",
        link.display()
    );
}

#[test]
fn misuse_is_a_compile_error() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = cases(root);
    assert!(
        cases.iter().any(|case| case.starts_with("pass_")),
        "keep a pass_*.rs case: without one trybuild uses `cargo check`, which misses \
         post-monomorphization errors"
    );
    let dir = expectations(root, &cases);
    let relative = dir
        .strip_prefix(root)
        .expect("the directory is in the package");

    // One `TestCases` for all: its run, when dropped, includes the pass case.
    let t = trybuild::TestCases::new();
    for case in &cases {
        let path = relative.join(case);
        if case.starts_with("pass_") {
            t.pass(path);
        } else {
            t.compile_fail(path);
        }
    }
}
