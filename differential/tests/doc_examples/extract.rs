// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Finds the doc examples of a Rust source file and makes each the program rustdoc (and the
//! kernel's `scripts/rustdoc_test_builder.rs` after it) would compile from it.
//!
//! Only what the kernel's files use is handled, each as rustdoc does it:
//!
//! - doc comments written `///` (outer, documenting the next item) and `//!` (inner, documenting
//!   the module); `////` is an ordinary comment;
//! - fenced code blocks (three or more backticks or tildes), Rust when the info string is empty
//!   or made only of rustdoc's attributes (`rust`, `ignore`, `no_run`, `compile_fail`,
//!   `should_panic`, `editionNNNN`, error codes, ...); anything else (`text`, `c`) is not code;
//! - hidden lines: `# code` is compiled but not shown, a lone `#` is an empty line, and `##`
//!   stands for a literal `#`;
//! - the wrapping: leading `#![...]` attributes are kept apart, code without `fn main` goes into
//!   a generated function, which returns `Result<(), impl Debug>` when the code ends with
//!   `(())` (as in `Ok::<(), Error>(())`).

/// The rustdoc attributes of a code block that change how it is tested.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Flags {
    /// `ignore`: not compiled at all.
    pub ignore: bool,
    /// `no_run`: compiled, not run.
    pub no_run: bool,
    /// `compile_fail`: must fail to compile.
    pub compile_fail: bool,
    /// `should_panic`: must panic when run.
    pub should_panic: bool,
}

/// One doc example.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// The line of its opening fence, from 1.
    pub line: usize,
    /// The item it documents (`try_cast`, `Region`, ...), or `(module)` for a module's own
    /// documentation.
    pub item: String,
    /// Its number among the examples of that item in the file, from 1.
    pub index: usize,
    /// How rustdoc tests it.
    pub flags: Flags,
    /// Its code, hidden lines included, as rustdoc compiles it (before the wrapping).
    pub code: String,
}

/// Parses an info string: `Some(flags)` for a Rust block, `None` for another language.
pub fn info_flags(info: &str) -> Option<Flags> {
    let mut flags = Flags::default();
    for token in info.split([',', ' ', '\t']).filter(|t| !t.is_empty()) {
        match token {
            "rust" | "test_harness" | "standalone_crate" => {}
            "ignore" => flags.ignore = true,
            "no_run" => flags.no_run = true,
            "compile_fail" => flags.compile_fail = true,
            "should_panic" => flags.should_panic = true,
            _ if token.starts_with("edition") => {}
            _ if token.starts_with("ignore-") => flags.ignore = true,
            // An error code that a `compile_fail` block expects (`E0277`).
            _ if token.len() == 5
                && token.starts_with('E')
                && token[1..].chars().all(|c| c.is_ascii_digit()) => {}
            _ => return None,
        }
    }
    Some(flags)
}

/// A line of code as rustdoc compiles it: a hidden line (`# code`) without its marker, `##`
/// as `#`.
pub fn unhide(line: &str) -> String {
    let trimmed = line.trim();
    if trimmed.starts_with("##") {
        line.replacen("##", "#", 1)
    } else if let Some(hidden) = trimmed.strip_prefix("# ") {
        hidden.to_owned()
    } else if trimmed == "#" {
        String::new()
    } else {
        line.to_owned()
    }
}

