// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The references a source file makes to the kernel crate and to `pin_init`.
//!
//! A reference is one place that names an item of `kernel::` or `pin_init::`:
//! - every leaf of a `use` tree (`use kernel::{sync::Arc, prelude::*}` is two: `kernel::sync::Arc`
//!   and `kernel::prelude`, a glob counting once, as its module; `self` is its parent; a rename
//!   is its original path);
//! - every path in a type, an expression, a pattern, a trait bound, an attribute or a macro's
//!   name (`kernel::time::Delta::from_millis(5)`, generic arguments left out);
//! - every such path inside a macro invocation's tokens, which syn does not parse
//!   (`kernel::bits::genmask_u32` inside `register! { ... }`), and the macros invoked there;
//! - every macro invoked, or attribute or derive applied, without a path (`pr_info!`,
//!   `new_mutex!`, `#[pin_data]`, `#[derive(Zeroable)]`) that the kernel defines, counted for
//!   the module that defines it (see [`super::macros`]), unless the crate defines a
//!   `macro_rules!` of that name itself.
//!
//! Doc comments are not references: their examples are not the driver's code.

use super::macros::{Form, Macros};
use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use std::collections::BTreeSet;
use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};

/// The crates whose paths are references.
pub const CRATES: &[&str] = &["kernel", "pin_init"];

/// Where a reference was written, which says how the compiler can check it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A leaf of a `use` tree.
    Use,
    /// A glob of a `use` tree: the module it empties.
    Glob,
    /// A path in a type (or a trait bound).
    Type,
    /// A path in an expression or a pattern.
    Value,
    /// The path of a macro invocation (`kernel::pr_info!`).
    Macro,
    /// The path of an attribute or a derive.
    Attribute,
    /// A path in a macro invocation's tokens.
    Tokens,
    /// A macro, attribute or derive of the kernel invoked without a path.
    Bare,
}

/// One reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// Its path, `kernel` or `pin_init` first; for a [`Kind::Bare`] macro, the path by which
    /// the kernel makes it reachable (see [`super::macros::Origin::path`]).
    pub path: Vec<String>,
    pub kind: Kind,
    /// The line it starts on.
    pub line: usize,
    /// For a [`Kind::Bare`] macro, the module that defines it.
    pub defined_in: Option<String>,
}

impl Reference {
    /// The path, `::`-separated.
    pub fn text(&self) -> String {
        self.path.join("::")
    }
}

/// The names of the `macro_rules!` a crate defines itself, which shadow the kernel's.
pub fn local_macros<'a>(files: impl IntoIterator<Item = &'a syn::File>) -> BTreeSet<String> {
    struct Local(BTreeSet<String>);
    impl<'ast> Visit<'ast> for Local {
        fn visit_item_macro(&mut self, mac: &'ast syn::ItemMacro) {
            if let Some(name) = &mac.ident {
                self.0.insert(name.to_string());
            }
            visit::visit_item_macro(self, mac);
        }
    }
    let mut local = Local(BTreeSet::new());
    for file in files {
        local.visit_file(file);
    }
    local.0
}

/// The references of `file`, in the order written; `local` are the crate's own macros.
pub fn extract(file: &syn::File, macros: &Macros, local: &BTreeSet<String>) -> Vec<Reference> {
    let mut collector = Collector {
        macros,
        local,
        context: Kind::Type,
        found: Vec::new(),
    };
    collector.visit_file(file);
    collector.found.sort_by_key(|r| r.line);
    collector.found
}

/// The visitor: what it found, and whether the path being visited is in a type or a value.
struct Collector<'a> {
    macros: &'a Macros,
    local: &'a BTreeSet<String>,
    context: Kind,
    found: Vec<Reference>,
}

/// Whether `name` starts a reference.
fn is_crate(name: &str) -> bool {
    CRATES.contains(&name)
}

/// Whether `tt` is the punctuation `c`.
fn is_punct(tt: Option<&TokenTree>, c: char) -> bool {
    matches!(tt, Some(TokenTree::Punct(p)) if p.as_char() == c)
}

/// Whether `tt` is a group in `delimiter`.
fn is_group(tt: Option<&TokenTree>, delimiter: Delimiter) -> bool {
    matches!(tt, Some(TokenTree::Group(g)) if g.delimiter() == delimiter)
}

