// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The crates `kbuild/kernel-core.mk` adds to a module, added to the kernel's
//! `rust-project.json` as Kbuild builds them: `kernel_core_macros` (a proc macro),
//! `kernel_core` (built like the module's crates, plus `--cfg kernel`, `kernel_core_linux_7_1`
//! on 7.1+ and `kernel_core_linux_7_3` on 7.3+, `build_error` and the macros) and the driver's
//! library (`kernel-core-lib`: built like kernel-core's users, with `--extern kernel_core`),
//! which every other crate of the module then depends on, the library under its crate name.
//!
//! On a kernel whose `rust-project.json` has no `pin_init` crate (Linux 6.12: its initialisers
//! are macro_rules in `kernel::init`), kernel-core.mk builds kernel-core's own pin-init crate
//! (`kernel_core_pin_init`, built like kernel-core, with the macros) and passes it to
//! kernel-core, the library and the module's crates as `--extern pin_init=...`; so the
//! project gets that crate too, and those crates a dependency on it named `pin_init`. Where
//! the kernel has its own (7.2 and later), the module's crates already depend on it, and
//! kernel-core and the library, built like them, do too. As in kernel-core.mk, what decides
//! is whether the kernel has the crate, not its version.
//!
//! The crates the kernel made for files of the library are left out first: they are modules
//! of the library, not crates.

use super::graph::{add_string, index_of, insert_crates, remove_crates};
use super::library::Library;
use crate::commands::rust_analyzer::rust_project::{Crate, Dep, Project};
use crate::infra::error::Result;
use anyhow::bail;
use std::path::PathBuf;

/// The name the kernel's own pin-init crate has, and under which kernel-core.mk passes
/// kernel-core's where the kernel has none.
pub(super) const PIN_INIT: &str = "pin_init";

/// kernel-core's pin-init crate, as kernel-core.mk builds it (from its root's file name).
pub(super) const OWN_PIN_INIT: &str = "kernel_core_pin_init";

/// What to add: where kernel-core is, the module, the proc-macro library and the cfgs.
pub(super) struct KernelCore {
    /// The `kernel-core`, `kernel-core-macros` and `kernel-core-pin-init` packages.
    pub(super) kernel_core: PathBuf,
    pub(super) macros: PathBuf,
    pub(super) pin_init: PathBuf,
    /// The module directory, which relative crate roots are relative to.
    pub(super) module: PathBuf,
    /// `libkernel_core_macros.so`.
    pub(super) dylib: PathBuf,
    /// The kernel's `CONFIG_*` cfgs.
    pub(super) kernel_cfgs: Vec<String>,
    /// Linux 7.1 or later: `--cfg kernel_core_linux_7_1`.
    pub(super) linux_7_1: bool,
    /// Linux 7.3 or later: `--cfg kernel_core_linux_7_3`.
    pub(super) linux_7_3: bool,
    /// The driver's library, if the module has a `Cargo.toml`.
    pub(super) library: Option<Library>,
}

impl KernelCore {
    pub(super) fn core_root(&self) -> PathBuf {
        self.kernel_core.join("src/kernel_core.rs")
    }

    pub(super) fn macros_root(&self) -> PathBuf {
        self.macros.join("src/kernel_core_macros.rs")
    }

    pub(super) fn pin_init_root(&self) -> PathBuf {
        self.pin_init.join("src/kernel_core_pin_init.rs")
    }

    /// The cfgs `kbuild/kernel-core.mk` gives kernel-core and the crates that use it.
    pub(super) fn cfgs(&self) -> Vec<&'static str> {
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
    pub(super) fn resolve(&self, root: &str) -> PathBuf {
        self.module.join(root)
    }

    /// Whether `krate` is a crate of the module: the library or a crate of the kernel's list
    /// with its root in the module directory.
    pub(super) fn in_module(&self, krate: &Crate) -> bool {
        self.resolve(&krate.root_module).starts_with(&self.module)
    }

    /// Whether `krate` is the driver's library.
    pub(super) fn is_library(&self, krate: &Crate) -> bool {
        self.library
            .as_ref()
            .is_some_and(|l| self.resolve(&krate.root_module) == self.module.join(&l.root))
    }
}

