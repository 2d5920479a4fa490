// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The symbol check: every symbol that the rebuilt `rust/` exports must be one the stock kernel
//! exports (its `Module.symvers`), and every Rust symbol it exports must be rebuilt.
//!
//! A Rust symbol (`_R...`, v0 mangling) carries a hash of its crate (`Cs<hash>_6kernel`),
//! which rustc derives from the crate's name, its `-C metadata` (none in the kernel) and the
//! compiler's version string. Metadata built by any other rustc, or by the right one without the
//! distribution's version string, names other symbols, and a module built on it fails modpost
//! or, worse, calls through a name the kernel does not have. What the check cannot see: C
//! types. A struct laid out differently still has the same symbol names, which is why the
//! kernel's own configuration is used as it is, never re-run (see `mod.rs`).

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// The exported symbol names of a `Module.symvers` (`crc name module export-type namespace`).
pub fn symvers(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| l.split('\t').nth(1))
        .map(str::to_string)
        .collect()
}

/// The symbols of `rust/exports_*_generated.h` (`EXPORT_SYMBOL_RUST_GPL(name);` lines).
pub fn exports(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("EXPORT_SYMBOL_RUST_GPL(")?
                .strip_suffix(");")
                .map(str::to_string)
        })
        .collect()
}

/// Every export of the `rust/exports_*_generated.h` files of a build directory.
pub fn rebuilt_exports(build: &Path) -> Result<Vec<String>> {
    let rust = build.join("rust");
    let mut files: Vec<_> = fs::read_dir(&rust)
        .at(&rust)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("exports_") && n.ends_with("_generated.h"))
        })
        .collect();
    files.sort();
    let mut all = Vec::new();
    for file in files {
        all.extend(exports(&fs::read_to_string(&file).at(&file)?));
    }
    Ok(all)
}

