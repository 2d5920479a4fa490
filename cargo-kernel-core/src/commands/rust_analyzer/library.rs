// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The driver's library, which `kernel-core.mk` builds as a crate of its own
//! (`kernel-core-lib`) and which the kernel's `make rust-analyzer` does not know: its crate
//! name and root, from `Cargo.toml` through `cargo metadata` as [`Driver::open`] reads them,
//! and the files that are modules of it.
//!
//! The kernel's generator makes a crate of every `.rs` file whose name, as `<name>.o`, appears
//! in the `Kbuild` or `Makefile` next to it: a library root or module that happens to match
//! (`mydrv.rs` next to `obj-m := mydrv.o`, `main.rs` next to `mydrv_main.o`) becomes a crate
//! of its own, which rust-analyzer would then check without the library's `crate::` paths.
//! [`Library::files`] names those files, so that such crates can be left out: the library's
//! root and every file its `mod` declarations reach, as rustc finds them (`mod x;` as `x.rs`
//! or `x/mod.rs`, inline modules as directories, `#[path]`). A `mod` declaration under a
//! `cfg` counts too (the file is the library's either way); modules a macro declares are not
//! seen.

use crate::infra::error::Result;
use crate::model::driver::Driver;
use std::path::{Component, Path, PathBuf};

/// The driver's library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Library {
    /// Its crate name (`mydrv`), under which the module's crates depend on it.
    pub(super) crate_name: String,
    /// Its root, relative to the module directory (`src/lib.rs`).
    pub(super) root: PathBuf,
    /// Its root and every module file, absolute.
    pub(super) files: Vec<PathBuf>,
}

impl Library {
    /// The library of the driver in `module`: none without a `Cargo.toml` (a module that is
    /// only a `Kbuild`, such as kernel-core's own example driver).
    pub(super) fn of(module: &Path) -> Result<Option<Library>> {
        if !module.join("Cargo.toml").is_file() {
            return Ok(None);
        }
        let driver = Driver::open(module)?;
        Ok(Some(Library::new(
            &driver.dir,
            &driver.lib.crate_name,
            &driver.lib.src,
        )))
    }

    /// The library `crate_name` whose root is `root`, relative to `module`.
    pub(super) fn new(module: &Path, crate_name: &str, root: &Path) -> Library {
        Library {
            crate_name: crate_name.to_string(),
            root: root.to_path_buf(),
            files: module_files(&module.join(root)),
        }
    }

    /// Whether `file` (absolute) is the library's root or one of its modules.
    pub(super) fn holds(&self, file: &Path) -> bool {
        let file = normalize(file);
        self.files.contains(&file)
    }
}

/// The root and the files its `mod` declarations reach, those that exist, each once.
fn module_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    // (file, the directory its `mod x;` look in, the directory its `#[path]`s are relative to)
    let root = normalize(root);
    let dir = root.parent().unwrap_or(Path::new("")).to_path_buf();
    let mut pending = vec![(root.clone(), dir.clone(), dir)];
    while let Some((file, children, relative)) = pending.pop() {
        if files.contains(&file) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        files.push(file.clone());
        for decl in declarations(&text) {
            let inline: PathBuf = decl.inline.iter().collect();
            let found = match &decl.path {
                // Outside inline modules, relative to the file's directory; inside them,
                // to where their files would be.
                Some(path) if decl.inline.is_empty() => Some(relative.join(path)),
                Some(path) => Some(children.join(&inline).join(path)),
                None => {
                    let base = children.join(&inline);
                    [
                        base.join(format!("{}.rs", decl.name)),
                        base.join(&decl.name).join("mod.rs"),
                    ]
                    .into_iter()
                    .find(|p| p.is_file())
                }
            };
            let Some(found) = found.map(|f| normalize(&f)) else {
                continue;
            };
            let parent = found.parent().unwrap_or(Path::new("")).to_path_buf();
            // A `mod.rs` file, or one named by `#[path]`, holds its modules next to it
            // (`#[path]` files are mod-rs files, as rustc treats them); `x.rs` in `x/`.
            let children = if decl.path.is_some() || found.file_name() == Some("mod.rs".as_ref()) {
                parent.clone()
            } else {
                parent.join(&decl.name)
            };
            pending.push((found, children, parent));
        }
    }
    files
}

/// `path` with its `.` and `..` components resolved, as crate roots are compared.
fn normalize(path: &Path) -> PathBuf {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir if normal.file_name().is_some() => {
                normal.pop();
            }
            other => normal.push(other),
        }
    }
    normal
}

/// A `mod name;` declaration.
#[derive(Debug, PartialEq, Eq)]
struct Declaration {
    /// The inline modules (`mod a { ... }`) it is in, outermost first.
    inline: Vec<String>,
    name: String,
    /// Its `#[path = "..."]`.
    path: Option<String>,
}

