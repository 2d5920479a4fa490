// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Where the macros a driver invokes without a path come from, read from the kernel tree.
//!
//! `pr_info!`, `new_mutex!`, `module!`, `#[pin_data]`, `#[vtable]`, `#[derive(Zeroable)]` name no
//! module, yet each is part of one: the survey counts such an invocation as a reference to the
//! module that defines it. The map is built from the tree surveyed, never by hand:
//! `#[macro_export] macro_rules!` in `rust/kernel/**` (defined in the module of its file, exported
//! at the crate root), the `#[proc_macro*]` functions of `rust/macros/lib.rs` (the `macros` crate,
//! which the kernel re-exports as `kernel::macros`), and pin-init's (`rust/pin-init`: its
//! `#[macro_export]` macros and the proc macros of its `internal` crate, re-exported by
//! `pin_init`). A driver reaches most of them through `kernel::prelude::*`, so the path checked
//! for one is the prelude's when 7.3's prelude (`rust/kernel/prelude.rs`) names it.

use super::crates::parse;
use cargo_kernel_core::infra::error::Context as _;
use cargo_kernel_core::infra::error::Result;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// How a macro is invoked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Form {
    /// `name!(...)`: `macro_rules!` and `#[proc_macro]`.
    Bang,
    /// `#[name]`: `#[proc_macro_attribute]`.
    Attribute,
    /// `#[derive(Name)]`: `#[proc_macro_derive(Name)]`.
    Derive,
}

/// Where a macro comes from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Origin {
    /// The module that defines it: `kernel::print`, `kernel::sync::lock::mutex`, `kernel` for the
    /// crate root, `kernel::macros` for the `macros` crate, `pin_init` for pin-init's.
    pub module: String,
    /// The path by which a driver reaches it without writing one: `kernel::prelude::<name>`
    /// when 7.3's prelude re-exports it, else where it is exported (`kernel::<name>` for a
    /// `#[macro_export]` macro, `kernel::macros::<name>`, `pin_init::<name>`).
    pub path: Vec<String>,
}

/// The macros of a kernel tree, by form and name.
#[derive(Debug, Default)]
pub struct Macros {
    map: BTreeMap<(Form, String), Origin>,
}

impl Macros {
    /// Reads the map from the tree's `rust/` directory.
    pub fn read(rust: &Path) -> Result<Self> {
        let prelude = prelude_names(&parse(&rust.join("kernel/prelude.rs"))?);
        let mut macros = Self::default();
        let kernel = rust.join("kernel");
        for file in rust_files(&kernel)? {
            let text = std::fs::read_to_string(&file).at(&file)?;
            if !text.contains("macro_export") {
                continue;
            }
            let relative = file.strip_prefix(&kernel).expect("under rust/kernel");
            let mut module = vec!["kernel".to_string()];
            module.extend(file_module(relative));
            exported(&parse(&file)?.items, &mut module, &mut |name, module| {
                macros.insert(Form::Bang, name, module, &["kernel"], &prelude);
            });
        }
        let proc_macros = rust.join("macros/lib.rs");
        for (form, name) in proc_macro_fns(&parse(&proc_macros)?) {
            macros.insert(
                form,
                &name,
                "kernel::macros",
                &["kernel", "macros"],
                &prelude,
            );
        }
        let pin_init = rust.join("pin-init");
        for file in rust_files(&pin_init.join("src"))? {
            exported(&parse(&file)?.items, &mut Vec::new(), &mut |name, _| {
                macros.insert(Form::Bang, name, "pin_init", &["pin_init"], &prelude);
            });
        }
        let internal = pin_init.join("internal/src/lib.rs");
        for (form, name) in proc_macro_fns(&parse(&internal)?) {
            macros.insert(form, &name, "pin_init", &["pin_init"], &prelude);
        }
        if macros.map.is_empty() {
            anyhow::bail!(
                "{}: no macro found in the kernel's Rust (is it a kernel tree?)",
                rust.display()
            );
        }
        Ok(macros)
    }

    /// Adds `name`, defined in `module` and exported under `export`, unless already known
    /// (the kernel's own first, then the `macros` crate's, then pin-init's).
    fn insert(
        &mut self,
        form: Form,
        name: &str,
        module: &str,
        export: &[&str],
        prelude: &BTreeSet<String>,
    ) {
        let path = match prelude.contains(name) {
            true => vec![
                "kernel".to_string(),
                "prelude".to_string(),
                name.to_string(),
            ],
            false => export
                .iter()
                .map(|s| s.to_string())
                .chain([name.to_string()])
                .collect(),
        };
        self.map
            .entry((form, name.to_string()))
            .or_insert_with(|| Origin {
                module: module.to_string(),
                path,
            });
    }

    /// The macro `name` invoked in `form`, if the kernel has one.
    pub fn get(&self, form: Form, name: &str) -> Option<&Origin> {
        self.map.get(&(form, name.to_string()))
    }

    /// Every macro: form, name, origin.
    pub fn iter(&self) -> impl Iterator<Item = (Form, &str, &Origin)> {
        self.map
            .iter()
            .map(|((form, name), origin)| (*form, name.as_str(), origin))
    }

    /// A map of the given macros, for tests: `(form, name, module, path)`.
    #[cfg(test)]
    pub fn of(entries: &[(Form, &str, &str, &str)]) -> Self {
        let map = entries
            .iter()
            .map(|(form, name, module, path)| {
                let origin = Origin {
                    module: module.to_string(),
                    path: path.split("::").map(String::from).collect(),
                };
                ((*form, name.to_string()), origin)
            })
            .collect();
        Self { map }
    }
}

