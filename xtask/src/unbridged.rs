// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The unbridged fixture (`kbuild/fixtures/unbridged.rs`): Linux 7.3's forms that no bridge
//! gives an older kernel, the table "What no bridge can give" of `kernel-core/docs/migrating.md`
//! as code. Each line a kernel cannot build ends with `// fails on: <kernels>`.
//!
//! In a cell of a kernel that some marker names, the build must fail, and rustc's diagnostics
//! must put an error on each of that kernel's marked lines and on no other line; elsewhere the
//! fixture builds, loads, and its suite passes like any other. The markers are the expectation,
//! rustc's own `-->` locations the evidence.

use cargo_kernel_core::model::arch::Kernel;
use cargo_kernel_core::model::plan::{Expect, Failed, ModuleBuild, Sources};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The fixture's name, as `KERNEL_CORE_FIXTURE` takes it.
pub const NAME: &str = "unbridged";

/// What ends a line that `kernel` cannot build.
const MARKER: &str = "// fails on:";

/// The fixture's source.
fn source(repo: &Path) -> PathBuf {
    repo.join("kbuild/fixtures").join(format!("{NAME}.rs"))
}

/// The series of `kernel` as the markers name it (`6.12`, `7.2`, `7.3`): its source
/// package's version.
pub fn series(kernel: &Kernel) -> &'static str {
    kernel
        .package
        .strip_prefix("linux-source-")
        .unwrap_or(kernel.name)
}

/// The 1-based lines of `text` whose marker names `series`.
pub fn marked_lines(text: &str, series: &str) -> BTreeSet<usize> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let (_, kernels) = line.split_once(MARKER)?;
            kernels
                .split_whitespace()
                .any(|k| k == series)
                .then_some(i + 1)
        })
        .collect()
}

/// The primary location of each error in a build log: `(file, line)` of the first `-->` after
/// each `error` header, the summaries (`aborting`, `could not compile`) left out.
pub fn error_locations(log: &str) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    let mut pending = false;
    for line in log.lines() {
        if line.starts_with("error") {
            pending = !line.starts_with("error: aborting") && !line.contains("could not compile");
        } else if line.starts_with("warning") {
            pending = false;
        } else if let Some(location) = line.trim_start().strip_prefix("--> ") {
            if pending {
                pending = false;
                let mut parts = location.rsplitn(3, ':');
                let (_column, line, file) = (parts.next(), parts.next(), parts.next());
                if let (Some(file), Some(Ok(line))) = (file, line.map(str::parse)) {
                    found.push((file.to_string(), line));
                }
            }
        }
    }
    found
}

/// The problems of a failed build of the fixture for `series`: errors missing from marked
/// lines, errors on unmarked lines or in other files.
pub fn judge(text: &str, series: &str, log: &str) -> Vec<String> {
    let expected = marked_lines(text, series);
    let file = format!("{NAME}.rs");
    let errors = error_locations(log);
    if errors.is_empty() {
        return vec![format!(
            "the {NAME} fixture failed to build on {series} without a rustc error (see its build.log)"
        )];
    }
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for (path, line) in &errors {
        if !path.ends_with(&file) {
            problems.push(format!(
                "the {NAME} fixture: an error in {path}:{line}, outside the fixture"
            ));
        } else if expected.contains(line) {
            seen.insert(*line);
        } else {
            problems.push(format!(
                "the {NAME} fixture: an error on line {line}, which no `{MARKER} {series}` marks: a bridge broke, or the table in migrating.md and the marker must name it"
            ));
        }
    }
    for line in expected.difference(&seen) {
        problems.push(format!(
            "the {NAME} fixture: line {line} built on {series}, which its marker says cannot: a bridge now gives it, so the table in migrating.md and the marker must drop {series}"
        ));
    }
    problems
}

/// The fixture's build in a cell of `kernel`: failing as the markers say, or building and
/// passing where no marker names the kernel.
pub fn build(repo: &Path, kernel: &Kernel, kbuild: String) -> anyhow::Result<ModuleBuild> {
    let path = source(repo);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))?;
    let series = series(kernel);
    let expect = if marked_lines(&text, series).is_empty() {
        Expect::Modules {
            judged_by_checks: Vec::new(),
            declared_in: None,
        }
    } else {
        Expect::Failure(Box::new(move |failed: &Failed<'_>| {
            judge(&text, series, failed.log)
        }))
    };
    Ok(ModuleBuild {
        name: format!("fixture-{NAME}"),
        sources: Sources::Kbuild(kbuild),
        variables: Vec::new(),
        expect,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str =
        "fn a() {}\nlet x = 1; // fails on: 6.12\nlet y = 2; // fails on: 6.12 7.2\n";

    fn log(lines: &[usize]) -> String {
        let mut log = String::from("  RUSTC [M] unbridged.o\n");
        for line in lines {
            log.push_str(&format!(
                "error[E0599]: no method\n  --> /r/kbuild/fixtures/unbridged.rs:{line}:5\n   |\nnote: required by\n  --> rust/kernel/sync.rs:10:1\n"
            ));
        }
        log.push_str("error: aborting due to 2 previous errors\n");
        log
    }

    #[test]
    fn markers_name_their_kernels() {
        assert_eq!(marked_lines(TEXT, "6.12"), BTreeSet::from([2, 3]));
        assert_eq!(marked_lines(TEXT, "7.2"), BTreeSet::from([3]));
        assert!(marked_lines(TEXT, "7.3").is_empty());
        assert!(marked_lines(TEXT, "7.").is_empty());
    }

    #[test]
    fn only_primary_locations_count() {
        let found = error_locations(&log(&[2, 3]));
        assert_eq!(
            found,
            [
                ("/r/kbuild/fixtures/unbridged.rs".to_string(), 2),
                ("/r/kbuild/fixtures/unbridged.rs".to_string(), 3)
            ]
        );
    }

    #[test]
    fn the_marked_lines_exactly() {
        assert!(judge(TEXT, "6.12", &log(&[2, 3])).is_empty());
        assert!(judge(TEXT, "7.2", &log(&[3])).is_empty());
        let built = judge(TEXT, "6.12", &log(&[3]));
        assert!(built[0].contains("line 2 built on 6.12"), "{built:?}");
        let broke = judge(TEXT, "7.2", &log(&[1, 3]));
        assert!(broke[0].contains("an error on line 1"), "{broke:?}");
        let other = judge(TEXT, "7.2", "error[E1]: x\n --> src/lib.rs:3:1\n");
        assert!(other[0].contains("outside the fixture"), "{other:?}");
        assert!(judge(TEXT, "6.12", "make: *** Error 2\n")[0].contains("without a rustc error"));
    }
}
