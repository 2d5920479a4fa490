// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The Rust crates of a kernel tree's drivers and samples, and the files of each.
//!
//! Nothing here is a list of drivers: a crate root is an object that Kbuild builds (a `foo.o`
//! named in a `Makefile` or `Kbuild`, `obj-$(CONFIG_...) += foo.o` or a composite object's
//! `foo-y := foo.o`) whose `foo.rs` exists beside it, and a crate's files are those its root
//! reaches through `mod` declarations (with `#[path]`) and `include!`, as rustc finds them. So a
//! new driver of a newer kernel is surveyed without a change here, and a file that no crate
//! reaches is reported, not silently counted.

use cargo_kernel_core::infra::error::Context as _;
use cargo_kernel_core::infra::error::Result;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The directories surveyed, relative to the tree: the in-tree drivers and the Rust samples.
pub const DIRS: &[&str] = &["drivers", "samples/rust"];

/// Directories under [`DIRS`] left out: the samples' host programs are not kernel code.
pub const SKIPPED: &[&str] = &["samples/rust/hostprogs"];

/// Whether a crate is a driver (under `drivers/`) or a sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Driver,
    Sample,
}

/// One source file of a crate, parsed.
pub struct SourceFile {
    /// Relative to the tree.
    pub path: PathBuf,
    pub syntax: syn::File,
}

/// A crate: a module Kbuild builds from Rust.
pub struct Crate {
    /// The root's directory when the crate has files of its own there (`nova-core`, `binder`),
    /// else the root's file name (`qt2025`, `rust_minimal`).
    pub name: String,
    pub kind: Kind,
    /// The root file, relative to the tree.
    pub root: PathBuf,
    /// The root first, then the files it reaches, by path (component by component).
    pub files: Vec<SourceFile>,
}

/// The crates of a tree, and the `.rs` files under [`DIRS`] that none of them reaches.
pub struct Crates {
    pub crates: Vec<Crate>,
    pub orphans: Vec<PathBuf>,
}

/// Finds the crates under [`DIRS`] of `tree`, parsing every file they reach.
pub fn find(tree: &Path) -> Result<Crates> {
    let mut makefiles = Vec::new();
    let mut sources = BTreeSet::new();
    for dir in DIRS {
        walk(tree, Path::new(dir), &mut makefiles, &mut sources)?;
    }
    let mut roots = BTreeSet::new();
    for makefile in &makefiles {
        let text = std::fs::read_to_string(tree.join(makefile)).at(tree.join(makefile))?;
        let dir = makefile.parent().unwrap_or(Path::new(""));
        for object in objects(&text) {
            let root = dir.join(object).with_extension("rs");
            if sources.contains(&root) {
                roots.insert(root);
            }
        }
    }
    let mut crates = Vec::new();
    let mut reached = BTreeSet::new();
    for root in roots {
        let files = follow(tree, &root)?;
        reached.extend(files.iter().map(|f| f.path.clone()));
        crates.push(Crate {
            name: name(&root, files.len()),
            kind: if root.starts_with("samples") {
                Kind::Sample
            } else {
                Kind::Driver
            },
            root,
            files,
        });
    }
    crates.sort_by(|a, b| (a.kind, &a.name).cmp(&(b.kind, &b.name)));
    let orphans = sources.difference(&reached).cloned().collect();
    Ok(Crates { crates, orphans })
}

/// Collects, under `tree/dir`, the Makefiles and Kbuild files and the `.rs` files (relative to
/// `tree`), leaving out [`SKIPPED`].
fn walk(
    tree: &Path,
    dir: &Path,
    makefiles: &mut Vec<PathBuf>,
    sources: &mut BTreeSet<PathBuf>,
) -> Result {
    if SKIPPED.iter().any(|skipped| dir == Path::new(skipped)) {
        return Ok(());
    }
    let full = tree.join(dir);
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(&full).at(&full)? {
        let entry = entry.at(&full)?;
        let is_dir = entry.file_type().at(entry.path())?.is_dir();
        entries.push((entry.file_name(), is_dir));
    }
    entries.sort();
    for (name, is_dir) in entries {
        let path = dir.join(&name);
        if is_dir {
            walk(tree, &path, makefiles, sources)?;
        } else if name == "Makefile" || name == "Kbuild" {
            makefiles.push(path);
        } else if path.extension().is_some_and(|e| e == "rs") {
            sources.insert(path);
        }
    }
    Ok(())
}

