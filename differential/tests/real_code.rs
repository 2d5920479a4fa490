// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Linux 7.3's own drivers and samples, built and run on kernel-core on the host, unchanged but
//! for `kernel::` written `kernel_core::`.
//!
//! Everything is read from the kernel tree this crate was built with, at test time; nothing of
//! the kernel is copied into the repository.
//!
//! - **The rename**, the only change to the kernel's text. Every `.rs` file under `drivers/`
//!   and `samples/rust/` (but the samples' host programs, which are not kernel code) is written
//!   to a directory of this test with each `kernel::` that does not continue an identifier
//!   written `kernel_core::`, in code and comments alike ([`rename`]). `pin_init::` stays:
//!   kernel-core's `pin_init` crate takes that name, as the kernel's does.
//! - **The crates** are those Kbuild builds: an object named in a `Makefile` or `Kbuild` file
//!   (`obj-$(CONFIG_X) += foo.o`, `foo-y := foo.o`) whose `foo.rs` is beside it is a crate root,
//!   and rustc finds the crate's other files through its `mod` declarations, as in the kernel.
//! - **The build** of each crate root is Kbuild's for a loadable module's Rust object
//!   (`rust_common_cmd` in `scripts/Makefile.build`, `KBUILD_RUSTFLAGS_MODULE` in the top
//!   `Makefile`): an rlib of edition 2021, `-Zcrate-attr=no_std`, the unstable features that the
//!   tree's `scripts/Makefile.build` allows (`rust_allowed_features`), `--cfg MODULE`, with
//!   `RUSTC_BOOTSTRAP=1` as the kernel's `Makefile` exports it; `--extern kernel_core` and
//!   `--extern pin_init` (kernel-core's, with its `std` feature) where Kbuild passes `--extern
//!   kernel` and `--extern pin_init`; debug assertions and overflow checks on, as under
//!   `cargo test`. Of the `CONFIG_*` cfgs only the word size is set (`CONFIG_64BIT` on a 64-bit
//!   host), and Kbuild's `--extern zerocopy` has no counterpart. Every crate is tried: the
//!   compiler, not a list, decides which build.
//! - **The run.** Each crate that builds has a check, `real_code/checks/<crate>.rs`: tests of
//!   what the crate does, which become a module of the crate, as a driver's own
//!   `#[cfg(test)] mod tests;` would. For that, the renamed root is written once more with one
//!   line appended, `#[cfg(test)] #[path = "<the check>"] mod real_code_checks;` (so every line
//!   of the kernel's text keeps its number), and built with `--test` and the same flags. All of
//!   the check's tests must run and pass.
//!
//! The tests here: [`every_crate_builds_or_says_what_kernel_core_lacks`] builds every crate,
//! prints what each lacks, and fails unless exactly the crates of [`RUNS`] build, without a
//! warning; one test per crate of [`RUNS`] runs its check. The QR codes that `drm_panic_qr.rs`
//! draws are then read back by a reader of its own ([`qr`]).

#[path = "doc_examples/json.rs"]
mod json;
#[path = "common/package.rs"]
mod package;
#[path = "real_code/qr.rs"]
mod qr;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The extracted Linux 7.3 tree (`KERNEL_CORE_LINUX_SRC` when this crate was built).
const TREE: &str = env!("KERNEL_CORE_DIFFERENTIAL_TREE");

/// The compiler that built this crate, and so the kernel-core that the crates here link.
const RUSTC: &str = env!("KERNEL_CORE_DIFFERENTIAL_RUSTC");

/// The target of this test when it is not the host's (a run under qemu-user), else empty.
const CROSS: &str = env!("KERNEL_CORE_DIFFERENTIAL_CROSS");

/// The directories whose crates are built, relative to the tree.
const DIRS: &[&str] = &["drivers", "samples/rust"];

/// Directories under [`DIRS`] left out: the samples' host programs are not kernel code.
const SKIPPED: &[&str] = &["samples/rust/hostprogs"];

