// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The survey's result: per crate and in total, how many references kernel-core provides;
//! what it lacks, by module; as text for the terminal and as JSON (`--json`) with every
//! reference.

use super::crates::{Crates, Kind as CrateKind};
use super::macros::{Form, Macros};
use super::probe::{How, Verdicts};
use super::references::{Kind, Reference};
use cargo_kernel_core::infra::progress::thousands;
use cargo_kernel_core::infra::table::Table;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// A reference: a path a file names (once per file), where, and the verdict on it.
pub struct Found {
    /// Index into the crates.
    pub krate: usize,
    /// Relative to the tree.
    pub file: PathBuf,
    /// Its first occurrence in the file.
    pub reference: Reference,
    /// The lines of all its occurrences in the file.
    pub lines: Vec<usize>,
    /// The top-level module it counts for.
    pub module: String,
    pub how: How,
}

/// How many references, and how many of them kernel-core provides.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Share {
    pub references: usize,
    pub covered: usize,
    /// `covered` in percent of `references`, to a tenth.
    pub percent: f64,
}

impl Share {
    /// The share of `found`, each counting once.
    fn of<'a>(found: impl IntoIterator<Item = &'a Found>) -> Self {
        Self::weighted(found, |_| 1)
    }

    /// The share of `found`, each counting `weight` times.
    fn weighted<'a>(
        found: impl IntoIterator<Item = &'a Found>,
        weight: impl Fn(&Found) -> usize,
    ) -> Self {
        let mut share = Self::default();
        for f in found {
            share.references += weight(f);
            if f.how != How::Missing {
                share.covered += weight(f);
            }
        }
        share.percent = match share.references {
            0 => 0.0,
            n => (share.covered as f64 * 1000.0 / n as f64).round() / 10.0,
        };
        share
    }
}

/// One crate's line.
#[derive(serde::Serialize)]
pub struct CrateRow {
    pub name: String,
    pub kind: CrateKind,
    pub root: String,
    pub files: usize,
    #[serde(flatten)]
    pub share: Share,
}

/// A module kernel-core lacks references of.
#[derive(serde::Serialize)]
pub struct MissingRow {
    pub module: String,
    pub references: usize,
    /// How many drivers and samples make them.
    pub drivers: usize,
    pub samples: usize,
}

/// One reference, for `--json`.
#[derive(serde::Serialize)]
pub struct ReferenceRow {
    #[serde(rename = "crate")]
    pub krate: String,
    pub file: String,
    pub path: String,
    pub kind: Kind,
    pub module: String,
    /// Every line of the file it is written on.
    pub lines: Vec<usize>,
    /// For a macro invoked without a path: the module that defines it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defined_in: Option<String>,
    pub how: How,
}

/// A macro of the kernel's map, for `--json`.
#[derive(serde::Serialize)]
pub struct MacroRow {
    pub name: String,
    pub form: Form,
    pub module: String,
    pub path: String,
}

/// What the report is about.
pub struct Header {
    /// The kernel's version: `7.3.4`.
    pub kernel: String,
    pub tree: PathBuf,
    /// The coverage of drivers and samples below which [`Report::require`] fails.
    pub required_percent: f64,
}

/// The whole result.
#[derive(serde::Serialize)]
pub struct Report {
    /// The kernel's version (`7.3.4`) and its tree.
    pub kernel: String,
    pub tree: String,
    /// The coverage of drivers and samples below which the survey fails.
    pub required_percent: f64,
    pub crates: Vec<CrateRow>,
    pub drivers: Share,
    pub samples: Share,
    /// Drivers and samples.
    pub total: Share,
    /// Drivers and samples, each reference counting as often as it is written.
    pub occurrences: Share,
    /// How the unique paths were found provided (or not).
    pub unique_paths: BTreeMap<How, usize>,
    /// What kernel-core lacks, by top-level module, most references first.
    pub missing: Vec<MissingRow>,
    /// `.rs` files that no crate reaches, left out.
    pub orphans: Vec<String>,
    /// How long `cargo check` of the probe crate took.
    pub seconds: f64,
    pub macros: Vec<MacroRow>,
    pub references: Vec<ReferenceRow>,
}

