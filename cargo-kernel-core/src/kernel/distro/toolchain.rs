// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The exact toolchain of a stock kernel, derived from its `.config`, without root.
//!
//! - rustc, the suite's own if it has the kernel's release ([`super::suite_rustc`]: Debian's
//!   binary, unpacked into the cache); otherwise rustup's release of the version Debian built the
//!   kernel with, checked to be of the same commit, with `RUSTC_FORCE_RUSTC_VERSION` set to
//!   Debian's version string (`1.85.1 (4eb161250 2025-03-15) (built from a source tarball)`).
//!   rustc hashes that string into every crate's StableCrateId, and so into every Rust symbol;
//!   rustup's own string differs only in its suffix. The variable is a rustc test hook, not a
//!   documented interface, and rustc ignores it for its own internal symbols (from 1.88 on): the
//!   symbol check ([`super::symbols`]) is what proves, every time, that the route worked.
//! - bindgen: the release `CONFIG_BINDGEN_VERSION_TEXT` names (cargo-installed into the cache if
//!   `~/.cargo/bin/bindgen` is another one).
//! - C: the kernel's GCC (`gcc-14`) if the host has it; otherwise the host's `gcc` behind a shim
//!   for the newer GCC's flags. Only `.mod.c` files and a few helper objects are compiled with
//!   it; the C layouts it computes are compared with Debian's after the build. A host GCC
//!   older than the attributes the kernel's headers then use gets them defined away, as the
//!   kernel does for a compiler without them ([`compat_header`]).
//!
//! Why not a `debootstrap` of the kernel's suite, which gives the exact compilers: it needs root
//! and a few hundred megabytes per suite, and the rustup route is proven by the same checks.

use super::Release;
use crate::infra::cache;
use crate::infra::command::output;
use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::{command, progress};
use crate::kernel::setup;
use crate::kernel::toolchain::Toolchain;
use anyhow::bail;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Overrides the C compiler (a command, used as it is, without the shim): to see how a host
/// compiler that cannot build the kernel's flags fails.
pub const CC_OVERRIDE: &str = "KERNEL_CORE_DISTRO_CC";

/// Overrides Debian's rustc version string (empty: leave the variable out), to see the symbol
/// check fail. For testing the check only.
pub const PLANT_VERSION: &str = "KERNEL_CORE_DISTRO_RUSTC_VERSION";

/// The toolchain of `release`'s kernel, installed if missing.
pub fn find(release: &Release) -> Result<Toolchain> {
    let built = release.config.toolchain(&release.release)?;
    let prefix = cross_prefix(&release.apt.arch);
    let planted = std::env::var(PLANT_VERSION).ok();
    // The suite's own rustc, where the suite has the kernel's (and no mismatch is planted).
    let own = match planted {
        Some(_) => None,
        None => super::suite_rustc::find(&release.apt, &built.rustc_release, &built.rustc_version)?,
    };
    if let Some(rustc) = own {
        crate::note!(
            "    rustc: Debian {}'s own `rustc {}` ({})",
            release.apt.suite,
            built.rustc_version,
            rustc.display()
        );
        let (cc, _) = c_compiler_for(&built, prefix)?;
        return Ok(Toolchain {
            rustc,
            bindgen: bindgen(&built.bindgen)?,
            variables: [c_variables(&cc, prefix), compat_variables(release)?].concat(),
            env: Vec::new(),
        });
    }
    setup::ensure_toolchain(&built.rustc_release, &["rust-src"], &[])?;
    let rustc = setup::rustup_which("rustc", &built.rustc_release)?;
    let verbose = output(Command::new(&rustc).arg("-vV")).unwrap_or_default();
    let commit = verbose
        .lines()
        .find_map(|l| l.strip_prefix("commit-hash: "))
        .unwrap_or_default();
    let debian_commit = built
        .rustc_version
        .split_once('(')
        .and_then(|(_, rest)| rest.split(' ').next())
        .unwrap_or_default();
    if debian_commit.is_empty() || !commit.starts_with(debian_commit) {
        bail!(
            "rustup's rustc {} is commit {commit}, but {} was built with `rustc {}`: no identical compiler",
            built.rustc_release,
            release.release,
            built.rustc_version
        );
    }
    crate::note!(
        "    rustc: rustup's {} (commit {commit}) with RUSTC_FORCE_RUSTC_VERSION set to Debian's version string (Debian {} has no rustc {0})",
        built.rustc_release, release.apt.suite
    );
    let bindgen = bindgen(&built.bindgen)?;
    let forced = match planted {
        Some(planted) => {
            crate::note!(
                "    {PLANT_VERSION} is set: {} (a planted mismatch)",
                if planted.is_empty() {
                    "RUSTC_FORCE_RUSTC_VERSION left out".to_string()
                } else {
                    format!("`{planted}` as rustc's version string instead")
                }
            );
            planted
        }
        None => built.rustc_version.clone(),
    };
    let (cc, _) = c_compiler_for(&built, prefix)?;
    let mut env = Vec::new();
    if !forced.is_empty() {
        env.push(("RUSTC_FORCE_RUSTC_VERSION".to_string(), forced));
    }
    Ok(Toolchain {
        rustc,
        bindgen,
        variables: [c_variables(&cc, prefix), compat_variables(release)?].concat(),
        env,
    })
}