/// A crate of the tree that builds on kernel-core, and its check.
struct Run {
    /// The crate root, relative to the tree.
    root: &'static str,
    /// The check, in `tests/real_code/checks/`.
    check: &'static str,
}

/// Every crate of [`DIRS`] that builds on kernel-core: exactly these must build.
const RUNS: &[Run] = &[
    Run {
        root: "drivers/gpu/drm/drm_panic_qr.rs",
        check: "drm_panic_qr.rs",
    },
    Run {
        root: "samples/rust/rust_minimal.rs",
        check: "rust_minimal.rs",
    },
];

/// How long one check may run.
const TIMEOUT: Duration = Duration::from_secs(120);

/// Whether this run builds the drivers and samples: only a run for the host does. They are
/// built for the host and run there whatever the target of this test, so a run for another
/// target (under qemu-user) would only repeat the host's runs; it says so and stops.
fn on_the_host() -> bool {
    if !CROSS.is_empty() {
        println!(
            "Linux 7.3's drivers and samples are built and run for the host, not for {CROSS}: \
             see the host's runs of this test"
        );
    }
    CROSS.is_empty()
}

/// The tree, or a panic that says how to get it.
fn tree() -> &'static Path {
    let tree = Path::new(TREE);
    assert!(
        DIRS.iter().all(|dir| tree.join(dir).is_dir()),
        "{TREE} (KERNEL_CORE_LINUX_SRC when kernel-core-differential was built) has no {}: these \
         tests build Linux 7.3's own drivers and samples from it. Run them with `cargo xtask \
         test`, which fetches Debian's linux-source-7.3 into \
         $KERNEL_CORE_CACHE/src/linux-source-7.3 (by default ~/.cache/kernel-core/src/) and sets \
         KERNEL_CORE_LINUX_SRC, or fetch it alone with `cargo xtask survey` and run `cargo test` \
         here with KERNEL_CORE_LINUX_SRC set to that directory (or to any extracted Linux 7.3 \
         source tree)",
        DIRS.join(" or ")
    );
    tree
}

/// This test's scratch directory `name`, emptied.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("real-code")
        .join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap_or_else(|e| panic!("removing {}: {e}", dir.display()));
    }
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("creating {}: {e}", dir.display()));
    dir
}

/// `text` with every `kernel::` that does not continue an identifier (`my_kernel::` stays)
/// written `kernel_core::`, and how many there were.
fn rename(text: &str) -> (String, usize) {
    let mut out = String::with_capacity(text.len() + 1024);
    let mut count = 0;
    let mut rest = text;
    while let Some(at) = rest.find("kernel::") {
        let continues = rest[..at]
            .chars()
            .next_back()
            .or_else(|| out.chars().next_back())
            .is_some_and(|c| c == '_' || c.is_alphanumeric());
        out.push_str(&rest[..at]);
        if continues {
            out.push_str("kernel::");
        } else {
            out.push_str("kernel_core::");
            count += 1;
        }
        rest = &rest[at + "kernel::".len()..];
    }
    out.push_str(rest);
    (out, count)
}

/// The objects a Makefile assigns (`obj-$(CONFIG_X) += a.o b/c.o`, `m-y := a.o`), relative to
/// its directory: words ending in `.o` right of an `=`, continuation lines joined, comments and
/// words with a `$(...)` in them left out (the rule of the survey's `xtask/src/survey/crates.rs`).
fn objects(makefile: &str) -> Vec<String> {
    let joined = makefile.replace("\\\n", " ");
    let mut objects = Vec::new();
    for line in joined.lines() {
        let line = line.split('#').next().unwrap_or_default();
        let Some((_, value)) = line.split_once('=') else {
            continue;
        };
        objects.extend(
            value
                .split_whitespace()
                .filter(|word| word.ends_with(".o") && !word.contains('$'))
                .map(String::from),
        );
    }
    objects
}

/// The renamed copy of the tree's drivers and samples.
struct Mirror {
    /// Where it is: the same relative paths as in the tree.
    dir: PathBuf,
    /// Every `.rs` file, relative to the tree, and its number of renamed `kernel::`.
    files: BTreeMap<String, usize>,
    /// The crate roots, relative to the tree.
    roots: Vec<String>,
}

