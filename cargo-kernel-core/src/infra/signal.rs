// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Signals to process groups: `kill(-group, signal)`, through `rustix` (no `kill` spawned, no
//! `unsafe` code here).

use rustix::process::{Pid, Signal};

/// Sends `signal` to every process of the group `group` (`kill(-group, signal)`); a group
/// that is gone is no error.
pub fn signal_group(group: u32, signal: i32) {
    let Some(pid) = i32::try_from(group).ok().and_then(Pid::from_raw) else {
        return;
    };
    let signal = match signal {
        libc_signal::HUP => Signal::HUP,
        libc_signal::INT => Signal::INT,
        libc_signal::TERM => Signal::TERM,
        _ => Signal::KILL,
    };
    let _ = rustix::process::kill_process_group(pid, signal);
}

/// Kills every process of the group `group`.
pub fn kill_group(group: u32) {
    signal_group(group, libc_signal::KILL);
}

/// The numbers of the signals the runner sends, as Linux numbers them on every architecture
/// it runs on.
mod libc_signal {
    pub(super) const HUP: i32 = 1;
    pub(super) const INT: i32 = 2;
    pub(super) const KILL: i32 = 9;
    pub(super) const TERM: i32 = 15;
}