/// The crate hashes a v0 symbol names: `[(crate, hash)]`, such as `("kernel", "Csb5MLIFMWygY")`.
pub fn crate_hashes(symbol: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let bytes = symbol.as_bytes();
    let mut i = 0;
    while let Some(at) = symbol[i..].find("Cs") {
        let start = i + at;
        let Some(underscore) = symbol[start..].find('_').map(|u| start + u) else {
            break;
        };
        let hash = &symbol[start..underscore];
        let digits: String = symbol[underscore + 1..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if hash.len() > 2 && hash[2..].chars().all(|c| c.is_ascii_alphanumeric()) {
            if let Ok(len) = digits.parse::<usize>() {
                let mut name_start = underscore + 1 + digits.len();
                // A name that starts with `_` or a digit follows a `_` separator (v0 mangling).
                if bytes.get(name_start) == Some(&b'_') {
                    name_start += 1;
                }
                if let Some(name) = symbol.get(name_start..name_start + len) {
                    if bytes[name_start].is_ascii_alphabetic() || bytes[name_start] == b'_' {
                        found.push((name.to_string(), hash.to_string()));
                    }
                }
            }
        }
        i = start + 2;
    }
    found.sort();
    found.dedup();
    found
}

/// What the check found.
#[derive(Debug, PartialEq, Eq)]
pub struct Report {
    /// Rust exports (`_R...`) of the rebuilt `rust/` found in the stock kernel's list.
    pub matched: usize,
    /// Rust exports of the stock kernel.
    pub expected: usize,
    /// All exports of the rebuilt `rust/` (helpers and C-named ones too).
    pub rebuilt: usize,
}

/// Checks `rebuilt` (the exports of the rebuilt `rust/`) against `stock` (the stock kernel's
/// `Module.symvers`); the error names the first mismatch and what was expected.
pub fn check(rebuilt: &[String], stock: &BTreeSet<String>) -> std::result::Result<Report, String> {
    let rust_stock: Vec<&String> = stock.iter().filter(|s| s.starts_with("_R")).collect();
    if let Some(missing) = rebuilt.iter().find(|s| !stock.contains(*s)) {
        let ours = crate_hashes(missing);
        // The stock kernel's hash of the same crates, from any of its symbols.
        let mut expected = Vec::new();
        for (name, hash) in &ours {
            if let Some(theirs) = rust_stock
                .iter()
                .flat_map(|s| crate_hashes(s))
                .find(|(n, _)| n == name)
            {
                if &theirs.1 != hash {
                    expected.push(format!("crate `{name}` is {} there, {hash} here", theirs.1));
                }
            }
        }
        let candidate = expected_symbol(missing, stock);
        let mut message = format!(
            "symbol check failed: the rebuilt rust/ exports `{missing}`, which the stock kernel does not"
        );
        if let Some(candidate) = candidate {
            message.push_str(&format!("; expected `{candidate}`"));
        }
        if !expected.is_empty() {
            message.push_str(&format!(
                " ({}: the metadata was built by another rustc, or without the kernel's rustc version string)",
                expected.join(", ")
            ));
        }
        return Err(message);
    }
    let rebuilt_set: BTreeSet<&String> = rebuilt.iter().collect();
    if let Some(absent) = rust_stock.iter().find(|s| !rebuilt_set.contains(**s)) {
        return Err(format!(
            "symbol check failed: the stock kernel exports `{absent}`, which the rebuilt rust/ does not (a different configuration or source?)"
        ));
    }
    Ok(Report {
        matched: rebuilt.iter().filter(|s| s.starts_with("_R")).count(),
        expected: rust_stock.len(),
        rebuilt: rebuilt.len(),
    })
}

/// The stock symbol that `symbol` should have been: the same with each crate hash replaced by
/// the stock kernel's.
fn expected_symbol(symbol: &str, stock: &BTreeSet<String>) -> Option<String> {
    let ours = crate_hashes(symbol);
    if ours.is_empty() {
        return None;
    }
    let strip = |s: &str| {
        let mut s = s.to_string();
        for (_, hash) in crate_hashes(&s) {
            s = s.replace(&hash, "Cs");
        }
        s
    };
    let key = strip(symbol);
    stock
        .iter()
        .filter(|s| {
            s.starts_with("_R") && s.len() + 20 > symbol.len() && symbol.len() + 20 > s.len()
        })
        .find(|s| strip(s) == key)
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "_RNvMs1_NtNtCsb5MLIFMWygY_6kernel5alloc9allocatorNtB5_7Vmalloc7to_page";
    const BAD: &str = "_RNvMs1_NtNtCsldbe0TGTmNx_6kernel5alloc9allocatorNtB5_7Vmalloc7to_page";
    const CORE: &str = "_RNvXsE_NtCsebvPM9VZv4X_8bindings12bindings_rawNtB5_6moduleNtNtCs2lKf6AS60Zg_4core7default7Default7default";

    fn stock() -> BTreeSet<String> {
        symvers(&format!(
            "0x00000000\tsystem_state\tvmlinux\tEXPORT_SYMBOL\t\n\
             0x00000000\t{GOOD}\tvmlinux\tEXPORT_SYMBOL_GPL\t\n\
             0x00000000\t{CORE}\tvmlinux\tEXPORT_SYMBOL_GPL\t\n\
             0x00000000\trust_helper_BUG\tvmlinux\tEXPORT_SYMBOL_GPL\t\n"
        ))
    }

    #[test]
    fn parses_module_symvers_and_exports() {
        assert_eq!(stock().len(), 4);
        assert!(stock().contains("system_state"));
        let text =
            format!("EXPORT_SYMBOL_RUST_GPL({GOOD});\nEXPORT_SYMBOL_RUST_GPL(rust_helper_BUG);\n");
        assert_eq!(exports(&text), [GOOD, "rust_helper_BUG"]);
        assert_eq!(
            crate_hashes(CORE),
            [
                ("bindings".to_string(), "CsebvPM9VZv4X".to_string()),
                ("core".to_string(), "Cs2lKf6AS60Zg".to_string())
            ]
        );
    }

    #[test]
    fn an_internal_symbol_names_its_pseudo_crate() {
        assert_eq!(
            crate_hashes("_RNvCsjJ6pmSBbkgH_7___rustc17rust_begin_unwind"),
            [("__rustc".to_string(), "CsjJ6pmSBbkgH".to_string())]
        );
    }

    #[test]
    fn matching_exports_pass() {
        let rebuilt = vec![
            GOOD.to_string(),
            CORE.to_string(),
            "rust_helper_BUG".to_string(),
        ];
        assert_eq!(
            check(&rebuilt, &stock()),
            Ok(Report {
                matched: 2,
                expected: 2,
                rebuilt: 3
            })
        );
    }

    #[test]
    fn a_hash_mismatch_names_the_symbol_and_what_was_expected() {
        let rebuilt = vec![BAD.to_string(), CORE.to_string()];
        let e = check(&rebuilt, &stock()).unwrap_err();
        assert!(e.contains(&format!("exports `{BAD}`")), "{e}");
        assert!(e.contains(&format!("expected `{GOOD}`")), "{e}");
        assert!(
            e.contains("crate `kernel` is Csb5MLIFMWygY there, Csldbe0TGTmNx here"),
            "{e}"
        );
    }

    #[test]
    fn a_missing_rust_export_fails() {
        let e = check(&[CORE.to_string()], &stock()).unwrap_err();
        assert!(
            e.contains(&format!("the stock kernel exports `{GOOD}`")),
            "{e}"
        );
    }
}
