// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo kernel-core rust-analyzer` (and kernel-core's `cargo xtask rust-analyzer`): a
//! `rust-project.json` for an out-of-tree module that uses kernel-core, so go-to-definition
//! and completion work in the driver.
//!
//! The kernel describes its own crates: `make M=<module> rust-analyzer` writes
//! `<module>/rust-project.json` (on 6.12 only given `VPATH=<source>`, as its rule finds
//! `rust/Makefile` only from the source tree). This then
//!
//! 1. lets rust-analyzer load the standard library from `sysroot_src` instead of the copies of
//!    `core`, `alloc`, `std` and `proc_macro` the kernel lists as plain crates (current
//!    rust-analyzer finds the inherent methods of primitive types, such as
//!    `usize::is_power_of_two`, only in sysroot crates), and marks the crates Kbuild compiles
//!    with `-Zcrate-attr=no_std` as `crate_attrs: ["no_std"]`;
//! 2. adds `kernel_core_macros` (a proc macro, whose `libkernel_core_macros.so` Kbuild builds
//!    with `kernel-core.mk`'s own rule in `<out>/<kernel>-<arch>/rust-analyzer/`)
//!    and `kernel_core` (built like the module's crates, plus `--cfg kernel`,
//!    `--cfg kernel_core_linux_7_1` on 7.1+ and `kernel_core_linux_7_3` on 7.3+, `build_error` and the macros), and makes every crate
//!    of the module depend on both, as `kbuild/kernel-core.mk` does;
//! 3. writes the result back, reads it again and checks it (every root and proc-macro library
//!    exists, every dependency index is valid, the driver sees `kernel`, `kernel_core` and
//!    `kernel_core_macros`), failing with one line per problem;
//! 4. if `rust-analyzer` is installed, runs `rust-analyzer diagnostics` on the module and prints
//!    what it reports in the module's files and in kernel-core.

use crate::arch::{self, Arch, Kernel};
use crate::bail;
use crate::files;
use crate::kernel::{self, Build, Toolchain};
use crate::rust_project::{Crate, Dep, Project};
use crate::ui::Context as _;
use crate::ui::{self, Result};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The file rust-analyzer looks for in a project directory.
const PROJECT_FILE: &str = "rust-project.json";

/// How long the Kbuild steps and `rust-analyzer diagnostics` may take.
const MAKE_TIMEOUT: Duration = Duration::from_secs(15 * 60);
const DIAGNOSTICS_TIMEOUT: Duration = Duration::from_secs(20 * 60);

/// The sysroot crates the kernel lists itself, replaced by rust-analyzer's own.
const SYSROOT_CRATES: &[&str] = &["core", "alloc", "std", "proc_macro"];

/// The kernel-core sources the module is built with, and where to put what this makes.
#[derive(Debug, Clone)]
pub struct Sources {
    /// The `kernel-core` package's directory (it holds `kernel-core.mk` and `src/`).
    pub kernel_core: PathBuf,
    /// The `kernel-core-macros` package's directory.
    pub macros: PathBuf,
    /// Where the proc-macro library and logs go, under `<kernel>-<arch>/rust-analyzer/`.
    pub out: PathBuf,
}

/// `rust-analyzer --kernel K [--arch A] [--module DIR]`.
pub fn run(sources: &Sources, request: Request) -> Result {
    let Request {
        kernel,
        arch,
        module,
        strict,
    } = request;
    let tools = Toolchain::for_kernel(&kernel, &arch)?;
    let build = kernel::build(&kernel, &arch, &tools)?;
    let out = sources
        .out
        .join(format!("{}-{}", kernel.name, arch.name))
        .join("rust-analyzer");
    fs::create_dir_all(&out).at(&out)?;

    let dylib = build_macros(sources, &tools, &build, &arch, &out)?;
    let mut project = kernel_project(&tools, &build, &arch, &module, &out)?;
    let dropped = drop_crates_under(&mut project.crates, &module, &module.join("target"));
    if dropped > 0 {
        println!(
            "    left out {dropped} crate(s) under {}",
            module.join("target").display()
        );
    }
    let start = ui::step(&format!(
        "adding kernel_core and kernel_core_macros to {}",
        module.join(PROJECT_FILE).display()
    ));
    let spec = KernelCore {
        kernel_core: sources.kernel_core.clone(),
        macros: sources.macros.clone(),
        module: module.clone(),
        dylib,
        kernel_cfgs: kernel_cfgs(&build.dir)?,
        linux_7_1: at_least(&build.source.version, (7, 1)),
        linux_7_3: at_least(&build.source.version, (7, 3)),
    };
    use_sysroot_src(&mut project)?;
    add_kernel_core(&mut project, &spec)?;
    let path = module.join(PROJECT_FILE);
    fs::write(&path, project.to_text()).at(&path)?;

    // Check what was written, as rust-analyzer will read it.
    let text = fs::read_to_string(&path).at(&path)?;
    let written = Project::parse(&text)
        .map_err(|e| anyhow::anyhow!("{} is not a valid rust-project.json: {e}", path.display()))?;
    let summary = check(&written, &spec).map_err(|problems| {
        anyhow::anyhow!("{} is wrong: {}", path.display(), problems.join("; "))
    })?;
    ui::done(
        &format!(
            "{} for Linux {} on {}: {summary}",
            path.display(),
            build.source.version,
            arch.name
        ),
        start,
    );
    diagnostics(sources, &module, &out, strict)
}

/// What `rust-analyzer` was asked to do.
#[derive(Debug)]
pub struct Request {
    kernel: Kernel,
    arch: Arch,
    /// The module directory.
    module: PathBuf,
    /// `--strict` (what `cargo xtask test` uses): rust-analyzer must run, and find no error in
    /// the module or in kernel-core.
    strict: bool,
}