/// A token of Rust source, as far as `mod` declarations need: comments, lifetimes, numbers and
/// the insides of char literals are dropped.
#[derive(Debug, PartialEq, Eq)]
enum Token {
    Ident(String),
    Str(String),
    Punct(char),
}

/// The `mod name;` declarations of a file.
fn declarations(text: &str) -> Vec<Declaration> {
    let tokens = tokens(text);
    let mut found = Vec::new();
    // The inline modules open here, with the brace depth inside each.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut path: Option<String> = None;
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Punct('#') => {
                // An attribute: `#[...]` or `#![...]`; `#[path = "x"]` applies to what follows.
                let mut j = i + 1;
                if tokens.get(j) == Some(&Token::Punct('!')) {
                    j += 1;
                }
                if tokens.get(j) == Some(&Token::Punct('[')) {
                    let start = j + 1;
                    let mut nesting = 0;
                    while j < tokens.len() {
                        match tokens[j] {
                            Token::Punct('[') => nesting += 1,
                            Token::Punct(']') => {
                                nesting -= 1;
                                if nesting == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    if let [Token::Ident(key), Token::Punct('='), Token::Str(value)] =
                        &tokens[start..j.min(tokens.len())]
                    {
                        if key == "path" {
                            path = Some(value.clone());
                        }
                    }
                    i = j + 1;
                    continue;
                }
            }
            Token::Ident(keyword) if keyword == "mod" => {
                if let Some(Token::Ident(name)) = tokens.get(i + 1) {
                    let name = name.strip_prefix("r#").unwrap_or(name).to_string();
                    match tokens.get(i + 2) {
                        Some(Token::Punct(';')) => {
                            found.push(Declaration {
                                inline: inline.iter().map(|(n, _)| n.clone()).collect(),
                                name,
                                path: path.take(),
                            });
                            i += 3;
                            continue;
                        }
                        Some(Token::Punct('{')) => {
                            depth += 1;
                            inline.push((name, depth));
                            path = None;
                            i += 3;
                            continue;
                        }
                        _ => {}
                    }
                }
            }
            Token::Punct('{') => {
                depth += 1;
                path = None;
            }
            Token::Punct('}') => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                path = None;
            }
            Token::Punct(';') => path = None,
            _ => {}
        }
        i += 1;
    }
    found
}

/// Splits Rust source into the tokens [`declarations`] reads.
fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    let ident_start = |c: char| c == '_' || c.is_alphabetic();
    let ident_char = |c: char| c == '_' || c.is_alphanumeric();
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            // Block comments nest.
            let mut nesting = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    nesting += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    nesting -= 1;
                    i += 2;
                    if nesting == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if let Some((value, end)) = raw_string(&chars, i) {
            tokens.push(Token::Str(value));
            i = end;
        } else if c == '"' || (c == 'b' && next == Some('"')) || (c == 'c' && next == Some('"')) {
            i += if c == '"' { 1 } else { 2 };
            let mut value = String::new();
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if let Some(&c) = chars.get(i) {
                    value.push(c);
                }
                i += 1;
            }
            tokens.push(Token::Str(value));
            i += 1;
        } else if c == '\'' || (c == 'b' && next == Some('\'')) {
            // A char literal (`'x'`, `'\n'`, `b'x'`) or a lifetime (`'a`).
            i += if c == '\'' { 1 } else { 2 };
            if chars.get(i) == Some(&'\\') {
                while i < chars.len() && chars[i] != '\'' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
            } else if chars.get(i + 1) == Some(&'\'') {
                i += 2;
            } else {
                while i < chars.len() && ident_char(chars[i]) {
                    i += 1;
                }
            }
        } else if ident_start(c) {
            let start = i;
            if c == 'r' && next == Some('#') && chars.get(i + 2).is_some_and(|&c| ident_start(c)) {
                i += 2;
            }
            while i < chars.len() && ident_char(chars[i]) {
                i += 1;
            }
            tokens.push(Token::Ident(chars[start..i].iter().collect()));
        } else if c.is_ascii_digit() {
            while i < chars.len() && (ident_char(chars[i]) || chars[i] == '.') {
                i += 1;
            }
        } else {
            tokens.push(Token::Punct(c));
            i += 1;
        }
    }
    tokens
}

