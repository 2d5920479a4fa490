// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The crate's layers hold: no module names a module of a higher layer, and the modules of a
//! layer form no cycle.
//!
//! The crate's own sources are parsed (`syn`) and every path that starts with `crate::`,
//! `super::` or `self::` is followed, wherever it is: `use` lines, types, expressions,
//! attributes' arguments, and the tokens of macro calls (`format!("{}", crate::x::y())`);
//! a call of an exported macro (`crate::note!`) is an arrow to the module that defines it.
//!
//! A module here is a layer's folder's file or folder (`kernel::distro`, with everything in
//! it), or the layer's own `mod.rs` (`kernel`: its entry point); a single-file layer (`cli`)
//! is one module. The order of the layers is [`LAYERS`], the list that `src/lib.rs`'s
//! documentation gives too.

use proc_macro2::{TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// The layers, from the bottom up: a module may name modules of its own layer (without a
/// cycle) and of the layers before it.
const LAYERS: &[&str] = &[
    "infra", "model", "kernel", "pipeline", "report", "cli", "commands",
];

/// A module of the crate, as a path below `crate` (`["kernel", "distro", "toolchain"]`).
type ModPath = Vec<String>;

/// One source file: its module path and its syntax.
struct Source {
    file: PathBuf,
    module: ModPath,
    syntax: syn::File,
}

/// Every `.rs` file under `dir`, with its module path below `prefix`.
fn sources(dir: &Path, prefix: &[String], found: &mut Vec<Source>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut module = prefix.to_vec();
            module.push(name);
            sources(&path, &module, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut module = prefix.to_vec();
            if !matches!(name.as_str(), "mod" | "lib" | "main") {
                module.push(name);
            }
            let text = fs::read_to_string(&path).unwrap();
            let syntax =
                syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            found.push(Source {
                file: path,
                module,
                syntax,
            });
        }
    }
}

/// The module (of [`LAYERS`]) that `path` (below `crate`) belongs to: the layer's module
/// that is its first segment after the layer, if there is one by that name, else the layer's
/// own `mod.rs` (or single file).
fn unit(path: &[String], modules: &BTreeSet<ModPath>) -> Option<String> {
    let layer = path.first()?;
    LAYERS.contains(&layer.as_str()).then_some(())?;
    match path.get(1) {
        Some(module) if modules.contains(&vec![layer.clone(), module.clone()]) => {
            Some(format!("{layer}::{module}"))
        }
        _ => Some(layer.clone()),
    }
}

/// The layer of a module.
fn layer(unit: &str) -> usize {
    let name = unit.split("::").next().unwrap();
    LAYERS.iter().position(|l| *l == name).unwrap()
}

/// Collects the paths of a file, resolved below `crate`.
struct Paths<'a> {
    /// The module the visitor is in (inline `mod tests { ... }` included).
    module: ModPath,
    /// The exported macros, by name, and the module that defines each.
    macros: &'a BTreeMap<String, ModPath>,
    found: Vec<ModPath>,
}