/// The `.rs` files under `dir`, sorted.
fn rust_files(dir: &Path) -> Result<Vec<std::path::PathBuf>> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).at(&dir)? {
            let path = entry.at(&dir)?.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The module path of a file of a crate, relative to its root directory: `sync/lock/mutex.rs`
/// is `sync::lock::mutex`, `lib.rs` the root, `foo/mod.rs` `foo`.
fn file_module(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .with_extension("")
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    if parts.len() == 1 && parts[0] == "lib" || parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// Calls `found(name, module)` for every `#[macro_export] macro_rules!` of `items`, which are
/// those of `module` (inline modules extend it).
fn exported(items: &[syn::Item], module: &mut Vec<String>, found: &mut dyn FnMut(&str, &str)) {
    for item in items {
        match item {
            syn::Item::Macro(mac)
                if mac.attrs.iter().any(|a| a.path().is_ident("macro_export")) =>
            {
                if let Some(name) = &mac.ident {
                    found(&name.to_string(), &module.join("::"));
                }
            }
            syn::Item::Mod(syn::ItemMod {
                ident,
                content: Some((_, inner)),
                ..
            }) => {
                module.push(ident.to_string());
                exported(inner, module, found);
                module.pop();
            }
            _ => {}
        }
    }
}

/// The proc macros a crate root defines: `#[proc_macro]` and `#[proc_macro_attribute]`
/// functions by name, `#[proc_macro_derive(Name)]` by the derive's name.
fn proc_macro_fns(file: &syn::File) -> Vec<(Form, String)> {
    let mut found = Vec::new();
    for item in &file.items {
        let syn::Item::Fn(function) = item else {
            continue;
        };
        for attr in &function.attrs {
            let path = attr.path();
            if path.is_ident("proc_macro") {
                found.push((Form::Bang, function.sig.ident.to_string()));
            } else if path.is_ident("proc_macro_attribute") {
                found.push((Form::Attribute, function.sig.ident.to_string()));
            } else if path.is_ident("proc_macro_derive") {
                let mut name = None;
                // `proc_macro_derive(Name, attributes(...))`: the first word is the name.
                let _ = attr.parse_nested_meta(|meta| {
                    if name.is_none() {
                        name = meta.path.get_ident().map(|i| i.to_string());
                    }
                    if meta.input.peek(syn::token::Paren) {
                        let _ = meta.input.parse::<proc_macro2::Group>();
                    }
                    Ok(())
                });
                found.extend(name.map(|name| (Form::Derive, name)));
            }
        }
    }
    found
}

/// The names a prelude file makes visible: the leaves of its `use` items (a rename's new name;
/// not `_` nor globs).
pub fn prelude_names(file: &syn::File) -> BTreeSet<String> {
    fn leaves(tree: &syn::UseTree, out: &mut BTreeSet<String>) {
        match tree {
            syn::UseTree::Path(p) => leaves(&p.tree, out),
            syn::UseTree::Name(n) => {
                out.insert(n.ident.to_string());
            }
            syn::UseTree::Rename(r) if r.rename != "_" => {
                out.insert(r.rename.to_string());
            }
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| leaves(t, out)),
            syn::UseTree::Rename(_) | syn::UseTree::Glob(_) => {}
        }
    }
    let mut names = BTreeSet::new();
    for item in &file.items {
        if let syn::Item::Use(u) = item {
            leaves(&u.tree, &mut names);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_modules() {
        assert_eq!(file_module(Path::new("lib.rs")), Vec::<String>::new());
        assert_eq!(file_module(Path::new("print.rs")), ["print"]);
        assert_eq!(
            file_module(Path::new("sync/lock/mutex.rs")),
            ["sync", "lock", "mutex"]
        );
        assert_eq!(file_module(Path::new("foo/mod.rs")), ["foo"]);
    }

    #[test]
    fn exported_macros_and_proc_macros_are_found() {
        let file: syn::File = syn::parse_quote! {
            #[macro_export]
            /// Docs between.
            macro_rules! pr_info { () => {} }
            macro_rules! private { () => {} }
            pub mod inner {
                #[macro_export]
                macro_rules! deep { () => {} }
            }
        };
        let mut found = Vec::new();
        exported(
            &file.items,
            &mut vec!["kernel".into(), "print".into()],
            &mut |n, m| found.push((n.to_string(), m.to_string())),
        );
        assert_eq!(
            found,
            [
                ("pr_info".to_string(), "kernel::print".to_string()),
                ("deep".to_string(), "kernel::print::inner".to_string())
            ]
        );
        let file: syn::File = syn::parse_quote! {
            #[proc_macro]
            pub fn module(ts: TokenStream) -> TokenStream { ts }
            #[proc_macro_attribute]
            pub fn vtable(a: TokenStream, ts: TokenStream) -> TokenStream { ts }
            #[proc_macro_derive(Zeroable, attributes(zeroable))]
            pub fn derive_zeroable(ts: TokenStream) -> TokenStream { ts }
            pub fn helper() {}
        };
        assert_eq!(
            proc_macro_fns(&file),
            [
                (Form::Bang, "module".to_string()),
                (Form::Attribute, "vtable".to_string()),
                (Form::Derive, "Zeroable".to_string())
            ]
        );
    }

    #[test]
    fn prelude_names_are_the_visible_leaves() {
        let file: syn::File = syn::parse_quote! {
            pub use super::{alloc::{flags::*, KBox}, pr_info, str::CStrExt as _, Foo as Bar};
            pub use macros::module;
        };
        let names: Vec<_> = prelude_names(&file).into_iter().collect();
        assert_eq!(names, ["Bar", "KBox", "module", "pr_info"]);
    }
}