/// A raw string literal starting at `at` (`r"..."`, `r#"..."#`, `br"..."`): its text and the
/// index after it.
fn raw_string(chars: &[char], at: usize) -> Option<(String, usize)> {
    let mut i = at;
    if matches!(chars.get(i), Some('b' | 'c')) {
        i += 1;
    }
    if chars.get(i) != Some(&'r') {
        return None;
    }
    i += 1;
    let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
    i += hashes;
    if chars.get(i) != Some(&'"') {
        return None;
    }
    i += 1;
    let start = i;
    while i < chars.len() {
        if chars[i] == '"'
            && chars[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == '#')
                .count()
                == hashes
        {
            return Some((chars[start..i].iter().collect(), i + 1 + hashes));
        }
        i += 1;
    }
    Some((chars[start..].iter().collect(), chars.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn declaration(inline: &[&str], name: &str, path: Option<&str>) -> Declaration {
        Declaration {
            inline: inline.iter().map(|s| s.to_string()).collect(),
            name: name.into(),
            path: path.map(str::to_string),
        }
    }

    #[test]
    fn declarations_are_found_past_comments_strings_and_lifetimes() {
        let text = r###"
//! mod not_this;
#![cfg_attr(not(kernel), no_std)]
/* mod nor_this; /* nested */ mod nor_that; */
pub mod ring;
#[cfg(kernel)]
pub(crate) mod transfer;
const S: &str = "mod in_a_string; \" mod still_in_it;";
const R: &str = r#"mod in_a_raw_string; "# ;
fn f<'a>(x: &'a u8) -> char { let _ = 'm'; '\'' }
#[path = "elsewhere/regs.rs"]
#[allow(dead_code)]
mod regs;
mod inline {
    mod deeper;
    fn g() { let _ = 1.5; }
    #[path = "p.rs"] mod pathed;
}
mod after;
mod r#type;
macro_rules! m { ($n:ident) => { mod $n; } }
"###;
        assert_eq!(
            declarations(text),
            [
                declaration(&[], "ring", None),
                declaration(&[], "transfer", None),
                declaration(&[], "regs", Some("elsewhere/regs.rs")),
                declaration(&["inline"], "deeper", None),
                declaration(&["inline"], "pathed", Some("p.rs")),
                declaration(&[], "after", None),
                declaration(&[], "type", None),
            ]
        );
    }

    #[test]
    fn module_files_follow_rustc_s_rules() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        for (file, text) in [
            (
                "src/lib.rs",
                "pub mod ring;\nmod sub;\n#[path = \"../extra.rs\"] mod extra;\nmod missing;\nmod inline { mod nested; }\n",
            ),
            ("src/ring.rs", "mod slots;\n"),
            ("src/ring/slots.rs", ""),
            ("src/sub/mod.rs", "mod leaf;\n"),
            ("src/sub/leaf.rs", "mod lib;\n"),
            ("extra.rs", "mod beside;\n"),
            ("beside.rs", ""),
            ("src/inline/nested.rs", ""),
            ("glue_main.rs", "mod ring;\n"),
            ("src/unreached.rs", ""),
        ] {
            let path = dir.join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        let library = Library::new(&dir, "drv", Path::new("src/lib.rs"));
        let mut names: Vec<String> = library
            .files
            .iter()
            .map(|f| f.strip_prefix(&dir).unwrap().display().to_string())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                "beside.rs",
                "extra.rs",
                "src/inline/nested.rs",
                "src/lib.rs",
                "src/ring.rs",
                "src/ring/slots.rs",
                "src/sub/leaf.rs",
                "src/sub/mod.rs",
            ]
        );
        assert!(library.holds(&dir.join("src/ring.rs")));
        assert!(!library.holds(&dir.join("glue_main.rs")));
        assert!(!library.holds(&dir.join("src/unreached.rs")));
    }

    #[test]
    fn cargo_metadata_names_the_library() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        for (file, text) in [
            (
                "Cargo.toml".to_string(),
                format!(
                    "[package]\nname = \"my-drv\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\
                     [workspace]\n[dependencies]\nkernel-core = {{ path = {:?} }}\n",
                    repo.join("kernel-core").display().to_string()
                ),
            ),
            ("Kbuild".into(), "kernel-core-lib := my_drv\n".into()),
            ("src/lib.rs".into(), "pub mod ring;\n".into()),
            ("src/ring.rs".into(), String::new()),
        ] {
            let path = dir.join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        let module = dir.canonicalize().unwrap();
        let library = Library::of(&module).unwrap().unwrap();
        assert_eq!(library.crate_name, "my_drv");
        assert_eq!(library.root, Path::new("src/lib.rs"));
        assert_eq!(
            library.files,
            [module.join("src/lib.rs"), module.join("src/ring.rs")]
        );
    }

    #[test]
    fn a_module_without_cargo_toml_has_no_library() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        assert_eq!(
            Library::of(&repo.join("examples/out-of-tree-driver")).unwrap(),
            None
        );
    }
}
