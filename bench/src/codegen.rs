// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Part 2: the machine code of kernel-core's run-time functions, against hand-written code.
//!
//! `bench/templates/codegen.rs` holds `#[no_mangle]` wrappers, `ours_*` calling kernel-core and
//! `ref_*` doing the same arithmetic by hand. It is built as a `no_std` library with
//! `--release` and one codegen unit for each bare-metal target, emitting an object file, whose
//! symbols and machine code the `object` crate reads ([`super::objects`]).
//!
//! Counting instructions: on aarch64 every instruction is 4 bytes, and on riscv64 the two low
//! bits of each 16-bit parcel tell a compressed instruction from a 32-bit one, so there the
//! count comes from the function's bytes. x86's instructions have no such length field (only a
//! full decoder of prefixes, opcodes and operands tells where one ends), so on x86_64 the count
//! is that of `llvm-objdump-19 -d`, the disassembler, within the function's bytes as `object`
//! places them; the disassemblies of every target stay in `target/bench/codegen/<target>.dis`
//! for people, and give the listings of the report, where on aarch64 and riscv64 they must
//! agree with the count from the bytes.

use super::{captured, cargo, objects, touch, write_if_changed, Goal, Part};
use anyhow::bail;
use cargo_kernel_core::infra::error::Result;
use cargo_kernel_core::infra::progress;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// The wrappers' source.
const TEMPLATE: &str = include_str!("../templates/codegen.rs");

/// The targets, as `(rustup target, short name)`.
const TARGETS: &[(&str, &str)] = &[
    ("x86_64-unknown-none", "x86_64"),
    ("aarch64-unknown-none", "aarch64"),
    ("riscv64imac-unknown-none-elf", "riscv64"),
];

/// The rows of the tables: the symbol without its `ours_`/`ref_` prefix, and what it calls.
const ROWS: &[(&str, &str)] = &[
    (
        "const_align_up",
        "`const_align_up(v, Alignment::new::<4096>())`",
    ),
    ("const_align_up_var", "`const_align_up(v, align)`"),
    ("align_down_u8", "`u8::align_down` (16)"),
    ("align_up_u8", "`u8::align_up` (16)"),
    ("align_down_u8_var", "`u8::align_down(align)`"),
    ("align_up_u8_var", "`u8::align_up(align)`"),
    ("align_down_u16", "`u16::align_down` (4096)"),
    ("align_up_u16", "`u16::align_up` (4096)"),
    ("align_down_u16_var", "`u16::align_down(align)`"),
    ("align_up_u16_var", "`u16::align_up(align)`"),
    ("align_down_u32", "`u32::align_down` (4096)"),
    ("align_up_u32", "`u32::align_up` (4096)"),
    ("align_down_u32_var", "`u32::align_down(align)`"),
    ("align_up_u32_var", "`u32::align_up(align)`"),
    ("align_down_u64", "`u64::align_down` (4096)"),
    ("align_up_u64", "`u64::align_up` (4096)"),
    ("align_down_u64_var", "`u64::align_down(align)`"),
    ("align_up_u64_var", "`u64::align_up(align)`"),
    ("align_down_usize", "`usize::align_down` (4096)"),
    ("align_up_usize", "`usize::align_up` (4096)"),
    ("align_down_usize_var", "`usize::align_down(align)`"),
    ("align_up_usize_var", "`usize::align_up(align)`"),
    ("delta_from_micros", "`Delta::from_micros`"),
    ("delta_from_secs", "`Delta::from_secs`"),
    ("delta_as_micros_ceil", "`Delta::as_micros_ceil`"),
    ("delta_as_millis", "`Delta::as_millis`"),
    (
        "delta_as_millis_ceil",
        "`Delta::as_millis_ceil` (ref: 7.3's form)",
    ),
    ("delta_rem_nanos", "`Delta::rem_nanos`"),
];

/// Why kernel-core's version of a row may take more instructions than the reference: shown
/// only for rows where it does. Rows without an entry are reported as unexplained. None is
/// needed at present: kernel-core's version is nowhere longer (see `bench/RESULTS.md`).
const EXPLANATIONS: &[(&str, &str)] = &[];

/// The functions of an object file and the symbols that name them.
///
/// Rust merges functions whose machine code is identical into one body with several names
/// (aliases), so a function is keyed by its section and address.
pub(super) struct Disassembly {
    /// Each function by `(section, address)`.
    functions: BTreeMap<(String, u64), Code>,
    /// Where each global function symbol points: `(section, address)`.
    symbols: BTreeMap<String, (String, u64)>,
}

/// One function's code.
pub(super) struct Code {
    /// Its instructions.
    count: usize,
    /// Its instructions as `llvm-objdump -d` shows them.
    listing: Vec<String>,
}

impl Disassembly {
    /// The code of the function `symbol` names.
    pub(super) fn code(&self, symbol: &str) -> Option<&Code> {
        self.functions.get(self.symbols.get(symbol)?)
    }

    /// The instructions of the function `symbol` names, disassembled.
    pub(super) fn listing(&self, symbol: &str) -> Option<&[String]> {
        self.code(symbol).map(|c| c.listing.as_slice())
    }