/// Writes the renamed copy of the tree's drivers and samples into `dir`.
fn mirror(dir: PathBuf) -> Mirror {
    let tree = tree();
    let mut files = BTreeMap::new();
    let mut makefiles = Vec::new();
    let mut dirs: Vec<PathBuf> = DIRS.iter().map(PathBuf::from).collect();
    while let Some(rel) = dirs.pop() {
        if SKIPPED.iter().any(|skipped| rel == Path::new(skipped)) {
            continue;
        }
        let full = tree.join(&rel);
        let entries =
            std::fs::read_dir(&full).unwrap_or_else(|e| panic!("listing {}: {e}", full.display()));
        for entry in entries {
            let entry = entry.unwrap_or_else(|e| panic!("listing {}: {e}", full.display()));
            let path = rel.join(entry.file_name());
            let name = entry.file_name();
            if entry.path().is_dir() {
                dirs.push(path);
            } else if name == "Makefile" || name == "Kbuild" {
                makefiles.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(tree.join(&path))
                    .unwrap_or_else(|e| panic!("reading {}: {e}", tree.join(&path).display()));
                let (renamed, count) = rename(&text);
                let out = dir.join(&path);
                std::fs::create_dir_all(out.parent().expect("a file has a directory"))
                    .unwrap_or_else(|e| panic!("creating {}: {e}", out.display()));
                std::fs::write(&out, renamed)
                    .unwrap_or_else(|e| panic!("writing {}: {e}", out.display()));
                files.insert(path.to_string_lossy().into_owned(), count);
            }
        }
    }
    let mut roots = BTreeSet::new();
    for makefile in makefiles {
        let full = tree.join(&makefile);
        let text = std::fs::read_to_string(&full)
            .unwrap_or_else(|e| panic!("reading {}: {e}", full.display()));
        let here = makefile.parent().expect("a Makefile has a directory");
        for object in objects(&text) {
            let root = here.join(object).with_extension("rs");
            let root = root.to_string_lossy().into_owned();
            if files.contains_key(&root) {
                roots.insert(root);
            }
        }
    }
    assert!(
        !roots.is_empty(),
        "no Rust object in the Makefiles of {} under {TREE}",
        DIRS.join(" and ")
    );
    Mirror {
        dir,
        files,
        roots: roots.into_iter().collect(),
    }
}

/// kernel-core and its `pin_init`, built for the crates here.
struct Deps {
    kernel_core: PathBuf,
    pin_init: PathBuf,
    /// The directory of their dependencies (`-L dependency=`).
    deps: PathBuf,
}

/// Builds kernel-core (feature `std`) and kernel-core-pin-init (`std`) with cargo and this
/// crate's compiler, in a package and a target directory of this test's own (shared by its
/// tests; cargo's lock orders them).
fn deps() -> Deps {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the repository above differential/");
    let built = package::build(
        "kc-real-code-deps",
        &format!(
            "kernel-core = {{ path = {:?}, features = [\"std\"] }}\n\
             pin_init = {{ package = \"kernel-core-pin-init\", path = {:?}, features = [\"std\"] }}",
            repo.join("kernel-core").display().to_string(),
            repo.join("pin-init").display().to_string(),
        ),
        &[],
    );
    Deps {
        deps: built.deps("kernel_core").to_path_buf(),
        pin_init: built.library("kernel_core_pin_init").to_path_buf(),
        kernel_core: built.library("kernel_core").to_path_buf(),
    }
}

/// `rust_allowed_features` of the tree's `scripts/Makefile.build`: the unstable features
/// Kbuild enables in every Rust object.
fn allowed_features() -> String {
    let path = tree().join("scripts/Makefile.build");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    text.lines()
        .find_map(|line| line.strip_prefix("rust_allowed_features :="))
        .map(|features| features.trim().to_owned())
        .unwrap_or_else(|| panic!("{}: no `rust_allowed_features :=` line", path.display()))
}