/// The C compiler for a kernel built with `built`: [`CC_OVERRIDE`], or [`c_compiler`] (said
/// so when it is the shim).
fn c_compiler_for(built: &super::config::Built, prefix: &str) -> Result<(PathBuf, bool)> {
    if let Ok(cc) = std::env::var(CC_OVERRIDE) {
        crate::note!("    {CC_OVERRIDE} is set: building with `{cc}` as it is");
        return Ok((PathBuf::from(cc), false));
    }
    let (cc, shimmed) = c_compiler(built.gcc_major, prefix)?;
    if shimmed {
        crate::note!(
            "    the kernel was built with `{}`; the host has no {prefix}gcc-{}: using the host's {prefix}gcc behind {}",
            built.cc_text,
            built.gcc_major,
            cc.display()
        );
    }
    Ok((cc, shimmed))
}

/// The C compiler: `gcc-<major>` if installed, else a shim in front of the host's `gcc`
/// (`(path, shimmed)`).
fn c_compiler(major: u32, prefix: &str) -> Result<(PathBuf, bool)> {
    let exact = format!("{prefix}gcc-{major}");
    if command::which(&exact).is_some() {
        return Ok((PathBuf::from(exact), false));
    }
    if !prefix.is_empty() {
        // A cross compiler: the host suite's, installed like the runner's other tools.
        let package = format!("gcc-{}", prefix.trim_end_matches('-'));
        setup::ensure_packages(&[&package], &[])?;
    }
    let host = command::which(format!("{prefix}gcc"))
        .map(|p| p.display().to_string())
        .ok_or_else(|| {
            anyhow::anyhow!(
                "no C compiler: the kernel needs {prefix}gcc-{major} (or {prefix}gcc, with a shim)"
            )
        })?;
    let dir = cache::dir().join("distro/tools");
    let shim = dir.join(format!("{prefix}gcc-{major}-shim"));
    let host_major = output(Command::new(&host).arg("-dumpversion"))
        .and_then(|v| v.trim().split('.').next()?.parse::<u32>().ok())
        .ok_or_else(|| anyhow::anyhow!("`{host} -dumpversion` printed no GCC version"))?;
    let compat = match compat_header(host_major, major) {
        Some(text) => {
            let path = dir.join(format!("{prefix}gcc-{host_major}-as-{major}.h"));
            crate::infra::files::write_if_changed(&path, &text)?;
            Some(path)
        }
        None => None,
    };
    let text = shim_text(&host, major, compat.as_deref());
    if crate::infra::files::write_if_changed(&shim, &text)? {
        use std::os::unix::fs::PermissionsExt as _;
        fs::set_permissions(&shim, fs::Permissions::from_mode(0o755)).at(&shim)?;
    }
    Ok((shim, true))
}

/// The GNU triplet prefix of the C toolchain for Debian's architecture `debian_arch` on this
/// host: empty when it is the host's own (`amd64` on x86_64), else `aarch64-linux-gnu-`.
pub fn cross_prefix(debian_arch: &str) -> &'static str {
    let native = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        _ => "",
    };
    match debian_arch {
        a if a == native => "",
        "arm64" => "aarch64-linux-gnu-",
        "amd64" => "x86_64-linux-gnu-",
        _ => "",
    }
}