/// The name of the item that starts at `line` (after its attributes), as well as this
/// approach can tell: `fn`, `struct`, `enum`, `union`, `trait`, `type`, `const`, `static`,
/// `mod` and `macro_rules!` items give their name, `impl` blocks `impl`.
pub fn item_name(line: &str) -> Option<String> {
    let mut words = line.split_whitespace().peekable();
    while let Some(&word) = words.peek() {
        let skip = word == "pub"
            || word.starts_with("pub(")
            || matches!(
                word,
                "const" | "unsafe" | "async" | "extern" | "default" | "\"C\""
            ) && words.clone().nth(1).is_some_and(|next| {
                matches!(
                    next,
                    "fn" | "unsafe" | "trait" | "impl" | "extern" | "\"C\"" | "const"
                )
            });
        if !skip {
            break;
        }
        words.next();
    }
    let keyword = words.next()?;
    if keyword == "impl" || keyword.starts_with("impl<") {
        return Some("impl".to_owned());
    }
    if keyword == "macro_rules!" {
        return words.next().map(identifier);
    }
    if let Some(rest) = keyword.strip_prefix("macro_rules!") {
        return Some(identifier(rest));
    }
    matches!(
        keyword,
        "fn" | "struct" | "enum" | "union" | "trait" | "type" | "const" | "static" | "mod"
    )
    .then(|| words.next().map(identifier))
    .flatten()
}

/// The identifier at the start of `word` (`try_cast` of `try_cast<U>(self)`), or `word` itself
/// if it starts with none (a name that a macro pastes together).
fn identifier(word: &str) -> String {
    let end = word
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(word.len());
    if end == 0 {
        word.to_owned()
    } else {
        word[..end].to_owned()
    }
}

/// The doc examples of `text`, in order.
pub fn extract(text: &str) -> Vec<Example> {
    let lines: Vec<&str> = text.lines().collect();
    let mut examples = Vec::new();
    let mut counts: Vec<(String, usize)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some((inner, _)) = doc_line(lines[i]) else {
            i += 1;
            continue;
        };
        // A block of doc lines of one kind.
        let start = i;
        while i < lines.len() && doc_line(lines[i]).is_some_and(|(kind, _)| kind == inner) {
            i += 1;
        }
        let documented = if inner {
            Some("(module)".to_owned())
        } else {
            documented_item(&lines[i..])
        };
        for mut example in code_blocks(&lines[start..i], start) {
            // Docs passed to a macro that makes the item document no item the text names:
            // the item the example imports stands for it.
            let item = documented
                .clone()
                .or_else(|| imported_item(&example.code))
                .unwrap_or_else(|| "(unknown item)".to_owned());
            let count = match counts.iter_mut().find(|(name, _)| *name == item) {
                Some((_, count)) => count,
                None => {
                    counts.push((item.clone(), 0));
                    &mut counts.last_mut().expect("just pushed").1
                }
            };
            *count += 1;
            example.index = *count;
            example.item = item.clone();
            examples.push(example);
        }
    }
    examples
}

/// `Some((inner, content))` for a doc comment line: `inner` for `//!`, the content after the
/// marker.
fn doc_line(line: &str) -> Option<(bool, &str)> {
    let trimmed = line.trim_start();
    if let Some(content) = trimmed.strip_prefix("//!") {
        return Some((true, content));
    }
    let content = trimmed.strip_prefix("///")?;
    (!content.starts_with('/')).then_some((false, content))
}

