// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Reads the Linux 7.3 kernel's own `rust/kernel/{time,ptr,sizes,build_assert,bits}.rs`,
//! `ptr/projection.rs`,
//! `num.rs`, `num/{bounded,casts}.rs`, `impl_flags.rs`, `bitfield.rs`, `io/register.rs`,
//! `str.rs`, `str/parse_int.rs`, `fmt.rs`, `alloc.rs`, `alloc/{kvec,kvec/errors,layout}.rs`,
//! `list.rs` and `list/{impl_list_item_mod,arc,arc_field}.rs` from the
//! tree in `KERNEL_CORE_LINUX_SRC` and writes a minimally adapted copy of each into `OUT_DIR`,
//! where `src/lib.rs` `include!`s it inside a module of the same name.
//!
//! The adaptation is mechanical and strict:
//!
//! - every line whose first non-blank characters are `//!` is dropped: `include!` cannot take
//!   inner attributes, and inner doc comments are inner attributes;
//! - a fixed list of lines, each expected exactly once, is dropped: the out-of-line submodules,
//!   either not built here (`pub mod delay;`, `pub mod hrtimer;`) or declared by `src/lib.rs`
//!   around their own included files (`num`'s `bounded` and `casts`, `ptr`'s `projection`,
//!   `str`'s `parse_int`, `alloc`'s `kvec` and `layout`, `kvec`'s `errors`) or as mocks (`alloc`'s `allocator` and
//!   `kbox`);
//! - a fixed list of lines, each expected exactly once, is replaced (see [`REPLACE_LINES`]):
//!   one `use` of `list/arc.rs`, so that it allocates with the flags of the `sync` it is given;
//! - on targets without `CONFIG_64BIT` only, a fixed list of items is dropped whole, from
//!   their first line (expected exactly once) through the next line that is a lone `}`: 7.3's
//!   `fmt.rs` KUnit suite, whose 32-bit expectation is wrong (see [`DROP_ITEMS_32BIT`]);
//! - anything else that `include!` or the mock crate cannot take (another inner attribute,
//!   another out-of-line `mod`) fails the build.
//!
//! Every expectation that does not hold panics with the file and the line, so a kernel whose
//! files changed never silently compiles into something else. Nothing else is rewritten: the
//! names the files reach (`bindings`, `crate::ffi`, `build_error`, the `#[macro_export]` macros)
//! resolve in the mock crate exactly as in the kernel's `kernel` crate.
//!
//! It also sets `cfg(CONFIG_64BIT)` on 64-bit targets and `cfg(CONFIG_RUST_OVERFLOW_CHECKS)` with
//! debug assertions, as the kernel's `include/generated/rustc_cfg` would (kernel-core's host build
//! uses debug assertions as its stand-in for `CONFIG_RUST_OVERFLOW_CHECKS`), and writes
//! `sizes_documented.rs`, the `SZ_*` values as the kernel's `sizes.rs` documents them, so that the
//! mock `bindings` can be checked against the kernel's own text, and `bits_declared.rs`, the
//! functions the kernel's `bits.rs` declares and the widths it declares them for, so that the
//! differential tests of `bits` can check that they cover all of them.

use std::{
    env, fs,
    path::{Path, PathBuf},
};

/// The variable naming the extracted kernel tree.
const SRC_VAR: &str = "KERNEL_CORE_LINUX_SRC";

/// The kernel release these files are expected from.
const VERSION: (u32, u32) = (7, 3);

/// One kernel file and the lines to drop from it, each expected exactly once.
struct Module {
    name: &'static str,
    drop_lines: &'static [&'static str],
}