/// The make variables of the C toolchain: `CC`, and `CROSS_COMPILE` for a foreign
/// architecture (its binutils).
fn c_variables(cc: &Path, prefix: &str) -> Vec<String> {
    let mut variables = vec![format!("CC={}", cc.display())];
    if !prefix.is_empty() {
        variables.push(format!("CROSS_COMPILE={prefix}"));
    }
    variables
}

/// `override CROSS_COMPILE_COMPAT = arm-linux-gnueabihf-` of Debian's `.kernelvariables`: the
/// 32-bit compiler of arm64's compat vDSO, which `modules_prepare` builds too.
pub fn compat_prefix(kernelvariables: &str) -> Option<String> {
    kernelvariables.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("override CROSS_COMPILE_COMPAT")?;
        let value = rest.trim_start().strip_prefix('=')?.trim();
        (!value.is_empty()).then(|| value.to_string())
    })
}

/// The compat vDSO's variable for `release`, its cross compiler installed if missing.
fn compat_variables(release: &Release) -> Result<Vec<String>> {
    let text = fs::read_to_string(release.headers.join(".kernelvariables")).unwrap_or_default();
    let Some(compat) = compat_prefix(&text) else {
        return Ok(Vec::new());
    };
    if command::which(format!("{compat}gcc")).is_none() {
        setup::ensure_packages(&[&format!("gcc-{}", compat.trim_end_matches('-'))], &[])?;
    }
    Ok(vec![format!("CROSS_COMPILE_COMPAT={compat}")])
}

/// The shim: GCC `major`'s flags that older GCCs lack, mapped or dropped, then the host's gcc;
/// with `compat` (see [`compat_header`]) included last into every compilation.
pub fn shim_text(host: &str, major: u32, compat: Option<&Path>) -> String {
    let (compat_note, compat_line) = match compat {
        Some(path) => (
            format!(
                "# {} is included last into every compilation: the kernel's gcc-{major}\n\
                 # attributes that {host} lacks, as the kernel defines them without the compiler's\n\
                 # support.\n",
                path.display()
            ),
            format!(
                "[ -n \"$compile\" ] && set -- \"$@\" -include '{}'\n",
                path.display()
            ),
        ),
        None => (String::new(), String::new()),
    };
    format!(
        "#!/bin/sh\n\
         # Written by cargo kernel-core: {host} standing in for gcc-{major}, which built the kernel.\n\
         # -fmin-function-alignment=N (GCC 14) becomes -falign-functions=N; -finline-stringops\n\
         # (GCC 14) only tunes how memcpy and memset are inlined and is dropped.\n\
         {compat_note}\
         compile=\n\
         for a in \"$@\"; do\n  shift\n  case \"$a\" in\n\
         \x20   -fmin-function-alignment=*) set -- \"$@\" \"-falign-functions=${{a#-fmin-function-alignment=}}\" ;;\n\
         \x20   -finline-stringops*) ;;\n\
         \x20   -c|-S|-E) compile=1; set -- \"$@\" \"$a\" ;;\n\
         \x20   *) set -- \"$@\" \"$a\" ;;\n  esac\ndone\n\
         {compat_line}\
         exec {host} \"$@\"\n"
    )
}

/// What a host GCC of `host_major` needs to compile the headers of a kernel that GCC `major`
/// built, if anything: the kernel's `.config` says what the newer compiler supports
/// (`CONFIG_CC_HAS_COUNTED_BY`, GCC 15), and its headers then use an attribute the older one
/// warns about (`'counted_by' attribute directive ignored`, in every C file that includes
/// `<linux/fs.h>`). The header redefines those macros as the kernel does for a compiler
/// without the attribute: they only annotate flexible arrays for bounds checks and change no
/// layout.
pub fn compat_header(host_major: u32, major: u32) -> Option<String> {
    (host_major < 15 && major >= 15).then(|| {
        format!(
            "/* Written by cargo kernel-core: the host's gcc-{host_major} standing in for gcc-{major}. */\n\
             #undef __counted_by\n#define __counted_by(member)\n\
             #undef __counted_by_ptr\n#define __counted_by_ptr(member)\n"
        )
    })
}

/// The flag a compiler rejected, from a build log.
pub fn unknown_flag(log: &str) -> Option<String> {
    log.lines().find_map(|l| {
        let rest = l
            .split_once("unrecognized command-line option ")
            .or_else(|| l.split_once("unrecognized command line option "))?
            .1;
        let flag = rest.trim_matches(|c| c == '\'' || c == '‘' || c == '’' || c == '"' || c == ';');
        Some(
            flag.split(['\'', '’', ';'])
                .next()
                .unwrap_or(flag)
                .to_string(),
        )
    })
}