impl Paths<'_> {
    /// `segments` (a path as written) resolved below `crate`, if it starts there.
    fn resolve(&self, segments: &[String]) -> Option<ModPath> {
        let mut base: ModPath;
        let mut rest = segments;
        match rest.first().map(String::as_str) {
            Some("crate") | Some("$crate") => {
                base = Vec::new();
                rest = &rest[1..];
            }
            Some("self") => {
                base = self.module.clone();
                rest = &rest[1..];
            }
            Some("super") => {
                base = self.module.clone();
                while rest.first().map(String::as_str) == Some("super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
            }
            _ => return None,
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    fn add(&mut self, segments: &[String]) {
        if let Some(path) = self.resolve(segments) {
            // `crate::note!` and friends: the module that defines the macro.
            let path = match path.as_slice() {
                [name] => self.macros.get(name).cloned().unwrap_or(path),
                _ => path,
            };
            self.found.push(path);
        }
    }

    /// Every `crate::a::b`, `super::a`, `self::a` in `tokens` (a macro call's arguments).
    fn tokens(&mut self, tokens: TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < trees.len() {
            match &trees[i] {
                TokenTree::Group(group) => self.tokens(group.stream()),
                TokenTree::Ident(ident)
                    if ["crate", "super", "self"].contains(&ident.to_string().as_str()) =>
                {
                    let mut segments = vec![ident.to_string()];
                    let mut j = i + 1;
                    // `::` is two `:` puncts, then an identifier.
                    while let (
                        Some(TokenTree::Punct(a)),
                        Some(TokenTree::Punct(b)),
                        Some(TokenTree::Ident(next)),
                    ) = (trees.get(j), trees.get(j + 1), trees.get(j + 2))
                    {
                        if a.as_char() != ':' || b.as_char() != ':' {
                            break;
                        }
                        segments.push(next.to_string());
                        j += 3;
                    }
                    if segments.len() > 1 {
                        self.add(&segments);
                    }
                    i = j.max(i + 1);
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// The leaves of a `use` tree under `prefix`.
    fn use_tree(&mut self, tree: &syn::UseTree, prefix: &mut Vec<String>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(&p.tree, prefix);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                prefix.push(n.ident.to_string());
                self.add(&prefix.clone());
                prefix.pop();
            }
            syn::UseTree::Rename(r) => {
                prefix.push(r.ident.to_string());
                self.add(&prefix.clone());
                prefix.pop();
            }
            syn::UseTree::Glob(_) => self.add(&prefix.clone()),
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(tree, prefix);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Paths<'_> {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.add(&segments);
        syn::visit::visit_path(self, path);
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&item.tree, &mut Vec::new());
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        self.tokens(mac.tokens.clone());
    }

    fn visit_meta_list(&mut self, list: &'ast syn::MetaList) {
        self.visit_path(&list.path);
        self.tokens(list.tokens.clone());
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.module.push(item.ident.to_string());
        syn::visit::visit_item_mod(self, item);
        self.module.pop();
    }
}

/// The exported macros of the crate, each with the module that defines it.
fn exported_macros(sources: &[Source]) -> BTreeMap<String, ModPath> {
    let mut macros = BTreeMap::new();
    for source in sources {
        for item in &source.syntax.items {
            if let syn::Item::Macro(m) = item {
                let exported = m.attrs.iter().any(|a| a.path().is_ident("macro_export"));
                if let (true, Some(name)) = (exported, &m.ident) {
                    macros.insert(name.to_string(), source.module.clone());
                }
            }
        }
    }
    macros
}

/// Every arrow between modules: `(from, to, the file that makes it)`.
fn arrows(src: &Path) -> Vec<(String, String, PathBuf)> {
    let mut found = Vec::new();
    sources(src, &[], &mut found);
    let modules: BTreeSet<ModPath> = found
        .iter()
        .flat_map(|s| (1..=s.module.len()).map(|n| s.module[..n].to_vec()))
        .collect();
    let macros = exported_macros(&found);
    let mut arrows = Vec::new();
    for source in &found {
        // lib.rs and main.rs only declare the layers and call the commands.
        let Some(from) = unit(&source.module, &modules) else {
            assert!(
                source.module.is_empty(),
                "{}: a module outside the layers {LAYERS:?}",
                source.file.display()
            );
            continue;
        };
        let mut paths = Paths {
            module: source.module.clone(),
            macros: &macros,
            found: Vec::new(),
        };
        paths.visit_file(&source.syntax);
        for path in paths.found {
            if let Some(to) = unit(&path, &modules) {
                if to != from {
                    arrows.push((from.clone(), to, source.file.clone()));
                }
            }
        }
    }
    arrows.sort();
    arrows.dedup();
    arrows
}

/// The arrows that point up, to a later layer.
fn arrows_up(arrows: &[(String, String, PathBuf)]) -> Vec<String> {
    arrows
        .iter()
        .filter(|(from, to, _)| layer(to) > layer(from))
        .map(|(from, to, file)| format!("{from} -> {to} ({})", file.display()))
        .collect()
}

/// A cycle among the modules of each layer, if there is one: its modules, in order.
fn cycle(arrows: &[(String, String, PathBuf)]) -> Option<Vec<String>> {
    let mut graph: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (from, to, _) in arrows {
        if layer(from) == layer(to) {
            graph.entry(from).or_default().insert(to);
        }
    }
    /// Depth-first: `path` is the current chain; `done` the modules with no cycle below.
    fn visit<'a>(
        node: &'a str,
        graph: &BTreeMap<&'a str, BTreeSet<&'a str>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| *n == node) {
            let mut cycle: Vec<String> = path[at..].iter().map(|n| n.to_string()).collect();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node);
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node);
        None
    }
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        if let Some(cycle) = visit(node, &graph, &mut Vec::new(), &mut done) {
            return Some(cycle);
        }
    }
    None
}

