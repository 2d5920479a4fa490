// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Leaks, as kmemleak reports them: the allocations of a test's scope that are still live when
//! the scope ends.
//!
//! kmemleak (`mm/kmemleak.c`) records every allocation with its size, the task's `comm` and
//! pid, the jiffies and a stack trace, forgets it when it is freed, and reports the objects
//! that nothing points to any more as
//!
//! ```text
//! unreferenced object 0xffff888100a4c000 (size 64):
//!   comm "kunit_try_catch", pid 123, jiffies 4294892345
//!   backtrace (crc 0):
//!     __kmalloc_cache_noprof+0x2b5/0x330
//!     ...
//! ```
//!
//! The host does the same for the allocations of a scope, with one difference: it does not
//! scan memory for pointers. At the scope's end, every allocation it made that is still live
//! is reported, whether something still points to it or not: an allocation that outlives its
//! test (a `KBox::leak`, an `Arc` cycle, a buffer handed to a static) is a leak unless the test
//! says otherwise, with `extras::leak::not_leak(ptr)` (kmemleak's `kmemleak_not_leak()`) for
//! one object or `extras::leak::allow()` for all of the test's. The backtrace is the
//! allocation's site, the first caller outside kernel-core (`#[track_caller]`), with the
//! allocator, under `backtrace:` without kmemleak's checksum of the object's bytes (the host
//! reads no object: another thread may still write it, so there is no hex dump either); the
//! `comm` is the name of the thread that allocated (a test's thread is named after the test). As
//! kmemleak does, objects with the same backtrace are reported once, with `... and N more
//! object(s) with the same backtrace`.
//!
//! A reallocation keeps the object's scope (a `KVec` that a helper thread grows is still the
//! test's) and records the new site, as `krealloc()` gives kmemleak a new object.
//!
//! The books: every live allocation of a scope, by address, in 64 hash maps locked apart (so
//! that tests running in parallel seldom wait for each other), with a count of their entries so
//! that frees skip them all when no scope keeps anything. An allocation leaves them before its
//! memory is freed or moved, so that an address the host allocator hands out again is never
//! confused with the old object.

use crate::env::atomic64::AtomicU64;
use core::fmt::Write as _;
use core::hash::{BuildHasher, Hasher};
use core::panic::Location;
use core::ptr::NonNull;
use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::collections::HashMap;
use std::string::String;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Instant;
use std::vec::Vec;

use super::faults::{site, Alloc};
use super::scope::{self, Ending, Report, State};
use crate::extras::detectors::Detector;

/// A live allocation that a scope keeps.
pub(crate) struct Tracked {
    /// The scope.
    scope: Arc<State>,
    /// Its number in the order of allocations, for the report.
    seq: u64,
    /// Its size.
    size: usize,
    /// Its allocator.
    allocator: &'static str,
    /// Where the driver asked for it.
    site: &'static Location<'static>,
    /// The name of the thread that asked.
    comm: Arc<str>,
    /// The host's jiffies when it was made.
    jiffies: usize,
    /// Marked as no leak (`extras::leak::not_leak()`).
    not_leak: bool,
}

/// How many maps the books are split into.
const SHARDS: usize = 64;

/// One map of the books.
type Map = HashMap<usize, Tracked, AddrHash>;

/// The books: live allocations of scopes, by address.
static BOOKS: [Mutex<Map>; SHARDS] = [const { Mutex::new(HashMap::with_hasher(AddrHash)) }; SHARDS];

/// The hash of an address, for the books' maps: a multiplication by the golden ratio, with its
/// high bits folded into the low ones (the map takes its buckets from the low bits, and an
/// address's low bits are its alignment's zeros).
#[derive(Clone, Copy, Default)]
struct AddrHash;

/// What [`AddrHash`] builds.
#[derive(Clone, Copy, Default)]
struct AddrHasher(u64);

impl BuildHasher for AddrHash {
    type Hasher = AddrHasher;

    fn build_hasher(&self) -> AddrHasher {
        AddrHasher(0)
    }
}

impl Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(self.0.rotate_left(8) ^ u64::from(byte));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let product = n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = product ^ (product >> 32);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// How many allocations the books hold.
static KEPT: AtomicUsize = AtomicUsize::new(0);

/// The number of the next allocation kept.
static SEQ: AtomicU64 = AtomicU64::new(0);

/// The map of the books that holds `addr`.
fn shard(addr: usize) -> MutexGuard<'static, Map> {
    // Mixes the bits above the allocators' alignments (8 bytes, a page for `Vmalloc`).
    let index = ((addr >> 4) ^ (addr >> 10) ^ (addr >> 16)) % SHARDS;
    BOOKS[index].lock().unwrap_or_else(PoisonError::into_inner)
}

/// The host's jiffies: `INITIAL_JIFFIES` (five minutes before the wrap of 32 bits, as the
/// kernel starts) plus the ticks of `HZ` since the first reading.
fn jiffies() -> usize {
    const HZ: usize = crate::env::delay::HZ as usize;
    /// `INITIAL_JIFFIES`: `(unsigned long)(unsigned int)(-300 * HZ)`.
    const INITIAL_JIFFIES: usize = (0_u32.wrapping_sub(300 * HZ as u32)) as usize;
    static BOOT: OnceLock<Instant> = OnceLock::new();
    let boot = BOOT.get_or_init(Instant::now);
    let millis = boot.elapsed().as_millis() as usize;
    INITIAL_JIFFIES.wrapping_add(millis * HZ / 1000)
}