/// bindgen of `version`: `~/.cargo/bin/bindgen` if it is that one, else installed into the
/// cache once.
fn bindgen(version: &str) -> Result<PathBuf> {
    let default = setup::ensure_bindgen()?;
    let has = |path: &Path| {
        output(Command::new(path).arg("--version"))
            .is_some_and(|v| v.trim() == format!("bindgen {version}"))
    };
    if has(&default) {
        return Ok(default);
    }
    let root = cache::dir().join(format!("distro/tools/bindgen-{version}"));
    let path = root.join("bin/bindgen");
    if has(&path) {
        return Ok(path);
    }
    let start = progress::step(&format!(
        "installing bindgen-cli {version} into {} (about 2 minutes)",
        root.display()
    ));
    command::run(
        Command::new("cargo")
            .args([
                "+stable",
                "install",
                "--locked",
                "bindgen-cli",
                "--version",
                version,
                "--root",
            ])
            .arg(&root),
        &format!(
            "check the network (crates.io) and libclang-{}-dev",
            crate::kernel::setup::LLVM_VERSION
        ),
    )?;
    progress::done("bindgen installed", start);
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shim_maps_gcc_14_flags() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        let shim = dir.join("cc");
        fs::write(&shim, shim_text("echo", 14, None)).unwrap();
        let out = Command::new("sh")
            .arg(&shim)
            .args([
                "-O2",
                "-fmin-function-alignment=16",
                "-finline-stringops=memcpy",
                "a b.c",
            ])
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "-O2 -falign-functions=16 a b.c\n"
        );
    }

    #[test]
    fn an_older_gcc_gets_the_newer_one_s_attributes_only_when_it_compiles() {
        assert_eq!(compat_header(14, 14), None);
        assert_eq!(compat_header(15, 16), None);
        let text = compat_header(12, 16).unwrap();
        assert!(text.contains("#define __counted_by(member)\n"), "{text}");
        let scratch = tempfile::tempdir().unwrap();
        let header = scratch.path().join("compat.h");
        let shim = scratch.path().join("cc");
        fs::write(&shim, shim_text("echo", 16, Some(&header))).unwrap();
        let run = |args: &[&str]| {
            let out = Command::new("sh").arg(&shim).args(args).output().unwrap();
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        let include = format!("-include {}", header.display());
        assert_eq!(run(&["-c", "a.c"]), format!("-c a.c {include}\n"));
        assert_eq!(run(&["-O2", "x.o"]), "-O2 x.o\n");
    }

    #[test]
    fn a_foreign_architecture_gets_a_cross_toolchain() {
        if std::env::consts::ARCH == "x86_64" {
            assert_eq!(cross_prefix("amd64"), "");
            assert_eq!(cross_prefix("arm64"), "aarch64-linux-gnu-");
        }
        assert_eq!(
            c_variables(
                Path::new("/c/aarch64-linux-gnu-gcc-14-shim"),
                "aarch64-linux-gnu-"
            ),
            [
                "CC=/c/aarch64-linux-gnu-gcc-14-shim",
                "CROSS_COMPILE=aarch64-linux-gnu-"
            ]
        );
    }

    #[test]
    fn arm64_s_compat_compiler_comes_from_debian_s_variables() {
        let text = "override ARCH = arm64\noverride CROSS_COMPILE = aarch64-linux-gnu-\noverride CROSS_COMPILE_COMPAT = arm-linux-gnueabihf-\n";
        assert_eq!(compat_prefix(text).as_deref(), Some("arm-linux-gnueabihf-"));
        assert_eq!(compat_prefix("override ARCH = x86\n"), None);
    }

    #[test]
    fn a_rejected_flag_is_named() {
        let log = "  CC      rust/helpers/helpers.o\ngcc-12: error: unrecognized command-line option '-fzero-init-padding-bits=all'\nmake[2]: *** Error 1\n";
        assert_eq!(
            unknown_flag(log).as_deref(),
            Some("-fzero-init-padding-bits=all")
        );
        assert_eq!(unknown_flag("all fine\n"), None);
    }
}