/// The name of the item that the lines after an outer doc block start, past its attributes
/// (one per line, or spanning lines until their brackets close), if they start one.
fn documented_item(after: &[&str]) -> Option<String> {
    let mut depth = 0_i32;
    for line in after {
        let trimmed = line.trim();
        if depth > 0 || trimmed.starts_with("#[") {
            depth += trimmed.matches('[').count() as i32 - trimmed.matches(']').count() as i32;
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with("//") {
            continue;
        }
        return item_name(trimmed);
    }
    None
}

/// The last name of the first `use kernel::...::name;` of `code`: the item an example of a
/// macro-made item is about (`genmask_u64`).
pub fn imported_item(code: &str) -> Option<String> {
    code.lines().find_map(|line| {
        let path = line
            .trim()
            .strip_prefix("use kernel::")?
            .strip_suffix(';')?;
        let name = path.rsplit("::").next()?;
        name.chars()
            .all(|c| c.is_alphanumeric() || c == '_')
            .then(|| name.to_owned())
    })
}

/// A code block whose closing fence is still to come.
struct OpenFence {
    /// Its fence character and length.
    fence: (char, usize),
    /// The line of its opening fence, from 1.
    line: usize,
    /// Its attributes, `None` for a block that is not Rust.
    flags: Option<Flags>,
    /// Its lines so far.
    code: Vec<String>,
}

/// The Rust code blocks of a doc block whose first line is line `first` (from 0) of the file.
fn code_blocks(block: &[&str], first: usize) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut open: Option<OpenFence> = None;
    for (offset, line) in block.iter().enumerate() {
        let (_, content) = doc_line(line).expect("a doc block holds doc lines only");
        // `/// text`: one space after the marker is the comment's, not the text's.
        let content = content.strip_prefix(' ').unwrap_or(content);
        let trimmed = content.trim_start();
        match &mut open {
            None => {
                if let Some((c, count)) = fence(trimmed) {
                    open = Some(OpenFence {
                        fence: (c, count),
                        line: first + offset + 1,
                        flags: info_flags(&trimmed[count..]),
                        code: Vec::new(),
                    });
                }
            }
            Some(block) => {
                let (c, count) = block.fence;
                let closing = fence(trimmed)
                    .is_some_and(|(d, n)| d == c && n >= count && trimmed[n..].trim().is_empty());
                if !closing {
                    block.code.push(unhide(content));
                    continue;
                }
                if let Some(flags) = block.flags {
                    examples.push(Example {
                        line: block.line,
                        item: String::new(),
                        index: 0,
                        flags,
                        code: block.code.join("\n") + "\n",
                    });
                }
                open = None;
            }
        }
    }
    examples
}

/// `Some((fence character, length))` if `trimmed` starts a fence of three or more backticks or
/// tildes.
fn fence(trimmed: &str) -> Option<(char, usize)> {
    let c = trimmed.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let count = trimmed.chars().take_while(|x| *x == c).count();
    (count >= 3).then_some((c, count))
}

/// `code` with every path through the kernel crate, `kernel::`, through kernel-core instead:
/// `kernel_core::` (not inside a longer name, such as `my_kernel::`).
pub fn to_kernel_core(code: &str) -> String {
    let mut out = String::with_capacity(code.len() + 64);
    let mut rest = code;
    while let Some(at) = rest.find("kernel::") {
        let before = rest[..at].chars().next_back();
        out.push_str(&rest[..at]);
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            out.push_str("kernel::");
        } else {
            out.push_str("kernel_core::");
        }
        rest = &rest[at + "kernel::".len()..];
    }
    out.push_str(rest);
    out
}

