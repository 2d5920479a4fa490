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
//! - in any object, kernel or host, [`calls`] reads the relocations (`llvm-objdump -dr`) and
//!   names each function that refers to a site or calls `build_error` itself (`rust_build_error`
//!   in the kernel, `kernel_core_build_error::build_error` or `build_error_at` on the host), for
//!   the calls that carry no site (a kernel built with `CONFIG_RUST_DEBUG_ASSERTIONS=y`, a direct
//!   call).
//!
//! `cargo xtask why-build-error <object>...` prints [`report`] of the objects, and the module
//! builds print [`explain`] of a failed build without being asked.

use crate::ui::Result;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

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

/// Drops a relocation's addend, `+0x10` or `-0x4`, from its symbol.
fn without_addend(symbol: &str) -> &str {
    match symbol.rfind(['+', '-']) {
        Some(at)
            if symbol[at + 1..].strip_prefix("0x").is_some_and(|hex| {
                !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit())
            }) =>
        {
            &symbol[..at]
        }
        _ => symbol,
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

/// The references of interest in `llvm-objdump -dr -C` output: `(function, target)`, in order,
/// each once.
pub fn parse_disassembly(text: &str) -> Vec<(String, Target)> {
    let mut found: Vec<(String, Target)> = Vec::new();
    let mut function: Option<&str> = None;
    for line in text.lines() {
        // `0000000000000000 <function>:` starts a function; its name may hold `<` and `>`.
        if let Some((address, name)) = line.strip_suffix(">:").and_then(|l| l.split_once(" <")) {
            if !address.is_empty() && address.bytes().all(|b| b.is_ascii_hexdigit()) {
                // Assembler-local labels inside a function (`<.Lpcrel_hi0>:` before each
                // riscv64 `auipc`) are not functions: the function goes on.
                if !name.starts_with(".L") {
                    function = Some(without_hash(name));
                }
                continue;
            }
        }
        // `\t\t0000000000000139:  R_X86_64_GOTPCREL\t<symbol>-0x4`: a relocation, whose
        // symbol may hold spaces.
        let Some((offset, rest)) = line.trim_start().split_once(':') else {
            continue;
        };
        if offset.is_empty() || !offset.bytes().all(|b| b.is_ascii_hexdigit()) {
            continue;
        }
        let rest = rest.trim_start();
        let Some(kind_end) = rest.find(char::is_whitespace) else {
            continue;
        };
        if !rest.starts_with("R_") {
            continue;
        }
        let symbol = without_addend(rest[kind_end..].trim());
        if let (Some(function), Some(target)) = (function, target(symbol)) {
            let entry = (function.to_string(), target);
            if !found.contains(&entry) {
                found.push(entry);
            }
        }
    }
    found
}

/// The references to sites and to `build_error` in `objects`, read with `llvm-objdump-19`.
pub fn calls(objects: &[PathBuf]) -> Result<Vec<Call>> {
    let mut calls = Vec::new();
    for object in objects {
        let out = Command::new("llvm-objdump-19")
            .args(["-dr", "-C", "--no-show-raw-insn"])
            .arg(object)
            .output()
            .map_err(|e| {
                anyhow::anyhow!("cannot run llvm-objdump-19 (apt install llvm-19): {e}")
            })?;
        if !out.status.success() {
            return Err(anyhow::anyhow!(
                "llvm-objdump-19 -dr {} failed: {}",
                object.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        let text = String::from_utf8_lossy(&out.stdout);
        calls.extend(
            parse_disassembly(&text)
                .into_iter()
                .map(|(function, target)| Call {
                    function,
                    object: object.clone(),
                    target,
                }),
        );
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
/// names and the functions `llvm-objdump` finds in the objects of `dir`.
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
            lines.push("the functions that hold them (llvm-objdump -dr):".to_string());
            lines.extend(report(&found).into_iter().map(|l| format!("  {l}")));
        }
        Ok(_) => lines.push(format!(
            "llvm-objdump finds no such call in the objects of {}",
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
        println!(
            "no call to build_error (rust_build_error, kernel_core_build_error::build_error) and \
             no build_assert!/build_error! site in these objects"
        );
    }
    for line in report(&found) {
        println!("{line}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// Excerpts of `llvm-objdump -dr -C --no-show-raw-insn`: a host object (x86_64, rust-lld
    /// era, legacy mangling), a kernel object, an arm64 one with a site and no addend, and a
    /// riscv64 one whose relocations follow local labels.
    const DISASSEMBLY: &str = "
/tmp/x.rcgu.o:\tfile format elf64-x86-64

Disassembly of section .text._ZN18kc_link_unprovable4main17hc2ad1f632128b71fE:

0000000000000000 <kc_link_unprovable::main::hc2ad1f632128b71f>:
     136:      \tmovq\t(%rip), %rdx            # 0x13d <kc_link_unprovable::main::hc2ad1f632128b71f+0x13d>
\t\t0000000000000139:  R_X86_64_GOTPCREL\tkernel-core: build_assert!() not proven at src/main.rs:16:5-0x4
     13d:      \tcallq\t0x142 <kc_link_unprovable::main::hc2ad1f632128b71f+0x142>
\t\t000000000000013e:  R_X86_64_PLT32\tkernel_core_build_error::build_error_at::h0123456789abcdef-0x4
     142:      \tcallq\t0x147 <kc_link_unprovable::main::hc2ad1f632128b71f+0x147>
\t\t0000000000000143:  R_X86_64_PLT32\tkernel_core_build_error::build_error_at::h0123456789abcdef-0x4

0000000000000000 <<unprovable_build_assert::Unprovable as kernel::module::Module>::init>:
       1:      \tmovq\t$0x0, %rdi
\t\t0000000000000004:  R_X86_64_32S\tkernel-core: build_assert!() not proven at /k/kbuild/fixtures/unprovable_build_assert.rs:18:5
       8:      \tcallq\t0xd <<unprovable_build_assert::Unprovable as kernel::module::Module>::init+0xd>
\t\t0000000000000009:  R_X86_64_PLT32\tkernel_core::env::build_error_site-0x4
      20:      \tcallq\t0x25 <<unprovable_build_assert::Unprovable as kernel::module::Module>::init+0x25>
\t\t0000000000000021:  R_X86_64_PLT32\trust_build_error-0x4

0000000000000000 <debug_driver::probe>:
      20:      \tcallq\t0x25 <debug_driver::probe+0x25>
\t\t0000000000000021:  R_X86_64_PLT32\trust_build_error-0x4
      30:      \tcallq\t0x35 <debug_driver::probe+0x35>
\t\t0000000000000031:  R_X86_64_PLT32\tkernel_core_build_error::build_error_at_somewhere_else-0x4

0000000000000000 <arm_driver::init>:
      10: \tadrp\tx0, 0x0 <arm_driver::init>
\t\t0000000000000010:  R_AARCH64_ADR_GOT_PAGE\tkernel-core: build_error!() not proven unreachable at drivers/arm.rs:7:13
      14: \tbl\t0x14 <arm_driver::init+0x14>
\t\t0000000000000014:  R_AARCH64_CALL26\trust_build_error

0000000000000000 <riscv_driver::init>:
       0:      \taddi\tsp, sp, -0x10

0000000000000004 <.Lpcrel_hi0>:
       4:      \tauipc\ta0, 0x0
\t\t0000000000000004:  R_RISCV_PCREL_HI20\tkernel-core: build_assert!() not proven at drivers/rv.rs:18:5
\t\t0000000000000004:  R_RISCV_RELAX\t*ABS*
       8:      \taddi\ta0, a0, 0x0
\t\t0000000000000008:  R_RISCV_PCREL_LO12_I\t.Lpcrel_hi0
      26:      \tauipc\tra, 0x0
\t\t0000000000000026:  R_RISCV_CALL_PLT\trust_build_error
";

    #[test]
    fn relocations_name_sites_and_their_functions() {
        let init = "<unprovable_build_assert::Unprovable as kernel::module::Module>::init";
        assert_eq!(
            parse_disassembly(DISASSEMBLY),
            [
                (
                    "kc_link_unprovable::main".into(),
                    Target::Site(site("src/main.rs:16:5"))
                ),
                (
                    "kc_link_unprovable::main".into(),
                    Target::BuildError("kernel_core_build_error::build_error_at".into())
                ),
                (
                    init.into(),
                    Target::Site(site("/k/kbuild/fixtures/unprovable_build_assert.rs:18:5"))
                ),
                (init.into(), Target::BuildError("rust_build_error".into())),
                (
                    "debug_driver::probe".into(),
                    Target::BuildError("rust_build_error".into())
                ),
                (
                    "arm_driver::init".into(),
                    Target::Site(Site {
                        what: "build_error!() not proven unreachable".into(),
                        location: "drivers/arm.rs:7:13".into(),
                    })
                ),
                (
                    "arm_driver::init".into(),
                    Target::BuildError("rust_build_error".into())
                ),
                (
                    "riscv_driver::init".into(),
                    Target::Site(site("drivers/rv.rs:18:5"))
                ),
                (
                    "riscv_driver::init".into(),
                    Target::BuildError("rust_build_error".into())
                ),
            ]
        );
    }

    #[test]
    fn the_report_names_each_site_then_the_calls_without_one() {
        // The same calls again in the object `ld -r` made of x.o: shown once, from x.o.
        let calls: Vec<Call> = ["x.o", "module.o"]
            .into_iter()
            .flat_map(|object| {
                parse_disassembly(DISASSEMBLY)
                    .into_iter()
                    .map(move |(function, target)| Call {
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
        let dir =
            std::env::temp_dir().join(format!("xtask-why-build-error-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("creating a temporary directory");
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
        let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
        let status = Command::new(rustc)
            .args([
                "--edition=2021",
                "--crate-type=lib",
                "--crate-name=checked",
                "-O",
            ])
            .args(["--emit=obj", "-o"])
            .arg(&object)
            .arg(&source)
            .status()
            .expect("running rustc");
        assert!(status.success(), "rustc failed on {}", source.display());

        let found = calls(std::slice::from_ref(&object)).expect("llvm-objdump-19 reads the object");
        std::fs::remove_dir_all(&dir).ok();
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
}
