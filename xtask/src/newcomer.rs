// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The newcomer's crate: a driver library made from the getting-started page alone
//! (`kernel-core/docs/getting-started.md`, which the README sends its readers to), checked as a
//! newcomer would use it.
//!
//! Its `Cargo.toml` is the page's first `toml` block with the `[dev-dependencies]` of its
//! second (the `std` feature for the tests alone), and its library is the page's host-test
//! example. One change: `kernel-core = "0.1"` becomes this checkout, in the form the page gives
//! in a comment (`{ version = "0.1", path = ... }`), so that the check needs no registry. The
//! check then requires a warning-free `cargo build` and `cargo clippy --all-targets`, 20
//! `cargo test` runs in a row (threads: fake clocks and suites must not disturb each other),
//! and `cargo nextest run`.

use cargo_kernel_core::infra::error::Result;
use std::fs;
use std::path::{Path, PathBuf};

/// The page the crate is made from.
const PAGE: &str = "kernel-core/docs/getting-started.md";

/// The fenced blocks of `markdown` whose info string starts with `lang`, in order.
fn blocks<'a>(markdown: &'a str, lang: &str) -> Vec<Vec<&'a str>> {
    let mut out = Vec::new();
    // `None` outside a block; `Some(None)` in a block of another language.
    let mut current: Option<Option<Vec<&str>>> = None;
    for line in markdown.lines() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut current, fence) {
            (Some(block), Some(_)) => {
                if let Some(lines) = block.take() {
                    out.push(lines);
                }
                current = None;
            }
            (Some(Some(lines)), None) => lines.push(line),
            (Some(None), None) | (None, None) => {}
            (None, Some(info)) => {
                current = Some((info.split(',').next() == Some(lang)).then(Vec::new));
            }
        }
    }
    out
}

/// Writes the crate under `dir` from the page in `repo`; returns the crate's directory.
pub fn make(repo: &Path, dir: &Path) -> Result<PathBuf> {
    let page = repo.join(PAGE);
    let text = fs::read_to_string(&page)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", page.display()))?;
    let tomls = blocks(&text, "toml");
    let [package, with_std, ..] = &tomls[..] else {
        anyhow::bail!(
            "{}: expected two `toml` blocks (the package, then with std)",
            page.display()
        );
    };
    let kernel_core = repo.join("kernel-core");
    let local = format!(
        "kernel-core = {{ version = \"0.1\", path = {:?} }}",
        kernel_core.display().to_string()
    );
    let mut manifest = String::new();
    let mut lib_path = None;
    for line in package {
        if line.trim() == "kernel-core = \"0.1\"" {
            manifest.push_str(&local);
        } else {
            manifest.push_str(line);
        }
        manifest.push('\n');
        if let Some(path) = line.trim().strip_prefix("path = ") {
            lib_path = path.split('"').nth(1).map(str::to_string);
        }
    }
    // Cargo's default library root, unless the block names another.
    let lib_path = lib_path.unwrap_or_else(|| "src/lib.rs".to_string());
    let Some(dev) = with_std
        .iter()
        .position(|l| l.trim() == "[dev-dependencies]")
    else {
        anyhow::bail!(
            "{}: the second toml block has no [dev-dependencies]",
            page.display()
        );
    };
    for line in &with_std[dev..] {
        let std_dep = line.trim().starts_with("kernel-core = {");
        if std_dep {
            manifest.push_str(&format!(
                "kernel-core = {{ version = \"0.1\", path = {:?}, features = [\"std\"] }}",
                kernel_core.display().to_string()
            ));
        } else {
            manifest.push_str(line);
        }
        manifest.push('\n');
    }
    // Its own workspace, not a member of kernel-core's.
    manifest.push_str("\n[workspace]\n");

    let Some(example) = blocks(&text, "rust")
        .into_iter()
        .find(|b| b.iter().any(|l| l.contains("#[kunit_tests(")))
    else {
        anyhow::bail!(
            "{}: no `rust` block with a #[kunit_tests] suite",
            page.display()
        );
    };
    // rustdoc's hidden lines (`# ...`) are not part of what a reader copies.
    let source: String = example
        .iter()
        .filter(|l| !(l.trim_start().starts_with("# ") || l.trim() == "#"))
        .map(|l| format!("{l}\n"))
        .collect();

    let crate_dir = dir.join("newcomer");
    let write = |path: PathBuf, contents: &str| {
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", parent.display()))?;
        }
        fs::write(&path, contents)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
    };
    write(crate_dir.join("Cargo.toml"), &manifest)?;
    write(crate_dir.join(&lib_path), &source)?;
    Ok(crate_dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fenced_blocks_by_language() {
        let md = "text\n```toml\na = 1\n```\n```rust,ignore\nfn f() {}\n```\n```toml\nb = 2\n```\n";
        assert_eq!(blocks(md, "toml"), vec![vec!["a = 1"], vec!["b = 2"]]);
        assert_eq!(blocks(md, "rust"), vec![vec!["fn f() {}"]]);
    }

    #[test]
    fn the_page_makes_a_crate() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let scratch = cargo_kernel_core::infra::files::scratch_dir("kc-newcomer-").unwrap();
        let made = make(repo, scratch.path()).unwrap();
        let manifest = fs::read_to_string(made.join("Cargo.toml")).unwrap();
        assert!(manifest.contains("[dev-dependencies]"));
        assert!(manifest.contains("features = [\"std\"]"));
        assert!(!manifest.contains("kernel-core = \"0.1\""));
    }
}