const MODULES: &[Module] = &[
    Module {
        name: "time",
        drop_lines: &["pub mod delay;", "pub mod hrtimer;"],
    },
    // `ptr.rs` declares its submodule, which `src/lib.rs` declares instead around its own
    // included file (written as `ptr_projection.rs`).
    Module {
        name: "ptr",
        drop_lines: &["pub mod projection;"],
    },
    Module {
        name: "ptr/projection",
        drop_lines: &[],
    },
    Module {
        name: "sizes",
        drop_lines: &[],
    },
    Module {
        name: "build_assert",
        drop_lines: &[],
    },
    Module {
        name: "bits",
        drop_lines: &[],
    },
    // `num.rs` declares its two submodules, which `src/lib.rs` declares instead around their
    // own included files (written as `num_bounded.rs` and `num_casts.rs`).
    Module {
        name: "num",
        drop_lines: &["pub mod bounded;", "pub mod casts;"],
    },
    Module {
        name: "num/bounded",
        drop_lines: &[],
    },
    Module {
        name: "num/casts",
        drop_lines: &[],
    },
    Module {
        name: "impl_flags",
        drop_lines: &[],
    },
    Module {
        name: "bitfield",
        drop_lines: &[],
    },
    // `str.rs` declares its submodule, which `src/lib.rs` declares instead around its own
    // included file (written as `str_parse_int.rs`).
    Module {
        name: "str",
        drop_lines: &["pub mod parse_int;"],
    },
    Module {
        name: "str/parse_int",
        drop_lines: &[],
    },
    // `fmt.rs`, whose `Display` `str.rs` implements for `CStr` and `BStr`; its KUnit suite
    // (`#[macros::kunit_tests]`, kernel-core's on the host) runs in this crate's own tests, on
    // 64-bit targets (see `DROP_ITEMS_32BIT`).
    Module {
        name: "fmt",
        drop_lines: &[],
    },
    // `alloc.rs` declares its four submodules, which `src/lib.rs` declares instead: `kvec` and
    // `layout` around their own included files, `allocator` and `kbox` as mocks over the host's
    // allocator.
    Module {
        name: "alloc",
        drop_lines: &[
            "pub mod allocator;",
            "pub mod kbox;",
            "pub mod kvec;",
            "pub mod layout;",
        ],
    },
    // `kvec.rs` declares `mod errors;`, which `src/lib.rs` declares around its included file.
    Module {
        name: "alloc/kvec",
        drop_lines: &["mod errors;"],
    },
    Module {
        name: "alloc/kvec/errors",
        drop_lines: &[],
    },
    Module {
        name: "alloc/layout",
        drop_lines: &[],
    },
    // `list.rs` declares its three submodules, which `src/lib.rs` declares instead around their
    // own included files.
    Module {
        name: "list",
        drop_lines: &["mod impl_list_item_mod;", "mod arc;", "mod arc_field;"],
    },
    Module {
        name: "list/impl_list_item_mod",
        drop_lines: &[],
    },
    // `ListArc`'s `#[derive(core::marker::CoercePointee)]` (unsize coercions to `ListArc<dyn
    // Trait>`) is unstable outside the kernel, which enables `derive_coerce_pointee`; kernel-core's
    // host `ListArc` does not coerce either (its documentation says so).
    Module {
        name: "list/arc",
        drop_lines: &["#[derive(core::marker::CoercePointee)]"],
    },
    Module {
        name: "list/arc_field",
        drop_lines: &[],
    },
    // `io/register.rs` alone: `io.rs` itself needs the kernel's vendored `zerocopy` and
    // `ptr::project!`, so `src/lib.rs` declares the two items of it that `register.rs` reaches.
    Module {
        name: "io/register",
        drop_lines: &[],
    },
];

/// Items dropped whole on targets without `CONFIG_64BIT`: `(module, first line of the item)`.
///
/// 7.3's `fmt.rs` KUnit suite `rust_kernel_fmt`, which runs here against the mock
/// `scnprintf()` of a kernel booted with `no_hash_pointers`, expects `{:0100p}` to print, on
/// 32-bit, `0x` and 30 digits (its `CLAMPED`): 32 characters, where `HashedPtr` clamps the width
/// to 31, all that its 32-byte buffer holds with the NUL (its 64-bit `CLAMPED` has 31). That
/// expectation is 7.3's own bug, which a 32-bit kernel booted so would report too; the suite runs
/// on 64-bit targets, and `tests/fmt.rs` compares `{:p}` with kernel-core's on all.
const DROP_ITEMS_32BIT: &[(&str, &str)] = &[("fmt", "#[macros::kunit_tests(rust_kernel_fmt)]")];

