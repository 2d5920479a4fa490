// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What the bench reads from object files, with the `object` crate rather than the text of
//! LLVM's tools: the functions of an object and their machine code, instruction counts where
//! the encoding tells an instruction's length, the allocated section sizes of a module, its
//! defined symbols and its merged strings. Any ELF file: 32 or 64 bits, either byte order.

use cargo_kernel_core::infra::error::Context as _;
use cargo_kernel_core::infra::error::Result;
use cargo_kernel_core::pipeline::build_error::demangle;
use object::{
    Architecture, Object, ObjectSection, ObjectSymbol, SectionFlags, SectionKind, SymbolKind,
    SymbolSection,
};
use std::collections::BTreeMap;
use std::path::Path;

/// Reads `path` and parses it as an object file; the closure gets the parsed file.
fn with_object<T>(path: &Path, read: impl FnOnce(&object::File<'_>) -> T) -> Result<T> {
    let data = std::fs::read(path).at(path)?;
    let file = object::File::parse(&*data)
        .map_err(|e| anyhow::anyhow!("{}: not an object file: {e}", path.display()))?;
    Ok(read(&file))
}

/// A function's place and code in an object file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Function {
    /// Its section's name.
    pub(crate) section: String,
    /// Its offset in the section.
    pub(crate) address: u64,
    /// Its machine code.
    pub(crate) code: Vec<u8>,
}

/// The global functions of an object, by symbol name, and its architecture. Names that the
/// compiler merged into one body (identical code) are each there, with the same place.
pub(crate) fn functions(path: &Path) -> Result<(Architecture, BTreeMap<String, Function>)> {
    with_object(path, |file| {
        let mut functions = BTreeMap::new();
        for symbol in file.symbols() {
            if symbol.kind() != SymbolKind::Text || !symbol.is_global() || symbol.is_undefined() {
                continue;
            }
            let (Ok(name), Some(index)) = (symbol.name(), symbol.section_index()) else {
                continue;
            };
            let Ok(section) = file.section_by_index(index) else {
                continue;
            };
            // A Thumb function's address has bit 0 set.
            let address = if file.architecture() == Architecture::Arm {
                symbol.address() & !1
            } else {
                symbol.address()
            };
            let code = section
                .data_range(address, symbol.size())
                .ok()
                .flatten()
                .unwrap_or_default()
                .to_vec();
            functions.insert(
                name.to_string(),
                Function {
                    section: section.name().unwrap_or_default().to_string(),
                    address,
                    code,
                },
            );
        }
        (file.architecture(), functions)
    })
}

/// The instructions in `code`, on the architectures whose encoding tells each instruction's
/// length without decoding it: AArch64 (every instruction is 4 bytes) and RISC-V with or
/// without the compressed extension (a 16-bit parcel whose two low bits are not `11` is a
/// compressed instruction, any other starts a 32-bit one; RV64GC has no longer ones).
/// `None` elsewhere: x86's instructions take a decoder to tell apart.
pub(crate) fn instructions(architecture: Architecture, code: &[u8]) -> Option<usize> {
    match architecture {
        Architecture::Aarch64 | Architecture::LoongArch64 => Some(code.len() / 4),
        Architecture::Riscv64 | Architecture::Riscv32 => {
            let mut count = 0;
            let mut at = 0;
            while at < code.len() {
                at += if code[at] & 0b11 == 0b11 { 4 } else { 2 };
                count += 1;
            }
            Some(count)
        }
        _ => None,
    }
}

/// Allocated bytes of an ELF file, by kind.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(crate) struct Sizes {
    /// Executable sections (`.text`, `.init.text`, `.text.unlikely.`, ...).
    pub(crate) text: u64,
    /// Read-only data (`.rodata`, `.rodata.str1.1`, ...).
    pub(crate) rodata: u64,
    /// Every other allocated section (`.data`, `.bss`, `.modinfo`, `__versions`, ...).
    pub(crate) other: u64,
}

