// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Edits of a crate graph whose dependencies name crates by index (`rust-project.json`'s
//! `crates`): finding, inserting and removing crates while every dependency keeps pointing at
//! the crate it meant. The other steps of the set-up build on these.

use crate::commands::rust_analyzer::rust_project::Crate;
use std::path::Path;

pub(super) fn index_of(crates: &[Crate], wanted: &str) -> Option<usize> {
    crates.iter().position(|c| c.name() == wanted)
}

/// The crate indices a crate depends on.
pub(super) fn dep_targets(krate: &Crate) -> Vec<usize> {
    krate.deps.iter().map(|d| d.krate).collect()
}

/// Rewrites every dependency index with `map`, dropping those it maps to `None`.
pub(super) fn remap_deps(crates: &mut [Crate], map: impl Fn(usize) -> Option<usize>) {
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

/// Removes the crates `remove` marks (one entry per crate), with the dependencies on them;
/// the others keep their order, and their dependencies follow them. Returns how many went.
pub(super) fn remove_crates(crates: &mut Vec<Crate>, remove: &[bool]) -> usize {
    let mut new_index = Vec::with_capacity(remove.len());
    let mut next = 0;
    for &removed in remove {
        new_index.push((!removed).then_some(next));
        next += usize::from(!removed);
    }
    remap_deps(crates, |i| new_index.get(i).copied().flatten());
    let mut index = 0;
    crates.retain(|_| {
        index += 1;
        !remove.get(index - 1).copied().unwrap_or(false)
    });
    remove.iter().filter(|r| **r).count()
}

/// Removes the crates whose root is under `dir` (the module's `target/`, where
/// `cargo kernel-core` keeps copies of the module that `make rust-analyzer` would list too),
/// with the dependencies on them; roots are relative to `module`.
pub(super) fn drop_crates_under(crates: &mut Vec<Crate>, module: &Path, dir: &Path) -> usize {
    let remove: Vec<bool> = crates
        .iter()
        .map(|c| module.join(&c.root_module).starts_with(dir))
        .collect();
    remove_crates(crates, &remove)
}

/// Inserts `new` at `at`, shifting the indices of the crates after it; `new` may refer to
/// crates before `at` and to each other by their final indices.
pub(super) fn insert_crates(crates: &mut Vec<Crate>, at: usize, new: Vec<Crate>) {
    let count = new.len();
    remap_deps(crates, |i| Some(if i >= at { i + count } else { i }));
    crates.splice(at..at, new);
}

/// Adds `value` to `items` unless it is there.
pub(super) fn add_string(items: &mut Vec<String>, value: &str) {
    if !items.iter().any(|v| v == value) {
        items.push(value.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::rust_analyzer::rust_project::Dep;

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
}
