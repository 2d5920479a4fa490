// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Which `build_assert!` or `build_error!` calls made a build fail, and in which functions.
//!
//! Without debug assertions, kernel-core's macros declare at each call site an external
//! function named after it, `kernel-core: build_assert!() not proven at <file>:<line>:<col>`,
//! which no object defines (see `build_error_here!` in `build-error/src/lib.rs` and
//! `kernel-core/src/env/kernel.rs`). A call the optimizer keeps keeps that reference, so:
//!
//! - in the kernel, modpost reports the site as an undefined symbol next to `rust_build_error`,
//!   which [`modpost_undefined`] reads from the build log, in the format of Linux 6.12 and 7.2
//!   (`ERROR: modpost: "<symbol>" [<module>.ko] undefined!`) and of 7.3
//!   (`ERROR: modpost: <module>.ko: symbol '<symbol>' undefined!`);
//! - in any object, kernel or host, [`calls`] reads the relocations and symbols (with the
//!   `object` crate: ELF of every architecture of the matrix, 32 or 64 bits, either byte order,
//!   REL or RELA; no LLVM tool) and names each function that refers to a site or calls
//!   `build_error` itself (`rust_build_error` in the kernel, `kernel_core_build_error::build_error`
//!   or `build_error_at` on the host), for the calls that carry no site (a kernel built with
//!   `CONFIG_RUST_DEBUG_ASSERTIONS=y`, a direct call).
//!
//! `cargo xtask why-build-error <object>...` prints [`report`] of the objects, and the module
//! builds print [`explain`] of a failed build without being asked.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use object::read::archive::ArchiveFile;
use object::{
    Architecture, FileKind, Object, ObjectSection, ObjectSymbol, RelocationTarget, SectionIndex,
    SectionKind, SymbolKind,
};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// How every site symbol starts (see the module documentation).
pub const SITE_PREFIX: &str = "kernel-core: ";

/// The kernel's `build_error`, as modpost and the relocations name it.
pub const KERNEL_BUILD_ERROR: &str = "rust_build_error";

/// The host's `build_error` functions, demangled without their hash.
const HOST_BUILD_ERROR: [&str; 2] = [
    "kernel_core_build_error::build_error",
    "kernel_core_build_error::build_error_at",
];

/// A call site named by a site symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// What failed: `build_assert!() not proven` or `build_error!() not proven unreachable`.
    pub what: String,
    /// `<file>:<line>:<column>`, the file as rustc was given it.
    pub location: String,
}

impl Site {
    /// Reads a site symbol, `kernel-core: <what> at <file>:<line>:<column>`; `None` for any
    /// other symbol.
    pub fn parse(symbol: &str) -> Option<Site> {
        let rest = symbol.strip_prefix(SITE_PREFIX)?;
        let (what, location) = rest.rsplit_once(" at ")?;
        // `<file>:<line>:<column>`, both numbers present.
        let mut parts = location.rsplitn(3, ':');
        let column = parts.next()?;
        let line = parts.next()?;
        let file = parts.next()?;
        let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        (number(column) && number(line) && !file.is_empty()).then(|| Site {
            what: what.to_string(),
            location: location.to_string(),
        })
    }
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.what)
    }
}

/// One symbol modpost reports as undefined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Undefined {
    /// The symbol.
    pub symbol: String,
    /// The module, as modpost names it (`x.ko` or a path to it).
    pub module: String,
}

/// The undefined symbols modpost reports in a build log, errors and (with
/// `KBUILD_MODPOST_WARN=1`) warnings alike, in the order it reports them.
pub fn modpost_undefined(log: &str) -> Vec<Undefined> {
    log.lines()
        .filter_map(|line| {
            let line = line.trim();
            let rest = line
                .strip_prefix("ERROR: modpost: ")
                .or_else(|| line.strip_prefix("WARNING: modpost: "))?;
            let rest = rest.strip_suffix(" undefined!")?;
            // Linux 7.3: `<module>.ko: symbol '<symbol>'`.
            if let Some((module, quoted)) = rest.split_once(": symbol '") {
                return Some(Undefined {
                    symbol: quoted.strip_suffix('\'')?.to_string(),
                    module: module.to_string(),
                });
            }
            // Linux 6.12 and 7.2: `"<symbol>" [<module>.ko]`.
            let rest = rest.strip_prefix('"')?;
            let (symbol, module) = rest.rsplit_once("\" [")?;
            Some(Undefined {
                symbol: symbol.to_string(),
                module: module.strip_suffix(']')?.to_string(),
            })
        })
        .collect()
}