/// Leaves out the crates the kernel made for files of the driver's library (its root, or a
/// module of it whose name matched an object of the `Kbuild`); returns their names.
pub(super) fn drop_library_files(project: &mut Project, spec: &KernelCore) -> Vec<String> {
    let Some(library) = &spec.library else {
        return Vec::new();
    };
    let remove: Vec<bool> = project
        .crates
        .iter()
        .map(|c| library.holds(&spec.resolve(&c.root_module)))
        .collect();
    let names = project
        .crates
        .iter()
        .zip(&remove)
        .filter(|(_, r)| **r)
        .map(|(c, _)| c.name().to_string())
        .collect();
    remove_crates(&mut project.crates, &remove);
    names
}

/// Whether the kernel's project lacks a `pin_init` crate, so that kernel-core's own is added
/// (what kernel-core.mk asks of the kernel's build: is there a `libpin_init.rmeta`).
pub(super) fn needs_own_pin_init(project: &Project) -> bool {
    index_of(&project.crates, PIN_INIT).is_none()
}

/// Adds `kernel_core_macros`, `kernel_core_pin_init` where the kernel has no `pin_init`,
/// `kernel_core` and the driver's library before the module's crates, and makes each of the
/// module's crates depend on them (the pin-init crate as `pin_init`, the library under its
/// crate name) with kernel-core's cfgs, as `kbuild/kernel-core.mk` does. Returns how many
/// crates of the module there are, the library not counted.
pub(super) fn add_kernel_core(project: &mut Project, spec: &KernelCore) -> Result<usize> {
    let own_pin_init = needs_own_pin_init(project);
    let crates = &mut project.crates;
    for ours in ["kernel_core", "kernel_core_macros", OWN_PIN_INIT] {
        if index_of(crates, ours).is_some() {
            bail!("the kernel's rust-project.json already has a crate `{ours}`");
        }
    }
    let module: Vec<usize> = (0..crates.len())
        .filter(|&i| spec.in_module(&crates[i]))
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

    // kernel-core and the library are built by the rule that builds the module's crates
    // (`rustc_o_rs`), so they get what those get from the kernel, plus what kernel-core.mk
    // adds.
    let template = &crates[first];
    if let Some(library) = &spec.library {
        let taken = [
            "core",
            "alloc",
            "std",
            "kernel_core",
            "kernel_core_macros",
            PIN_INIT,
            OWN_PIN_INIT,
        ]
        .into_iter()
        .chain(template.deps.iter().map(|d| d.name.as_str()));
        if let Some(name) = taken.into_iter().find(|n| *n == library.crate_name) {
            bail!(
                "the driver's library is named `{name}`, like a crate the module depends on: rename it in Cargo.toml"
            );
        }
    }
    let edition = Some(
        template
            .edition
            .clone()
            .unwrap_or_else(|| "2021".to_string()),
    );
    let env = Some(template.env.clone().unwrap_or_default());
    let macros_index = first;
    let pin_init_index = own_pin_init.then_some(first + 1);
    let core_index = first + 1 + usize::from(own_pin_init);
    let library_index = core_index + 1;
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

    // What a crate built by `rustc_o_rs` with kernel-core's flags has.
    let kbuild_crate = |name: &str, root: &str| {
        let mut krate = Crate::new(name, root);
        krate.deps = template
            .deps
            .iter()
            .filter(|d| d.krate < first)
            .cloned()
            .collect();
        krate.cfg = spec.kernel_cfgs.clone();
        krate
            .cfg
            .extend(spec.cfgs().into_iter().map(str::to_string));
        krate.edition.clone_from(&edition);
        krate.env.clone_from(&env);
        krate.is_workspace_member = Some(true);
        krate.crate_attrs.clone_from(&template.crate_attrs);
        krate
    };
    // kernel-core.mk's `--extern pin_init=...`, where kernel-core's pin-init crate is built.
    let see_pin_init = |krate: &mut Crate| {
        if let Some(i) = pin_init_index {
            krate.deps.push(Dep::new(i, PIN_INIT));
        }
    };
    let mut added = vec![macros];
    if own_pin_init {
        let mut pin_init = kbuild_crate(OWN_PIN_INIT, &spec.pin_init_root().display().to_string());
        pin_init
            .deps
            .push(Dep::new(macros_index, "kernel_core_macros"));
        added.push(pin_init);
    }
    let mut core = kbuild_crate("kernel_core", &spec.core_root().display().to_string());
    core.deps.push(Dep::new(build_error, "build_error"));
    core.deps.push(Dep::new(macros_index, "kernel_core_macros"));
    see_pin_init(&mut core);
    added.push(core);
    if let Some(library) = &spec.library {
        let mut krate = kbuild_crate(&library.crate_name, &library.root.display().to_string());
        add_string(&mut krate.crate_attrs, "no_std");
        krate.deps.push(Dep::new(core_index, "kernel_core"));
        krate
            .deps
            .push(Dep::new(macros_index, "kernel_core_macros"));
        see_pin_init(&mut krate);
        added.push(krate);
    }
    let count = added.len();
    insert_crates(crates, first, added);
    for &i in &module {
        let krate = &mut crates[i + count];
        for cfg in spec.cfgs() {
            add_string(&mut krate.cfg, cfg);
        }
        krate.deps.push(Dep::new(core_index, "kernel_core"));
        krate
            .deps
            .push(Dep::new(macros_index, "kernel_core_macros"));
        see_pin_init(krate);
        if let Some(library) = &spec.library {
            krate
                .deps
                .push(Dep::new(library_index, &library.crate_name));
        }
    }
    Ok(module.len())
}

