// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Failed allocations, as the kernel's fault injection makes them: `fail_nth` fails the Nth
//! allocation of a test's scope.
//!
//! The kernel's `/proc/self/task/<tid>/fail-nth` (`Documentation/fault-injection/
//! fault-injection.rst`): "Write to this file of integer N makes N-th call in the task fail",
//! counting every call of a fault-injection point (`should_fail_ex()` in `lib/fault-inject.c`:
//! the slab's `should_failslab()`, the page allocator's `should_fail_alloc_page()`, ...), and a
//! read gives 0 once the failure was injected. On the host the points are the requests that
//! reach the allocation seam (`env/host/alloc/backend.rs`) from a scope's members:
//!
//! - every allocation of `Kmalloc` (`failslab`), `Vmalloc` (`fail_page_alloc`) and `KVmalloc`
//!   (one point: the kernel's `kvmalloc()` of more than a page would fall back to `vmalloc()`
//!   when its `kmalloc()` fails, and fail only if that fails too; a driver must handle the
//!   error either way), and every reallocation that grows (`krealloc()` allocates anew);
//! - not a reallocation that does not grow (`krealloc()` keeps the object), nor a free, nor a
//!   request beyond the allocator's limit (which fails before any point), nor what a thread
//!   allocates outside every scope;
//! - `__GFP_NOFAIL` requests are never failed in the kernel (`should_failslab()` returns
//!   first); the host's flags have no `__GFP_NOFAIL` (neither have Linux 7.3's Rust flags), so
//!   every request is a point.
//!
//! The count is the scope's, shared by its threads (in the kernel each task has its own): a
//! test with one thread counts as the kernel would. As with `failslab`'s
//! `ignore-gfp-wait=N` (the setting of the documentation's `fail-nth` example), requests that
//! may sleep (`GFP_KERNEL`) are points too.
//!
//! An injected failure is the same `AllocError` as a real one, and prints what the kernel's
//! `fail_dump()` prints (`FAULT_INJECTION: forcing a failure.` and the attribute's line,
//! then a stack dump, here the allocation's site), unless the request has `__GFP_NOWARN`
//! (`FAULT_NOWARN`).

use core::fmt::Write as _;
use core::panic::Location;
use core::sync::atomic::Ordering::Relaxed;
use std::string::String;
use std::sync::Arc;

use super::scope::{self, State};
use crate::alloc::flags::{
    __GFP_HIGHMEM, __GFP_NOWARN, __GFP_ZERO, GFP_ATOMIC, GFP_KERNEL, GFP_KERNEL_ACCOUNT, GFP_NOWAIT,
};
use crate::alloc::{AllocError, Flags};

/// A request, as the detectors see it.
#[derive(Clone, Copy)]
pub(crate) struct Alloc {
    /// The allocator's name: `kmalloc`, `vmalloc` or `kvmalloc`.
    pub(crate) allocator: &'static str,
    /// The size asked for.
    pub(crate) size: usize,
    /// For a reallocation, the size of the existing allocation.
    pub(crate) old_size: Option<usize>,
    /// The caller's flags.
    pub(crate) flags: Flags,
    /// Where the driver called.
    pub(crate) caller: &'static Location<'static>,
}

/// A failure that was injected.
#[derive(Clone)]
pub(crate) struct Injection {
    /// Which fault-injection point of the scope, from 1.
    pub(crate) number: u64,
    /// Where the driver asked for the memory.
    pub(crate) site: &'static Location<'static>,
    /// The allocator.
    pub(crate) allocator: &'static str,
    /// The size asked for.
    pub(crate) size: usize,
    /// The request's flags.
    pub(crate) flags: Flags,
    /// Whether `KERNEL_CORE_FAIL_NTH` asked for it (not the test, with `fail_nth()`): then
    /// that variable and the test's name reproduce it.
    pub(crate) from_environment: bool,
}

/// The seam's `admit` with `std`: counts a request of a scope's member as a point, and fails
/// it if it is the one `fail_nth` names.
#[inline]
pub(crate) fn admit(alloc: &Alloc) -> Result<(), AllocError> {
    if !scope::any_open() {
        return Ok(());
    }
    // Inside a model (`extras::model`) the test's closure runs once per interleaving, and loom
    // replays each from the start: a failure injected into one run would change the run that
    // loom replays. Its allocations are no points.
    #[cfg(feature = "loom")]
    if crate::env::sync::platform::in_model() {
        return Ok(());
    }
    // A reallocation that does not grow takes no new memory.
    if alloc.old_size.is_some_and(|old| alloc.size <= old) {
        return Ok(());
    }
    scope::with_current(|state, comm| point(state, comm, alloc)).unwrap_or(Ok(()))
}

/// One point of `state`: fails it if it is the one asked for.
fn point(state: &State, comm: &Arc<str>, alloc: &Alloc) -> Result<(), AllocError> {
    if !state.books || state.ended.load(Relaxed) {
        return Ok(());
    }
    let number = state.allocations.fetch_add(1, Relaxed) + 1;
    let at = state.fail_at.load(Relaxed);
    // Exactly one request gets each number; `fail_nth()` may have moved the target meanwhile.
    if at == 0
        || number != at
        || state
            .fail_at
            .compare_exchange(at, 0, Relaxed, Relaxed)
            .is_err()
    {
        return Ok(());
    }
    let injection = Injection {
        number,
        site: alloc.caller,
        allocator: alloc.allocator,
        size: alloc.size,
        flags: alloc.flags,
        from_environment: !state.fail_set_by_test.load(Relaxed),
    };
    if !alloc.flags.contains(__GFP_NOWARN) {
        std::eprint!("{}", fail_dump(&injection, comm));
    }
    *state.injected() = Some(injection);
    Err(AllocError)
}

