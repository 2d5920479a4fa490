// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The check of a written `rust-project.json`, read back as rust-analyzer will read it: every
//! root and proc-macro library exists, every dependency index is valid, kernel-core's crates
//! are there once with their cfgs and dependencies, so is the driver's library (no other crate
//! has a root among its files), kernel-core's pin-init crate is there exactly when the kernel
//! has no `pin_init`, and kernel-core, the library and the module's crates see `pin_init` (the
//! kernel's or kernel-core's), and the module's crates `kernel`, `kernel_core`,
//! `kernel_core_macros` and the library, under its crate name. Every problem is named, one
//! line each.

use super::crates::{KernelCore, OWN_PIN_INIT, PIN_INIT};
use super::graph::dep_targets;
use crate::commands::rust_analyzer::rust_project::{Crate, Project};
use std::path::Path;

/// Checks a finished project; returns a one-line summary, or every problem found.
pub(super) fn check(
    project: &Project,
    spec: &KernelCore,
) -> std::result::Result<String, Vec<String>> {
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
    // `pin_init`: the kernel's, or else kernel-core's, built like kernel-core.
    let kernel_has_pin_init = crates.iter().any(|c| c.name() == PIN_INIT);
    if kernel_has_pin_init {
        if crates.iter().any(|c| c.name() == OWN_PIN_INIT) {
            problems.push(format!(
                "`{OWN_PIN_INIT}` is there though the kernel has its own `{PIN_INIT}`"
            ));
        }
    } else if let Some(own) = find(OWN_PIN_INIT, &mut problems) {
        if spec.resolve(&own.root_module) != spec.pin_init_root() {
            problems.push(format!("{OWN_PIN_INIT}'s root is {:?}", own.root_module));
        }
        let mut wanted_cfgs: Vec<&str> = spec.cfgs();
        wanted_cfgs.extend(spec.kernel_cfgs.iter().map(String::as_str));
        for cfg in wanted_cfgs {
            if !has_cfg(own, cfg) {
                problems.push(format!("{OWN_PIN_INIT} lacks cfg `{cfg}`"));
            }
        }
        for wanted in ["kernel", "kernel_core_macros"] {
            if !depends_on(own, wanted) {
                problems.push(format!("{OWN_PIN_INIT} does not depend on `{wanted}`"));
            }
        }
    }
    // Seen as `pin_init`, whichever crate it is.
    let sees_pin_init = |krate: &Crate| {
        krate.deps.iter().any(|d| {
            d.name == PIN_INIT
                && crates
                    .get(d.krate)
                    .is_some_and(|c| c.name() == PIN_INIT || c.name() == OWN_PIN_INIT)
        })
    };
    for krate in crates
        .iter()
        .filter(|c| c.name() == "kernel_core" || spec.in_module(c))
    {
        if !sees_pin_init(krate) {
            problems.push(format!("`{}` does not see `{PIN_INIT}`", krate.name()));
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
    let module: Vec<&Crate> = crates.iter().filter(|c| spec.in_module(c)).collect();
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
    let users: Vec<&Crate> = module
        .iter()
        .copied()
        .filter(|c| !spec.is_library(c))
        .collect();
    let pin_init = if kernel_has_pin_init {
        PIN_INIT.to_string()
    } else {
        format!("{PIN_INIT} (kernel-core's {OWN_PIN_INIT})")
    };
    let mut sees = format!("kernel, {pin_init}, kernel_core and kernel_core_macros");
    if let Some(library) = &spec.library {
        let name = &library.crate_name;
        let label = format!("the driver's library `{name}` ({})", library.root.display());
        let found: Vec<usize> = (0..crates.len())
            .filter(|&i| spec.is_library(&crates[i]))
            .collect();
        if found.len() != 1 {
            problems.push(format!("{} crates for {label}, not 1", found.len()));
        }
        for &i in &found {
            let lib = &crates[i];
            if lib.name() != name {
                problems.push(format!("{label} is named `{}`", lib.name()));
            }
            let mut wanted_cfgs: Vec<&str> = spec.cfgs();
            wanted_cfgs.extend(spec.kernel_cfgs.iter().map(String::as_str));
            for cfg in wanted_cfgs {
                if !has_cfg(lib, cfg) {
                    problems.push(format!("{label} lacks cfg `{cfg}`"));
                }
            }
            if !lib.crate_attrs.iter().any(|a| a == "no_std") {
                problems.push(format!("{label} is not no_std"));
            }
        }
        for krate in crates.iter().filter(|c| !spec.is_library(c)) {
            if library.holds(&spec.resolve(&krate.root_module)) {
                problems.push(format!(
                    "`{}`'s root {:?} is a file of {label}, not a crate",
                    krate.name(),
                    krate.root_module
                ));
            }
        }
        if users.is_empty() {
            problems.push(format!(
                "no crate of {} besides {label}",
                spec.module.display()
            ));
        }
        for krate in &users {
            let sees_library = krate.deps.iter().any(|d| {
                &d.name == name && crates.get(d.krate).is_some_and(|c| spec.is_library(c))
            });
            if !sees_library {
                problems.push(format!(
                    "`{}` does not see {label} as `{name}`",
                    krate.name()
                ));
            }
        }
        sees = format!(
            "kernel, {pin_init}, kernel_core, kernel_core_macros and the driver's library `{name}` ({})",
            library.root.display()
        );
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(format!(
        "{} crates; the module's: {}; each sees {sees}",
        crates.len(),
        users
            .iter()
            .map(|c| c.name())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::super::crates::add_kernel_core;
    use super::super::fixture::{krate, Tree};
    use super::super::graph::index_of;
    use super::super::project::use_sysroot_src;
    use super::*;
    use crate::commands::rust_analyzer::rust_project::Dep;
    use std::fs;

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
            "crate #7 `driver` depends on invalid crate index 99",
            "crate #7 `driver`: root \"missing.rs\" does not exist",
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
    fn check_wants_pin_init_seen_and_kernel_cores_only_without_the_kernels() {
        let tree = Tree::new("check-pin-init");
        let spec = tree.spec(true);

        // Linux 6.12: kernel-core's pin-init crate, seen as `pin_init`.
        let mut project = Project::parse(&tree.kernel_json_without_pin_init()).unwrap();
        use_sysroot_src(&mut project).unwrap();
        add_kernel_core(&mut project, &spec).unwrap();
        check(&project, &spec).unwrap();
        let own = index_of(&project.crates, OWN_PIN_INIT).unwrap();
        let driver = index_of(&project.crates, "driver").unwrap();
        project.crates[driver].deps.retain(|d| d.name != PIN_INIT);
        project.crates[own].cfg.clear();
        project.crates[own].deps.clear();
        let problems = check(&project, &spec).unwrap_err();
        for expected in [
            "`driver` does not see `pin_init`",
            "kernel_core_pin_init lacks cfg `kernel`",
            "kernel_core_pin_init does not depend on `kernel_core_macros`",
        ] {
            assert!(
                problems.iter().any(|p| p == expected),
                "{expected:?} not in {problems:?}"
            );
        }
        project.crates[own].display_name = Some("other".into());
        let problems = check(&project, &spec).unwrap_err();
        assert!(
            problems
                .iter()
                .any(|p| p == "0 crates named `kernel_core_pin_init`, not 1"),
            "{problems:?}"
        );

        // Linux 7.2 and later: the kernel's own, so kernel-core's would be a second one.
        let mut project = Project::parse(&tree.kernel_json()).unwrap();
        use_sysroot_src(&mut project).unwrap();
        add_kernel_core(&mut project, &spec).unwrap();
        let mut extra = krate(&project, "kernel_core").clone();
        extra.display_name = Some(OWN_PIN_INIT.into());
        extra.root_module = spec.pin_init_root().display().to_string();
        project.crates.push(extra);
        let problems = check(&project, &spec).unwrap_err();
        assert_eq!(
            problems,
            ["`kernel_core_pin_init` is there though the kernel has its own `pin_init`"]
        );
    }

    #[test]
    fn check_finds_a_crate_that_does_not_see_the_library() {
        let tree = Tree::new("check-library");
        let mut project = Project::parse(&tree.kernel_json()).unwrap();
        use_sysroot_src(&mut project).unwrap();
        let spec = tree.spec_with_library("mydrv", "src/lib.rs", &[("src/lib.rs", "")]);
        add_kernel_core(&mut project, &spec).unwrap();
        assert_eq!(krate(&project, "driver").deps.last().unwrap().name, "mydrv");
        let driver = index_of(&project.crates, "driver").unwrap();
        project.crates[driver].deps.pop();
        let library = index_of(&project.crates, "mydrv").unwrap();
        project.crates[library].cfg.clear();
        project.crates[library].crate_attrs.clear();
        let problems = check(&project, &spec).unwrap_err();
        let label = "the driver's library `mydrv` (src/lib.rs)";
        for expected in [
            format!("`driver` does not see {label} as `mydrv`"),
            format!("{label} lacks cfg `kernel_core_linux_7_1`"),
            format!("{label} lacks cfg `CONFIG_64BIT`"),
            format!("{label} is not no_std"),
        ] {
            assert!(
                problems.contains(&expected),
                "{expected:?} not in {problems:?}"
            );
        }
    }
}