#[cfg(test)]
mod tests {
    use super::super::check::check;
    use super::super::fixture::{add_module_crate, deps_of, krate, names, Tree};
    use super::super::project::use_sysroot_src;
    use super::*;

    /// The new layout: the library in `src/`, which the kernel's generator does not see.
    const SRC_LIBRARY: &[(&str, &str)] = &[
        (
            "src/lib.rs",
            "#![cfg_attr(not(kernel), no_std)]\npub mod ring;\n",
        ),
        ("src/ring.rs", "pub const RING_ENTRIES: usize = 128;\n"),
    ];

    #[test]
    fn the_library_is_added_and_every_other_crate_of_the_module_sees_it() {
        let tree = Tree::new("library");
        let mut project = Project::parse(&tree.kernel_json()).unwrap();
        let spec = tree.spec_with_library("mydrv", "src/lib.rs", SRC_LIBRARY);
        assert!(drop_library_files(&mut project, &spec).is_empty());
        use_sysroot_src(&mut project).unwrap();
        assert_eq!(add_kernel_core(&mut project, &spec).unwrap(), 1);
        assert_eq!(
            names(&project),
            [
                "compiler_builtins",
                "macros",
                "build_error",
                "pin_init",
                "kernel",
                "kernel_core_macros",
                "kernel_core",
                "mydrv",
                "driver"
            ]
        );
        let library = krate(&project, "mydrv");
        assert_eq!(library.root_module, "src/lib.rs");
        assert_eq!(
            deps_of(&project, "mydrv"),
            ["kernel", "pin_init", "kernel_core", "kernel_core_macros"]
        );
        assert_eq!(
            library.cfg,
            ["CONFIG_64BIT", "kernel", "kernel_core_linux_7_1"]
        );
        assert_eq!(library.crate_attrs, ["no_std"]);
        assert_eq!(library.edition.as_deref(), Some("2021"));
        assert_eq!(library.is_workspace_member, Some(true));
        assert_eq!(
            deps_of(&project, "driver"),
            [
                "kernel",
                "pin_init",
                "kernel_core",
                "kernel_core_macros",
                "mydrv"
            ]
        );
        let driver = krate(&project, "driver");
        assert_eq!(driver.deps.last().unwrap().name, "mydrv");
        assert_eq!(
            deps_of(&project, "kernel_core"),
            ["kernel", "pin_init", "build_error", "kernel_core_macros"]
        );

        let reread = Project::parse(&project.to_text()).unwrap();
        let summary = check(&reread, &spec).unwrap();
        assert!(
            summary.contains("the module's: driver; each sees kernel, pin_init, kernel_core, kernel_core_macros and the driver's library `mydrv` (src/lib.rs)"),
            "{summary}"
        );
    }