impl Request {
    /// Checks the options.
    pub fn new(kernel: &str, arch: Option<&str>, module: PathBuf, strict: bool) -> Result<Self> {
        let kernel = arch::kernel(kernel)?;
        let arch = arch.map_or(Ok(arch::ARCHES[0]), arch::arch)?;
        let module = module.canonicalize().map_err(|e| {
            anyhow::anyhow!(
                "module directory {}: {e}; pass --module <directory of your module's Kbuild>",
                module.display()
            )
        })?;
        if !module.join("Kbuild").is_file() && !module.join("Makefile").is_file() {
            bail!(
                "{} has no Kbuild or Makefile: pass --module <directory of an out-of-tree module>",
                module.display()
            );
        }
        Ok(Request {
            kernel,
            arch,
            module,
            strict,
        })
    }
}

/// Builds `libkernel_core_macros.so` with `kernel-core.mk`'s rule, in a directory of its
/// own (incrementally: make rebuilds it only when the macros or the kernel's flags change).
fn build_macros(
    sources: &Sources,
    tools: &Toolchain,
    build: &Build,
    arch: &Arch,
    out: &Path,
) -> Result<PathBuf> {
    let dir = out.join("macros");
    fs::create_dir_all(&dir).at(&dir)?;
    let kbuild = format!(
        "# Generated by `rust-analyzer` (cargo-kernel-core): only the proc-macro library.\n\
         kernel-core-users :=\n\
         include {}\n\
         always-y += libkernel_core_macros.so\n",
        sources.kernel_core.join("kernel-core.mk").display()
    );
    files::write_if_changed(&dir.join("Kbuild"), kbuild)?;
    let start = ui::step("building libkernel_core_macros.so with Kbuild");
    let mut cmd = tools.make(&build.dir, arch);
    cmd.arg(format!("M={}", dir.display()))
        .arg(format!("KERNEL_CORE_SRC={}", sources.kernel_core.display()))
        .arg(format!(
            "KERNEL_CORE_MACROS_SRC={}",
            sources.macros.display()
        ))
        .arg("modules");
    make(&mut cmd, &dir.join("build.log"), "the proc-macro build")?;
    let dylib = dir.join("libkernel_core_macros.so");
    if !dylib.is_file() {
        bail!(
            "Kbuild built no {} (see {})",
            dylib.display(),
            dir.join("build.log").display()
        );
    }
    ui::done(&dylib.display().to_string(), start);
    Ok(dylib)
}

/// Runs `make -C <kernel build> M=<module> rust-analyzer` and reads what it wrote.
fn kernel_project(
    tools: &Toolchain,
    build: &Build,
    arch: &Arch,
    module: &Path,
    out: &Path,
) -> Result<Project> {
    let path = module.join(PROJECT_FILE);
    match fs::remove_file(&path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => bail!("cannot replace {}: {e}", path.display()),
    }
    let start = ui::step(&format!(
        "make rust-analyzer: the kernel's crates, for M={}",
        module.display()
    ));
    let mut cmd = tools.make(&build.dir, arch);
    cmd.arg(format!("M={}", module.display()));
    let makefile = build.source.dir.join("Makefile");
    let makefile = fs::read_to_string(&makefile)
        .map_err(|e| anyhow::anyhow!("{}: {e}", makefile.display()))?;
    if descends_from_source_tree(&makefile) && build.source.dir != build.dir {
        // Up to 6.12, the rule runs `rust/Makefile` by a path relative to the build
        // directory, which only an in-tree build has; VPATH is what `make O=` (without M=)
        // sets to find it in the source tree.
        cmd.arg(format!("VPATH={}", build.source.dir.display()));
    }
    cmd.arg("rust-analyzer");
    make(
        &mut cmd,
        &out.join("make-rust-analyzer.log"),
        "`make rust-analyzer`",
    )?;
    let text = fs::read_to_string(&path).map_err(|e| {
        anyhow::anyhow!(
            "`make rust-analyzer` wrote no {} ({e}; see {})",
            path.display(),
            out.join("make-rust-analyzer.log").display()
        )
    })?;
    let project = Project::parse(&text)
        .map_err(|e| anyhow::anyhow!("the kernel's {}: {e}", path.display()))?;
    ui::done(
        &format!("{} crates from the kernel", project.crates.len()),
        start,
    );
    Ok(project)
}

/// Whether the kernel's top `Makefile` runs its `rust-analyzer` rule for external modules as
/// `$(MAKE) $(build)=rust` (6.12 and older), which finds `rust/Makefile` only from the source
/// tree, rather than as `$(build)=$(objtree)/rust src=$(srctree)/rust` (6.13 and later).
fn descends_from_source_tree(makefile: &str) -> bool {
    let Some(start) = makefile.find("\nrust-analyzer:") else {
        return false;
    };
    let rule = &makefile[start + 1..];
    let rule = &rule[..rule.find("\n\n").unwrap_or(rule.len())];
    rule.contains("$(build)=rust") && !rule.contains("$(objtree)/rust")
}

/// Runs a quiet Kbuild command, failing with its last lines and its log.
fn make(cmd: &mut Command, log: &Path, what: &str) -> Result {
    crate::process::run_logged(
        cmd,
        log,
        "make",
        Duration::from_secs(15),
        MAKE_TIMEOUT,
        &mut crate::process::NoMonitor,
    )?
    .succeeded(what, log)
}

/// The kernel's own `--cfg`s (`CONFIG_*`), from `include/generated/rustc_cfg`.
fn kernel_cfgs(build_dir: &Path) -> Result<Vec<String>> {
    let path = build_dir.join("include/generated/rustc_cfg");
    let text = fs::read_to_string(&path).map_err(|e| {
        anyhow::anyhow!(
            "{}: {e}; is the kernel configured with CONFIG_RUST=y?",
            path.display()
        )
    })?;
    Ok(parse_rustc_cfg(&text))
}