/// One message of the compiler.
#[derive(Debug, Clone)]
struct Diagnostic {
    /// `error` or `warning`.
    level: String,
    message: String,
    /// The file of the primary span, relative to the tree, and its line.
    at: Option<(String, usize)>,
    /// As the compiler prints it.
    rendered: String,
}

impl Diagnostic {
    /// What kernel-core lacks according to an error, if that is what it says: a path from
    /// `kernel_core` or `pin_init`, or a macro that the file names without a path (one of the
    /// kernel's prelude).
    fn lacks(&self) -> Vec<String> {
        let quoted: Vec<&str> = self.message.split('`').skip(1).step_by(2).collect();
        let ours = |path: &str| path.starts_with("kernel_core") || path.starts_with("pin_init");
        let message = self.message.as_str();
        if message.starts_with("unresolved import") {
            return quoted
                .iter()
                .filter(|path| ours(path))
                .map(|path| path.to_string())
                .collect();
        }
        if let Some(rest) = message.strip_prefix("cannot find macro ") {
            if rest.ends_with("in this scope") {
                return quoted
                    .first()
                    .map(|m| format!("{m}!"))
                    .into_iter()
                    .collect();
            }
        }
        // "cannot find `net` in `kernel_core`", "cannot find type `X` in module `kernel_core::y`",
        // "failed to resolve: could not find `x` in `kernel_core`".
        if message.contains("find ") {
            if let [name, .., within] = quoted.as_slice() {
                if ours(within) {
                    return vec![format!("{within}::{name}")];
                }
            }
        }
        Vec::new()
    }
}

/// What rustc made of one crate.
struct Build {
    /// Exit status 0, and its output exists.
    ok: bool,
    diagnostics: Vec<Diagnostic>,
    /// The files of the crate, from its dep-info, relative to the tree.
    files: Vec<String>,
}

impl Build {
    fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.level == "error")
    }

    fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.level == "warning")
    }

    /// Everything kernel-core lacks according to the errors, sorted.
    fn lacks(&self) -> BTreeSet<String> {
        self.errors().flat_map(Diagnostic::lacks).collect()
    }

    /// The first lines of the first errors, indented.
    fn excerpt(&self, errors: usize) -> String {
        let mut out = String::new();
        for error in self.errors().take(errors) {
            for line in error
                .rendered
                .lines()
                .filter(|l| !l.trim().is_empty())
                .take(8)
            {
                let _ = writeln!(out, "        {line}");
            }
        }
        out
    }
}

/// How a crate is built.
enum Mode {
    /// An rlib, as Kbuild builds the object.
    Object,
    /// With `--test`, into this binary.
    Test(PathBuf),
}