    #[test]
    fn crates_the_kernel_made_for_files_of_the_library_are_left_out() {
        // The library's root and a module of it next to the Kbuild, named like its objects
        // (`obj-m := mydrv.o`, `regs.o` in some line): the kernel's generator made crates of
        // both, and neither is one.
        let tree = Tree::new("library-files");
        let mut project = Project::parse(&tree.kernel_json()).unwrap();
        add_module_crate(&mut project, "mydrv", "mydrv.rs");
        add_module_crate(&mut project, "regs", "regs.rs");
        let spec = tree.spec_with_library(
            "mydrv",
            "mydrv.rs",
            &[("mydrv.rs", "pub mod regs;\n"), ("regs.rs", "")],
        );
        let unchanged = project.clone();
        assert_eq!(drop_library_files(&mut project, &spec), ["mydrv", "regs"]);
        use_sysroot_src(&mut project).unwrap();
        assert_eq!(add_kernel_core(&mut project, &spec).unwrap(), 1);
        assert_eq!(
            names(&project)[5..],
            ["kernel_core_macros", "kernel_core", "mydrv", "driver"]
        );
        assert_eq!(krate(&project, "mydrv").root_module, "mydrv.rs");
        check(&project, &spec).unwrap();

        // Kept, they fail the check: two crates for the library, a module made a crate.
        let mut project = unchanged;
        use_sysroot_src(&mut project).unwrap();
        add_kernel_core(&mut project, &spec).unwrap();
        let problems = check(&project, &spec).unwrap_err();
        for expected in [
            "2 crates for the driver's library `mydrv` (mydrv.rs), not 1",
            "`regs`'s root \"regs.rs\" is a file of the driver's library `mydrv` (mydrv.rs), not a crate",
        ] {
            assert!(
                problems.iter().any(|p| p == expected),
                "{expected:?} not in {problems:?}"
            );
        }
    }

    #[test]
    fn the_old_layout_keeps_working() {
        // `[lib] path = "logic.rs"` in Cargo.toml, `mod logic;` in the glue, no
        // `kernel-core-lib` in the Kbuild: the library is added for rust-analyzer, and the
        // glue keeps its module.
        let tree = Tree::new("old-layout");
        let mut project = Project::parse(&tree.kernel_json()).unwrap();
        let spec = tree.spec_with_library(
            "mydrv",
            "logic.rs",
            &[
                ("driver.rs", "mod logic;\n"),
                ("logic.rs", "pub fn f() {}\n"),
            ],
        );
        assert!(drop_library_files(&mut project, &spec).is_empty());
        use_sysroot_src(&mut project).unwrap();
        add_kernel_core(&mut project, &spec).unwrap();
        assert_eq!(
            deps_of(&project, "driver"),
            [
                "kernel",
                "pin_init",
                "kernel_core",
                "kernel_core_macros",
                "mydrv"
            ]
        );
        assert_eq!(krate(&project, "driver").root_module, "driver.rs");
        check(&project, &spec).unwrap();
    }