/// What a function in an object refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A site symbol: the call at this site survived.
    Site(Site),
    /// `build_error` itself, named as in the relocation.
    BuildError(String),
}

/// One reference found in an object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// The function that holds it, demangled, without the legacy mangling's hash.
    pub function: String,
    /// The object.
    pub object: PathBuf,
    /// What it refers to.
    pub target: Target,
}

/// Drops a legacy-mangled symbol's `::h<16 hex digits>` hash.
fn without_hash(name: &str) -> &str {
    match name.rsplit_once("::h") {
        Some((head, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            head
        }
        _ => name,
    }
}

/// What a relocation's symbol means here, if anything.
fn target(symbol: &str) -> Option<Target> {
    if let Some(site) = Site::parse(symbol) {
        return Some(Target::Site(site));
    }
    let name = without_hash(symbol);
    (name == KERNEL_BUILD_ERROR || HOST_BUILD_ERROR.contains(&name))
        .then(|| Target::BuildError(name.to_string()))
}

/// A symbol's name as people read it: a Rust name demangled (legacy or v0), without its
/// legacy hash or v0 crate disambiguators; any other name as it is.
pub fn demangle(name: &str) -> String {
    match rustc_demangle::try_demangle(name) {
        Ok(demangled) => without_hash(&format!("{demangled:#}")).to_string(),
        Err(_) => name.to_string(),
    }
}

/// The labels of a section that can name the function holding an address: its symbols, less
/// assembler-local labels (`.L*`, such as riscv64's `.Lpcrel_hi0` before each `auipc`) and ARM's
/// mapping symbols (`$a`, `$t`, `$d`, `$x`), sorted by address, functions first at an address
/// and globals before locals.
fn labels(file: &object::File<'_>) -> HashMap<SectionIndex, Vec<(u64, String)>> {
    let thumb_bit = if file.architecture() == Architecture::Arm {
        !1
    } else {
        !0
    };
    let mut labels: HashMap<SectionIndex, Vec<(u64, bool, bool, String)>> = HashMap::new();
    for symbol in file.symbols() {
        let (Some(section), Ok(name)) = (symbol.section_index(), symbol.name()) else {
            continue;
        };
        if matches!(symbol.kind(), SymbolKind::Section | SymbolKind::File)
            || name.is_empty()
            || name.starts_with(".L")
            || name.starts_with('$')
        {
            continue;
        }
        let text = symbol.kind() == SymbolKind::Text;
        // A Thumb function's address has bit 0 set.
        let address = if text {
            symbol.address() & thumb_bit
        } else {
            symbol.address()
        };
        labels.entry(section).or_default().push((
            address,
            !text,
            !symbol.is_global(),
            name.to_string(),
        ));
    }
    labels
        .into_iter()
        .map(|(section, mut found)| {
            found.sort();
            (
                section,
                found.into_iter().map(|(a, _, _, name)| (a, name)).collect(),
            )
        })
        .collect()
}

/// The references of interest in one object file: `(function, target)` for each relocation to
/// a site symbol or to `build_error`, the function being the last label at or before the
/// relocation in its section (as `llvm-objdump -dr` shows them), demangled, in the order of the
/// sections and their relocations, each once. Code sections only: a call is made from code.
/// Any ELF object: 32 or 64 bits, either byte order, REL or RELA relocations.
pub fn references(data: &[u8]) -> object::Result<Vec<(String, Target)>> {
    let file = object::File::parse(data)?;
    let labels = labels(&file);
    let mut found: Vec<(String, Target)> = Vec::new();
    for section in file.sections().filter(|s| s.kind() == SectionKind::Text) {
        let section_labels = labels.get(&section.index());
        for (offset, relocation) in section.relocations() {
            let RelocationTarget::Symbol(index) = relocation.target() else {
                continue;
            };
            let Ok(mut symbol) = file.symbol_by_index(index) else {
                continue;
            };
            // 64-bit PowerPC loads an address from its TOC: the code's relocation names the
            // `.toc` section, and the entry at its addend holds the relocation to the symbol.
            if let Some(entry) = toc_entry(&file, &symbol, relocation.addend()) {
                symbol = entry;
            }
            let Some(target) = symbol.name().ok().and_then(|n| target(&demangle(n))) else {
                continue;
            };
            let function = section_labels.and_then(|labels| {
                let after = labels.partition_point(|(address, _)| *address <= offset);
                // The first of the labels at that address (functions and globals first).
                let at = labels[..after].last()?.0;
                let first = labels[..after].partition_point(|(address, _)| *address < at);
                Some(demangle(&labels[first].1))
            });
            let Some(function) = function else { continue };
            let entry = (function, target);
            if !found.contains(&entry) {
                found.push(entry);
            }
        }
    }
    Ok(found)
}

/// The symbol a 64-bit PowerPC TOC entry holds: `symbol` is the `.toc` section's, and the
/// entry is the relocation at `addend` in that section; `None` for any other symbol.
fn toc_entry<'data, 'file>(
    file: &'file object::File<'data>,
    symbol: &object::Symbol<'data, 'file>,
    addend: i64,
) -> Option<object::Symbol<'data, 'file>> {
    if symbol.kind() != SymbolKind::Section {
        return None;
    }
    let section = file.section_by_index(symbol.section_index()?).ok()?;
    if section.name().ok()? != ".toc" {
        return None;
    }
    let offset = u64::try_from(addend).ok()?;
    let (_, entry) = section.relocations().find(|(at, _)| *at == offset)?;
    let RelocationTarget::Symbol(index) = entry.target() else {
        return None;
    };
    file.symbol_by_index(index).ok()
}

/// The references to sites and to `build_error` in `objects`: object files, or archives of
/// them (an `.rlib`, whose members are named `archive(member)`).
pub fn calls(objects: &[PathBuf]) -> Result<Vec<Call>> {
    let mut calls = Vec::new();
    for object in objects {
        let data = std::fs::read(object).at(object)?;
        let unreadable =
            |e: object::Error| anyhow::anyhow!("{}: not an object file: {e}", object.display());
        let mut read = |name: PathBuf, data: &[u8]| -> Result {
            calls.extend(
                references(data)
                    .map_err(|e| anyhow::anyhow!("{}: not an object file: {e}", name.display()))?
                    .into_iter()
                    .map(|(function, target)| Call {
                        function,
                        object: name.clone(),
                        target,
                    }),
            );
            Ok(())
        };
        if FileKind::parse(&*data).map_err(unreadable)? != FileKind::Archive {
            read(object.clone(), &data)?;
            continue;
        }
        let archive = ArchiveFile::parse(&*data).map_err(unreadable)?;
        for member in archive.members() {
            let member = member.map_err(unreadable)?;
            let bytes = member.data(&*data).map_err(unreadable)?;
            // An `.rlib` also holds the crate's metadata (an object without code, or no
            // object at all).
            if !matches!(
                FileKind::parse(bytes),
                Ok(FileKind::Elf32 | FileKind::Elf64)
            ) {
                continue;
            }
            let name = format!(
                "{}({})",
                object.display(),
                String::from_utf8_lossy(member.name())
            );
            // A member is only 2-byte aligned in the archive; an ELF header must be read
            // from memory aligned as the file's own is: a copy of its own.
            let copy: Vec<u8> = bytes.to_vec();
            read(PathBuf::from(name), &copy)?;
        }
    }
    Ok(calls)
}

/// One line per surviving call: each site, with the function that holds it, then each
/// function that calls `build_error` with no site of its own. A call found in several objects
/// (a module's object and the one `ld -r` made of it and others) is shown once, with the first.
pub fn report(calls: &[Call]) -> Vec<String> {
    let first = |call: &Call| {
        calls
            .iter()
            .position(|c| c.function == call.function && c.target == call.target)
            .is_some_and(|at| std::ptr::eq(&calls[at], call))
    };
    let mut lines = Vec::new();
    for call in calls.iter().filter(|c| first(c)) {
        if let Target::Site(site) = &call.target {
            lines.push(format!(
                "{site}, in {} ({})",
                call.function,
                call.object.display()
            ));
        }
    }
    for call in calls.iter().filter(|c| first(c)) {
        if let Target::BuildError(name) = &call.target {
            let has_site = calls.iter().any(|other| {
                other.function == call.function && matches!(other.target, Target::Site(_))
            });
            if !has_site {
                lines.push(format!(
                    "{} calls {name} at a site with no name (a direct call, a crate built with debug \
                     assertions, or an older kernel-core) ({})",
                    call.function,
                    call.object.display()
                ));
            }
        }
    }
    lines
}

/// What to print after a failed module build whose log is `log`, in the module build
/// directory `dir`: nothing if modpost did not fail on `build_error`, else the sites modpost
/// names and the functions whose relocations refer to them in the objects of `dir`.
pub fn explain(dir: &Path, log: &str) -> Vec<String> {
    let undefined = modpost_undefined(log);
    let sites: Vec<(Site, &str)> = undefined
        .iter()
        .filter_map(|u| Some((Site::parse(&u.symbol)?, u.module.as_str())))
        .collect();
    let build_error = undefined.iter().any(|u| u.symbol == KERNEL_BUILD_ERROR);
    if sites.is_empty() && !build_error {
        return Vec::new();
    }
    let mut lines = vec![
        "a build_assert!() or build_error!() call survived optimization: modpost finds \
         rust_build_error undefined"
            .to_string(),
    ];
    if sites.is_empty() {
        lines.push(
            "modpost names no site: the calls come from crates built with debug assertions \
             (CONFIG_RUST_DEBUG_ASSERTIONS=y) or call build_error directly"
                .to_string(),
        );
    } else {
        lines.push("the sites, as modpost names them:".to_string());
        for (site, module) in &sites {
            lines.push(format!("  {site} ({module})"));
        }
    }
    // The composite objects `ld -r` makes of a module's objects, named after the module, come
    // last, so that a call is shown in the object compiled from its source.
    let modules: Vec<String> = undefined
        .iter()
        .filter_map(|u| {
            let name = u.module.rsplit('/').next()?;
            Some(format!("{}.o", name.strip_suffix(".ko")?))
        })
        .collect();
    let mut objects: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "o") && !p.to_string_lossy().ends_with(".mod.o")
        })
        .collect();
    objects.sort_by_key(|p| {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
        (
            name.as_ref().is_some_and(|n| modules.contains(n)),
            p.clone(),
        )
    });
    match calls(&objects) {
        Ok(found) if !found.is_empty() => {
            lines.push("the functions that hold them (the objects' relocations):".to_string());
            lines.extend(report(&found).into_iter().map(|l| format!("  {l}")));
        }
        Ok(_) => lines.push(format!(
            "the relocations of the objects of {} hold no such call",
            dir.display()
        )),
        Err(e) => lines.push(format!("cannot read the objects for the functions: {e}")),
    }
    lines
}