    /// The number of instructions of `symbol`.
    pub(super) fn count(&self, symbol: &str) -> usize {
        self.code(symbol).map_or(0, |c| c.count)
    }

    /// Whether `a` and `b` name the very same code.
    pub(super) fn same(&self, a: &str, b: &str) -> bool {
        self.symbols
            .get(a)
            .is_some_and(|k| self.symbols.get(b) == Some(k))
    }
}

/// The instructions of `llvm-objdump -d` output, by section: `(address, instruction)`.
///
/// A section starts at `Disassembly of section <name>:`, and each instruction is an
/// `  <address>: <instruction>` line; the labels between them are not instructions.
fn instructions(disassembly: &str) -> BTreeMap<String, Vec<(u64, String)>> {
    let mut sections: BTreeMap<String, Vec<(u64, String)>> = BTreeMap::new();
    let mut section = String::new();
    for line in disassembly.lines() {
        if let Some(name) = line
            .strip_prefix("Disassembly of section ")
            .and_then(|l| l.strip_suffix(':'))
        {
            section = name.to_string();
            continue;
        }
        let Some((address, instruction)) = line.trim_start().split_once(':') else {
            continue;
        };
        let (Ok(address), false) = (
            u64::from_str_radix(address, 16),
            instruction.trim().is_empty(),
        ) else {
            continue;
        };
        sections.entry(section.clone()).or_default().push((
            address,
            instruction.split_whitespace().collect::<Vec<_>>().join(" "),
        ));
    }
    sections
}

/// Builds the wrappers for `target`, reads their functions and counts their instructions.
fn build(dir: &Path, target: &str, short: &str) -> Result<Disassembly> {
    let object = dir.join(format!("{short}.o"));
    let _ = std::fs::remove_file(&object);
    // cargo does not know about the object: make it rebuild the crate.
    touch(&dir.join("lib.rs"))?;
    captured(
        cargo(dir)
            .args(["rustc", "--quiet", "--lib", "--release", "--target", target])
            .arg("--")
            .arg(format!("--emit=obj={}", object.display())),
    )
    .map_err(|e| {
        anyhow::anyhow!("{e}\n    is the target installed? `rustup +stable target add {target}`")
    })?;
    if !object.exists() {
        bail!("rustc wrote no {}", object.display());
    }
    disassemble(&object, &dir.join(format!("{short}.dis")))
}

/// The functions of `object` and their instructions; its disassembly is kept in `dis`.
pub(super) fn disassemble(object: &Path, dis: &Path) -> Result<Disassembly> {
    let object = object.to_path_buf();
    let (architecture, functions) = objects::functions(&object)?;
    let text = captured(
        Command::new("llvm-objdump-19")
            .args(["-d", "--no-show-raw-insn"])
            .arg(&object),
    )
    .map_err(|e| anyhow::anyhow!("{e}\n    llvm-objdump-19 comes with `apt install llvm-19`"))?;
    write_if_changed(dis, &text)?;
    let disassembled = instructions(&text);
    let mut result = Disassembly {
        functions: BTreeMap::new(),
        symbols: BTreeMap::new(),
    };
    for (name, function) in functions {
        let end = function.address + function.code.len() as u64;
        let listing: Vec<String> = disassembled
            .get(&function.section)
            .into_iter()
            .flatten()
            .filter(|(address, _)| (function.address..end).contains(address))
            .map(|(_, instruction)| instruction.clone())
            .collect();
        let count = match objects::instructions(architecture, &function.code) {
            Some(count) if count != listing.len() => bail!(
                "{name} in {}: {count} instructions by their encoding, {} disassembled (see {})",
                object.display(),
                listing.len(),
                dis.display()
            ),
            Some(count) => count,
            // x86_64: the disassembler's count (see the module documentation).
            None => listing.len(),
        };
        let key = (function.section, function.address);
        result.symbols.insert(name, key.clone());
        result.functions.insert(key, Code { count, listing });
    }
    Ok(result)
}