/// What `fail_dump()` prints with `verbose=2` (the default): the title, the attribute's
/// settings, and a stack dump, here the site of the allocation.
fn fail_dump(injection: &Injection, comm: &str) -> String {
    let name = if injection.allocator == "vmalloc" {
        "fail_page_alloc"
    } else {
        "failslab"
    };
    let mut text = String::from("FAULT_INJECTION: forcing a failure.\n");
    let _ = writeln!(
        text,
        "name {name}, interval 1, probability 0, space 0, times 1"
    );
    let _ = writeln!(text, "PID: {} Comm: {comm}", std::process::id());
    text.push_str("Call Trace:\n <TASK>\n");
    let _ = writeln!(text, " {} at {}", request(injection), site(injection.site));
    text.push_str(" </TASK>\n");
    text
}

/// `kmalloc(64, GFP_KERNEL)`: the request, as a call.
fn request(injection: &Injection) -> String {
    std::format!(
        "{}({}, {})",
        injection.allocator,
        injection.size,
        gfp_names(injection.flags)
    )
}

/// `file:line:column`.
pub(crate) fn site(location: &Location<'_>) -> String {
    std::format!(
        "{}:{}:{}",
        location.file(),
        location.line(),
        location.column()
    )
}

/// The flags as the kernel's `%pGg` names them: `GFP_KERNEL|__GFP_ZERO`.
pub(crate) fn gfp_names(flags: Flags) -> String {
    const NAMES: [(Flags, &str); 7] = [
        (GFP_KERNEL_ACCOUNT, "GFP_KERNEL_ACCOUNT"),
        (GFP_KERNEL, "GFP_KERNEL"),
        (GFP_ATOMIC, "GFP_ATOMIC"),
        (GFP_NOWAIT, "GFP_NOWAIT"),
        (__GFP_ZERO, "__GFP_ZERO"),
        (__GFP_NOWARN, "__GFP_NOWARN"),
        (__GFP_HIGHMEM, "__GFP_HIGHMEM"),
    ];
    let mut left = flags;
    let mut names = String::new();
    for (named, name) in NAMES {
        if left.contains(named) && (left & named).as_raw() != 0 {
            if !names.is_empty() {
                names.push('|');
            }
            names.push_str(name);
            left = left & !named;
        }
    }
    if left.as_raw() != 0 {
        if !names.is_empty() {
            names.push('|');
        }
        let _ = write!(names, "{:#x}", left.as_raw());
    }
    if names.is_empty() {
        names.push('0');
    }
    names
}

/// The report of a test that panicked after `injection`, with the panic's `message`.
pub(crate) fn unhandled(injection: &Injection, message: &str, test: &str) -> String {
    let mut text = String::from("FAULT_INJECTION: forcing a failure.\n");
    let _ = writeln!(
        text,
        "allocation {} of the test failed, as fail_nth asked: {} at {}",
        injection.number,
        request(injection),
        site(injection.site)
    );
    let _ = writeln!(
        text,
        "and the test panicked instead of returning the error: {message}"
    );
    if injection.from_environment {
        let _ = writeln!(
            text,
            "reproduce: KERNEL_CORE_FAIL_NTH={} cargo test -- --exact {test}",
            injection.number
        );
    }
    text
}

/// Says (in the test's output, which `cargo test` shows if it fails) that the test returned
/// `error` after `injection`: what an error path must do.
pub(crate) fn note_returned(injection: &Injection, error: &str) {
    std::eprintln!(
        "kernel-core: the test returned {error} after allocation {} ({} at {}) failed: its error path returned the error",
        injection.number,
        request(injection),
        site(injection.site)
    );
}

/// `fail_nth(n)` in `state`: its `n`th point from now fails; 0 cancels.
pub(crate) fn fail_nth(state: &State, n: u64) {
    state.fail_set_by_test.store(true, Relaxed);
    let target = if n == 0 {
        0
    } else {
        state.allocations.load(Relaxed).saturating_add(n)
    };
    *state.injected() = None;
    state.fail_at.store(target, Relaxed);
}

/// What reading `fail-nth` gives in `state`: how many points until the failure, 0 once it was
/// injected (or if none was asked for).
pub(crate) fn read_fail_nth(state: &State) -> u64 {
    match state.fail_at.load(Relaxed) {
        0 => 0,
        at => at.saturating_sub(state.allocations.load(Relaxed)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_named_as_the_kernel_names_them() {
        assert_eq!(gfp_names(GFP_KERNEL), "GFP_KERNEL");
        assert_eq!(
            gfp_names(GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN),
            "GFP_KERNEL|__GFP_ZERO|__GFP_NOWARN"
        );
        assert_eq!(gfp_names(GFP_KERNEL_ACCOUNT), "GFP_KERNEL_ACCOUNT");
        assert_eq!(gfp_names(GFP_NOWAIT), "GFP_NOWAIT");
        assert_eq!(gfp_names(GFP_ATOMIC | __GFP_ZERO), "GFP_ATOMIC|__GFP_ZERO");
        assert_eq!(gfp_names(GFP_KERNEL & !GFP_KERNEL), "0");
    }
}