/// The allocated sections of `path` by kind, relocation sections left out.
pub(crate) fn sizes(path: &Path) -> Result<Sizes> {
    with_object(path, |file| {
        let mut sizes = Sizes::default();
        for section in file.sections() {
            let SectionFlags::Elf { sh_flags } = section.flags() else {
                continue;
            };
            let flag = |f: u32| sh_flags & u64::from(f) != 0;
            // Relocations (`SHT_REL`, `SHT_RELA`) and the other tables are metadata.
            if !flag(object::elf::SHF_ALLOC) || section.kind() == SectionKind::Metadata {
                continue;
            }
            let name = section.name().unwrap_or_default();
            if flag(object::elf::SHF_EXECINSTR) {
                sizes.text += section.size();
            } else if name.contains("rodata") && !flag(object::elf::SHF_WRITE) {
                sizes.rodata += section.size();
            } else {
                sizes.other += section.size();
            }
        }
        sizes
    })
}

/// The defined symbols of an object with a size, largest first (then by name), with `nm`'s
/// letter for their kind and their names demangled.
pub(crate) fn symbols(path: &Path) -> Result<Vec<(u64, char, String)>> {
    with_object(path, |file| {
        let mut found: Vec<(u64, char, String)> = file
            .symbols()
            .filter(|s| s.is_definition() && s.size() > 0)
            .filter_map(|s| Some((s.size(), nm_letter(file, &s), demangle(s.name().ok()?))))
            .collect();
        found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.2.cmp(&b.2)));
        found
    })
}

/// `nm`'s letter for a defined symbol: `T` in code, `D` in writable data, `B` in zeroed data,
/// `R` in other allocated sections (read-only data, notes), `N` in the rest; `W`/`V` weak, `A`
/// absolute, `C` common; lowercase if local.
fn nm_letter<'data>(file: &object::File<'data>, symbol: &object::Symbol<'data, '_>) -> char {
    let letter = match symbol.section() {
        SymbolSection::Absolute => 'a',
        SymbolSection::Common => 'c',
        _ if symbol.is_weak() => {
            return if symbol.kind() == SymbolKind::Data {
                'V'
            } else {
                'W'
            };
        }
        SymbolSection::Section(index) => match file.section_by_index(index) {
            Ok(section) => {
                let flags = match section.flags() {
                    SectionFlags::Elf { sh_flags } => sh_flags,
                    _ => 0,
                };
                let flag = |f: u32| flags & u64::from(f) != 0;
                if matches!(
                    section.kind(),
                    SectionKind::UninitializedData | SectionKind::UninitializedTls
                ) {
                    'b'
                } else if flag(object::elf::SHF_EXECINSTR) {
                    't'
                } else if flag(object::elf::SHF_ALLOC) && flag(object::elf::SHF_WRITE) {
                    'd'
                } else if flag(object::elf::SHF_ALLOC) {
                    'r'
                } else {
                    'n'
                }
            }
            Err(_) => 'n',
        },
        _ => 'n',
    };
    if symbol.is_global() {
        letter.to_ascii_uppercase()
    } else {
        letter
    }
}