/// `--cfg=CONFIG_X` / `--cfg=CONFIG_Y="m"` lines to `CONFIG_X` / `CONFIG_Y="m"`.
fn parse_rustc_cfg(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.trim().trim_start_matches("--cfg=").to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// Whether `VERSION.PATCHLEVEL[.SUBLEVEL...]` is at least `(major, minor)`.
fn at_least(version: &str, (major, minor): (u32, u32)) -> bool {
    let mut parts = version
        .split(|c: char| !c.is_ascii_digit())
        .map(|p| p.parse::<u32>().unwrap_or(0));
    let have = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    have >= (major, minor)
}

/// What to add: where kernel-core is, the module, the proc-macro library and the cfgs.
struct KernelCore {
    /// The `kernel-core` and `kernel-core-macros` packages.
    kernel_core: PathBuf,
    macros: PathBuf,
    /// The module directory, which relative crate roots are relative to.
    module: PathBuf,
    /// `libkernel_core_macros.so`.
    dylib: PathBuf,
    /// The kernel's `CONFIG_*` cfgs.
    kernel_cfgs: Vec<String>,
    /// Linux 7.1 or later: `--cfg kernel_core_linux_7_1`.
    linux_7_1: bool,
    /// Linux 7.3 or later: `--cfg kernel_core_linux_7_3`.
    linux_7_3: bool,
}

impl KernelCore {
    fn core_root(&self) -> PathBuf {
        self.kernel_core.join("src/kernel_core.rs")
    }

    fn macros_root(&self) -> PathBuf {
        self.macros.join("src/kernel_core_macros.rs")
    }

    /// The cfgs `kbuild/kernel-core.mk` gives kernel-core and the crates that use it.
    fn cfgs(&self) -> Vec<&'static str> {
        let mut cfgs = vec!["kernel"];
        if self.linux_7_1 {
            cfgs.push("kernel_core_linux_7_1");
        }
        if self.linux_7_3 {
            cfgs.push("kernel_core_linux_7_3");
        }
        cfgs
    }

    /// A crate root as rust-analyzer resolves it: relative to the project file's directory.
    fn resolve(&self, root: &str) -> PathBuf {
        self.module.join(root)
    }
}

fn index_of(crates: &[Crate], wanted: &str) -> Option<usize> {
    crates.iter().position(|c| c.name() == wanted)
}

/// The crate indices a crate depends on.
fn dep_targets(krate: &Crate) -> Vec<usize> {
    krate.deps.iter().map(|d| d.krate).collect()
}

/// Rewrites every dependency index with `map`, dropping those it maps to `None`.
fn remap_deps(crates: &mut [Crate], map: impl Fn(usize) -> Option<usize>) {
    for krate in crates {
        krate.deps.retain_mut(|d| match map(d.krate) {
            Some(new) => {
                d.krate = new;
                true
            }
            None => false,
        });
    }
}

/// Removes the crates whose root is under `dir` (the module's `target/`, where
/// `cargo kernel-core` keeps copies of the module that `make rust-analyzer` would list too),
/// with the dependencies on them; roots are relative to `module`.
fn drop_crates_under(crates: &mut Vec<Crate>, module: &Path, dir: &Path) -> usize {
    let keep: Vec<bool> = crates
        .iter()
        .map(|c| !module.join(&c.root_module).starts_with(dir))
        .collect();
    let mut new_index = Vec::with_capacity(keep.len());
    let mut next = 0;
    for &k in &keep {
        new_index.push(k.then_some(next));
        next += usize::from(k);
    }
    remap_deps(crates, |i| new_index.get(i).copied().flatten());
    let mut index = 0;
    crates.retain(|_| {
        index += 1;
        keep[index - 1]
    });
    keep.iter().filter(|k| !**k).count()
}

/// Inserts `new` at `at`, shifting the indices of the crates after it; `new` may refer to
/// crates before `at` and to each other by their final indices.
fn insert_crates(crates: &mut Vec<Crate>, at: usize, new: Vec<Crate>) {
    let count = new.len();
    remap_deps(crates, |i| Some(if i >= at { i + count } else { i }));
    crates.splice(at..at, new);
}

/// Adds `value` to `items` unless it is there.
fn add_string(items: &mut Vec<String>, value: &str) {
    if !items.iter().any(|v| v == value) {
        items.push(value.to_string());
    }
}

/// Replaces the kernel's own entries for the sysroot crates by `sysroot_src`, so that
/// rust-analyzer loads them as the sysroot: it looks up the inherent methods of primitive
/// types only there. The crates that did not depend on `std` are Kbuild's `no_std` crates
/// (`-Zcrate-attr=no_std`, which rust-analyzer cannot see) and get `crate_attrs: ["no_std"]`.
/// Does nothing if the kernel lists no `core`.
fn use_sysroot_src(project: &mut Project) -> Result {
    let crates = &mut project.crates;
    let Some(core) = index_of(crates, "core") else {
        return Ok(());
    };
    let core_root = crates[core].root_module.clone();
    let Some(library) = core_root.strip_suffix("/core/src/lib.rs") else {
        bail!("the kernel's `core` crate has an unexpected root {core_root}");
    };
    let library = library.to_string();
    let sysroot: Vec<bool> = crates
        .iter()
        .map(|c| {
            SYSROOT_CRATES.contains(&c.name())
                && c.root_module == format!("{library}/{}/src/lib.rs", c.name())
        })
        .collect();
    let std = index_of(crates, "std");
    for (i, krate) in crates.iter_mut().enumerate() {
        let uses_std = std.is_some_and(|std| dep_targets(krate).contains(&std));
        if !sysroot[i] && !uses_std && !krate.is_proc_macro {
            add_string(&mut krate.crate_attrs, "no_std");
        }
    }
    // New index of each old one: sysroot crates disappear, the others move down.
    let new_index: Vec<Option<usize>> = sysroot
        .iter()
        .scan(0, |next, &removed| {
            Some((!removed).then(|| {
                *next += 1;
                *next - 1
            }))
        })
        .collect();
    remap_deps(crates, |i| new_index.get(i).copied().flatten());
    let mut i = 0;
    crates.retain(|_| {
        i += 1;
        !sysroot[i - 1]
    });
    project.sysroot_src = Some(library);
    Ok(())
}

