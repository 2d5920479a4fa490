// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `rust-project.json`, the file that tells rust-analyzer about crates that cargo does not
//! build, as typed structs: what the kernel's `make rust-analyzer` writes, and what
//! `cargo xtask rust-analyzer` adds to it.
//!
//! Format: <https://rust-analyzer.github.io/book/non_cargo_based_projects.html>. Fields this
//! tool does not use are kept as they were read (`other`), so that a newer kernel's additions
//! survive.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The whole file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Project {
    /// The sysroot, where rust-analyzer finds its proc-macro server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sysroot: Option<String>,
    /// The sources of the standard library, which rust-analyzer then loads as the sysroot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sysroot_src: Option<String>,
    /// Every crate; dependencies name them by index.
    pub crates: Vec<Crate>,
    /// Anything else, kept as it was.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// One crate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Crate {
    /// The crate's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    /// Its root file: absolute, or relative to the directory of the project file.
    pub root_module: String,
    /// Its edition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edition: Option<String>,
    /// Its dependencies.
    #[serde(default)]
    pub deps: Vec<Dep>,
    /// Its cfgs, `name` or `name="value"`.
    #[serde(default)]
    pub cfg: Vec<String>,
    /// Crate-level attributes rustc gets on the command line (`-Zcrate-attr`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub crate_attrs: Vec<String>,
    /// Environment variables at build time (`env!`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<Map<String, Value>>,
    /// Whether rust-analyzer reports diagnostics for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_workspace_member: Option<bool>,
    /// Whether it is a proc-macro crate.
    #[serde(default)]
    pub is_proc_macro: bool,
    /// The built proc-macro library, for a proc-macro crate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proc_macro_dylib_path: Option<String>,
    /// Anything else, kept as it was.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// A dependency of a crate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dep {
    /// The index of the crate depended on, in [`Project::crates`].
    #[serde(rename = "crate")]
    pub krate: usize,
    /// The name it is known by in the dependent crate.
    pub name: String,
}

impl Project {
    /// Reads a project file's text.
    pub fn parse(text: &str) -> serde_json::Result<Self> {
        serde_json::from_str(text)
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        serde_json::to_string_pretty(self).expect("a project always serializes") + "\n"
    }
}

impl Crate {
    /// A crate with only its name and root.
    pub fn new(name: &str, root: &str) -> Self {
        Self {
            display_name: Some(name.to_string()),
            root_module: root.to_string(),
            edition: None,
            deps: Vec::new(),
            cfg: Vec::new(),
            crate_attrs: Vec::new(),
            env: None,
            is_workspace_member: None,
            is_proc_macro: false,
            proc_macro_dylib_path: None,
            other: Map::new(),
        }
    }

    /// Its name, or `""` if it has none.
    pub fn name(&self) -> &str {
        self.display_name.as_deref().unwrap_or("")
    }
}

impl Dep {
    /// A dependency on crate `index` under `name`.
    pub fn new(index: usize, name: &str) -> Self {
        Self {
            krate: index,
            name: name.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_fields_survive_a_round_trip() {
        let text = r#"{"crates": [{"display_name": "a", "root_module": "a.rs", "deps": [{"crate": 0, "name": "a"}],
            "cfg": ["x"], "source": {"include_dirs": ["d"]}, "is_proc_macro": false}],
            "sysroot": "/s", "runnables": []}"#;
        let project = Project::parse(text).unwrap();
        assert_eq!(project.crates[0].name(), "a");
        assert_eq!(project.crates[0].deps, [Dep::new(0, "a")]);
        assert!(project.crates[0].other.contains_key("source"));
        assert!(project.other.contains_key("runnables"));
        let again = Project::parse(&project.to_text()).unwrap();
        assert_eq!(again, project);
    }

    #[test]
    fn malformed_files_are_errors() {
        assert!(Project::parse(
            r#"{"crates": [{"root_module": "a.rs", "deps": [{"name": "x"}]}]}"#
        )
        .is_err());
        assert!(Project::parse(r#"{"sysroot": "/s"}"#).is_err());
    }
}