/// Builds the crate whose root is `root` (a file of `mirror`, or a file beside one) as Kbuild
/// builds a module's Rust object (see the module documentation), into `out`.
fn rustc(deps: &Deps, mirror: &Mirror, root: &Path, name: &str, mode: &Mode, out: &Path) -> Build {
    std::fs::create_dir_all(out).unwrap_or_else(|e| panic!("creating {}: {e}", out.display()));
    let features = allowed_features();
    let mut extern_kernel_core = std::ffi::OsString::from("kernel_core=");
    extern_kernel_core.push(&deps.kernel_core);
    let mut extern_pin_init = std::ffi::OsString::from("pin_init=");
    extern_pin_init.push(&deps.pin_init);
    let mut dependency = std::ffi::OsString::from("dependency=");
    dependency.push(&deps.deps);
    let depfile = out.join(format!("{name}.d"));

    let mut cmd = Command::new(RUSTC);
    cmd.env("RUSTC_BOOTSTRAP", "1")
        .args(["--edition=2021", "--crate-name", name])
        .arg(format!("-Zallow-features={features}"))
        .arg("-Zcrate-attr=no_std")
        .arg(format!("-Zcrate-attr=feature({features})"))
        .args(["-Astable_features", "--cfg", "MODULE"])
        // The word size, which a 64-bit kernel's `include/generated/rustc_cfg` gives as
        // `CONFIG_64BIT` (and a 32-bit one as `CONFIG_32BIT`): nova-core's `num.rs` picks its
        // lossless casts by it.
        .args([
            "--cfg",
            if cfg!(target_pointer_width = "64") {
                "CONFIG_64BIT"
            } else {
                "CONFIG_32BIT"
            },
        ])
        .args(["-Cdebug-assertions=on", "-Coverflow-checks=on"])
        .arg("--extern")
        .arg(extern_kernel_core)
        .arg("--extern")
        .arg(extern_pin_init)
        .arg("-L")
        .arg(dependency)
        .args(["--error-format=json", "--color=never"]);
    let mut emit = std::ffi::OsString::from("--emit=dep-info=");
    emit.push(&depfile);
    match mode {
        Mode::Object => {
            emit.push(",link");
            cmd.args(["--crate-type", "rlib", "--out-dir"]).arg(out);
        }
        Mode::Test(binary) => {
            emit.push(",link=");
            emit.push(binary);
            cmd.arg("--test");
        }
    }
    let output = cmd
        .arg(emit)
        .arg(root)
        .env_remove("RUSTFLAGS")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .unwrap_or_else(|e| panic!("running {RUSTC}: {e}"));

    let relative = |file: &str| -> String {
        let path = Path::new(file);
        path.strip_prefix(&mirror.dir)
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned()
    };
    let mut diagnostics = Vec::new();
    for line in String::from_utf8_lossy(&output.stderr).lines() {
        let Ok(value) = json::parse(line) else {
            // Not a diagnostic: an internal error or a linker's message; kept as it is.
            if !line.trim().is_empty() {
                diagnostics.push(Diagnostic {
                    level: "error".to_owned(),
                    message: line.to_owned(),
                    at: None,
                    rendered: line.to_owned(),
                });
            }
            continue;
        };
        let field = |key: &str| value.get(key).and_then(json::Value::as_str).unwrap_or("");
        let level = field("level");
        let message = field("message");
        if !matches!(level, "error" | "warning") || message.starts_with("aborting due to") {
            continue;
        }
        let at = value
            .get("spans")
            .map(json::Value::as_array)
            .unwrap_or_default()
            .iter()
            .find(|span| span.get("is_primary") == Some(&json::Value::Bool(true)))
            .and_then(|span| {
                let file = span.get("file_name")?.as_str()?;
                let line = match span.get("line_start")? {
                    json::Value::Number(n) => n.parse().ok()?,
                    _ => return None,
                };
                Some((relative(file), line))
            });
        diagnostics.push(Diagnostic {
            level: level.to_owned(),
            message: message.to_owned(),
            at,
            rendered: field("rendered").to_owned(),
        });
    }

    // `out/name.d: a.rs b.rs`, then one line per file; a path's spaces are escaped.
    let files = std::fs::read_to_string(&depfile)
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix(&format!("{}:", depfile.display())))
        .map(|files| {
            files
                .replace("\\ ", "\u{0}")
                .split_whitespace()
                .map(|file| relative(&file.replace('\u{0}', " ")))
                .collect()
        })
        .unwrap_or_default();
    let built = match mode {
        Mode::Object => out.join(format!("lib{name}.rlib")),
        Mode::Test(binary) => binary.clone(),
    };
    Build {
        ok: output.status.success() && built.is_file(),
        diagnostics,
        files,
    }
}

/// The crate name of the root `root` (relative to the tree) of `mirror`, as rustc gives it
/// under Kbuild, which passes no `--crate-name`: the file's `#![crate_name = "..."]`
/// (`rust_binder_main.rs` is `rust_binder`), else its file's stem.
fn crate_name(mirror: &Mirror, root: &str) -> String {
    let path = mirror.dir.join(root);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    text.lines()
        .find_map(|line| {
            line.trim()
                .strip_prefix("#![crate_name = \"")?
                .strip_suffix("\"]")
                .map(str::to_owned)
        })
        .unwrap_or_else(|| {
            Path::new(root)
                .file_stem()
                .expect("a file name")
                .to_string_lossy()
                .replace('-', "_")
        })
}