/// The strings of the merged string sections (`.rodata.str*`) of an object, in order.
pub(crate) fn rodata_strings(path: &Path) -> Result<Vec<String>> {
    with_object(path, |file| {
        file.sections()
            .filter(|s| s.name().is_ok_and(|n| n.starts_with(".rodata.str")))
            .flat_map(|s| {
                s.data()
                    .unwrap_or_default()
                    .split(|&b| b == 0)
                    .filter(|text| !text.is_empty())
                    .map(|text| String::from_utf8_lossy(text).into_owned())
                    .collect::<Vec<_>>()
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// Functions of known code (`ret_only` is one `ret` on every target, `mixed` is longer),
    /// data, and a C string, which goes to a merged string section.
    const SOURCE: &str = r#"#![no_std]
#[no_mangle]
pub extern "C" fn ret_only() {}
#[no_mangle]
pub extern "C" fn mixed(a: u64, b: u64) -> u64 {
    a.wrapping_mul(b).rotate_left(7) ^ (a >> 3)
}
#[no_mangle]
pub static GREETING: [u8; 6] = *b"hello\0";
#[no_mangle]
pub static mut COUNTER: u64 = 1;
#[no_mangle]
pub fn message() -> &'static core::ffi::CStr {
    c"kernel_core/time.rs"
}
"#;

    /// Builds [`SOURCE`] for `target` into `dir`.
    fn build(dir: &Path, target: &str) -> std::path::PathBuf {
        let source = dir.join("lib.rs");
        std::fs::write(&source, SOURCE).unwrap();
        let object = dir.join(format!("{target}.o"));
        let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
        let status = Command::new(rustc)
            .args([
                "--edition=2021",
                "--crate-type=lib",
                "-O",
                "--target",
                target,
            ])
            .args(["-Ccodegen-units=1", "--emit=obj", "-o"])
            .arg(&object)
            .arg(&source)
            .status()
            .unwrap();
        assert!(status.success(), "rustc for {target}");
        object
    }

    /// Whether `object` has a section whose name starts with `prefix`.
    fn object_has_section(object: &Path, prefix: &str) -> bool {
        with_object(object, |file| {
            file.sections()
                .any(|s| s.name().is_ok_and(|n| n.starts_with(prefix)))
        })
        .unwrap()
    }

    fn scratch(tag: &str) -> cargo_kernel_core::infra::files::TempDir {
        cargo_kernel_core::infra::files::scratch_dir(&format!("kc-bench-{tag}-")).unwrap()
    }

    #[test]
    fn instruction_lengths_come_from_the_encoding() {
        // aarch64: `mul x8, x1, x0`, `ret`.
        assert_eq!(instructions(Architecture::Aarch64, &[0; 8]), Some(2));
        // riscv64: `c.ret` (0x8082), `addi a0, a0, 1` (0x00150513), `c.nop` (0x0001).
        let code = [0x82, 0x80, 0x13, 0x05, 0x15, 0x00, 0x01, 0x00];
        assert_eq!(instructions(Architecture::Riscv64, &code), Some(3));
        assert_eq!(instructions(Architecture::X86_64, &[0xc3]), None);
    }

    #[test]
    fn functions_and_their_instructions_on_aarch64_and_riscv64() {
        let scratch = scratch("functions");
        let dir = scratch.path();
        for (target, architecture, ret) in [
            ("aarch64-unknown-none", Architecture::Aarch64, 1),
            ("riscv64imac-unknown-none-elf", Architecture::Riscv64, 1),
            ("x86_64-unknown-none", Architecture::X86_64, 1),
        ] {
            let object = build(dir, target);
            let (found, functions) = functions(&object).unwrap();
            assert_eq!(found, architecture);
            let ret_only = &functions["ret_only"];
            assert!(
                ret_only.section.starts_with(".text"),
                "{target}: {ret_only:?}"
            );
            match instructions(found, &ret_only.code) {
                Some(count) => assert_eq!(count, ret, "{target}: {ret_only:?}"),
                None => assert_eq!(ret_only.code, [0xc3], "x86_64's ret"),
            }
            let mixed = instructions(found, &functions["mixed"].code);
            assert!(mixed.is_none_or(|n| n > 2), "{target}: {mixed:?}");
            assert!(!functions.contains_key("GREETING"), "data is no function");
        }
    }

    #[test]
    fn sections_symbols_and_strings() {
        let scratch = scratch("sizes");
        let dir = scratch.path();
        let object = build(dir, "x86_64-unknown-none");
        let found = sizes(&object).unwrap();
        let text: u64 = functions(&object)
            .unwrap()
            .1
            .values()
            .map(|f| f.code.len() as u64)
            .sum();
        assert_eq!(found.text, text);
        assert!(found.rodata >= 6 + 20, "{found:?}");
        assert!(found.other >= 8, "{found:?}");
        let symbols = symbols(&object).unwrap();
        assert!(
            symbols.contains(&(6, 'R', "GREETING".into())),
            "{symbols:?}"
        );
        assert!(symbols.contains(&(8, 'D', "COUNTER".into())), "{symbols:?}");
        assert!(
            symbols.iter().any(|s| s.1 == 'T' && s.2 == "mixed"),
            "{symbols:?}"
        );
        assert!(
            symbols.windows(2).all(|w| w[0].0 >= w[1].0),
            "largest first"
        );
        // Since Rust 1.86 or so a C string literal goes to a merged string section; 1.85 puts it
        // in an unnamed `.rodata..L__unnamed_*` section, which is no merged string section.
        let merged = object_has_section(&object, ".rodata.str");
        let expected: &[&str] = if merged {
            &["kernel_core/time.rs"]
        } else {
            &[]
        };
        assert_eq!(
            rodata_strings(&object).unwrap(),
            expected,
            "merged: {merged}"
        );
        let bad = dir.join("bad.o");
        std::fs::write(&bad, "text").unwrap();
        let e = sizes(&bad).unwrap_err().to_string();
        assert!(e.contains("bad.o: not an object file"), "{e}");
    }
}