/// Adds `kernel_core_macros` and `kernel_core` before the module's crates, and makes each of
/// the module's crates depend on them with kernel-core's cfgs, as `kbuild/kernel-core.mk` does.
/// Returns how many crates of the module there are.
fn add_kernel_core(project: &mut Project, spec: &KernelCore) -> Result<usize> {
    let crates = &mut project.crates;
    for ours in ["kernel_core", "kernel_core_macros"] {
        if index_of(crates, ours).is_some() {
            bail!("the kernel's rust-project.json already has a crate `{ours}`");
        }
    }
    let module: Vec<usize> = (0..crates.len())
        .filter(|&i| {
            spec.resolve(&crates[i].root_module)
                .starts_with(&spec.module)
        })
        .collect();
    let Some(&first) = module.first() else {
        bail!(
            "the kernel found no crate roots in {}: its Kbuild must name each one as <file>.o",
            spec.module.display()
        );
    };
    let required = |wanted: &str| {
        index_of(crates, wanted).ok_or_else(|| {
            anyhow::anyhow!(
                "the kernel's rust-project.json has no `{wanted}` crate: is CONFIG_RUST=y?"
            )
        })
    };
    let build_error = required("build_error")?;
    required("kernel")?;

    // kernel-core is built by the rule that builds the module's crates (`rustc_o_rs`), so it
    // gets what they get from the kernel, plus what kernel-core.mk adds.
    let template = &crates[first];
    let edition = Some(
        template
            .edition
            .clone()
            .unwrap_or_else(|| "2021".to_string()),
    );
    let env = Some(template.env.clone().unwrap_or_default());
    let (macros_index, core_index) = (first, first + 1);
    let mut macros = Crate::new(
        "kernel_core_macros",
        &spec.macros_root().display().to_string(),
    );
    for sysroot in ["core", "std", "proc_macro"] {
        if let Some(i) = index_of(crates, sysroot) {
            macros.deps.push(Dep::new(i, sysroot));
        }
    }
    macros.edition.clone_from(&edition);
    macros.env.clone_from(&env);
    macros.is_workspace_member = Some(true);
    macros.is_proc_macro = true;
    macros.proc_macro_dylib_path = Some(spec.dylib.display().to_string());

    let mut core = Crate::new("kernel_core", &spec.core_root().display().to_string());
    core.deps = template
        .deps
        .iter()
        .filter(|d| d.krate < first)
        .cloned()
        .collect();
    core.deps.push(Dep::new(build_error, "build_error"));
    core.deps.push(Dep::new(macros_index, "kernel_core_macros"));
    core.cfg = spec.kernel_cfgs.clone();
    core.cfg.extend(spec.cfgs().into_iter().map(str::to_string));
    core.edition = edition;
    core.env = env;
    core.is_workspace_member = Some(true);
    core.crate_attrs.clone_from(&template.crate_attrs);

    insert_crates(crates, first, vec![macros, core]);
    for &i in &module {
        let krate = &mut crates[i + 2];
        for cfg in spec.cfgs() {
            add_string(&mut krate.cfg, cfg);
        }
        krate.deps.push(Dep::new(core_index, "kernel_core"));
        krate
            .deps
            .push(Dep::new(macros_index, "kernel_core_macros"));
    }
    Ok(module.len())
}

