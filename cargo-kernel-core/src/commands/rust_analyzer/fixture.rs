// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The unit tests' scratch tree: a fake sysroot, kernel tree and module, and what the
//! kernel's `make rust-analyzer` writes for them, in miniature.

use super::crates::KernelCore;
use super::graph::{dep_targets, index_of, remove_crates};
use super::library::Library;
use crate::commands::rust_analyzer::rust_project::{Crate, Project};
use std::fs;
use std::path::{Path, PathBuf};

/// A scratch directory with a fake sysroot, kernel tree and module, removed when dropped.
pub(super) struct Tree(pub(super) PathBuf, #[allow(dead_code)] tempfile::TempDir);

impl Tree {
    pub(super) fn new(tag: &str) -> Self {
        let scratch = tempfile::Builder::new()
            .prefix(&format!("kc-ra-{tag}-"))
            .tempdir()
            .unwrap();
        let dir = scratch.path().to_path_buf();
        for file in [
            "library/core/src/lib.rs",
            "library/alloc/src/lib.rs",
            "library/std/src/lib.rs",
            "library/proc_macro/src/lib.rs",
            "linux/rust/compiler_builtins.rs",
            "linux/rust/macros/lib.rs",
            "linux/rust/build_error.rs",
            "linux/rust/pin-init/src/lib.rs",
            "linux/rust/kernel/lib.rs",
            "build/rust/libmacros.so",
            "module/driver.rs",
            "libkernel_core_macros.so",
        ] {
            let path = dir.join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "").unwrap();
        }
        Tree(dir, scratch)
    }

    /// What `make rust-analyzer` writes, in miniature (7.2's shape: the kernel's `pin_init`
    /// crate, which the module's crate depends on, and a relative root for that crate).
    pub(super) fn kernel_json(&self) -> String {
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
    {{"display_name": "pin_init", "root_module": "{d}/linux/rust/pin-init/src/lib.rs", "deps": [{{"crate": 0, "name": "core"}}, {{"crate": 4, "name": "compiler_builtins"}}, {{"crate": 5, "name": "macros"}}], "cfg": [], "edition": "2021", "is_workspace_member": true, "env": {{}}}},
    {{"display_name": "kernel", "root_module": "{d}/linux/rust/kernel/lib.rs", "deps": [{{"crate": 0, "name": "core"}}, {{"crate": 5, "name": "macros"}}, {{"crate": 6, "name": "build_error"}}, {{"crate": 7, "name": "pin_init"}}], "cfg": ["CONFIG_64BIT"], "edition": "2021", "is_workspace_member": true, "env": {{"RUST_MODFILE": "This is only for rust-analyzer"}}}},
    {{"display_name": "driver", "root_module": "driver.rs", "deps": [{{"crate": 0, "name": "core"}}, {{"crate": 8, "name": "kernel"}}, {{"crate": 7, "name": "pin_init"}}], "cfg": ["CONFIG_64BIT"], "edition": "2021", "is_workspace_member": true, "env": {{"RUST_MODFILE": "This is only for rust-analyzer"}}}}
],
"sysroot": "{d}"
}}"#
        )
    }

    /// [`Tree::kernel_json`] in 6.12's shape: no `pin_init` crate (its initialisers are
    /// macro_rules of `kernel`), so the module's crate depends on `kernel` alone.
    pub(super) fn kernel_json_without_pin_init(&self) -> String {
        let mut project = Project::parse(&self.kernel_json()).unwrap();
        let remove: Vec<bool> = project
            .crates
            .iter()
            .map(|c| c.name() == "pin_init")
            .collect();
        assert_eq!(remove_crates(&mut project.crates, &remove), 1);
        project.to_text()
    }

    pub(super) fn spec(&self, linux_7_1: bool) -> KernelCore {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        KernelCore {
            kernel_core: repo.join("kernel-core"),
            macros: repo.join("macros"),
            pin_init: repo.join("pin-init"),
            module: self.0.join("module"),
            dylib: self.0.join("libkernel_core_macros.so"),
            kernel_cfgs: vec!["CONFIG_64BIT".into()],
            linux_7_1,
            linux_7_3: false,
            library: None,
        }
    }

    /// [`Tree::spec`] for Linux 7.1, with the driver's library `crate_name` rooted at `root`
    /// (relative to the module), after writing the module's `files`.
    pub(super) fn spec_with_library(
        &self,
        crate_name: &str,
        root: &str,
        files: &[(&str, &str)],
    ) -> KernelCore {
        let module = self.0.join("module");
        for (file, text) in files {
            let path = module.join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        KernelCore {
            library: Some(Library::new(&module, crate_name, Path::new(root))),
            ..self.spec(true)
        }
    }
}

/// Adds to `project` a crate of the module such as the kernel's generator makes for a file
/// whose name matches an object of the `Kbuild`: `driver`'s twin, for `root`.
pub(super) fn add_module_crate(project: &mut Project, name: &str, root: &str) {
    let mut krate = project.crates[index_of(&project.crates, "driver").unwrap()].clone();
    krate.display_name = Some(name.to_string());
    krate.root_module = root.to_string();
    project.crates.push(krate);
}

pub(super) fn names(project: &Project) -> Vec<&str> {
    project.crates.iter().map(Crate::name).collect()
}

pub(super) fn krate<'a>(project: &'a Project, name: &str) -> &'a Crate {
    &project.crates[index_of(&project.crates, name).unwrap()]
}

pub(super) fn deps_of<'a>(project: &'a Project, name: &str) -> Vec<&'a str> {
    dep_targets(krate(project, name))
        .into_iter()
        .map(|t| project.crates[t].name())
        .collect()
}