/// Builds every crate of the tree's drivers and samples, prints what became of each, and
/// checks that exactly those of [`RUNS`] build, each without a warning.
#[test]
fn every_crate_builds_or_says_what_kernel_core_lacks() {
    if !on_the_host() {
        return;
    }
    let mirror = mirror(scratch("scan").join("tree"));
    let out = mirror.dir.with_file_name("out");
    let deps = deps();

    // Two at a time: rustc's own threads do the rest.
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(2));
    let mut builds: Vec<(usize, Build)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(root) = mirror.roots.get(index) else {
                            break done;
                        };
                        let name = crate_name(&mirror, root);
                        let build = rustc(
                            &deps,
                            &mirror,
                            &mirror.dir.join(root),
                            &name,
                            &Mode::Object,
                            &out.join(index.to_string()),
                        );
                        done.push((index, build));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a build thread"))
            .collect()
    });
    builds.sort_by_key(|(index, _)| *index);
    let builds: BTreeMap<&str, Build> = builds
        .into_iter()
        .map(|(index, build)| (mirror.roots[index].as_str(), build))
        .collect();

    let renamed: usize = mirror.files.values().sum();
    println!(
        "Linux 7.3's drivers and samples on kernel-core ({TREE}): {} crates, {} files, {renamed} \
         `kernel::` written `kernel_core::`",
        builds.len(),
        mirror.files.len()
    );
    let mut reached = BTreeSet::new();
    let mut lacking: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for (root, build) in &builds {
        reached.extend(build.files.iter().cloned());
        let files = match build.files.len() {
            0 | 1 => String::new(),
            n => format!(" ({n} files)"),
        };
        if build.ok {
            let warnings = build.warnings().count();
            let warned = match warnings {
                0 => String::new(),
                n => format!(", {n} warnings"),
            };
            println!("    builds    {root}{files}{warned}");
            for warning in build.warnings() {
                println!(
                    "        {}",
                    warning.rendered.trim_end().replace('\n', "\n        ")
                );
            }
            continue;
        }
        let lacks = build.lacks();
        let errors = build.errors().count();
        let other = build.errors().filter(|e| e.lacks().is_empty()).count();
        println!(
            "    FAILS     {root}{files}: {errors} errors; lacks {}{}",
            if lacks.is_empty() {
                "nothing by name".to_owned()
            } else {
                lacks.iter().cloned().collect::<Vec<_>>().join(", ")
            },
            match other {
                0 => String::new(),
                n => format!("; {n} other errors"),
            }
        );
        // The other errors, each message once: the first few, where they are.
        let mut seen = BTreeSet::new();
        for error in build.errors().filter(|e| e.lacks().is_empty()) {
            if seen.insert(error.message.as_str()) && seen.len() <= 4 {
                let at = error
                    .at
                    .as_ref()
                    .map_or(String::new(), |(file, line)| format!(" ({file}:{line})"));
                println!("        {}{at}", error.message.replace('\n', " "));
            }
        }
        for item in lacks {
            lacking.entry(item).or_default().insert(root);
        }
    }

    // Per file: those whose own `kernel_core::` and `pin_init::` paths all resolve, in a crate
    // that does not build (what a crate lacks may be in its other files).
    let mut resolving = Vec::new();
    for (root, build) in builds.iter().filter(|(_, b)| !b.ok) {
        for file in &build.files {
            let unresolved = build
                .errors()
                .filter(|e| e.at.as_ref().is_some_and(|(f, _)| f == file))
                .any(|e| !e.lacks().is_empty());
            if !unresolved && mirror.files.get(file).is_some_and(|&n| n > 0) {
                resolving.push(format!("{file} (of {root})"));
            }
        }
    }
    println!(
        "Files of crates that do not build whose own `kernel::` paths all resolve on kernel-core \
         ({}):",
        resolving.len()
    );
    for file in &resolving {
        println!("    {file}");
    }
    println!("What the crates that do not build lack, by how many crates lack it:");
    let mut by_count: Vec<_> = lacking.iter().collect();
    by_count.sort_by_key(|(item, roots)| (std::cmp::Reverse(roots.len()), item.as_str()));
    for (item, roots) in by_count {
        println!("    {:>2}  {item}", roots.len());
    }
    let orphans: Vec<&String> = mirror
        .files
        .keys()
        .filter(|file| !reached.contains(*file))
        .collect();
    if !orphans.is_empty() {
        println!("Files that no crate reaches: {orphans:?}");
    }

    let expected: BTreeSet<&str> = RUNS.iter().map(|run| run.root).collect();
    for root in &expected {
        assert!(
            builds.contains_key(root),
            "{root} is not a crate of the tree any more (no Makefile names its object): update \
             RUNS in differential/tests/real_code.rs for this kernel"
        );
    }
    let mut failures = String::new();
    for (root, build) in &builds {
        match (expected.contains(root), build.ok) {
            (true, false) => {
                let _ = writeln!(
                    failures,
                    "{root} builds on kernel-core no more:\n{}",
                    build.excerpt(5)
                );
            }
            (true, true) if build.warnings().count() > 0 => {
                let _ = writeln!(
                    failures,
                    "{root} builds with warnings on kernel-core (the kernel builds it without):\n{}",
                    build
                        .warnings()
                        .map(|w| w.rendered.as_str())
                        .collect::<String>()
                );
            }
            (false, true) => {
                let _ = writeln!(
                    failures,
                    "{root} builds on kernel-core now: give it a check in \
                     differential/tests/real_code/checks/ and add it to RUNS in \
                     differential/tests/real_code.rs"
                );
            }
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{failures}");
}

/// The outcome of a check's test binary.
struct Checked {
    /// What it printed.
    output: String,
}

/// Builds the crate `run.root` with its check appended as a module, runs its tests with
/// `envs`, and fails unless every test of the check ran and passed.
fn check(run: &Run, envs: &[(&str, &Path)]) -> Checked {
    let scratch = scratch(
        &Path::new(run.root)
            .file_stem()
            .expect("a file name")
            .to_string_lossy(),
    );
    let mirror = mirror(scratch.join("tree"));
    let name = crate_name(&mirror, run.root);
    let deps = deps();
    let check = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/real_code/checks")
        .join(run.check);
    let check_text = std::fs::read_to_string(&check)
        .unwrap_or_else(|e| panic!("reading {}: {e}", check.display()));
    let tests = check_text
        .lines()
        .filter(|line| line.trim() == "#[test]")
        .count();
    assert!(tests > 0, "{} has no #[test]", check.display());

    // The renamed root, then one line: the check as its module. Beside the root, so that the
    // crate's own `mod` declarations find their files.
    let root = mirror.dir.join(run.root);
    let renamed = std::fs::read_to_string(&root)
        .unwrap_or_else(|e| panic!("reading {}: {e}", root.display()));
    let with_check = root.with_file_name(format!("{name}.real_code_checks.rs"));
    std::fs::write(
        &with_check,
        format!(
            "{renamed}{}#[cfg(test)] #[path = {:?}] mod real_code_checks;\n",
            if renamed.ends_with('\n') { "" } else { "\n" },
            check.display().to_string()
        ),
    )
    .unwrap_or_else(|e| panic!("writing {}: {e}", with_check.display()));

    let binary = scratch.join(format!("{name}-checks"));
    let build = rustc(
        &deps,
        &mirror,
        &with_check,
        &name,
        &Mode::Test(binary.clone()),
        &scratch.join("out"),
    );
    assert!(
        build.ok,
        "{} with its check {} does not build on kernel-core:\n{}",
        run.root,
        check.display(),
        build.excerpt(5)
    );

    let mut cmd = Command::new(&binary);
    cmd.arg("--test-threads=1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in envs {
        cmd.env(key, value);
    }
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("running {}: {e}", binary.display()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for the check") {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{}: still running after {TIMEOUT:?}", binary.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = child.wait_with_output().expect("the check's output");
    let output = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    println!("{} with {}:\n{output}", run.root, run.check);
    let passed = format!("test result: ok. {tests} passed; 0 failed");
    assert!(
        status.success() && output.contains(&passed),
        "{} on kernel-core: the {tests} tests of {} must all pass ({status}), see above",
        run.root,
        check.display()
    );
    Checked { output }
}

/// The [`RUNS`] entry of `root`.
fn run(root: &str) -> &'static Run {
    RUNS.iter()
        .find(|run| run.root == root)
        .unwrap_or_else(|| panic!("{root} is not in RUNS"))
}

/// `drivers/gpu/drm/drm_panic_qr.rs`: its two C entry points called as `drm_panic.c` calls
/// them, and the QR codes they draw read back by a reader of its own.
#[test]
fn drm_panic_qr_draws_qr_codes_that_a_reader_reads_back() {
    if !on_the_host() {
        return;
    }
    let cases = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("real-code")
        .join("drm_panic_qr-codes");
    if cases.exists() {
        std::fs::remove_dir_all(&cases).expect("removing the old QR codes");
    }
    check(
        run("drivers/gpu/drm/drm_panic_qr.rs"),
        &[("KERNEL_CORE_REAL_CODE_OUT", &cases)],
    );
    match qr::read_back(&cases) {
        Ok(summary) => println!("{summary}"),
        Err(e) => panic!("the QR codes of drm_panic_qr.rs on kernel-core: {e}"),
    }
}

/// `samples/rust/rust_minimal.rs`: loaded and unloaded, with and without parameters, its
/// messages read back, and what `modinfo` shows.
#[test]
fn rust_minimal_loads_prints_and_unloads() {
    if !on_the_host() {
        return;
    }
    let checked = check(run("samples/rust/rust_minimal.rs"), &[]);
    assert!(checked
        .output
        .contains("loads_and_unloads_with_the_default_parameters ... ok"));
}

mod tests {
    use super::*;

    #[test]
    fn only_the_kernel_crate_is_renamed() {
        let (text, count) = rename(
            "use kernel::prelude::*;\nimpl kernel::Module for M {}\n\
             x: ::kernel::ffi::c_int, my_kernel::x, kernel_core::y, kernel, kernel :: z\n",
        );
        assert_eq!(
            text,
            "use kernel_core::prelude::*;\nimpl kernel_core::Module for M {}\n\
             x: ::kernel_core::ffi::c_int, my_kernel::x, kernel_core::y, kernel, kernel :: z\n"
        );
        assert_eq!(count, 3);
        assert_eq!(rename("kernel::a"), ("kernel_core::a".to_owned(), 1));
    }

    #[test]
    fn objects_are_read_from_assignments_only() {
        let makefile = "obj-$(CONFIG_X) += a.o\nm-y := \\\n\tb.o \\\n\tsub/c.o\n# d.o\n\
                        deps := $(obj)/e.o\n$(obj)/f.o: g.o\n";
        assert_eq!(objects(makefile), ["a.o", "b.o", "sub/c.o"]);
    }

    #[test]
    fn what_an_error_says_kernel_core_lacks() {
        let error = |message: &str| Diagnostic {
            level: "error".into(),
            message: message.into(),
            at: None,
            rendered: String::new(),
        };
        assert_eq!(
            error("unresolved imports `kernel_core::clk`, `kernel_core::cpu`, `crate::x`").lacks(),
            ["kernel_core::clk", "kernel_core::cpu"]
        );
        assert_eq!(
            error("cannot find `net` in `kernel_core`").lacks(),
            ["kernel_core::net"]
        );
        assert_eq!(
            error("cannot find type `Device` in module `kernel_core::device`").lacks(),
            ["kernel_core::device::Device"]
        );
        assert_eq!(
            error("cannot find macro `dev_info` in this scope").lacks(),
            ["dev_info!"]
        );
        assert!(error("cannot find type `LocalModule` in the crate root")
            .lacks()
            .is_empty());
        assert!(error("mismatched types").lacks().is_empty());
    }
}