/// Lines replaced, each expected exactly once: `(module, line, replacement)`.
///
/// `list/arc.rs` makes its `ListArc`s with `UniqueArc::try_pin_init(init, flags)`, and `sync`'s
/// `UniqueArc` here is kernel-core's, which takes kernel-core's allocation flags: its `Flags`
/// and `AllocError` come from kernel-core's `alloc`, not from the included `alloc.rs` (whose
/// `Flags` has the same values but is another type).
const REPLACE_LINES: &[(&str, &str, &str)] = &[(
    "list/arc",
    "use crate::alloc::{AllocError, Flags};",
    "use kernel_core::alloc::{AllocError, Flags};",
)];

fn how_to_run() -> String {
    format!(
        "the differential tests compile the Linux {}.{} kernel's own rust/kernel/{{time,ptr,sizes,build_assert,bits,num,impl_flags,bitfield,str,fmt,alloc,list}}.rs, num/{{bounded,casts}}.rs, list/{{impl_list_item_mod,arc,arc_field}}.rs, io/register.rs, str/parse_int.rs and alloc/{{kvec,kvec/errors,layout}}.rs, and rust/macros/fmt.rs: \
         run them with `cargo xtask test`, which sets {SRC_VAR} to its cached tree, or set {SRC_VAR} \
         to an extracted Linux {}.{} source tree (the directory holding `rust/kernel/`)",
        VERSION.0, VERSION.1, VERSION.0, VERSION.1
    )
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed={SRC_VAR}");
    println!("cargo:rustc-check-cfg=cfg(CONFIG_64BIT)");
    println!("cargo:rustc-check-cfg=cfg(CONFIG_RUST_OVERFLOW_CHECKS)");
    // `bitfield.rs` has a KUnit suite behind this option, which is never set here.
    println!("cargo:rustc-check-cfg=cfg(CONFIG_RUST_BITFIELD_KUNIT_TEST)");
    // So have `alloc/kvec.rs` and `str.rs`.
    println!("cargo:rustc-check-cfg=cfg(CONFIG_RUST_KVEC_KUNIT_TEST)");
    println!("cargo:rustc-check-cfg=cfg(CONFIG_RUST_STR_KUNIT_TEST)");

    let is_64bit = env::var("CARGO_CFG_TARGET_POINTER_WIDTH").as_deref() == Ok("64");
    if is_64bit {
        println!("cargo:rustc-cfg=CONFIG_64BIT");
    }
    // Older cargo (1.85, measured here) leaves `CARGO_CFG_DEBUG_ASSERTIONS` unset for build
    // scripts; there the profile says it (`debug` for `dev` and `test`, whose debug assertions
    // are on).
    let debug_assertions = match env::var_os("CARGO_CFG_DEBUG_ASSERTIONS") {
        Some(_) => true,
        None => env::var("PROFILE").as_deref() == Ok("debug"),
    };
    if debug_assertions {
        println!("cargo:rustc-cfg=CONFIG_RUST_OVERFLOW_CHECKS");
    }

    let tree = match env::var_os(SRC_VAR) {
        Some(tree) if !tree.is_empty() => PathBuf::from(tree),
        _ => panic!("{SRC_VAR} is not set: {}", how_to_run()),
    };
    assert!(
        tree.join("rust/kernel").is_dir(),
        "{SRC_VAR}={} has no rust/kernel/ directory: {}",
        tree.display(),
        how_to_run()
    );
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));

    check_version(&tree);

    // `tests/doc_examples.rs` builds the kernel's doc examples with this crate's compiler, and
    // needs to know which release it is (`1.85`).
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let version = std::process::Command::new(&rustc)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_else(|e| panic!("running `{rustc} --version`: {e}"));
    // "rustc 1.85.0 (4d91de4e4 2025-02-17)" or "rustc 1.97.0-nightly (...)".
    let minor = version
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.split(['.', '-']).nth(1))
        .unwrap_or_else(|| panic!("cannot read a version in {version:?}"));
    println!("cargo:rustc-env=KERNEL_CORE_DIFFERENTIAL_RUSTC_MINOR={minor}");
    // `tests/real_code.rs` builds 7.3's drivers and samples with this same compiler, which must
    // be the one that built the kernel-core they link.
    println!("cargo:rustc-env=KERNEL_CORE_DIFFERENTIAL_RUSTC={rustc}");
    println!("cargo:rerun-if-env-changed=RUSTC");

    // `tests/real_code.rs` builds the kernel's drivers and samples for the host, whatever the
    // target: a run for another one (under qemu-user) leaves them to the host's runs.
    let target = env::var("TARGET").unwrap_or_default();
    let cross = if env::var("HOST").is_ok_and(|host| host == target) {
        ""
    } else {
        target.as_str()
    };
    println!("cargo:rustc-env=KERNEL_CORE_DIFFERENTIAL_CROSS={cross}");

    // `tests/doc_examples.rs` and `tests/real_code.rs` read the kernel's doc examples, drivers
    // and samples from the same tree at test time.
    let absolute = tree.canonicalize().unwrap_or_else(|_| tree.clone());
    println!(
        "cargo:rustc-env=KERNEL_CORE_DIFFERENTIAL_TREE={}",
        absolute.display()
    );

    for module in MODULES {
        let path = tree.join("rust/kernel").join(format!("{}.rs", module.name));
        println!("cargo:rerun-if-changed={}", path.display());
        let text = read(&path);
        let drop_items: Vec<&str> = DROP_ITEMS_32BIT
            .iter()
            .filter(|(name, _)| !is_64bit && *name == module.name)
            .map(|(_, first)| *first)
            .collect();
        let replace: Vec<(&str, &str)> = REPLACE_LINES
            .iter()
            .filter(|(name, _, _)| *name == module.name)
            .map(|&(_, line, replacement)| (line, replacement))
            .collect();
        let adapted = adapt(&path, &text, module.drop_lines, &drop_items, &replace);
        // A submodule's file, `num/bounded.rs`, is written as `num_bounded.rs`.
        write(
            &out.join(format!("{}.rs", module.name.replace('/', "_"))),
            &adapted,
        );

        if module.name == "sizes" {
            write(
                &out.join("sizes_documented.rs"),
                &documented_sizes(&path, &text),
            );
        }
        if module.name == "bits" {
            write(&out.join("bits_declared.rs"), &declared_bits(&path, &text));
        }
    }
}