/// Before `ptr` is freed or moved: takes its record out of the books, if a scope keeps it.
#[inline]
pub(crate) fn forget(ptr: NonNull<u8>) -> Option<Tracked> {
    if KEPT.load(Relaxed) == 0 {
        return None;
    }
    let addr = ptr.as_ptr().addr();
    let tracked = shard(addr).remove(&addr)?;
    KEPT.fetch_sub(1, Relaxed);
    Some(tracked)
}

/// After a request that took memory at `ptr`: the books of the scope keep it, the scope of
/// `previous` (the record of the allocation it reallocates) or else this thread's.
#[inline]
pub(crate) fn record(ptr: NonNull<u8>, alloc: &Alloc, previous: Option<Tracked>) {
    let (scope, comm) = match previous {
        Some(previous) => (previous.scope, previous.comm),
        None => {
            if !scope::any_open() {
                return;
            }
            match scope::with_current(|state, comm| (Arc::clone(state), Arc::clone(comm))) {
                Some(current) => current,
                None => return,
            }
        }
    };
    // A scope that ended keeps nothing more: what its threads allocate now is no one's.
    if !scope.books || scope.ended.load(Relaxed) {
        return;
    }
    let tracked = Tracked {
        scope,
        seq: SEQ.fetch_add(1, Relaxed),
        size: alloc.size,
        allocator: alloc.allocator,
        site: alloc.caller,
        comm,
        jiffies: jiffies(),
        not_leak: false,
    };
    keep(ptr, tracked);
}

/// After a reallocation of `ptr` failed: the allocation is live and unchanged, and back in
/// the books.
pub(crate) fn restore(ptr: NonNull<u8>, tracked: Tracked) {
    if !tracked.scope.ended.load(Relaxed) {
        keep(ptr, tracked);
    }
}

/// Puts `tracked` in the books at `ptr`.
fn keep(ptr: NonNull<u8>, tracked: Tracked) {
    let addr = ptr.as_ptr().addr();
    if shard(addr).insert(addr, tracked).is_none() {
        KEPT.fetch_add(1, Relaxed);
    }
}

/// Takes every record of `state` out of the books, in the order of their allocation.
fn take_scope(state: &State) -> Vec<(usize, Tracked)> {
    let mut taken = Vec::new();
    if KEPT.load(Relaxed) == 0 {
        return taken;
    }
    for shard in &BOOKS {
        let mut map = shard.lock().unwrap_or_else(PoisonError::into_inner);
        let addrs: Vec<usize> = map
            .iter()
            .filter(|(_, t)| core::ptr::eq(Arc::as_ptr(&t.scope), state))
            .map(|(&addr, _)| addr)
            .collect();
        for addr in addrs {
            if let Some(tracked) = map.remove(&addr) {
                KEPT.fetch_sub(1, Relaxed);
                taken.push((addr, tracked));
            }
        }
    }
    taken.sort_by_key(|(_, t)| t.seq);
    taken
}

/// The end-of-scope check: kmemleak's report of the scope's allocations still live, unless the
/// test allowed them or did not return.
pub(crate) fn check(ending: &Ending<'_>) -> Option<Report> {
    let mut live = take_scope(ending.state);
    if !ending.returned || ending.state.leaks_allowed.load(Relaxed) {
        return None;
    }
    live.retain(|(_, t)| !t.not_leak);
    if live.is_empty() {
        return None;
    }
    Some(Report::of(Detector::Kmemleak, report(&live)))
}

/// kmemleak's report of `objects`: one entry per backtrace, the first object of each.
fn report(objects: &[(usize, Tracked)]) -> String {
    let mut groups: Vec<(&(usize, Tracked), usize)> = Vec::new();
    for object in objects {
        let same = groups.iter_mut().find(|(first, _)| {
            first.1.site == object.1.site && first.1.allocator == object.1.allocator
        });
        match same {
            Some((_, more)) => *more += 1,
            None => groups.push((object, 0)),
        }
    }
    let pid = std::process::id();
    let mut text = String::new();
    for ((addr, tracked), more) in groups {
        let _ = writeln!(
            text,
            "unreferenced object 0x{addr:08x} (size {}):",
            tracked.size
        );
        let _ = writeln!(
            text,
            "  comm \"{}\", pid {pid}, jiffies {}",
            tracked.comm, tracked.jiffies
        );
        text.push_str("  backtrace:\n");
        let _ = writeln!(text, "    {} ({})", site(tracked.site), tracked.allocator);
        if more > 0 {
            let _ = writeln!(
                text,
                "  ... and {more} more object(s) with the same backtrace"
            );
        }
    }
    let _ = writeln!(
        text,
        "kmemleak: {} new suspected memory leaks",
        objects.len()
    );
    text.push_str(
        "kmemleak: a test keeps an object on purpose with kernel_core::extras::leak::not_leak(ptr), \
         all of its objects with extras::leak::allow(), or is named in KERNEL_CORE_ALLOW_LEAKS \
         (cargo kernel-core test --allow-leaks TEST)\n",
    );
    text
}

/// `kmemleak_not_leak(ptr)`: the object of a scope that holds `ptr` (its start, or any byte of
/// it) is not reported. Whether a scope keeps such an object.
pub(crate) fn not_leak(ptr: *const u8) -> bool {
    if KEPT.load(Relaxed) == 0 {
        return false;
    }
    let addr = ptr.addr();
    // Rare: a look at every object (a pointer inside one need not share its start's map).
    for shard in &BOOKS {
        let mut map = shard.lock().unwrap_or_else(PoisonError::into_inner);
        let holder = map
            .iter_mut()
            .find(|(&start, tracked)| start <= addr && addr - start < tracked.size);
        if let Some((_, tracked)) = holder {
            tracked.not_leak = true;
            return true;
        }
    }
    false
}