/// Whether `tts[i]` and `tts[i + 1]` are `::`.
fn path_sep(tts: &[TokenTree], i: usize) -> bool {
    matches!(tts.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
        && is_punct(tts.get(i + 1), ':')
}

/// Whether `tts[i]` continues a path or an expression rather than starting one: it follows
/// `name::` (`a::kernel`, `$crate::kernel`, where `::kernel` starts one), `.` or `$`.
fn continues(tts: &[TokenTree], i: usize) -> bool {
    let before = |back: usize| i.checked_sub(back).and_then(|j| tts.get(j));
    let after_name =
        i >= 2 && path_sep(tts, i - 2) && matches!(before(3), Some(TokenTree::Ident(_)));
    after_name || is_punct(before(1), '.') || is_punct(before(1), '$')
}

/// The line a token starts on.
fn line(span: proc_macro2::Span) -> usize {
    span.start().line
}

impl Collector<'_> {
    /// Records `path` if it starts with one of [`CRATES`] (and is more than a lone name, which
    /// would be a local variable or module).
    fn path(&mut self, path: &syn::Path, kind: Kind) {
        let Some(first) = path.segments.first() else {
            return;
        };
        if !is_crate(&first.ident.to_string())
            || (path.segments.len() < 2 && path.leading_colon.is_none())
        {
            return;
        }
        self.found.push(Reference {
            path: path.segments.iter().map(|s| s.ident.to_string()).collect(),
            kind,
            line: line(first.ident.span()),
            defined_in: None,
        });
    }

    /// Records a macro of the kernel invoked without a path as `name`, if it is one.
    fn bare(&mut self, form: Form, name: &proc_macro2::Ident) {
        let text = name.to_string();
        if form == Form::Bang && self.local.contains(&text) {
            return;
        }
        if let Some(origin) = self.macros.get(form, &text) {
            self.found.push(Reference {
                path: origin.path.clone(),
                kind: Kind::Bare,
                line: line(name.span()),
                defined_in: Some(origin.module.clone()),
            });
        }
    }

    /// Records the leaves of a `use` tree under `prefix`.
    fn use_tree(&mut self, tree: &syn::UseTree, prefix: &mut Vec<proc_macro2::Ident>) {
        let leaf = |this: &mut Self, last: Option<&proc_macro2::Ident>, kind: Kind| {
            let mut path: Vec<&proc_macro2::Ident> = prefix.iter().collect();
            path.extend(last.filter(|i| *i != "self"));
            let Some(first) = path.first() else {
                return;
            };
            if is_crate(&first.to_string()) {
                let at = last.unwrap_or(first);
                this.found.push(Reference {
                    path: path.iter().map(|i| i.to_string()).collect(),
                    kind,
                    line: line(at.span()),
                    defined_in: None,
                });
            }
        };
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.clone());
                self.use_tree(&p.tree, prefix);
                prefix.pop();
            }
            syn::UseTree::Name(n) => leaf(self, Some(&n.ident), Kind::Use),
            syn::UseTree::Rename(r) => leaf(self, Some(&r.ident), Kind::Use),
            syn::UseTree::Glob(_) => leaf(self, None, Kind::Glob),
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(tree, prefix);
                }
            }
        }
    }

    /// Records what a macro's tokens name: paths of [`CRATES`] (a `{...}` after one read as a
    /// `use` tree), the kernel's macros invoked without a path, and attributes.
    fn tokens(&mut self, tokens: TokenStream) {
        let tts: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < tts.len() {
            i = match &tts[i] {
                TokenTree::Group(group) => {
                    self.tokens(group.stream());
                    i + 1
                }
                TokenTree::Ident(ident)
                    if is_crate(&ident.to_string())
                        && path_sep(&tts, i + 1)
                        && !continues(&tts, i) =>
                {
                    self.token_path(&tts, i)
                }
                TokenTree::Ident(ident)
                    if !continues(&tts, i)
                        && is_punct(tts.get(i + 1), '!')
                        && matches!(tts.get(i + 2), Some(TokenTree::Group(_))) =>
                {
                    self.bare(Form::Bang, ident);
                    i + 1
                }
                TokenTree::Punct(p)
                    if p.as_char() == '#' && is_group(tts.get(i + 1), Delimiter::Bracket) =>
                {
                    let attr: TokenStream = tts[i..i + 2].iter().cloned().collect();
                    match syn::parse::Parser::parse2(syn::Attribute::parse_outer, attr) {
                        Ok(attrs) => attrs.iter().for_each(|a| self.visit_attribute(a)),
                        Err(_) => self.tokens(tts[i + 1].clone().into()),
                    }
                    i + 2
                }
                _ => i + 1,
            };
        }
    }

    /// Records the path of [`CRATES`] that starts at `tts[start]` (a `use` tree's leaves if a
    /// `{...}` follows a `::`); returns the index of the token after it.
    fn token_path(&mut self, tts: &[TokenTree], start: usize) -> usize {
        let mut segments = Vec::new();
        let mut next = start;
        if let TokenTree::Ident(first) = &tts[start] {
            segments.push(first.clone());
            next += 1;
        }
        while path_sep(tts, next) {
            match tts.get(next + 2) {
                Some(TokenTree::Ident(ident)) => {
                    segments.push(ident.clone());
                    next += 3;
                }
                Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                    let tree: TokenStream = tts[start..next + 3].iter().cloned().collect();
                    if let Ok(tree) = syn::parse2::<syn::UseTree>(tree) {
                        self.use_tree(&tree, &mut Vec::new());
                    }
                    return next + 3;
                }
                // `::<...>`, `::*`: the path ends here.
                _ => break,
            }
        }
        if let Some(first) = segments.first() {
            self.found.push(Reference {
                path: segments.iter().map(|s| s.to_string()).collect(),
                kind: Kind::Tokens,
                line: line(first.span()),
                defined_in: None,
            });
        }
        next
    }

    /// Visits `f` with `context` as the kind of the paths met.
    fn within(&mut self, context: Kind, f: impl FnOnce(&mut Self)) {
        let outer = std::mem::replace(&mut self.context, context);
        f(self);
        self.context = outer;
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        for attr in &item.attrs {
            self.visit_attribute(attr);
        }
        let mut prefix = Vec::new();
        self.use_tree(&item.tree, &mut prefix);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.path(path, self.context);
        visit::visit_path(self, path);
    }

    fn visit_type(&mut self, ty: &'ast syn::Type) {
        self.within(Kind::Type, |this| visit::visit_type(this, ty));
    }

    fn visit_expr(&mut self, expr: &'ast syn::Expr) {
        self.within(Kind::Value, |this| visit::visit_expr(this, expr));
    }

    fn visit_pat(&mut self, pat: &'ast syn::Pat) {
        self.within(Kind::Value, |this| visit::visit_pat(this, pat));
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        match mac.path.get_ident() {
            Some(name) => self.bare(Form::Bang, name),
            None => self.path(&mac.path, Kind::Macro),
        }
        self.tokens(mac.tokens.clone());
    }

    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        let path = attr.path();
        if path.is_ident("derive") {
            let derives =
                attr.parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated);
            for derive in derives.iter().flatten() {
                match derive.get_ident() {
                    Some(name) => self.bare(Form::Derive, name),
                    None => self.path(derive, Kind::Attribute),
                }
            }
            return;
        }
        match path.get_ident() {
            Some(name) => self.bare(Form::Attribute, name),
            None => self.path(path, Kind::Attribute),
        }
        if let syn::Meta::List(list) = &attr.meta {
            self.tokens(list.tokens.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The macros of the tests: a few of 7.3's, as its tree maps them.
    fn macros() -> Macros {
        Macros::of(&[
            (
                Form::Bang,
                "pr_info",
                "kernel::print",
                "kernel::prelude::pr_info",
            ),
            (
                Form::Bang,
                "new_mutex",
                "kernel::sync::lock::mutex",
                "kernel::new_mutex",
            ),
            (
                Form::Bang,
                "pin_init",
                "pin_init",
                "kernel::prelude::pin_init",
            ),
            (
                Form::Bang,
                "register",
                "kernel::io::register",
                "kernel::register",
            ),
            (
                Form::Attribute,
                "pin_data",
                "pin_init",
                "kernel::prelude::pin_data",
            ),
            (
                Form::Attribute,
                "vtable",
                "kernel::macros",
                "kernel::prelude::vtable",
            ),
            (
                Form::Derive,
                "Zeroable",
                "pin_init",
                "kernel::prelude::Zeroable",
            ),
        ])
    }

    /// `(path, kind)` of every reference of `source`.
    fn refs(source: &str) -> Vec<(String, Kind)> {
        let file = syn::parse_file(source).unwrap();
        let local = local_macros([&file]);
        extract(&file, &macros(), &local)
            .into_iter()
            .map(|r| (r.text(), r.kind))
            .collect()
    }

    fn owned(expected: &[(&str, Kind)]) -> Vec<(String, Kind)> {
        expected.iter().map(|(p, k)| (p.to_string(), *k)).collect()
    }

    #[test]
    fn use_trees_expand_to_one_reference_per_leaf() {
        let found = refs(
            "use kernel::{self, prelude::*, sync::{Arc, lock::{self as l, Mutex as M}}};\n\
             use pin_init::Zeroable;\n\
             use core::mem;\n\
             use crate::kernel::x;\n",
        );
        assert_eq!(
            found,
            owned(&[
                ("kernel", Kind::Use),
                ("kernel::prelude", Kind::Glob),
                ("kernel::sync::Arc", Kind::Use),
                ("kernel::sync::lock", Kind::Use),
                ("kernel::sync::lock::Mutex", Kind::Use),
                ("pin_init::Zeroable", Kind::Use),
            ])
        );
    }

    #[test]
    fn paths_in_types_and_values_keep_their_segments() {
        let found = refs(
            "fn f(x: kernel::sync::Arc<kernel::str::CString>) -> kernel::error::Result {\n\
                 let d = kernel::time::Delta::from_millis::<u8>(5);\n\
                 match e { kernel::foo::E::A => {} }\n\
                 let kernel = 1; kernel.max(2);\n\
             }\n\
             impl kernel::driver::Driver for X {}\n",
        );
        assert_eq!(
            found,
            owned(&[
                ("kernel::sync::Arc", Kind::Type),
                ("kernel::str::CString", Kind::Type),
                ("kernel::error::Result", Kind::Type),
                ("kernel::time::Delta::from_millis", Kind::Value),
                ("kernel::foo::E::A", Kind::Value),
                ("kernel::driver::Driver", Kind::Type),
            ])
        );
    }

    #[test]
    fn macros_without_a_path_count_for_their_module() {
        let file = syn::parse_file(
            "#[pin_data]\n\
             #[derive(Debug, Zeroable)]\n\
             struct S { #[pin] m: Mutex<u8> }\n\
             #[vtable]\n\
             impl T for S {}\n\
             fn f() { pr_info!(\"x\"); kernel::pr_info!(\"y\"); println!(\"z\"); }\n",
        )
        .unwrap();
        let found = extract(&file, &macros(), &BTreeSet::new());
        let found: Vec<_> = found
            .iter()
            .map(|r| (r.text(), r.kind, r.defined_in.as_deref(), r.line))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "kernel::prelude::pin_data".to_string(),
                    Kind::Bare,
                    Some("pin_init"),
                    1
                ),
                (
                    "kernel::prelude::Zeroable".to_string(),
                    Kind::Bare,
                    Some("pin_init"),
                    2
                ),
                (
                    "kernel::prelude::vtable".to_string(),
                    Kind::Bare,
                    Some("kernel::macros"),
                    4
                ),
                (
                    "kernel::prelude::pr_info".to_string(),
                    Kind::Bare,
                    Some("kernel::print"),
                    6
                ),
                ("kernel::pr_info".to_string(), Kind::Macro, None, 6),
            ]
        );
    }

    #[test]
    fn token_streams_are_searched() {
        let found = refs(
            "register! { pub NV_PMC_BOOT_0(u32) @ 0x0 {\n\
                 7:0 minor as u8 => kernel::bits::genmask_u32(0..=7);\n\
             } }\n\
             fn f() -> impl PinInit<Self> {\n\
                 pin_init!(Self { inner <- new_mutex!(0), d: ::kernel::time::Delta::ZERO, e: a::kernel::x })\n\
             }\n\
             macro_rules! m { ($t:ty) => { $crate::kernel::no; kernel::{sync::Arc, prelude::*}; } }\n\
             foo! { #[derive(Zeroable)] struct Z; }\n",
        );
        assert_eq!(
            found,
            owned(&[
                ("kernel::register", Kind::Bare),
                ("kernel::bits::genmask_u32", Kind::Tokens),
                ("kernel::prelude::pin_init", Kind::Bare),
                ("kernel::new_mutex", Kind::Bare),
                ("kernel::time::Delta::ZERO", Kind::Tokens),
                ("kernel::sync::Arc", Kind::Use),
                ("kernel::prelude", Kind::Glob),
                ("kernel::prelude::Zeroable", Kind::Bare),
            ])
        );
    }

    #[test]
    fn a_crates_own_macro_shadows_the_kernels() {
        let found = refs(
            "macro_rules! register { () => {} }\n\
             register!();\n\
             fn f() { pr_info!(\"x\"); }\n",
        );
        assert_eq!(found, owned(&[("kernel::prelude::pr_info", Kind::Bare)]));
    }
}