fn read(path: &Path) -> String {
    match fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) => panic!("cannot read {}: {err}; {}", path.display(), how_to_run()),
    }
}

fn write(path: &Path, text: &str) {
    if let Err(err) = fs::write(path, text) {
        panic!("cannot write {}: {err}", path.display());
    }
}

/// Checks `VERSION` and `PATCHLEVEL` in the tree's top `Makefile`, when there is one (a tree
/// holding only `rust/` and a few other directories has none: then only a warning is printed).
fn check_version(tree: &Path) {
    let makefile = tree.join("Makefile");
    println!("cargo:rerun-if-changed={}", makefile.display());
    let Ok(text) = fs::read_to_string(&makefile) else {
        println!(
            "cargo:warning={} has no top-level Makefile: cannot check that it is Linux {}.{}",
            tree.display(),
            VERSION.0,
            VERSION.1
        );
        return;
    };
    let field = |name: &str| -> u32 {
        text.lines()
            .find_map(|line| {
                let (key, value) = line.split_once('=')?;
                (key.trim() == name).then(|| value.trim().to_owned())
            })
            .unwrap_or_else(|| panic!("{}: no `{name} =` line", makefile.display()))
            .parse()
            .unwrap_or_else(|err| panic!("{}: `{name}` is not a number: {err}", makefile.display()))
    };
    let found = (field("VERSION"), field("PATCHLEVEL"));
    assert!(
        found == VERSION,
        "{} is Linux {}.{}, but these differential tests are for Linux {}.{}; {}",
        tree.display(),
        found.0,
        found.1,
        VERSION.0,
        VERSION.1,
        how_to_run()
    );
}

