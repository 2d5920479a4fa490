// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What a run tells: the summary table and each cell's `run.json`.

pub mod summary;
