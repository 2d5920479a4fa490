// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The dual-build corpus (`corpus/suites/`), built into a module as KUnit suites.
//!
//! Some cases fail on purpose: `cargo xtask` requires each case's KUnit verdict to be the one
//! `cargo test` gave it on the host, and the one its name starts with (`pass_`, `fail_`,
//! `skip_`).

use kernel::prelude::*;

module! {
    type: KernelCoreCorpus,
    name: "kernel_core_corpus",
    description: "kernel-core's dual-build corpus of KUnit suites, some failing on purpose",
    license: "GPL",
}

// One module per file of `corpus/suites/`, declared by Kbuild (`kernel_core_corpus_suites.rs`).
include!(env!("KERNEL_CORE_CORPUS_RS"));

struct KernelCoreCorpus;

impl kernel::Module for KernelCoreCorpus {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        // The suites ran before `init`, when the module was loaded.
        Ok(KernelCoreCorpus)
    }
}