/// The adaptation described in the module documentation: `drop_lines` are dropped, and each
/// item starting with a line of `drop_items` through the next lone `}`.
fn adapt(
    path: &Path,
    text: &str,
    drop_lines: &[&str],
    drop_items: &[&str],
    replace: &[(&str, &str)],
) -> String {
    let mut seen = vec![0usize; drop_lines.len()];
    let mut replaced = vec![0usize; replace.len()];
    let mut items_seen = vec![0usize; drop_items.len()];
    let mut in_item = false;
    let mut out = format!(
        "// Generated by kernel-core-differential's build.rs from {}: do not edit.\n",
        path.display()
    );

    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if in_item {
            in_item = line != "}";
            continue;
        }
        if let Some(which) = drop_items.iter().position(|first| *first == line) {
            items_seen[which] += 1;
            in_item = true;
            continue;
        }
        if trimmed.starts_with("//!") {
            continue;
        }
        if let Some(which) = drop_lines.iter().position(|drop| *drop == trimmed) {
            seen[which] += 1;
            continue;
        }
        if let Some(which) = replace.iter().position(|(from, _)| *from == trimmed) {
            replaced[which] += 1;
            out.push_str(replace[which].1);
            out.push('\n');
            continue;
        }
        if trimmed.starts_with("#![") {
            panic!(
                "{}:{}: unexpected inner attribute `{trimmed}`, which `include!` cannot take; \
                 update differential/build.rs for this kernel",
                path.display(),
                index + 1
            );
        }
        if is_out_of_line_mod(trimmed) {
            panic!(
                "{}:{}: unexpected out-of-line module `{trimmed}`; update differential/build.rs \
                 for this kernel",
                path.display(),
                index + 1
            );
        }
        out.push_str(line);
        out.push('\n');
    }

    assert!(
        !in_item,
        "{}: no lone `}}` ends the item dropped; update differential/build.rs for this kernel",
        path.display()
    );
    for (line, count) in drop_items.iter().zip(items_seen) {
        assert!(
            count == 1,
            "{}: expected the item starting `{line}` exactly once, found it {count} times; this \
             is not the Linux {}.{} file differential/build.rs was written for",
            path.display(),
            VERSION.0,
            VERSION.1
        );
    }
    let replaced_lines = replace.iter().map(|(line, _)| line).zip(replaced);
    for (line, count) in drop_lines.iter().zip(seen).chain(replaced_lines) {
        assert!(
            count == 1,
            "{}: expected the line `{line}` exactly once, found it {count} times; this is not the \
             Linux {}.{} file differential/build.rs was written for",
            path.display(),
            VERSION.0,
            VERSION.1
        );
    }
    out
}

/// `mod name;` or `pub mod name;` (with any visibility), which would make `include!` look for a
/// file next to the generated one.
fn is_out_of_line_mod(trimmed: &str) -> bool {
    let Some(rest) = trimmed.strip_suffix(';') else {
        return false;
    };
    let words: Vec<&str> = rest.split_whitespace().collect();
    matches!(words.as_slice(), [.., "mod", name] if name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric()))
}

/// The kernel's `sizes.rs` documents each constant as
///
/// ```text
///             /// `0x0000_0400`.
///             SZ_1K,
/// ```
///
/// This returns those pairs as a Rust table, `SIZES_DOCUMENTED: &[(&str, u64)]`.
fn documented_sizes(path: &Path, text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut table = String::from("/// `(name, value)` as documented in the kernel's `sizes.rs`.\n");
    table.push_str("pub const SIZES_DOCUMENTED: &[(&str, u64)] = &[\n");
    let mut count = 0;
    for pair in lines.windows(2) {
        let (Some(doc), Some(name)) = (
            pair[0]
                .strip_prefix("/// `0x")
                .and_then(|rest| rest.strip_suffix("`.")),
            pair[1].strip_suffix(','),
        ) else {
            continue;
        };
        if !name.starts_with("SZ_") {
            continue;
        }
        let value = u64::from_str_radix(&doc.replace('_', ""), 16).unwrap_or_else(|err| {
            panic!(
                "{}: `{}` is not a hexadecimal size: {err}",
                path.display(),
                pair[0]
            )
        });
        table.push_str(&format!("    (\"{name}\", {value:#x}),\n"));
        count += 1;
    }
    table.push_str("];\n");
    assert!(
        count > 0,
        "{}: expected documented constants such as \"/// `0x0000_0400`.\" followed by \"SZ_1K,\"; \
         found none",
        path.display()
    );
    table
}

