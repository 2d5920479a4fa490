// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Which references kernel-core provides, as the compiler says.
//!
//! Coverage is not guessed from kernel-core's sources: a throwaway crate,
//! `target/survey/probe/`, depends on kernel-core (feature `std`) and on its `pin_init` crate
//! under that name, and holds one line per unique path, `kernel::` rewritten `kernel_core::`
//! (`pin_init::` kept): `use <path> as _;`. One `cargo check --message-format=json` later, the
//! lines the errors point at are the paths kernel-core lacks.
//!
//! `use` cannot reach through a type to an associated item (`kernel::time::Delta::from_millis`,
//! `kernel::foo::E::CONST`): such a path also gets a probe in the position the driver wrote it.
//! A path written as a value (or inside a macro's tokens) gets `let _ = <path>;` in a function
//! body, which the compiler resolves to the associated item itself (a missing one is
//! `E0599`). A path written as a type gets `type _ = <path>;`, which the compiler only resolves
//! as far as the type (an associated type it reports as ambiguous, `E0223`, whether or not it
//! exists): such a path counts as covered when its type is, an approximation the report counts.

use super::references::{Kind, Reference};
use cargo_kernel_core::infra::command;
use cargo_kernel_core::infra::error::Context as _;
use cargo_kernel_core::infra::error::Result;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// How a path was found provided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum How {
    /// `use <path> as _;` resolves: the item exists at that path.
    Use,
    /// Through a type to an associated item, written as a value: `let _ = <path>;` resolves.
    Value,
    /// Through a type to an associated item, written as a type: checked as far as the type.
    AsFarAsTheType,
    /// Not provided.
    Missing,
}

/// The error codes that say a path does not resolve (or is not public): not found, not a
/// module, private. Any other error of a probe (`type annotations needed`, `expected value,
/// found struct`, `missing generics`, `ambiguous associated type`) comes after the path
/// resolved.
const UNRESOLVED: &[&str] = &[
    "E0220", "E0405", "E0412", "E0425", "E0432", "E0433", "E0531", "E0532", "E0599", "E0603",
    "E0624",
];

/// A line of the generated crate: the path it checks and how.
#[derive(Clone, Copy)]
struct Line {
    path: usize,
    how: How,
}

/// The verdict on each unique path (`::`-separated, as written in the kernel's tree), and the
/// seconds `cargo check` took.
pub struct Verdicts {
    pub by_path: BTreeMap<String, How>,
    pub seconds: f64,
}

