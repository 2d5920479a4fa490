// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The top layer: the commands, carried out. Each one assembles what it needs from the layers
//! below (the pipeline, the kernels, the reporters of its run) for the command line that
//! [`crate::cli`] parsed; `cargo kernel-core`'s `main` is [`main`], and kernel-core's own
//! `cargo xtask` is another user of the same commands.

pub mod new;
pub mod rust_analyzer;
pub mod shared;
pub mod test;

use crate::cli::{Cargo, Cells, Cmd};
use crate::infra::error::Result;
use crate::infra::{process, watchdog};
use crate::kernel::setup;
use crate::model::driver::Driver;
use crate::model::event::Events;
use crate::model::plan::Plan;
use crate::pipeline::probes;
use crate::report::terminal::Terminal;
use clap::Parser as _;
use shared::Subject;
use std::process::ExitCode;

/// Runs this program as one of the helpers it starts itself, if it was started as one (the
/// watchdog of its children, the module builds' compiler wrapper), and returns the exit
/// status to end with; `None` otherwise. Called first thing by every `main` that runs
/// children.
pub fn answer_if_asked() -> Option<ExitCode> {
    watchdog::answer_if_asked().or_else(probes::answer_if_asked)
}

/// `cargo kernel-core`.
pub fn main() -> ExitCode {
    if let Some(status) = answer_if_asked() {
        return status;
    }
    let Cargo::KernelCore(cli) = Cargo::parse();
    if let Err(e) = process::install_signal_handlers() {
        eprintln!("warning: {e}");
    }
    // What every command says goes to the terminal; `test` adds its reporters.
    let terminal = Events::new(vec![Box::new(Terminal::new())]);
    let _installed = terminal.install();
    let result = match cli.command {
        Cmd::New { dir, kernel_core } => new::create(&dir, kernel_core.as_deref()),
        Cmd::Test(options) => test::run(&cli.driver, &options),
        Cmd::Setup { cells } => setup_cells(&cells),
        Cmd::Shared(shared) => shared::run(shared, || {
            let driver = Driver::open(&cli.driver)?;
            let out = driver.target_dir.join("kernel-core");
            Ok(Subject {
                sources: rust_analyzer::Sources {
                    kernel_core: driver.kernel_core.clone(),
                    macros: driver.macros.clone(),
                    pin_init: driver.pin_init.clone(),
                    out: out.clone(),
                },
                module: driver.dir.clone(),
                out: out.join("custom"),
                plans: Box::new(move || Ok(vec![Plan::of_driver(&driver)])),
            })
        }),
    };
    process::finish(result)
}

/// `cargo kernel-core setup`: the one command that installs Debian packages.
fn setup_cells(cells: &Cells) -> Result {
    setup::allow_installs();
    for (_, arch) in cells.matrix()? {
        setup::ensure_kernel_tools(&arch)?;
    }
    crate::note!("    ready");
    Ok(())
}
