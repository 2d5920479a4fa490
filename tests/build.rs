// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Makes every file of `suites/` a module of the `suites` test: the directory is the one list
//! of kernel-core's KUnit-style suites. Kbuild reads the same directory for the kernel's test
//! module (`kbuild/tests/kernel_core_tests_main.rs`), and `cargo xtask` for the suites each
//! boot must report.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    let dir = Path::new(&env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
        .join("suites");
    println!("cargo::rerun-if-changed={}", dir.display());
    let entries =
        fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    let mut files: Vec<_> = entries
        .map(|entry| {
            entry
                .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
                .path()
        })
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no suite", dir.display());

    let mut modules = String::new();
    for file in &files {
        let name = file
            .file_stem()
            .and_then(|stem| stem.to_str())
            .unwrap_or_else(|| panic!("{}: the file name is not UTF-8", file.display()));
        writeln!(
            modules,
            "#[path = {:?}]\nmod {name};",
            file.display().to_string()
        )
        .expect("writing to a String cannot fail");
    }
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("suites.rs");
    fs::write(&out, modules).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}