/// The objects a Makefile assigns (`obj-$(CONFIG_X) += a.o b/c.o`, `m-y := a.o`), relative to
/// its directory: words ending in `.o` right of an `=`, continuation lines joined, comments and
/// words with a `$(...)` in them left out.
pub fn objects(makefile: &str) -> Vec<String> {
    let joined = makefile.replace("\\\n", " ");
    let mut objects = Vec::new();
    for line in joined.lines() {
        let line = line.split('#').next().unwrap_or_default();
        let Some((_, value)) = line.split_once('=') else {
            continue;
        };
        objects.extend(
            value
                .split_whitespace()
                .filter(|word| word.ends_with(".o") && !word.contains('$'))
                .map(String::from),
        );
    }
    objects
}

/// A crate's name: its root's directory if it has more than one file, else the root's stem.
fn name(root: &Path, files: usize) -> String {
    let stem = root.file_stem().unwrap_or_default();
    let named = match (files > 1, root.parent().and_then(Path::file_name)) {
        (true, Some(dir)) => dir,
        _ => stem,
    };
    named.to_string_lossy().into_owned()
}

/// Parses the Rust file at `full`; an error names the file, line and column.
pub fn parse(full: &Path) -> Result<syn::File> {
    let text = std::fs::read_to_string(full).at(full)?;
    syn::parse_file(&text).map_err(|e| {
        let at = e.span().start();
        anyhow::anyhow!(
            "{}:{}:{}: not Rust that syn parses: {e}",
            full.display(),
            at.line,
            at.column + 1
        )
    })
}

/// The files of the crate whose root is `root`: the root, then every file reached from it,
/// by path.
fn follow(tree: &Path, root: &Path) -> Result<Vec<SourceFile>> {
    let mut files = Vec::new();
    // (file, the directory its outline child modules live in)
    let mut queue = vec![(
        root.to_path_buf(),
        root.parent().unwrap_or(Path::new("")).to_path_buf(),
    )];
    while let Some((path, children)) = queue.pop() {
        let syntax = parse(&tree.join(&path))?;
        let mut found = Found::default();
        modules(tree, &path, &syntax.items, &children, true, &mut found)?;
        queue.extend(found.modules);
        for included in found.included {
            let syntax = parse(&tree.join(&included))?;
            files.push(SourceFile {
                path: included,
                syntax,
            });
        }
        files.push(SourceFile { path, syntax });
    }
    files.sort_by(|a, b| (a.path != root, &a.path).cmp(&(b.path != root, &b.path)));
    Ok(files)
}

/// What one file's items lead to.
#[derive(Default)]
struct Found {
    /// Outline modules: the file, and the directory of its own child modules.
    modules: Vec<(PathBuf, PathBuf)>,
    /// Files pulled in by `include!`.
    included: Vec<PathBuf>,
}