impl Report {
    /// The report of `found` in `crates`, whose unique paths were judged `verdicts`.
    pub fn new(
        header: Header,
        crates: &Crates,
        found: &[Found],
        verdicts: &Verdicts,
        macros: &Macros,
    ) -> Self {
        let of_kind = |kind: CrateKind| {
            Share::of(found.iter().filter(|f| crates.crates[f.krate].kind == kind))
        };
        let rows = crates
            .crates
            .iter()
            .enumerate()
            .map(|(i, c)| CrateRow {
                name: c.name.clone(),
                kind: c.kind,
                root: c.root.display().to_string(),
                files: c.files.len(),
                share: Share::of(found.iter().filter(|f| f.krate == i)),
            })
            .collect();
        let mut unique_paths = BTreeMap::new();
        for how in verdicts.by_path.values() {
            *unique_paths.entry(*how).or_default() += 1;
        }
        let mut missing: BTreeMap<&str, (usize, BTreeSet<usize>)> = BTreeMap::new();
        for f in found.iter().filter(|f| f.how == How::Missing) {
            let entry = missing.entry(&f.module).or_default();
            entry.0 += 1;
            entry.1.insert(f.krate);
        }
        let mut missing: Vec<MissingRow> = missing
            .into_iter()
            .map(|(module, (references, in_crates))| {
                let count = |kind| {
                    in_crates
                        .iter()
                        .filter(|i| crates.crates[**i].kind == kind)
                        .count()
                };
                MissingRow {
                    module: module.to_string(),
                    references,
                    drivers: count(CrateKind::Driver),
                    samples: count(CrateKind::Sample),
                }
            })
            .collect();
        missing.sort_by(|a, b| {
            b.references
                .cmp(&a.references)
                .then(a.module.cmp(&b.module))
        });
        Self {
            kernel: header.kernel,
            tree: header.tree.display().to_string(),
            required_percent: header.required_percent,
            crates: rows,
            drivers: of_kind(CrateKind::Driver),
            samples: of_kind(CrateKind::Sample),
            total: Share::of(found),
            occurrences: Share::weighted(found, |f| f.lines.len()),
            unique_paths,
            missing,
            orphans: crates
                .orphans
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
            seconds: verdicts.seconds,
            macros: macros
                .iter()
                .map(|(form, name, origin)| MacroRow {
                    name: name.to_string(),
                    form,
                    module: origin.module.clone(),
                    path: origin.path.join("::"),
                })
                .collect(),
            references: found
                .iter()
                .map(|f| ReferenceRow {
                    krate: crates.crates[f.krate].name.clone(),
                    file: f.file.display().to_string(),
                    path: f.reference.text(),
                    kind: f.reference.kind,
                    module: f.module.clone(),
                    lines: f.lines.clone(),
                    defined_in: f.reference.defined_in.clone(),
                    how: f.how,
                })
                .collect(),
        }
    }