/// Checks a finished project; returns a one-line summary, or every problem found.
fn check(project: &Project, spec: &KernelCore) -> std::result::Result<String, Vec<String>> {
    let mut problems = Vec::new();
    let crates = &project.crates;
    match project.sysroot_src.as_deref() {
        Some(src) if Path::new(src).join("core/src/lib.rs").is_file() => {}
        Some(src) => problems.push(format!("sysroot_src {src} holds no core/src/lib.rs")),
        None => problems.push("no sysroot_src".into()),
    }
    if project.sysroot.is_none() {
        problems.push("no sysroot (rust-analyzer finds its proc-macro server there)".into());
    }
    for (i, krate) in crates.iter().enumerate() {
        let label = format!("crate #{i} `{}`", krate.name());
        if krate.name().is_empty() {
            problems.push(format!("{label} has no display_name"));
        }
        if !spec.resolve(&krate.root_module).is_file() {
            problems.push(format!(
                "{label}: root {:?} does not exist",
                krate.root_module
            ));
        }
        for target in dep_targets(krate) {
            if target >= crates.len() || target == i {
                problems.push(format!("{label} depends on invalid crate index {target}"));
            }
        }
        if krate.is_proc_macro {
            match krate.proc_macro_dylib_path.as_deref() {
                Some(path) if spec.resolve(path).is_file() => {}
                Some(path) => problems.push(format!("{label}: proc macro {path} does not exist")),
                None => problems.push(format!("{label} is a proc macro without a dylib path")),
            }
        }
    }
    let depends_on = |krate: &Crate, wanted: &str| {
        dep_targets(krate)
            .into_iter()
            .any(|t| crates.get(t).map(Crate::name) == Some(wanted))
    };
    let has_cfg = |krate: &Crate, wanted: &str| krate.cfg.iter().any(|c| c == wanted);
    let find = |wanted: &str, problems: &mut Vec<String>| {
        let found: Vec<&Crate> = crates.iter().filter(|c| c.name() == wanted).collect();
        if found.len() != 1 {
            problems.push(format!("{} crates named `{wanted}`, not 1", found.len()));
        }
        found.first().copied()
    };
    if let Some(core) = find("kernel_core", &mut problems) {
        if spec.resolve(&core.root_module) != spec.core_root() {
            problems.push(format!("kernel_core's root is {:?}", core.root_module));
        }
        let mut wanted_cfgs: Vec<&str> = spec.cfgs();
        wanted_cfgs.extend(spec.kernel_cfgs.iter().map(String::as_str));
        for cfg in wanted_cfgs {
            if !has_cfg(core, cfg) {
                problems.push(format!("kernel_core lacks cfg `{cfg}`"));
            }
        }
        if !spec.linux_7_1 && has_cfg(core, "kernel_core_linux_7_1") {
            problems.push("kernel_core has cfg `kernel_core_linux_7_1` before Linux 7.1".into());
        }
        for wanted in ["kernel", "build_error", "kernel_core_macros"] {
            if !depends_on(core, wanted) {
                problems.push(format!("kernel_core does not depend on `{wanted}`"));
            }
        }
    }
    if let Some(macros) = find("kernel_core_macros", &mut problems) {
        if !macros.is_proc_macro {
            problems.push("kernel_core_macros is not a proc macro".into());
        }
        if spec.resolve(&macros.root_module) != spec.macros_root() {
            problems.push(format!(
                "kernel_core_macros's root is {:?}",
                macros.root_module
            ));
        }
    }
    let module: Vec<&Crate> = crates
        .iter()
        .filter(|c| spec.resolve(&c.root_module).starts_with(&spec.module))
        .collect();
    if module.is_empty() {
        problems.push(format!("no crate of {}", spec.module.display()));
    }
    for krate in &module {
        for wanted in ["kernel", "kernel_core", "kernel_core_macros"] {
            if !depends_on(krate, wanted) {
                problems.push(format!("`{}` does not depend on `{wanted}`", krate.name()));
            }
        }
        if !has_cfg(krate, "kernel") {
            problems.push(format!("`{}` lacks cfg `kernel`", krate.name()));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(format!(
        "{} crates; the module's: {}; each sees kernel, kernel_core and kernel_core_macros",
        crates.len(),
        module
            .iter()
            .map(|c| c.name())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// One diagnostic of `rust-analyzer diagnostics`.
#[derive(Debug, PartialEq, Eq)]
struct Diagnostic {
    file: String,
    /// 1-based, as editors show them.
    line: usize,
    column: usize,
    severity: String,
    message: String,
}

/// Reads `rust-analyzer diagnostics` output: progress text with carriage returns, and lines
/// `at crate C, file F: Error Code from LineCol { line: L, col: C } to LineCol {...}: message`
/// with 0-based positions.
fn parse_diagnostics(output: &str) -> Vec<Diagnostic> {
    let mut found: Vec<Diagnostic> = Vec::new();
    for part in output.split(['\r', '\n']) {
        let Some((_, rest)) = part.split_once("at crate ") else {
            continue;
        };
        let parsed = (|| {
            let (_, rest) = rest.split_once(", file ")?;
            let (file, rest) = rest.split_once(": ")?;
            let severity = rest.split_whitespace().next()?.to_string();
            let (_, position) = rest.split_once("from LineCol { line: ")?;
            let (line, position) = position.split_once(", col: ")?;
            let (column, _) = position.split_once(' ')?;
            let (_, message) = rest.split_once(" }: ")?;
            Some(Diagnostic {
                file: file.to_string(),
                line: line.parse::<usize>().ok()? + 1,
                column: column.parse::<usize>().ok()? + 1,
                severity,
                message: message.trim().to_string(),
            })
        })();
        if let Some(d) = parsed {
            if !found.contains(&d) {
                found.push(d);
            }
        }
    }
    found
}

/// Runs `rust-analyzer diagnostics` on the module if rust-analyzer is installed, and prints
/// what it reports for the module's files and kernel-core's (not the kernel's own).
fn diagnostics(sources: &Sources, module: &Path, out: &Path, strict: bool) -> Result {
    let Some(version) = ui::output(Command::new("rust-analyzer").arg("--version")) else {
        if strict {
            bail!("rust-analyzer is not installed (`rustup component add rust-analyzer`)");
        }
        println!(
            "    rust-analyzer is not installed, so the file was not tried with it \
             (`rustup component add rust-analyzer`)"
        );
        return Ok(());
    };
    let start = ui::step(&format!(
        "rust-analyzer diagnostics {} ({}; a minute or more)",
        module.display(),
        version.trim()
    ));
    let log = out.join("diagnostics.log");
    let logged = crate::process::run_logged(
        Command::new("rust-analyzer").arg("diagnostics").arg(module),
        &log,
        "rust-analyzer",
        Duration::from_secs(30),
        DIAGNOSTICS_TIMEOUT,
        &mut crate::process::NoMonitor,
    )?;
    let text = fs::read_to_string(&log).at(&log)?;
    // It exits with an error when anything has an error, the kernel's own crates included.
    if logged.ending == crate::process::Ending::TimedOut
        || !text.contains("diagnostic scan complete")
    {
        if strict {
            bail!(
                "rust-analyzer did not finish its scan (see {})",
                log.display()
            );
        }
        println!(
            "    rust-analyzer did not finish its scan, so the file is untested by it (see {})",
            log.display()
        );
        return Ok(());
    }
    let all = parse_diagnostics(&text);
    let in_module = |d: &Diagnostic| Path::new(&d.file).starts_with(module);
    let in_core = |d: &Diagnostic| {
        let file = Path::new(&d.file);
        !in_module(d)
            && (file.starts_with(&sources.kernel_core) || file.starts_with(&sources.macros))
    };
    let count = |place: &dyn Fn(&Diagnostic) -> bool, severity: &str| {
        all.iter()
            .filter(|d| place(d) && d.severity == severity)
            .count()
    };
    for d in all.iter().filter(|d| {
        (in_module(d) || in_core(d)) && matches!(d.severity.as_str(), "Error" | "Warning")
    }) {
        println!(
            "    {}:{}:{}: {}: {}",
            d.file,
            d.line,
            d.column,
            d.severity.to_lowercase(),
            d.message
        );
    }
    let in_kernel = |d: &Diagnostic| !in_module(d) && !in_core(d);
    ui::done(
        &format!(
            "rust-analyzer: {} error(s), {} warning(s) in the module; {} error(s), {} warning(s) \
             in kernel-core; {} error(s) in the kernel's own crates (full output: {})",
            count(&in_module, "Error"),
            count(&in_module, "Warning"),
            count(&in_core, "Error"),
            count(&in_core, "Warning"),
            count(&in_kernel, "Error"),
            log.display()
        ),
        start,
    );
    let ours = count(&in_module, "Error") + count(&in_core, "Error");
    if strict && ours > 0 {
        bail!("rust-analyzer found {ours} error(s) in the module or in kernel-core (listed above)");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch directory with a fake sysroot, kernel tree and module.
    struct Tree(PathBuf);

    impl Tree {
        fn new(tag: &str) -> Self {
            let dir = std::env::temp_dir()
                .join(format!("kernel-core-xtask-ra-{tag}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            for file in [
                "library/core/src/lib.rs",
                "library/alloc/src/lib.rs",
                "library/std/src/lib.rs",
                "library/proc_macro/src/lib.rs",
                "linux/rust/compiler_builtins.rs",
                "linux/rust/macros/lib.rs",
                "linux/rust/build_error.rs",
                "linux/rust/kernel/lib.rs",
                "build/rust/libmacros.so",
                "module/driver.rs",
                "libkernel_core_macros.so",
            ] {
                let path = dir.join(file);
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                fs::write(path, "").unwrap();
            }
            Tree(dir)
        }

        /// What `make rust-analyzer` writes, in miniature (7.2's shape: a relative root for
        /// the module's crate).
        fn kernel_json(&self) -> String {
            let d = self.0.display();
            format!(
                r#"{{
    "crates": [
        {{"display_name": "core", "root_module": "{d}/library/core/src/lib.rs", "deps": [], "cfg": ["no_fp_fmt_parse"], "edition": "2024", "is_workspace_member": false, "env": {{}}}},
        {{"display_name": "alloc", "root_module": "{d}/library/alloc/src/lib.rs", "deps": [{{"crate": 0, "name": "core"}}], "cfg": [], "edition": "2024", "is_workspace_member": false, "env": {{}}}},
        {{"display_name": "std", "root_module": "{d}/library/std/src/lib.rs", "deps": [{{"crate": 1, "name": "alloc"}}, {{"crate": 0, "name": "core"}}], "cfg": [], "edition": "2024", "is_workspace_member": false, "env": {{}}}},
        {{"display_name": "proc_macro", "root_module": "{d}/library/proc_macro/src/lib.rs", "deps": [{{"crate": 0, "name": "core"}}, {{"crate": 2, "name": "std"}}], "cfg": [], "edition": "2024", "is_workspace_member": false, "env": {{}}}},
        {{"display_name": "compiler_builtins", "root_module": "{d}/linux/rust/compiler_builtins.rs", "deps": [{{"crate": 0, "name": "core"}}], "cfg": [], "edition": "2021", "is_workspace_member": true, "env": {{}}}},
        {{"display_name": "macros", "root_module": "{d}/linux/rust/macros/lib.rs", "deps": [{{"crate": 2, "name": "std"}}, {{"crate": 3, "name": "proc_macro"}}], "cfg": [], "edition": "2021", "is_workspace_member": true, "env": {{}}, "is_proc_macro": true, "proc_macro_dylib_path": "{d}/build/rust/libmacros.so"}},
        {{"display_name": "build_error", "root_module": "{d}/linux/rust/build_error.rs", "deps": [{{"crate": 0, "name": "core"}}, {{"crate": 4, "name": "compiler_builtins"}}], "cfg": [], "edition": "2021", "is_workspace_member": true, "env": {{}}}},
        {{"display_name": "kernel", "root_module": "{d}/linux/rust/kernel/lib.rs", "deps": [{{"crate": 0, "name": "core"}}, {{"crate": 5, "name": "macros"}}, {{"crate": 6, "name": "build_error"}}], "cfg": ["CONFIG_64BIT"], "edition": "2021", "is_workspace_member": true, "env": {{"RUST_MODFILE": "This is only for rust-analyzer"}}}},
        {{"display_name": "driver", "root_module": "driver.rs", "deps": [{{"crate": 0, "name": "core"}}, {{"crate": 7, "name": "kernel"}}], "cfg": ["CONFIG_64BIT"], "edition": "2021", "is_workspace_member": true, "env": {{"RUST_MODFILE": "This is only for rust-analyzer"}}}}
    ],
    "sysroot": "{d}"
}}"#
            )
        }

        fn spec(&self, linux_7_1: bool) -> KernelCore {
            let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
            KernelCore {
                kernel_core: repo.join("kernel-core"),
                macros: repo.join("macros"),
                module: self.0.join("module"),
                dylib: self.0.join("libkernel_core_macros.so"),
                kernel_cfgs: vec!["CONFIG_64BIT".into()],
                linux_7_1,
                linux_7_3: false,
            }
        }
    }

    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn names(project: &Project) -> Vec<&str> {
        project.crates.iter().map(Crate::name).collect()
    }

    fn krate<'a>(project: &'a Project, name: &str) -> &'a Crate {
        &project.crates[index_of(&project.crates, name).unwrap()]
    }

    fn deps_of<'a>(project: &'a Project, name: &str) -> Vec<&'a str> {
        dep_targets(krate(project, name))
            .into_iter()
            .map(|t| project.crates[t].name())
            .collect()
    }

    #[test]
    fn sysroot_crates_become_sysroot_src() {
        let tree = Tree::new("sysroot");
        let mut project = Project::parse(&tree.kernel_json()).unwrap();
        use_sysroot_src(&mut project).unwrap();
        assert_eq!(
            names(&project),
            [
                "compiler_builtins",
                "macros",
                "build_error",
                "kernel",
                "driver"
            ]
        );
        assert_eq!(
            project.sysroot_src.as_deref(),
            Some(tree.0.join("library").to_str().unwrap())
        );
        assert_eq!(deps_of(&project, "kernel"), ["macros", "build_error"]);
        assert_eq!(deps_of(&project, "macros"), Vec::<&str>::new());
        assert_eq!(krate(&project, "driver").crate_attrs, ["no_std"]);
        assert_eq!(krate(&project, "kernel").crate_attrs, ["no_std"]);
        assert!(krate(&project, "macros").crate_attrs.is_empty());
        // A second run changes nothing.
        let once = project.clone();
        use_sysroot_src(&mut project).unwrap();
        assert_eq!(project, once);
    }

    #[test]
    fn kernel_core_is_added_before_the_module() {
        let tree = Tree::new("add");
        let mut project = Project::parse(&tree.kernel_json()).unwrap();
        use_sysroot_src(&mut project).unwrap();
        let spec = tree.spec(true);
        assert_eq!(add_kernel_core(&mut project, &spec).unwrap(), 1);
        assert_eq!(
            names(&project),
            [
                "compiler_builtins",
                "macros",
                "build_error",
                "kernel",
                "kernel_core_macros",
                "kernel_core",
                "driver"
            ]
        );
        assert_eq!(
            deps_of(&project, "kernel_core"),
            ["kernel", "build_error", "kernel_core_macros"]
        );
        assert_eq!(
            deps_of(&project, "driver"),
            ["kernel", "kernel_core", "kernel_core_macros"]
        );
        assert_eq!(
            krate(&project, "kernel_core").cfg,
            ["CONFIG_64BIT", "kernel", "kernel_core_linux_7_1"]
        );
        assert_eq!(
            krate(&project, "driver").cfg,
            ["CONFIG_64BIT", "kernel", "kernel_core_linux_7_1"]
        );
        assert_eq!(krate(&project, "kernel_core").crate_attrs, ["no_std"]);
        let macros = krate(&project, "kernel_core_macros");
        assert!(macros.is_proc_macro);
        assert_eq!(macros.proc_macro_dylib_path.as_deref(), spec.dylib.to_str());
        assert!(add_kernel_core(&mut project, &spec)
            .unwrap_err()
            .to_string()
            .contains("already has a crate `kernel_core`"));

        // What is written reads back the same, and passes the checks.
        let reread = Project::parse(&project.to_text()).unwrap();
        assert_eq!(reread, project);
        let summary = check(&reread, &spec).unwrap();
        assert!(summary.contains("the module's: driver"), "{summary}");
    }

    #[test]
    fn no_7_1_cfg_before_7_1() {
        let tree = Tree::new("old");
        let mut project = Project::parse(&tree.kernel_json()).unwrap();
        use_sysroot_src(&mut project).unwrap();
        let spec = tree.spec(false);
        add_kernel_core(&mut project, &spec).unwrap();
        assert_eq!(krate(&project, "driver").cfg, ["CONFIG_64BIT", "kernel"]);
        check(&project, &spec).unwrap();
        assert!(check(&project, &tree.spec(true))
            .unwrap_err()
            .contains(&"kernel_core lacks cfg `kernel_core_linux_7_1`".to_string()));
    }

    #[test]
    fn check_names_every_problem() {
        let tree = Tree::new("check");
        let mut project = Project::parse(&tree.kernel_json()).unwrap();
        use_sysroot_src(&mut project).unwrap();
        let spec = tree.spec(true);
        add_kernel_core(&mut project, &spec).unwrap();
        let driver = index_of(&project.crates, "driver").unwrap();
        project.crates[driver].deps = vec![Dep::new(99, "kernel")];
        project.crates[driver].root_module = "missing.rs".into();
        fs::remove_file(&spec.dylib).unwrap();
        let problems = check(&project, &spec).unwrap_err();
        for expected in [
            "crate #6 `driver` depends on invalid crate index 99",
            "crate #6 `driver`: root \"missing.rs\" does not exist",
            "`driver` does not depend on `kernel_core`",
        ] {
            assert!(
                problems.iter().any(|p| p.starts_with(expected)),
                "{expected:?} not in {problems:?}"
            );
        }
        assert!(
            problems
                .iter()
                .any(|p| p.contains("kernel_core_macros") && p.contains("does not exist")),
            "{problems:?}"
        );
    }

    #[test]
    fn module_without_crates_is_an_error() {
        let tree = Tree::new("empty");
        let mut project = Project::parse(&tree.kernel_json()).unwrap();
        let spec = tree.spec(true);
        let driver = index_of(&project.crates, "driver").unwrap();
        let elsewhere = tree.0.join("elsewhere/driver.rs");
        project.crates[driver].root_module = elsewhere.display().to_string();
        let e = add_kernel_core(&mut project, &spec).unwrap_err();
        assert!(e.to_string().contains("found no crate roots"), "{e}");
    }

    #[test]
    fn inserting_shifts_indices() {
        let with_deps = |deps: Vec<Dep>| {
            let mut krate = Crate::new("c", "c.rs");
            krate.deps = deps;
            krate
        };
        let mut crates = vec![with_deps(vec![]), with_deps(vec![Dep::new(0, "a")])];
        insert_crates(&mut crates, 1, vec![with_deps(vec![Dep::new(0, "a")])]);
        let targets: Vec<Vec<usize>> = crates.iter().map(dep_targets).collect();
        assert_eq!(targets, [vec![], vec![0], vec![0]]);
        insert_crates(&mut crates, 0, vec![with_deps(vec![])]);
        let targets: Vec<Vec<usize>> = crates.iter().map(dep_targets).collect();
        assert_eq!(targets, [vec![], vec![], vec![1], vec![1]]);
    }

    #[test]
    fn old_rust_analyzer_rules_need_vpath() {
        let linux_6_12 = "PHONY += rust-analyzer\nrust-analyzer:\n\
            \t+$(Q)$(CONFIG_SHELL) $(srctree)/scripts/rust_is_available.sh\n\
            \t$(Q)$(MAKE) $(build)=rust $@\n\n# Script to generate missing namespace\n";
        let linux_7_2 = "PHONY += rust-analyzer\nrust-analyzer:\n\
            \t+$(Q)$(CONFIG_SHELL) $(srctree)/scripts/rust_is_available.sh\n\
            ifdef KBUILD_EXTMOD\n\
            \t$(Q)$(MAKE) $(build)=$(objtree)/rust src=$(srctree)/rust $@\n\
            else\n\t$(Q)$(MAKE) $(build)=rust $@\nendif\n\n$(build)=rust\n";
        assert!(descends_from_source_tree(linux_6_12));
        assert!(!descends_from_source_tree(linux_7_2));
        assert!(!descends_from_source_tree("all:\n\techo\n"));
    }

    #[test]
    fn small_parsers() {
        assert_eq!(
            parse_rustc_cfg("--cfg=CONFIG_X86_64\n--cfg=CONFIG_RUST=\"y\"\n\n"),
            ["CONFIG_X86_64", "CONFIG_RUST=\"y\""]
        );
        assert!(at_least("7.2.12", (7, 1)));
        assert!(at_least("7.1", (7, 1)));
        assert!(at_least("8.0.0", (7, 1)));
        assert!(!at_least("6.12.118", (7, 1)));
        assert!(!at_least("7.0.3-rc1", (7, 1)));
    }

    #[test]
    fn reads_rust_analyzer_diagnostics() {
        let output = "0/3 0% processing /m/a.rs     at crate a, file /m/a.rs: Error \
            RustcHardError(\"E0432\") from LineCol { line: 9, col: 23 } to LineCol { line: 9, \
            col: 32 }: unresolved import\n\
            0/3 0% processing /m/a.rs\r1/3 50% processing /k/b.rs   at crate b, file /k/b.rs: \
            WeakWarning Ra(\"inactive-code\", WeakWarning) from LineCol { line: 0, col: 0 } to \
            LineCol { line: 1, col: 3 }: code is inactive\n\
            0/3 0% processing /m/a.rs     at crate a, file /m/a.rs: Error \
            RustcHardError(\"E0432\") from LineCol { line: 9, col: 23 } to LineCol { line: 9, \
            col: 32 }: unresolved import\n\
            \ndiagnostic scan complete\n";
        assert_eq!(
            parse_diagnostics(output),
            [
                Diagnostic {
                    file: "/m/a.rs".into(),
                    line: 10,
                    column: 24,
                    severity: "Error".into(),
                    message: "unresolved import".into(),
                },
                Diagnostic {
                    file: "/k/b.rs".into(),
                    line: 1,
                    column: 1,
                    severity: "WeakWarning".into(),
                    message: "code is inactive".into(),
                },
            ]
        );
    }

    #[test]
    fn crates_under_the_target_directory_are_left_out() {
        let mut crates = vec![
            Crate::new("kernel", "/k/kernel/lib.rs"),
            Crate::new("copy", "target/kernel-core/7.3-x86_64/module/drv_main.rs"),
            Crate::new("drv_main", "drv_main.rs"),
        ];
        crates[1].deps.push(Dep::new(0, "kernel"));
        crates[2].deps.push(Dep::new(0, "kernel"));
        let module = Path::new("/drv");
        assert_eq!(
            drop_crates_under(&mut crates, module, &module.join("target")),
            1
        );
        let names: Vec<&str> = crates.iter().map(Crate::name).collect();
        assert_eq!(names, ["kernel", "drv_main"]);
        assert_eq!(crates[1].deps[0].krate, 0);
    }

    #[test]
    fn options_need_a_known_kernel_and_a_module() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let example = || repo.join("examples/out-of-tree-driver");
        let request = Request::new("6.12", None, example(), false).unwrap();
        assert_eq!(
            (request.kernel.name, request.arch.name, request.strict),
            ("6.12", "x86_64", false)
        );
        assert!(request.module.ends_with("examples/out-of-tree-driver"));
        assert!(Request::new("7.2", None, example(), true).unwrap().strict);
        let e = Request::new("5.10", None, example(), false).err().unwrap();
        assert!(e.to_string().contains("5.10"), "{e}");
        let e = Request::new("7.3", Some("sparc"), example(), false)
            .err()
            .unwrap();
        assert!(e.to_string().contains("sparc"), "{e}");
        let xtask = repo.join("xtask");
        let e = Request::new("7.2", None, xtask, false).err().unwrap();
        assert!(e.to_string().contains("has no Kbuild or Makefile"), "{e}");
    }
}