/// Generates the crate, builds it for every target and reports.
pub(super) fn run(repo: &Path, out: &Path) -> Result<Part> {
    let dir = out.join("codegen");
    write_if_changed(
        &dir.join("Cargo.toml"),
        format!(
            "# Generated by `cargo xtask bench`.\n[package]\nname = \"kernel_core_bench_codegen\"\n\
             version = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[lib]\npath = \"lib.rs\"\n\n\
             [dependencies]\nkernel-core = {{ path = \"{}\" }}\n\n[profile.release]\n\
             codegen-units = 1\ndebug = false\nincremental = false\n\n[workspace]\n",
            repo.join("kernel-core").display()
        ),
    )?;
    write_if_changed(&dir.join("lib.rs"), TEMPLATE)?;

    let mut results = Vec::new();
    for (target, short) in TARGETS {
        let start = progress::step(&format!(
            "building the wrappers for {target} (--release) and counting instructions"
        ));
        let dis = build(&dir, target, short)?;
        for (row, _) in ROWS {
            for side in ["ours", "ref"] {
                if dis.code(&format!("{side}_{row}")).is_none() {
                    bail!(
                        "{side}_{row} is missing from the {target} object (see {})",
                        dir.join(format!("{short}.dis")).display()
                    );
                }
            }
        }
        progress::done(&format!("{} functions", dis.functions.len()), start);
        results.push((*target, *short, dis));
    }

    let mut md = String::new();
    let mut goals = Vec::new();
    md.push_str(
        "Each row is a `#[no_mangle] extern \"C\"` wrapper around the kernel-core call, next to \
         a hand-written reference doing the same arithmetic (`bench/templates/codegen.rs`), \
         built with `cargo +stable rustc --release` (one codegen unit) for each bare-metal \
         target; the figures are instruction counts of each symbol in the object file, read \
         with the `object` crate (4-byte instructions on aarch64, 2- or 4-byte ones told apart \
         by their low bits on riscv64; on x86_64, whose instructions only a decoder tells \
         apart, `llvm-objdump-19 -d`'s count; the disassemblies are in \
         `target/bench/codegen/`). `(16)`, \
         `(4096)`: a constant alignment; `(align)`: an `Alignment` passed in (a plain `usize` \
         for the reference). `≡`: the compiler found the two functions identical and merged \
         them into one body with both names. Goal: equal or fewer instructions everywhere.\n\n",
    );
    let mut header = String::from("| function |");
    let mut rule = String::from("|---|");
    for (_, short, _) in &results {
        let _ = write!(header, " {short} ours | {short} ref |");
        rule.push_str("---|---|");
    }
    let _ = writeln!(md, "{header}\n{rule}");
    let mut excess: Vec<(&str, &str, usize, usize)> = Vec::new();
    for (row, label) in ROWS {
        let _ = write!(md, "| {label} |");
        for (_, short, dis) in &results {
            let ours = dis.count(&format!("ours_{row}"));
            let reference = dis.count(&format!("ref_{row}"));
            let mark = match ours.cmp(&reference) {
                std::cmp::Ordering::Greater => {
                    excess.push((row, short, ours, reference));
                    format!("**{ours}** (+{})", ours - reference)
                }
                std::cmp::Ordering::Less => format!("{ours} (−{})", reference - ours),
                std::cmp::Ordering::Equal
                    if dis.same(&format!("ours_{row}"), &format!("ref_{row}")) =>
                {
                    format!("{ours} ≡")
                }
                std::cmp::Ordering::Equal => ours.to_string(),
            };
            let _ = write!(md, " {mark} | {reference} |");
        }
        md.push('\n');
    }
    md.push('\n');

    for (_, short, dis) in &results {
        let (mut worse, mut equal, mut better) = (0, 0, 0);
        for (row, _) in ROWS {
            let ours = dis.count(&format!("ours_{row}"));
            let reference = dis.count(&format!("ref_{row}"));
            match ours.cmp(&reference) {
                std::cmp::Ordering::Greater => worse += 1,
                std::cmp::Ordering::Equal => equal += 1,
                std::cmp::Ordering::Less => better += 1,
            }
        }
        let figure = format!(
            "{} of {} equal or fewer ({equal} equal, {better} fewer, {worse} more)",
            ROWS.len() - worse,
            ROWS.len()
        );
        println!("    {short}: {figure}");
        goals.push(Goal {
            what: format!("{short}: functions with no more instructions than the reference"),
            figure,
            goal: "all".to_string(),
            met: Some(worse == 0),
        });
    }

    if excess.is_empty() {
        md.push_str(
            "kernel-core's version is nowhere longer than the reference: the goal is met on \
             every target.\n\n",
        );
    } else {
        md.push_str("### Where kernel-core's version is longer\n\n");
        let mut rows: Vec<&str> = excess.iter().map(|e| e.0).collect();
        rows.dedup();
        for row in rows {
            let targets: Vec<String> = excess
                .iter()
                .filter(|e| e.0 == row)
                .map(|e| format!("{} ({} against {})", e.1, e.2, e.3))
                .collect();
            let explanation = EXPLANATIONS
                .iter()
                .find(|(r, _)| *r == row)
                .map_or("Not explained yet: compare the listings below.", |e| e.1);
            let _ = writeln!(md, "- `{row}`, on {}: {explanation}\n", targets.join(", "));
            println!("    ours_{row} is longer on {}", targets.join(", "));
            for (_, short, dis) in &results {
                if !excess.iter().any(|e| e.0 == row && e.1 == *short) {
                    continue;
                }
                let listing = |side: &str| {
                    dis.listing(&format!("{side}_{row}"))
                        .map(|l| l.join("\n"))
                        .unwrap_or_default()
                };
                let _ = writeln!(
                    md,
                    "  <details><summary>{short}: ours_{row} and ref_{row}</summary>\n\n  \
                     ```\n{}\n  ```\n\n  ```\n{}\n  ```\n\n  </details>\n",
                    indent(&listing("ours")),
                    indent(&listing("ref"))
                );
            }
        }
    }
    Ok(Part {
        markdown: md,
        goals,
    })
}

/// Indents every line by two spaces, to stay inside a list item.
fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