/// Checks every unique path of `references` against kernel-core in the repository `repo`,
/// with the probe crate in `dir` (`target/survey/probe`).
pub fn check<'a>(
    repo: &Path,
    dir: &Path,
    references: impl IntoIterator<Item = &'a Reference>,
) -> Result<Verdicts> {
    // Each unique path, with the positions it was written in.
    let mut paths: BTreeMap<String, (Vec<String>, BTreeSet<Kind>)> = BTreeMap::new();
    for reference in references {
        let entry = paths
            .entry(reference.text())
            .or_insert_with(|| (reference.path.clone(), BTreeSet::new()));
        entry.1.insert(reference.kind);
    }
    let paths: Vec<_> = paths.into_iter().collect();
    let (source, lines) = generate(paths.iter().map(|(_, (p, k))| (p.as_slice(), k)));
    let src = dir.join("src");
    std::fs::create_dir_all(&src).at(&src)?;
    let manifest = dir.join("Cargo.toml");
    write_if_changed(&manifest, &self::manifest(repo))?;
    write_if_changed(&src.join("lib.rs"), &source)?;
    let start = std::time::Instant::now();
    let mut cargo = command::cargo();
    cargo
        .args([
            "check",
            "--offline",
            "--message-format=json",
            "--manifest-path",
        ])
        .arg(&manifest)
        .env("CARGO_TARGET_DIR", repo.join("target/survey/target"))
        .current_dir(dir);
    let output = cargo
        .output()
        .doing("running cargo check on the survey's probe crate")?;
    let seconds = start.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let errors = errors(&stdout)?;
    // The error codes on each line.
    let mut failed: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for error in errors {
        let Some(number) = error.line.filter(|l| lines.contains_key(l)) else {
            anyhow::bail!(
                "the survey's probe crate ({}) has an error on no reference's line, so the \
                 survey cannot read it: {}",
                src.join("lib.rs").display(),
                error.rendered
            );
        };
        failed.entry(number).or_default().push(error.code);
    }
    if !output.status.success() && failed.is_empty() {
        anyhow::bail!(
            "cargo check of the survey's probe crate ({}) failed with no error the survey can \
             read ({}):\n{}",
            manifest.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
    // Per path: the verdict of each of its lines.
    let mut verdicts: BTreeMap<usize, Vec<(How, bool)>> = BTreeMap::new();
    for (number, line) in &lines {
        let codes = failed.get(number).map(Vec::as_slice).unwrap_or_default();
        let resolved = match line.how {
            // Any error on a `use` line: not there.
            How::Use => codes.is_empty(),
            _ => !codes.iter().any(|c| UNRESOLVED.contains(&c.as_str())),
        };
        verdicts
            .entry(line.path)
            .or_default()
            .push((line.how, resolved));
    }
    let by_path = paths
        .iter()
        .enumerate()
        .map(|(i, (text, _))| {
            let lines = verdicts.get(&i).map(Vec::as_slice).unwrap_or_default();
            let how = lines
                .iter()
                .filter(|(_, resolved)| *resolved)
                .map(|(how, _)| *how)
                .min()
                .unwrap_or(How::Missing);
            (text.clone(), how)
        })
        .collect();
    Ok(Verdicts { by_path, seconds })
}

/// The probe crate's manifest: kernel-core with `std`, and its pin-init crate as `pin_init`.
fn manifest(repo: &Path) -> String {
    let kernel_core = repo.join("kernel-core");
    let pin_init = repo.join("pin-init");
    format!(
        "# Generated by `cargo xtask survey`: one line per unique reference of the kernel's\n\
         # drivers and samples (see xtask/src/survey/probe.rs).\n\
         [package]\n\
         name = \"kernel-core-survey-probe\"\n\
         version = \"0.0.0\"\n\
         edition = \"2021\"\n\
         publish = false\n\n\
         [lib]\n\
         path = \"src/lib.rs\"\n\n\
         [dependencies]\n\
         kernel-core = {{ path = {:?}, features = [\"std\"] }}\n\
         pin_init = {{ package = \"kernel-core-pin-init\", path = {:?} }}\n\n\
         # Not a member of the repository's workspace.\n\
         [workspace]\n",
        kernel_core.display().to_string(),
        pin_init.display().to_string()
    )
}

/// The probe crate's source, and what each of its lines (1-based) checks: `paths` are the
/// unique paths with the kinds of place they were written in.
fn generate<'a>(
    paths: impl IntoIterator<Item = (&'a [String], &'a BTreeSet<Kind>)>,
) -> (String, BTreeMap<usize, Line>) {
    let mut source = String::from(
        "// Generated by `cargo xtask survey`: one line per unique reference of the kernel's\n\
         // drivers and samples; the lines the compiler rejects are what kernel-core lacks.\n\
         #![allow(unused)]\n",
    );
    let mut lines = BTreeMap::new();
    let mut push = |source: &mut String, line: Line, text: String| {
        lines.insert(source.lines().count() + 1, line);
        source.push_str(&text);
        source.push('\n');
    };
    let mut probes = Vec::new();
    for (i, (path, kinds)) in paths.into_iter().enumerate() {
        let rewritten = rewrite(path);
        push(
            &mut source,
            Line {
                path: i,
                how: How::Use,
            },
            format!("use {rewritten} as _;"),
        );
        // Only a path of a type's item can fail `use` and still resolve: `kernel::m::T::item`.
        if path.len() < 3 {
            continue;
        }
        if kinds.contains(&Kind::Value) || kinds.contains(&Kind::Tokens) {
            probes.push((
                Line {
                    path: i,
                    how: How::Value,
                },
                format!("fn _value_{i}() {{ let _ = {rewritten}; }}"),
            ));
        }
        if kinds.contains(&Kind::Type) {
            probes.push((
                Line {
                    path: i,
                    how: How::AsFarAsTheType,
                },
                format!("type _Type{i} = {rewritten};"),
            ));
        }
    }
    for (line, text) in probes {
        push(&mut source, line, text);
    }
    (source, lines)
}

/// `path` as the probe crate writes it: `kernel` becomes `kernel_core`.
fn rewrite(path: &[String]) -> String {
    let mut segments = path.to_vec();
    if segments.first().is_some_and(|s| s == "kernel") {
        segments[0] = "kernel_core".to_string();
    }
    segments.join("::")
}

/// Writes `text` to `path` unless it holds it already (cargo then has nothing to rebuild).
fn write_if_changed(path: &Path, text: &str) -> Result {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    std::fs::write(path, text).at(path)
}

/// An error of the probe crate: its code, the line of its primary span, its rendering.
struct Error {
    code: String,
    line: Option<usize>,
    rendered: String,
}

/// The errors of cargo's JSON messages `stdout`, for the probe crate; fails on an error of
/// another crate (kernel-core itself not building).
fn errors(stdout: &str) -> Result<Vec<Error>> {
    let mut errors = Vec::new();
    for line in stdout.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if message["reason"] != "compiler-message" || message["message"]["level"] != "error" {
            continue;
        }
        let rendered = message["message"]["rendered"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let package = message["package_id"].as_str().unwrap_or_default();
        if !package.contains("kernel-core-survey-probe") {
            anyhow::bail!("kernel-core does not build, so the survey cannot check it:\n{rendered}");
        }
        let code = message["message"]["code"]["code"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let spans = message["message"]["spans"].as_array();
        let line = spans
            .into_iter()
            .flatten()
            .find(|s| s["is_primary"] == true && s["file_name"] == "src/lib.rs")
            .and_then(|s| s["line_start"].as_u64())
            .map(|l| l as usize);
        errors.push(Error {
            code,
            line,
            rendered,
        });
    }
    Ok(errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_path_gets_a_use_line_and_probes_where_written() {
        let path = |p: &str| p.split("::").map(String::from).collect::<Vec<_>>();
        let (a, b, c) = (
            path("kernel::sync::Arc"),
            path("kernel::time::Delta::from_millis"),
            path("pin_init::Zeroable"),
        );
        let (types, values) = (
            BTreeSet::from([Kind::Type]),
            BTreeSet::from([Kind::Value, Kind::Use]),
        );
        let (source, lines) = generate([
            (a.as_slice(), &types),
            (b.as_slice(), &values),
            (c.as_slice(), &types),
        ]);
        let text: Vec<_> = source.lines().collect();
        let at = |n: usize| (text[n - 1], lines[&n].path, lines[&n].how);
        assert_eq!(at(4), ("use kernel_core::sync::Arc as _;", 0, How::Use));
        assert_eq!(
            at(5),
            (
                "use kernel_core::time::Delta::from_millis as _;",
                1,
                How::Use
            )
        );
        assert_eq!(at(6), ("use pin_init::Zeroable as _;", 2, How::Use));
        assert_eq!(
            at(7),
            (
                "type _Type0 = kernel_core::sync::Arc;",
                0,
                How::AsFarAsTheType
            )
        );
        assert_eq!(
            at(8),
            (
                "fn _value_1() { let _ = kernel_core::time::Delta::from_millis; }",
                1,
                How::Value
            )
        );
        assert_eq!(lines.len(), 5);
    }
}