/// `cargo xtask why-build-error <object>...`.
pub fn why(objects: &[PathBuf]) -> Result {
    if let Some(missing) = objects.iter().find(|o| !o.is_file()) {
        return Err(anyhow::anyhow!("{} is not a file", missing.display()));
    }
    let found = calls(objects)?;
    if found.is_empty() {
        crate::note!(
            "no call to build_error (rust_build_error, kernel_core_build_error::build_error) and \
             no build_assert!/build_error! site in these objects"
        );
    }
    for line in report(&found) {
        crate::note!("{line}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    const SITE: &str = "kernel-core: build_assert!() not proven at src/main.rs:16:5";

    fn site(location: &str) -> Site {
        Site {
            what: "build_assert!() not proven".into(),
            location: location.into(),
        }
    }

    #[test]
    fn site_symbols_parse() {
        assert_eq!(Site::parse(SITE), Some(site("src/main.rs:16:5")));
        assert_eq!(
            Site::parse("kernel-core: build_error!() not proven unreachable at /a b/x.rs:3:9"),
            Some(Site {
                what: "build_error!() not proven unreachable".into(),
                location: "/a b/x.rs:3:9".into(),
            })
        );
        assert_eq!(Site::parse("rust_build_error"), None);
        assert_eq!(Site::parse("kernel-core: something at x.rs:1"), None);
        assert_eq!(Site::parse("kernel-core: something at :1:2"), None);
        assert_eq!(Site::parse("kernel-core: something at x.rs:a:2"), None);
        assert_eq!(
            site("src/main.rs:16:5").to_string(),
            "src/main.rs:16:5: build_assert!() not proven"
        );
    }

    #[test]
    fn modpost_errors_of_every_kernel_parse() {
        let log = "\
  LD [M]  kernel_core_fixture.o
  MODPOST Module.symvers
ERROR: modpost: kernel_core_fixture.ko: symbol 'kernel-core: build_assert!() not proven at /k/kbuild/fixtures/unprovable_build_assert.rs:18:5' undefined!
ERROR: modpost: kernel_core_fixture.ko: symbol 'rust_build_error' undefined!
ERROR: modpost: \"rust_build_error\" [/m/kernel_core_fixture.ko] undefined!
WARNING: modpost: \"kernel-core: build_assert!() not proven at x.rs:1:2\" [x.ko] undefined!
ERROR: modpost: missing MODULE_LICENSE() in x.o
make[3]: *** [Makefile.modpost:147: Module.symvers] Error 1
";
        assert_eq!(
            modpost_undefined(log),
            [
                Undefined {
                    symbol: "kernel-core: build_assert!() not proven at /k/kbuild/fixtures/unprovable_build_assert.rs:18:5".into(),
                    module: "kernel_core_fixture.ko".into(),
                },
                Undefined {
                    symbol: "rust_build_error".into(),
                    module: "kernel_core_fixture.ko".into(),
                },
                Undefined {
                    symbol: "rust_build_error".into(),
                    module: "/m/kernel_core_fixture.ko".into(),
                },
                Undefined {
                    symbol: "kernel-core: build_assert!() not proven at x.rs:1:2".into(),
                    module: "x.ko".into(),
                },
            ]
        );
        assert_eq!(
            modpost_undefined("ERROR: modpost: nothing undefined here"),
            []
        );
    }

    /// What the old `llvm-objdump -dr` excerpts of this test held, as `(function, target)`: a
    /// host object (x86_64, legacy mangling), a kernel object, one that calls `build_error`
    /// with no site, an arm64 one and a riscv64 one. The objects themselves are in
    /// [`every_architecture_s_relocations_name_sites_and_their_functions`].
    fn found() -> Vec<(String, Target)> {
        let init = "<unprovable_build_assert::Unprovable as kernel::module::Module>::init";
        vec![
            (
                "kc_link_unprovable::main".into(),
                Target::Site(site("src/main.rs:16:5")),
            ),
            (
                "kc_link_unprovable::main".into(),
                Target::BuildError("kernel_core_build_error::build_error_at".into()),
            ),
            (
                init.into(),
                Target::Site(site("/k/kbuild/fixtures/unprovable_build_assert.rs:18:5")),
            ),
            (init.into(), Target::BuildError("rust_build_error".into())),
            (
                "debug_driver::probe".into(),
                Target::BuildError("rust_build_error".into()),
            ),
            (
                "arm_driver::init".into(),
                Target::Site(Site {
                    what: "build_error!() not proven unreachable".into(),
                    location: "drivers/arm.rs:7:13".into(),
                }),
            ),
            (
                "arm_driver::init".into(),
                Target::BuildError("rust_build_error".into()),
            ),
            (
                "riscv_driver::init".into(),
                Target::Site(site("drivers/rv.rs:18:5")),
            ),
            (
                "riscv_driver::init".into(),
                Target::BuildError("rust_build_error".into()),
            ),
        ]
    }

    #[test]
    fn symbols_are_named_as_people_read_them() {
        assert_eq!(
            demangle("_ZN23kernel_core_build_error14build_error_at17h0123456789abcdefE"),
            "kernel_core_build_error::build_error_at"
        );
        assert_eq!(
            demangle("_RNvXs_CscwC2nPQg6Bx_2ncNtB4_10UnprovableNtB4_6Module4init"),
            "<nc::Unprovable as nc::Module>::init"
        );
        assert_eq!(demangle("rust_build_error"), "rust_build_error");
        assert_eq!(demangle(SITE), SITE);
        assert_eq!(
            target("kernel_core_build_error::build_error_at::h0123456789abcdef"),
            Some(Target::BuildError(
                "kernel_core_build_error::build_error_at".into()
            ))
        );
        assert_eq!(target(SITE), Some(Target::Site(site("src/main.rs:16:5"))));
        for other in [
            "kernel_core_build_error::build_error_at_somewhere_else",
            "kernel_core::env::build_error_site",
            ".Lpcrel_hi0",
        ] {
            assert_eq!(target(other), None, "{other}");
        }
    }

    /// A crate with every kind of call `why-build-error` names: a site and the host's
    /// `build_error_at` (legacy mangling, as the host crate is built), a site and the kernel's
    /// `rust_build_error` in a trait method, and `rust_build_error` with no site. `#![no_core]`,
    /// so that rustc builds it for any target without that target's `core` installed (which
    /// takes `RUSTC_BOOTSTRAP=1`, as the kernel's own Rust does); `{sized}` is the lang items
    /// this rustc needs for `Sized`.
    const SITES: &str = r#"#![feature(no_core, lang_items)]
#![allow(internal_features)]
#![no_core]
{sized}
#[lang = "copy"]
pub trait Copy {}
impl Copy for bool {}

extern "C" {
    #[link_name = "kernel-core: build_assert!() not proven at src/lib.rs:12:9"]
    fn site();
    #[link_name = "kernel-core: build_error!() not proven unreachable at drivers/x.rs:7:13"]
    fn unreachable_site();
    fn rust_build_error();
    #[link_name = "_ZN23kernel_core_build_error14build_error_at17h0123456789abcdefE"]
    fn build_error_at(site: unsafe extern "C" fn());
}

#[inline(never)]
pub fn checked(fail: bool) {
    if fail {
        unsafe { build_error_at(site) }
    }
}

pub trait Module {
    fn init(fail: bool);
}

pub struct Unprovable;

impl Module for Unprovable {
    #[inline(never)]
    fn init(fail: bool) {
        if fail {
            unsafe {
                unreachable_site();
                rust_build_error();
            }
        }
    }
}

#[no_mangle]
pub fn direct(fail: bool) {
    if fail {
        unsafe { rust_build_error() }
    }
}
"#;

    /// `Sized` and what it needs, newest rustc first.
    const SIZED: [&str; 2] = [
        "#[lang = \"pointee_sized\"]\npub trait PointeeSized {}\n\
         #[lang = \"meta_sized\"]\npub trait MetaSized: PointeeSized {}\n\
         #[lang = \"sized\"]\npub trait Sized: MetaSized {}\n",
        "#[lang = \"sized\"]\npub trait Sized {}\n",
    ];

    /// Builds [`SITES`] into `<dir>/<name>.o` for `target` with `flags`.
    fn build_sites(dir: &Path, name: &str, target: &str, flags: &[&str]) -> PathBuf {
        let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
        let object = dir.join(format!("{name}.o"));
        let mut errors = String::new();
        for sized in SIZED {
            let source = dir.join(format!("{name}.rs"));
            std::fs::write(&source, SITES.replace("{sized}", sized)).unwrap();
            let out = Command::new(&rustc)
                .env("RUSTC_BOOTSTRAP", "1")
                .args([
                    "--edition=2021",
                    "--crate-type=lib",
                    "--crate-name=sites",
                    "-O",
                ])
                .args(["--target", target])
                .args(flags)
                .args(["--emit=obj", "-o"])
                .arg(&object)
                .arg(&source)
                .output()
                .expect("running rustc");
            if out.status.success() {
                return object;
            }
            errors.push_str(&String::from_utf8_lossy(&out.stderr));
        }
        panic!("rustc cannot build {name} for {target}:\n{errors}");
    }

    /// Every architecture of the matrix, with the relocations its kernel (or host) uses:
    /// the object, `(function, target)` as found, and the relocations to the sites.
    #[test]
    fn every_architecture_s_relocations_name_sites_and_their_functions() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        let v0 = "-Csymbol-mangling-version=v0";
        let cases: &[(&str, &str, &[&str])] = &[
            // The kernel's x86_64 code model: R_X86_64_32S and PLT32.
            (
                "x86_64",
                "x86_64-unknown-none",
                &[v0, "-Crelocation-model=static", "-Ccode-model=kernel"],
            ),
            // UML, as kernel-core.mk builds its crates there: R_X86_64_64.
            (
                "um",
                "x86_64-unknown-none",
                &[v0, "-Crelocation-model=static", "-Ccode-model=large"],
            ),
            // The host: position-independent, legacy mangling (GOTPCREL).
            (
                "host",
                "x86_64-unknown-linux-gnu",
                &["-Crelocation-model=pic"],
            ),
            ("arm64", "aarch64-unknown-none", &[v0]),
            // Compressed instructions and linker relaxation: local labels between the
            // relocations of one function.
            ("riscv64", "riscv64imac-unknown-none-elf", &[v0]),
            ("loongarch64", "loongarch64-unknown-none", &[v0]),
            // 32-bit arm: REL relocations, with implicit addends; and Thumb code, whose
            // function symbols have bit 0 set.
            ("arm", "armv7a-none-eabi", &[v0]),
            ("thumb", "thumbv7em-none-eabi", &[v0]),
            // Big-endian.
            ("s390x", "s390x-unknown-linux-gnu", &[v0]),
            // 64-bit PowerPC loads the site's address from its TOC (`.toc`, whose entry holds
            // the relocation to the site); 32-bit PowerPC is big-endian too, and built static,
            // as the kernel builds it.
            ("ppc64le", "powerpc64le-unknown-linux-gnu", &[v0]),
            (
                "ppc32",
                "powerpc-unknown-linux-gnu",
                &[v0, "-Crelocation-model=static"],
            ),
        ];
        let init = "<sites::Unprovable as sites::Module>::init";
        let mut expected = vec![
            (
                "sites::checked".to_string(),
                Target::Site(site("src/lib.rs:12:9")),
            ),
            (
                "sites::checked".to_string(),
                Target::BuildError("kernel_core_build_error::build_error_at".into()),
            ),
            (
                init.to_string(),
                Target::Site(Site {
                    what: "build_error!() not proven unreachable".into(),
                    location: "drivers/x.rs:7:13".into(),
                }),
            ),
            (
                init.to_string(),
                Target::BuildError("rust_build_error".into()),
            ),
            (
                "direct".to_string(),
                Target::BuildError("rust_build_error".into()),
            ),
        ];
        expected.sort_by_key(|e| format!("{e:?}"));
        for (name, target, flags) in cases {
            let object = build_sites(&dir, name, target, flags);
            let data = std::fs::read(&object).unwrap();
            let mut found = references(&data).unwrap();
            found.sort_by_key(|e| format!("{e:?}"));
            assert_eq!(found, expected, "{name} ({target})");

            // The object is what the case says it is.
            let file = object::File::parse(&*data).unwrap();
            let relocations: Vec<object::Relocation> = file
                .sections()
                .flat_map(|s| s.relocations().map(|(_, r)| r).collect::<Vec<_>>())
                .collect();
            match *name {
                "arm" | "thumb" => assert!(
                    relocations.iter().all(|r| r.has_implicit_addend()),
                    "{name}: REL"
                ),
                "s390x" | "ppc32" => assert!(!file.is_little_endian(), "{name}: big-endian"),
                "ppc64le" => assert!(
                    file.sections().any(|s| s.name() == Ok(".toc")),
                    "{name}: a TOC"
                ),
                "um" => assert!(
                    relocations
                        .iter()
                        .any(|r| r.kind() == object::RelocationKind::Absolute && r.size() == 64),
                    "{name}: 64-bit absolute relocations"
                ),
                _ => {}
            }
            if *name == "thumb" {
                assert!(
                    file.symbols()
                        .any(|s| s.name() == Ok("direct") && s.address() & 1 == 1),
                    "thumb: a Thumb function's address has bit 0 set"
                );
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn the_report_names_each_site_then_the_calls_without_one() {
        // The same calls again in the object `ld -r` made of x.o: shown once, from x.o.
        let calls: Vec<Call> = ["x.o", "module.o"]
            .into_iter()
            .flat_map(|object| {
                found().into_iter().map(move |(function, target)| Call {
                    function,
                    object: PathBuf::from(object),
                    target,
                })
            })
            .collect();
        assert_eq!(
            report(&calls),
            [
                "src/main.rs:16:5: build_assert!() not proven, in kc_link_unprovable::main (x.o)",
                "/k/kbuild/fixtures/unprovable_build_assert.rs:18:5: build_assert!() not proven, in \
                 <unprovable_build_assert::Unprovable as kernel::module::Module>::init (x.o)",
                "drivers/arm.rs:7:13: build_error!() not proven unreachable, in arm_driver::init (x.o)",
                "drivers/rv.rs:18:5: build_assert!() not proven, in riscv_driver::init (x.o)",
                "debug_driver::probe calls rust_build_error at a site with no name (a direct call, a crate \
                 built with debug assertions, or an older kernel-core) (x.o)",
            ]
        );
    }

    #[test]
    fn an_unrelated_failure_is_not_explained() {
        let dir = std::env::temp_dir();
        assert!(explain(&dir, "ERROR: modpost: \"foo\" [x.ko] undefined!\n").is_empty());
        assert!(explain(&dir, "error[E0425]: cannot find value `x`\n").is_empty());
    }

    /// A real object, built by rustc the way a kernel-core user's crate is, with a surviving
    /// `build_assert!`-like call: `why-build-error` must name its site and its function.
    #[test]
    fn why_build_error_reads_a_host_object() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        let source = dir.join("lib.rs");
        // The expansion of `build_error_here!` with the link check armed, and the host's
        // `build_error_at` as an opaque function of another crate.
        std::fs::write(
            &source,
            r#"#![no_std]
extern "Rust" {
    #[link_name = "_ZN23kernel_core_build_error14build_error_at17h0123456789abcdefE"]
    fn build_error_at(msg: &'static str, site: unsafe extern "C" fn()) -> !;
}
#[inline(never)]
#[no_mangle]
pub fn checked(count: usize) -> usize {
    if count <= 1 {
        extern "C" {
            #[link_name = "kernel-core: build_assert!() not proven at src/lib.rs:12:9"]
            fn site();
        }
        unsafe { build_error_at("count > 1", site) }
    }
    count
}
"#,
        )
        .expect("writing the test source");
        let object = dir.join("checked.o");
        let rlib = dir.join("libchecked.rlib");
        let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
        let status = Command::new(rustc)
            .args([
                "--edition=2021",
                "--crate-type=rlib",
                "--crate-name=checked",
                "-O",
            ])
            .arg(format!(
                "--emit=obj={},link={}",
                object.display(),
                rlib.display()
            ))
            .arg(&source)
            .status()
            .expect("running rustc");
        assert!(status.success(), "rustc failed on {}", source.display());

        let found = calls(std::slice::from_ref(&object)).expect("the object reads");
        // The crate's archive: the same calls, in its object member.
        let in_rlib = calls(std::slice::from_ref(&rlib)).expect("the rlib reads");
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(in_rlib.len(), 2, "{in_rlib:?}");
        for (call, from_object) in in_rlib.iter().zip(&found) {
            assert_eq!(
                (&call.function, &call.target),
                (&from_object.function, &from_object.target)
            );
            let name = call.object.display().to_string();
            assert!(
                name.starts_with(&format!("{}(", rlib.display())) && name.ends_with(".o)"),
                "{name}"
            );
        }
        assert_eq!(
            found,
            [
                Call {
                    function: "checked".into(),
                    object: object.clone(),
                    target: Target::Site(site("src/lib.rs:12:9")),
                },
                Call {
                    function: "checked".into(),
                    object: object.clone(),
                    target: Target::BuildError("kernel_core_build_error::build_error_at".into()),
                },
            ]
        );
        assert_eq!(
            report(&found),
            [format!(
                "src/lib.rs:12:9: build_assert!() not proven, in checked ({})",
                object.display()
            )]
        );
    }

    #[test]
    fn what_is_not_an_object_is_named() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        let text = dir.join("notes.o");
        std::fs::write(&text, "not an object").unwrap();
        let e = calls(std::slice::from_ref(&text)).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("{}: not an object file", text.display())),
            "{e}"
        );
        let missing = dir.join("missing.o");
        let e = format!("{:#}", calls(std::slice::from_ref(&missing)).unwrap_err());
        assert!(e.contains(&missing.display().to_string()), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// After modpost failed: the sites modpost names, and the functions the objects of the
    /// module's directory hold them in.
    #[test]
    fn a_failed_module_build_is_explained() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        build_sites(
            &dir,
            "driver",
            "x86_64-unknown-none",
            &[
                "-Csymbol-mangling-version=v0",
                "-Crelocation-model=static",
                "-Ccode-model=kernel",
            ],
        );
        let log = "ERROR: modpost: driver.ko: symbol 'kernel-core: build_assert!() not proven at src/lib.rs:12:9' undefined!\n\
                   ERROR: modpost: driver.ko: symbol 'rust_build_error' undefined!\n";
        let lines = explain(&dir, log);
        let object = dir.join("driver.o");
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(
            lines,
            [
                "a build_assert!() or build_error!() call survived optimization: modpost finds rust_build_error undefined".to_string(),
                "the sites, as modpost names them:".to_string(),
                "  src/lib.rs:12:9: build_assert!() not proven (driver.ko)".to_string(),
                "the functions that hold them (the objects' relocations):".to_string(),
                format!("  src/lib.rs:12:9: build_assert!() not proven, in sites::checked ({})", object.display()),
                format!("  drivers/x.rs:7:13: build_error!() not proven unreachable, in <sites::Unprovable as sites::Module>::init ({})", object.display()),
                format!("  direct calls rust_build_error at a site with no name (a direct call, a crate built with debug assertions, or an older kernel-core) ({})", object.display()),
            ]
        );
    }
}