/// The program rustdoc builds from `code`: `(crate attributes, body)`, where the body defines
/// `fn main()`. Leading `#![...]` lines are the crate attributes; code without a `fn main` at
/// its top level is wrapped in one, through a function that returns
/// `core::result::Result<(), impl core::fmt::Debug>` (unwrapped by `main`) when the code ends
/// with `(())`, as the kernel's doctests are.
pub fn wrap(code: &str) -> (String, String) {
    let mut attrs = String::new();
    let mut body = String::new();
    let mut leading = true;
    for line in code.lines() {
        let trimmed = line.trim();
        if leading && trimmed.starts_with("#![") {
            attrs.push_str(line);
            attrs.push('\n');
            continue;
        }
        if !trimmed.is_empty() {
            leading = false;
        }
        body.push_str(line);
        body.push('\n');
    }
    let has_main = body.lines().any(|line| {
        let trimmed = line.trim_start();
        line.len() == trimmed.len() && trimmed.starts_with("fn main(")
    });
    if has_main {
        return (attrs, body);
    }
    let wrapped = if body.trim_end().ends_with("(())") {
        format!(
            "fn main() {{ #[allow(non_snake_case)] fn _doctest_main() -> \
             core::result::Result<(), impl core::fmt::Debug> {{\n{body}}} \
             _doctest_main().unwrap() }}\n"
        )
    } else {
        format!(
            "fn main() {{ #[allow(non_snake_case)] fn _doctest_main() {{\n{body}}} \
             _doctest_main() }}\n"
        )
    };
    (attrs, wrapped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_strings() {
        let plain = Flags::default();
        assert_eq!(info_flags(""), Some(plain));
        assert_eq!(info_flags("rust"), Some(plain));
        assert_eq!(info_flags("text"), None);
        assert_eq!(info_flags("rust,c"), None);
        assert_eq!(
            info_flags("no_run"),
            Some(Flags {
                no_run: true,
                ..plain
            })
        );
        assert_eq!(
            info_flags("rust, ignore"),
            Some(Flags {
                ignore: true,
                ..plain
            })
        );
        assert_eq!(
            info_flags("compile_fail,E0599"),
            Some(Flags {
                compile_fail: true,
                ..plain
            })
        );
        assert_eq!(
            info_flags("should_panic edition2021"),
            Some(Flags {
                should_panic: true,
                ..plain
            })
        );
        assert_eq!(
            info_flags("ignore-x86_64"),
            Some(Flags {
                ignore: true,
                ..plain
            })
        );
    }

    #[test]
    fn hidden_lines() {
        assert_eq!(unhide("# use x;"), "use x;");
        assert_eq!(unhide("    # let y = 1;"), "let y = 1;");
        assert_eq!(unhide("#"), "");
        assert_eq!(unhide("## not hidden"), "# not hidden");
        assert_eq!(unhide("#[derive(Debug)]"), "#[derive(Debug)]");
        assert_eq!(unhide("#![allow(unused)]"), "#![allow(unused)]");
        assert_eq!(
            unhide("let x = 1; # not a marker"),
            "let x = 1; # not a marker"
        );
    }

    #[test]
    fn item_names() {
        assert_eq!(
            item_name("pub fn try_cast<U>(self) -> Result"),
            Some("try_cast".into())
        );
        assert_eq!(
            item_name("pub const fn new<const A: usize>() -> Self {"),
            Some("new".into())
        );
        assert_eq!(
            item_name("pub unsafe fn from_raw(raw: MmioRaw<T>) -> Self {"),
            Some("from_raw".into())
        );
        assert_eq!(
            item_name("pub(crate) unsafe trait ProjectIndex<T>"),
            Some("ProjectIndex".into())
        );
        assert_eq!(
            item_name("pub struct Region<const SIZE: usize = 0> {"),
            Some("Region".into())
        );
        assert_eq!(
            item_name("pub const SZ_1K: usize = 1;"),
            Some("SZ_1K".into())
        );
        assert_eq!(
            item_name("macro_rules! io_project {"),
            Some("io_project".into())
        );
        assert_eq!(
            item_name("pub type Result<T = (), E = Error> ="),
            Some("Result".into())
        );
        assert_eq!(item_name("impl<T> Foo for T {"), Some("impl".into()));
        assert_eq!(item_name("unsafe impl Send for X {}"), Some("impl".into()));
        assert_eq!(
            item_name("pub extern \"C\" fn rust_fn() {"),
            Some("rust_fn".into())
        );
        assert_eq!(
            item_name("pub const fn [<bit_ $ty>](n: u32) -> $ty {"),
            Some("[<bit_".into())
        );
        assert_eq!(item_name("let x = 1;"), None);
    }

    #[test]
    fn examples_of_items_and_modules() {
        let text = r#"//! Module docs.
//!
//! ```
//! use kernel::sizes::SZ_4K;
//! assert_eq!(SZ_4K, 4096);
//! ```

/// A function.
///
/// ```no_run
/// # fn hidden() {}
/// let x = 1;
///     ## indented, escaped
/// ```
///
/// ```text
/// not code
/// ```
///
/// ````rust
/// let fenced = "```";
/// ````
#[inline]
#[cfg_attr(
    CONFIG_X,
    doc = "y"
)]
pub fn documented() {}

//// An ordinary comment.
/// ```ignore
/// nothing
/// ```
pub struct Documented;

/// ```compile_fail,E0308
/// let x: u8 = "no";
/// ```
pub fn documented() {}
"#;
        let examples = extract(text);
        let summary: Vec<(usize, &str, usize, Flags)> = examples
            .iter()
            .map(|e| (e.line, e.item.as_str(), e.index, e.flags))
            .collect();
        let plain = Flags::default();
        assert_eq!(
            summary,
            [
                (3, "(module)", 1, plain),
                (
                    10,
                    "documented",
                    1,
                    Flags {
                        no_run: true,
                        ..plain
                    }
                ),
                (20, "documented", 2, plain),
                (
                    31,
                    "Documented",
                    1,
                    Flags {
                        ignore: true,
                        ..plain
                    }
                ),
                (
                    36,
                    "documented",
                    3,
                    Flags {
                        compile_fail: true,
                        ..plain
                    }
                ),
            ]
        );
        assert_eq!(
            examples[0].code,
            "use kernel::sizes::SZ_4K;\nassert_eq!(SZ_4K, 4096);\n"
        );
        assert_eq!(
            examples[1].code,
            "fn hidden() {}\nlet x = 1;\n    # indented, escaped\n"
        );
        assert_eq!(examples[2].code, "let fenced = \"```\";\n");
    }

    #[test]
    fn items_of_macro_made_docs() {
        let text = "impl_fn!(\n    u8,\n    /// ```\n    /// # use kernel::bits::bit_u8;\n    /// assert_eq!(bit_u8(7), 0x80);\n    /// ```\n    ,\n);\n";
        let examples = extract(text);
        assert_eq!(examples.len(), 1);
        assert_eq!(
            (examples[0].item.as_str(), examples[0].index),
            ("bit_u8", 1)
        );
        assert_eq!(imported_item("use kernel::{a, b};"), None);
        assert_eq!(imported_item("x\nuse kernel::io::Io;"), Some("Io".into()));
    }

    #[test]
    fn kernel_paths_become_kernel_core_paths() {
        assert_eq!(
            to_kernel_core("use kernel::io::{Io, Mmio};\n::kernel::ptr::project!(p, .a)"),
            "use kernel_core::io::{Io, Mmio};\n::kernel_core::ptr::project!(p, .a)"
        );
        assert_eq!(
            to_kernel_core("my_kernel::x; kernelx::y"),
            "my_kernel::x; kernelx::y"
        );
        assert_eq!(to_kernel_core("(kernel::a)"), "(kernel_core::a)");
        assert_eq!(to_kernel_core("no paths"), "no paths");
    }

    #[test]
    fn wrapping_as_rustdoc_does() {
        let (attrs, body) = wrap("#![allow(unused)]\nlet x = 1;\nassert_eq!(x, 1);\n");
        assert_eq!(attrs, "#![allow(unused)]\n");
        assert!(body.starts_with("fn main() {"));
        assert!(!body.contains("Result"));
        assert!(body.contains("let x = 1;\nassert_eq!(x, 1);\n"));

        let (_, body) = wrap("f()?;\n# Ok::<(), Error>(())\n");
        assert!(body.contains("-> core::result::Result<(), impl core::fmt::Debug>"));
        assert!(body.contains("_doctest_main().unwrap()"));

        let code = "use x::y;\nfn main() {\n    y();\n}\n";
        assert_eq!(wrap(code), (String::new(), code.to_owned()));
        // An indented `fn main` belongs to something else.
        let (_, body) = wrap("mod m {\n    fn main() {}\n}\n");
        assert!(body.starts_with("fn main() {"));
    }
}