    #[test]
    fn a_library_named_like_a_crate_of_the_kernel_is_an_error() {
        let tree = Tree::new("library-name");
        let mut project = Project::parse(&tree.kernel_json()).unwrap();
        use_sysroot_src(&mut project).unwrap();
        let spec = tree.spec_with_library("kernel", "src/lib.rs", SRC_LIBRARY);
        let e = add_kernel_core(&mut project, &spec)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("named `kernel`, like a crate the module depends on"),
            "{e}"
        );
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
                "pin_init",
                "kernel",
                "kernel_core_macros",
                "kernel_core",
                "driver"
            ]
        );
        assert_eq!(
            deps_of(&project, "kernel_core"),
            ["kernel", "pin_init", "build_error", "kernel_core_macros"]
        );
        assert_eq!(
            deps_of(&project, "driver"),
            ["kernel", "pin_init", "kernel_core", "kernel_core_macros"]
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

    /// The dependencies of `name` that are named `pin_init`, by the crate they reach.
    fn pin_init_deps<'a>(project: &'a Project, name: &str) -> Vec<&'a str> {
        krate(project, name)
            .deps
            .iter()
            .filter(|d| d.name == PIN_INIT)
            .map(|d| project.crates[d.krate].name())
            .collect()
    }

    #[test]
    fn without_the_kernels_pin_init_kernel_cores_is_added_as_pin_init() {
        // Linux 6.12: no `pin_init` crate, so kernel-core.mk builds kernel_core_pin_init and
        // passes it to kernel-core, the library and the module's crates as `pin_init`.
        let tree = Tree::new("own-pin-init");
        let mut project = Project::parse(&tree.kernel_json_without_pin_init()).unwrap();
        assert!(needs_own_pin_init(&project));
        let spec = tree.spec_with_library("mydrv", "src/lib.rs", SRC_LIBRARY);
        use_sysroot_src(&mut project).unwrap();
        assert_eq!(add_kernel_core(&mut project, &spec).unwrap(), 1);
        assert_eq!(
            names(&project),
            [
                "compiler_builtins",
                "macros",
                "build_error",
                "kernel",
                "kernel_core_macros",
                "kernel_core_pin_init",
                "kernel_core",
                "mydrv",
                "driver"
            ]
        );
        let pin_init = krate(&project, OWN_PIN_INIT);
        assert_eq!(
            spec.resolve(&pin_init.root_module),
            spec.pin_init.join("src/kernel_core_pin_init.rs")
        );
        assert_eq!(
            deps_of(&project, OWN_PIN_INIT),
            ["kernel", "kernel_core_macros"]
        );
        assert_eq!(
            pin_init.cfg,
            ["CONFIG_64BIT", "kernel", "kernel_core_linux_7_1"]
        );
        assert_eq!(pin_init.crate_attrs, ["no_std"]);
        assert_eq!(pin_init.is_workspace_member, Some(true));
        for user in ["kernel_core", "mydrv", "driver"] {
            assert_eq!(pin_init_deps(&project, user), [OWN_PIN_INIT], "{user}");
        }
        assert_eq!(
            deps_of(&project, "kernel_core"),
            [
                "kernel",
                "build_error",
                "kernel_core_macros",
                "kernel_core_pin_init"
            ]
        );
        assert_eq!(
            deps_of(&project, "driver"),
            [
                "kernel",
                "kernel_core",
                "kernel_core_macros",
                "kernel_core_pin_init",
                "mydrv"
            ]
        );

        let reread = Project::parse(&project.to_text()).unwrap();
        assert_eq!(reread, project);
        let summary = check(&reread, &spec).unwrap();
        assert!(
            summary.contains("each sees kernel, pin_init (kernel-core's kernel_core_pin_init), kernel_core, kernel_core_macros and the driver's library `mydrv`"),
            "{summary}"
        );

        // Without the library too.
        let mut project = Project::parse(&tree.kernel_json_without_pin_init()).unwrap();
        use_sysroot_src(&mut project).unwrap();
        let spec = tree.spec(false);
        add_kernel_core(&mut project, &spec).unwrap();
        for user in ["kernel_core", "driver"] {
            assert_eq!(pin_init_deps(&project, user), [OWN_PIN_INIT], "{user}");
        }
        assert_eq!(
            krate(&project, OWN_PIN_INIT).cfg,
            ["CONFIG_64BIT", "kernel"]
        );
        check(&project, &spec).unwrap();
    }

    #[test]
    fn the_kernels_pin_init_is_kept() {
        // Linux 7.2 and later: the module's crates depend on the kernel's `pin_init`, and so do
        // kernel-core and the library, built like them; nothing is added for it.
        let tree = Tree::new("kernel-pin-init");
        let mut project = Project::parse(&tree.kernel_json()).unwrap();
        assert!(!needs_own_pin_init(&project));
        let spec = tree.spec_with_library("mydrv", "src/lib.rs", SRC_LIBRARY);
        use_sysroot_src(&mut project).unwrap();
        add_kernel_core(&mut project, &spec).unwrap();
        assert!(index_of(&project.crates, OWN_PIN_INIT).is_none());
        for user in ["kernel_core", "mydrv", "driver"] {
            assert_eq!(pin_init_deps(&project, user), [PIN_INIT], "{user}");
        }
        check(&project, &spec).unwrap();
    }

    #[test]
    fn a_library_named_like_a_pin_init_crate_is_an_error() {
        let tree = Tree::new("library-pin-init");
        for name in [PIN_INIT, OWN_PIN_INIT] {
            let mut project = Project::parse(&tree.kernel_json_without_pin_init()).unwrap();
            use_sysroot_src(&mut project).unwrap();
            let spec = tree.spec_with_library(name, "src/lib.rs", SRC_LIBRARY);
            let e = add_kernel_core(&mut project, &spec)
                .unwrap_err()
                .to_string();
            assert!(
                e.contains(&format!(
                    "named `{name}`, like a crate the module depends on"
                )),
                "{e}"
            );
        }
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
}