#[test]
fn no_module_names_a_higher_layer_and_no_layer_has_a_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let arrows = arrows(&src);
    assert!(arrows.len() > 50, "too few arrows found: {arrows:?}");
    let mut between: Vec<(&str, &str)> = arrows
        .iter()
        .map(|(from, to, _)| (from.as_str(), to.as_str()))
        .collect();
    between.dedup();
    println!("{} arrows between modules:", between.len());
    for (from, to) in &between {
        println!("  {from} -> {to}");
    }
    let up = arrows_up(&arrows);
    assert!(
        up.is_empty(),
        "arrows up, to a later layer of {LAYERS:?}:\n  {}",
        up.join("\n  ")
    );
    if let Some(cycle) = cycle(&arrows) {
        panic!("modules in a cycle: {}", cycle.join(" -> "));
    }
}

#[test]
fn lib_rs_lists_the_same_layers() {
    let lib = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let mut declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';'))
        .collect();
    declared.sort_unstable();
    let mut layers = LAYERS.to_vec();
    layers.sort_unstable();
    assert_eq!(
        declared, layers,
        "src/lib.rs declares the layers, and nothing else"
    );
    let documented: Vec<&str> = lib
        .lines()
        .filter_map(|l| {
            let (number, rest) = l.strip_prefix("//! ")?.split_once(". [`")?;
            number.parse::<usize>().ok()?;
            rest.split_once("`]").map(|(name, _)| name)
        })
        .collect();
    assert_eq!(
        documented, LAYERS,
        "src/lib.rs documents the layers in order"
    );
}

/// The check itself: a fixture crate with an arrow up, a cycle, and arrows only the token
/// scan and the macro table see.
#[test]
fn the_check_sees_arrows_up_cycles_and_paths_in_macros() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |file: &str, text: &str| {
        let path = src.join(file);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    write("lib.rs", "pub mod infra;\npub mod model;\n");
    write("infra/mod.rs", "pub mod a;\npub mod b;\n");
    // An arrow up, only inside a macro call's arguments.
    write(
        "infra/a.rs",
        "pub fn f() { println!(\"{}\", crate::model::m::g()); }\n",
    );
    write(
        "infra/b.rs",
        "#[macro_export]\nmacro_rules! say { () => {} }\n",
    );
    write("model/mod.rs", "pub mod m;\npub mod n;\n");
    // A cycle: m -> n through `super::`, n -> m through a macro defined in... m.
    write(
        "model/m.rs",
        "pub fn g() -> u8 { super::n::h() }\n#[macro_export]\nmacro_rules! hello { () => {} }\nfn k() { crate::say!(); }\n",
    );
    write("model/n.rs", "pub fn h() -> u8 { crate::hello!(); 1 }\n");
    let arrows = arrows(src);
    let up = arrows_up(&arrows);
    assert_eq!(up.len(), 1, "{up:?}");
    assert!(up[0].starts_with("infra::a -> model::m"), "{up:?}");
    assert!(
        arrows
            .iter()
            .any(|(from, to, _)| from == "model::m" && to == "infra::b"),
        "a macro's module: {arrows:?}"
    );
    let cycle = cycle(&arrows).expect("m and n form a cycle");
    assert_eq!(cycle, ["model::m", "model::n", "model::m"]);
}