/// The kernel's `bits.rs` declares its functions inside `macro_rules!` templates, one `paste!`d
/// name per width:
///
/// ```text
///             pub const fn [<bit_ $ty>](n: u32) -> $ty {
/// ...
/// impl_bit_fn!(u64);
/// impl_genmask_fn!(
///     u64,
/// ```
///
/// This returns them as a Rust table: `BITS_DECLARED: &[(&str, bool)]`, the prefix of each
/// function's name and whether it is a `const fn`, and `BITS_WIDTHS: &[(&str, &str)]`, the
/// macro and the type of each invocation. Any other public item fails the build, so a kernel
/// that adds one is not silently left untested.
fn declared_bits(path: &Path, text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut declared = Vec::new();
    let mut widths = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        if line.starts_with("//") {
            continue;
        }
        if let Some(rest) = line.strip_prefix("pub ") {
            let (is_const, rest) = match rest.strip_prefix("const ") {
                Some(rest) => (true, rest),
                None => (false, rest),
            };
            let prefix = rest
                .strip_prefix("fn [<")
                .and_then(|rest| rest.split_once(" $ty>]("))
                .map(|(prefix, _)| prefix)
                .unwrap_or_else(|| {
                    panic!(
                        "{}:{}: unexpected public item `{line}`; update differential/build.rs and \
                         differential/tests/bits.rs for this kernel",
                        path.display(),
                        index + 1
                    )
                });
            declared.push((prefix.to_owned(), is_const));
        }
        for mac in ["impl_bit_fn", "impl_genmask_fn"] {
            let Some(rest) = line.strip_prefix(mac).and_then(|r| r.strip_prefix("!(")) else {
                continue;
            };
            // `impl_bit_fn!(u64);` on one line, `impl_genmask_fn!(` then `u64,` on the next.
            let ty = match rest.strip_suffix(");") {
                Some(ty) => ty,
                None if rest.is_empty() => lines
                    .get(index + 1)
                    .and_then(|next| next.strip_suffix(','))
                    .unwrap_or_else(|| {
                        panic!(
                            "{}:{}: expected a type after `{line}`",
                            path.display(),
                            index + 2
                        )
                    }),
                None => panic!("{}:{}: unexpected `{line}`", path.display(), index + 1),
            };
            widths.push((mac, ty.trim().to_owned()));
        }
    }
    assert!(
        !declared.is_empty() && !widths.is_empty(),
        "{}: found no `pub fn [<name_ $ty>]` or no `impl_bit_fn!`/`impl_genmask_fn!` invocation",
        path.display()
    );
    let mut table = String::from(
        "/// `(name prefix, const fn)` of every function template of the kernel's `bits.rs`.\n",
    );
    table.push_str("pub const BITS_DECLARED: &[(&str, bool)] = &[\n");
    for (prefix, is_const) in declared {
        table.push_str(&format!("    ({prefix:?}, {is_const}),\n"));
    }
    table.push_str("];\n");
    table.push_str("/// `(macro, type)` of every invocation in the kernel's `bits.rs`.\n");
    table.push_str("pub const BITS_WIDTHS: &[(&str, &str)] = &[\n");
    for (mac, ty) in widths {
        table.push_str(&format!("    ({mac:?}, {ty:?}),\n"));
    }
    table.push_str("];\n");
    table
}