/// Resolves the outline modules and `include!`s of `items`, found in `file` (relative to
/// `tree`) whose child modules live in `children`; `top` when the items are the file's own, not
/// an inline module's (`#[path]` is relative to the file's directory there, to `children`
/// inside an inline module).
fn modules(
    tree: &Path,
    file: &Path,
    items: &[syn::Item],
    children: &Path,
    top: bool,
    found: &mut Found,
) -> Result {
    let here = file.parent().unwrap_or(Path::new(""));
    for item in items {
        match item {
            syn::Item::Mod(module) => {
                let name = module.ident.to_string();
                let name = name.trim_start_matches("r#");
                let path_attr = path_attribute(&module.attrs);
                match &module.content {
                    Some((_, inner)) => {
                        let dir = match &path_attr {
                            Some(p) => children.join(p),
                            None => children.join(name),
                        };
                        modules(tree, file, inner, &dir, false, found)?;
                    }
                    None => {
                        let (file, own) = match path_attr {
                            // A file named by `#[path]` owns its directory, as a `mod.rs` does.
                            Some(p) => {
                                let named = if top { here.join(p) } else { children.join(p) };
                                let own = named.parent().unwrap_or(Path::new("")).to_path_buf();
                                (named, own)
                            }
                            None => {
                                let flat = children.join(format!("{name}.rs"));
                                let nested = children.join(name).join("mod.rs");
                                if tree.join(&flat).is_file() {
                                    (flat, children.join(name))
                                } else if tree.join(&nested).is_file() {
                                    (nested, children.join(name))
                                } else {
                                    anyhow::bail!(
                                        "{}: `mod {name};` has no file: neither {} nor {}",
                                        tree.join(file).display(),
                                        tree.join(&flat).display(),
                                        tree.join(&nested).display()
                                    );
                                }
                            }
                        };
                        found.modules.push((file, own));
                    }
                }
            }
            syn::Item::Macro(mac) if mac.mac.path.is_ident("include") => {
                if let Ok(literal) = mac.mac.parse_body::<syn::LitStr>() {
                    found.included.push(here.join(literal.value()));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The value of a `#[path = "..."]` attribute.
fn path_attribute(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|attr| match &attr.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_read_from_assignments_only() {
        let makefile = "\
# SPDX-License-Identifier: GPL-2.0
obj-$(CONFIG_X) += a.o
m-y := \\
\tb.o \\
\tsub/c.o
# d.o in a comment
deps := $(if $(CONFIG_Y),$(obj)/e.o)
$(obj)/f.o: $(obj)/g.o
RUSTFLAGS_h.o := -L x
";
        assert_eq!(objects(makefile), ["a.o", "b.o", "sub/c.o"]);
    }

    #[test]
    fn a_crate_is_found_from_its_makefile_and_its_modules() {
        let tree = std::env::temp_dir().join(format!("survey-crates-{}", std::process::id()));
        let write = |path: &str, text: &str| {
            let path = tree.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(
            "drivers/x/Makefile",
            "obj-$(CONFIG_X) += x_mod.o\nx_mod-y := x.o\n",
        );
        write(
            "drivers/x/x.rs",
            "mod a; #[path = \"other.rs\"] mod b; mod inline { mod deep; }",
        );
        write("drivers/x/a.rs", "mod c;");
        write("drivers/x/a/c.rs", "include!(\"gen.rs\");");
        write("drivers/x/a/gen.rs", "");
        write("drivers/x/other.rs", "");
        write("drivers/x/inline/deep.rs", "");
        write("drivers/x/stray.rs", "");
        write("samples/rust/Makefile", "obj-y += s.o\n");
        write("samples/rust/s.rs", "");
        write("samples/rust/hostprogs/h.rs", "");
        let found = find(&tree).unwrap();
        std::fs::remove_dir_all(&tree).unwrap();
        let names: Vec<_> = found
            .crates
            .iter()
            .map(|c| (c.name.as_str(), c.kind))
            .collect();
        assert_eq!(names, [("x", Kind::Driver), ("s", Kind::Sample)]);
        let files: Vec<_> = found.crates[0]
            .files
            .iter()
            .map(|f| f.path.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            files,
            [
                "drivers/x/x.rs",
                "drivers/x/a/c.rs",
                "drivers/x/a/gen.rs",
                "drivers/x/a.rs",
                "drivers/x/inline/deep.rs",
                "drivers/x/other.rs",
            ]
        );
        assert_eq!(found.orphans, [PathBuf::from("drivers/x/stray.rs")]);
    }
}
