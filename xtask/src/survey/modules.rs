// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The kernel crate's top-level modules, read from its `lib.rs`: what the survey groups
//! references by (`sync` for `kernel::sync::Arc`, `print` for `pr_info!`), as the issue that
//! asked for the survey counts them.
//!
//! A top-level module is a `pub mod` of `lib.rs` or a crate it re-exports whole (`pub use
//! bindings;`); an item the root re-exports from one of them (`pub use module::ThisModule;`)
//! counts for that module, a `#[macro_export]` macro for the module that defines it, anything
//! else at the root for `(root)`.

use super::crates::parse;
use super::macros::{Form, Macros};
use super::references::Reference;
use cargo_kernel_core::infra::error::Result;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The name the report gives the kernel crate's root.
pub const ROOT: &str = "(root)";

/// The kernel crate's top-level modules, and the root's re-exports of their items.
#[derive(Debug, Default)]
pub struct Modules {
    top: BTreeSet<String>,
    /// Item name -> the top-level module it comes from.
    reexported: BTreeMap<String, String>,
}

impl Modules {
    /// Reads them from the tree's `rust/kernel/lib.rs`.
    pub fn read(rust: &Path) -> Result<Self> {
        Ok(Self::of_root(&parse(&rust.join("kernel/lib.rs"))?))
    }

    /// Reads them from a crate root.
    pub fn of_root(root: &syn::File) -> Self {
        let mut modules = Self::default();
        let mut uses = Vec::new();
        for item in &root.items {
            match item {
                syn::Item::Mod(m) if matches!(m.vis, syn::Visibility::Public(_)) => {
                    modules.top.insert(m.ident.to_string());
                }
                syn::Item::Use(u) if matches!(u.vis, syn::Visibility::Public(_)) => {
                    leaves(&u.tree, &mut Vec::new(), &mut uses);
                }
                _ => {}
            }
        }
        for path in uses {
            match path.as_slice() {
                [whole] => {
                    modules.top.insert(whole.clone());
                }
                [first, .., name] if modules.top.contains(first) => {
                    modules.reexported.insert(name.clone(), first.clone());
                }
                _ => {}
            }
        }
        modules
    }

    /// The top-level module `reference` counts for: a module of the kernel crate, `pin_init`,
    /// or [`ROOT`].
    pub fn of(&self, reference: &Reference, macros: &Macros) -> String {
        let top = |module: &str| -> String {
            let mut parts = module.split("::");
            match (parts.next(), parts.next()) {
                (Some("kernel"), Some(top)) => top.to_string(),
                (Some("kernel"), None) => ROOT.to_string(),
                (Some(other), _) => other.to_string(),
                (None, _) => ROOT.to_string(),
            }
        };
        if let Some(module) = &reference.defined_in {
            return top(module);
        }
        match reference.path.as_slice() {
            [first, ..] if first != "kernel" => first.clone(),
            [_] => ROOT.to_string(),
            [_, second, ..] if self.top.contains(second) => second.clone(),
            [_, second, ..] => {
                match (self.reexported.get(second), macros.get(Form::Bang, second)) {
                    (Some(module), _) => module.clone(),
                    (None, Some(origin)) => top(&origin.module),
                    (None, None) => ROOT.to_string(),
                }
            }
            [] => ROOT.to_string(),
        }
    }
}

/// The paths of the leaves of a `use` tree (renames by their original name; globs left out).
fn leaves(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => out.push([&prefix[..], &[n.ident.to_string()]].concat()),
        syn::UseTree::Rename(r) => out.push([&prefix[..], &[r.ident.to_string()]].concat()),
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| leaves(t, prefix, out)),
        syn::UseTree::Glob(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::references::Kind;
    use super::*;

    #[test]
    fn references_count_for_their_top_level_module() {
        let modules = Modules::of_root(&syn::parse_quote! {
            pub mod sync;
            mod private;
            pub mod module;
            pub use bindings;
            pub use module::{Module, ThisModule};
        });
        let macros = Macros::of(&[(Form::Bang, "c_str", "kernel::str", "kernel::c_str")]);
        let of = |path: &str, defined_in: Option<&str>| {
            let reference = Reference {
                path: path.split("::").map(String::from).collect(),
                kind: Kind::Use,
                line: 1,
                defined_in: defined_in.map(String::from),
            };
            modules.of(&reference, &macros)
        };
        assert_eq!(of("kernel::sync::Arc", None), "sync");
        assert_eq!(of("kernel::bindings::foo", None), "bindings");
        assert_eq!(of("kernel::ThisModule", None), "module");
        assert_eq!(of("kernel::c_str", None), "str");
        assert_eq!(of("kernel::private::x", None), ROOT);
        assert_eq!(of("kernel", None), ROOT);
        assert_eq!(of("pin_init::Zeroable", None), "pin_init");
        assert_eq!(
            of("kernel::prelude::pr_info", Some("kernel::print")),
            "print"
        );
        assert_eq!(
            of("kernel::new_mutex", Some("kernel::sync::lock::mutex")),
            "sync"
        );
        assert_eq!(
            of("kernel::prelude::module", Some("kernel::macros")),
            "macros"
        );
        assert_eq!(of("kernel::prelude::init", Some("pin_init")), "pin_init");
    }
}