    /// The report for the terminal: the crates, the totals, the top `top` missing modules,
    /// how the paths were checked.
    pub fn text(&self, top: usize) -> String {
        let count = |kind| self.crates.iter().filter(|c| c.kind == kind).count();
        let files: usize = self.crates.iter().map(|c| c.files).sum();
        let unique: usize = self.unique_paths.values().sum();
        let mut text = format!(
            "Linux {}'s in-tree Rust ({}): {} drivers and {} samples, {} files; {} references \
             to kernel:: and pin_init:: (a path a file names, once per file; {} occurrences, {} \
             unique paths)\n\n",
            self.kernel,
            self.tree,
            count(CrateKind::Driver),
            count(CrateKind::Sample),
            files,
            thousands(self.total.references),
            thousands(self.occurrences.references),
            thousands(unique),
        );
        let mut table = Table::new(&["crate", "kind", "files", "references", "kernel-core has"]);
        let kind = |kind: CrateKind| match kind {
            CrateKind::Driver => "driver",
            CrateKind::Sample => "sample",
        };
        for c in &self.crates {
            table.row(&[
                c.name.clone(),
                kind(c.kind).to_string(),
                c.files.to_string(),
                thousands(c.share.references),
                format!("{} ({:.0} %)", thousands(c.share.covered), c.share.percent),
            ]);
        }
        for (name, share) in [
            ("drivers", self.drivers),
            ("samples", self.samples),
            ("drivers and samples", self.total),
        ] {
            table.row(&[
                format!("**{name}**"),
                String::new(),
                String::new(),
                thousands(share.references),
                format!("{} ({:.1} %)", thousands(share.covered), share.percent),
            ]);
        }
        text.push_str(table.text());
        text.push_str(&format!(
            "\nWeighted by occurrences (a path counting as often as it is written): {} of {} \
             ({:.1} %).\n",
            thousands(self.occurrences.covered),
            thousands(self.occurrences.references),
            self.occurrences.percent
        ));
        text.push_str(&format!(
            "\nWhat kernel-core lacks, by module (the {} with the most references):\n\n",
            top.min(self.missing.len())
        ));
        let mut table = Table::new(&["module", "references", "drivers", "samples"]);
        for m in self.missing.iter().take(top) {
            table.row(&[
                m.module.clone(),
                thousands(m.references),
                m.drivers.to_string(),
                m.samples.to_string(),
            ]);
        }
        text.push_str(table.text());
        let paths = |how| self.unique_paths.get(&how).copied().unwrap_or(0);
        text.push_str(&format!(
            "\nChecked by the compiler ({:.1} s): of the {} unique paths, {} resolve as `use` \
             paths, {} reach through a type to an associated item that `let _ = path;` resolves, \
             {} reach through a type in a type position and are counted as far as the type (an \
             approximation: rustc does not say whether the associated type exists), {} do not \
             resolve.\n",
            self.seconds,
            thousands(unique),
            thousands(paths(How::Use)),
            thousands(paths(How::Value)),
            thousands(paths(How::AsFarAsTheType)),
            thousands(paths(How::Missing)),
        ));
        if !self.orphans.is_empty() {
            text.push_str(&format!(
                "Left out, reached by no crate: {}\n",
                self.orphans.join(", ")
            ));
        }
        text
    }

    /// Fails if the coverage of drivers and samples is below the required share, naming the
    /// shortfall.
    pub fn require(&self) -> cargo_kernel_core::infra::error::Result {
        let total = self.total;
        if total.percent >= self.required_percent {
            return Ok(());
        }
        let needed = (self.required_percent * total.references as f64 / 100.0).ceil() as usize;
        anyhow::bail!(
            "kernel-core provides {:.1} % of the references of Linux {}'s drivers and samples, \
             below the required {:.0} %: {} more of their {} references must resolve \
             ({} of {} today); the modules it lacks most are {}",
            total.percent,
            self.kernel,
            self.required_percent,
            thousands(needed.saturating_sub(total.covered)),
            thousands(total.references),
            thousands(total.covered),
            thousands(total.references),
            self.missing
                .iter()
                .take(5)
                .map(|m| format!("{} ({})", m.module, m.references))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_round_to_a_tenth() {
        let found = |how| Found {
            krate: 0,
            file: PathBuf::new(),
            reference: Reference {
                path: vec!["kernel".into()],
                kind: Kind::Use,
                line: 1,
                defined_in: None,
            },
            module: "sync".into(),
            lines: vec![1, 2],
            how,
        };
        let all = [found(How::Use), found(How::Missing), found(How::Value)];
        let share = Share::of(&all);
        assert_eq!(
            (share.references, share.covered, share.percent),
            (3, 2, 66.7)
        );
        assert_eq!(Share::of(&[]).percent, 0.0);
        let weighted = Share::weighted(&all, |f| f.lines.len());
        assert_eq!((weighted.references, weighted.covered), (6, 4));
    }
}
