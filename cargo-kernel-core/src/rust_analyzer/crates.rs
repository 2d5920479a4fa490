// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The crates `kbuild/kernel-core.mk` adds to a module, added to the kernel's
//! `rust-project.json` as Kbuild builds them: `kernel_core_macros` (a proc macro) and
//! `kernel_core` (built like the module's crates, plus `--cfg kernel`, `kernel_core_linux_7_1`
//! on 7.1+ and `kernel_core_linux_7_3` on 7.3+, `build_error` and the macros), which every
//! crate of the module then depends on.

use super::graph::{add_string, index_of, insert_crates};
use crate::bail;
use crate::rust_project::{Crate, Dep, Project};
use crate::ui::Result;
use std::path::PathBuf;

/// What to add: where kernel-core is, the module, the proc-macro library and the cfgs.
pub(super) struct KernelCore {
    /// The `kernel-core` and `kernel-core-macros` packages.
    pub(super) kernel_core: PathBuf,
    pub(super) macros: PathBuf,
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
}

impl KernelCore {
    pub(super) fn core_root(&self) -> PathBuf {
        self.kernel_core.join("src/kernel_core.rs")
    }

    pub(super) fn macros_root(&self) -> PathBuf {
        self.macros.join("src/kernel_core_macros.rs")
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
}

/// Adds `kernel_core_macros` and `kernel_core` before the module's crates, and makes each of
/// the module's crates depend on them with kernel-core's cfgs, as `kbuild/kernel-core.mk` does.
/// Returns how many crates of the module there are.
pub(super) fn add_kernel_core(project: &mut Project, spec: &KernelCore) -> Result<usize> {
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

#[cfg(test)]
mod tests {
    use super::super::check::check;
    use super::super::fixture::{deps_of, krate, names, Tree};
    use super::super::project::use_sysroot_src;
    use super::*;

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
