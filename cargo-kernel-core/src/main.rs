// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo kernel-core`: a driver's host suites with cargo, and its KUnit suites on every kernel
//! and architecture (`cargo kernel-core --help`).

fn main() -> std::process::ExitCode {
    cargo_kernel_core::commands::main()
}
