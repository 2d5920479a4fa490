// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The modules of a guest resumed from a saved boot, received through a virtio serial port.
//!
//! The runner boots a kernel once with `kernel_core_modules=port` on its command line, an
//! initramfs without modules and a virtio serial port whose host side reads an empty file,
//! and saves the guest when `/init` says `kernel-core-init: ready`. Each run resumes that guest
//! with the port's host side reading a file of the run's modules. [`modules`] writes them to
//! `/modules/<file>` and their order to `/modules/order`, as the initramfs of a cold boot holds
//! them, and `/init` goes on as it always does.
//!
//! The port is QEMU's `virtserialport` number 1 of the only virtio serial device, which the
//! kernel names `vport0p1`; `/init` finds it in a `devtmpfs` mounted on `/devtmpfs`. What it
//! reads there:
//!
//! ```text
//! seed <hex>\n                   up to 64 bytes of the host's randomness, in hex
//! module <file> <size> <fnv>\n   then <size> bytes: the module; <fnv> is their 64-bit FNV-1a,
//!                                16 lowercase hex digits
//! ...
//! end\n
//! ```
//!
//! Every resumed guest starts from the same state, its random number generator's included, so
//! without the seed each run would draw the same "random" numbers (hash seeds, a slab cache's
//! freelist order, a test's random inputs). `/init` writes the seed to `/dev/urandom` and has the
//! kernel reseed its generator at once (`RNDRESEEDCRNG`), as it will the same state again
//! if that fails (said, not fatal).
//!
//! The port reads as ended (a `read` of 0) whenever its host side is not connected: before the
//! guest is resumed, and after the file was read to its end. So an empty `read` is waited out,
//! not taken for the end: `end` is.

use crate::console::Line;
use crate::order;
use crate::sys::{self, Errno, Fd};
use crate::ORDER_CAPACITY;

/// The port's device node, once `devtmpfs` is mounted on [`DEVTMPFS`].
const PORT: &core::ffi::CStr = c"/devtmpfs/vport0p1";
const DEVTMPFS: &core::ffi::CStr = c"/devtmpfs";

/// The longest header line accepted, without its newline.
const HEADER_CAPACITY: usize = 256;

/// How long `/init` waits before it reads again a port that reads as ended, or looks again for
/// a port that is not there yet, in milliseconds.
const RETRY_MS: usize = 1;

/// How long `/init` waits for the port to appear, in milliseconds.
const PORT_WAIT_MS: usize = 20_000;

/// The port's input, read in blocks.
struct Input {
    port: Fd,
    buf: [u8; 4096],
    pos: usize,
    len: usize,
}

impl Input {
    /// The bytes read but not yet taken, reading more if there are none.
    fn available(&mut self) -> Result<&[u8], Errno> {
        while self.pos == self.len {
            let n = sys::read(&self.port, &mut self.buf)?;
            if n == 0 {
                sys::sleep_ms(RETRY_MS);
            }
            (self.pos, self.len) = (0, n);
        }
        Ok(self.buf.get(self.pos..self.len).unwrap_or_default())
    }

    /// Takes one line, without its newline, into `out`.
    fn line<'b>(&mut self, out: &'b mut [u8; HEADER_CAPACITY]) -> Result<&'b [u8], Failure> {
        let mut len = 0;
        loop {
            let byte = *self.available()?.first().ok_or(sys::EIO)?;
            self.pos += 1;
            if byte == b'\n' {
                return Ok(out.get(..len).unwrap_or_default());
            }
            *out.get_mut(len).ok_or(Failure {
                what: "a header line too long",
                errno: sys::EIO,
            })? = byte;
            len += 1;
        }
    }
}

/// What went wrong, for the line that says so.
struct Failure {
    what: &'static str,
    errno: Errno,
}

impl From<Errno> for Failure {
    fn from(errno: Errno) -> Self {
        Failure {
            what: "reading the modules' port",
            errno,
        }
    }
}

/// Opens the modules' port, says `ready`, and receives the modules into `/modules/`. On
/// failure, says why and returns `Err`.
pub(crate) fn modules() -> Result<(), ()> {
    receive().map_err(|failure| {
        Line::new()
            .str("receiving the modules: ")
            .str(failure.what)
            .str(": ")
            .outcome(Err(failure.errno))
            .print();
    })
}

fn receive() -> Result<(), Failure> {
    sys::mount(c"devtmpfs", DEVTMPFS, c"devtmpfs").map_err(|errno| Failure {
        what: "mounting devtmpfs on /devtmpfs",
        errno,
    })?;
    // The kernel adds the port when QEMU announces it, from a work queue: its node may come
    // after `/init` starts.
    let mut waited = 0;
    let port = loop {
        match sys::open_read(PORT) {
            Err(sys::ENOENT) if waited < PORT_WAIT_MS => {
                sys::sleep_ms(RETRY_MS);
                waited += RETRY_MS;
            }
            result => {
                break result.map_err(|errno| Failure {
                    what: "opening /devtmpfs/vport0p1",
                    errno,
                })?
            }
        }
    };
    Line::new().str("ready").print();
    let mut input = Input {
        port,
        buf: [0; 4096],
        pos: 0,
        len: 0,
    };
    let mut order = [0u8; ORDER_CAPACITY];
    let mut order_len = 0;
    loop {
        let mut header = [0u8; HEADER_CAPACITY];
        let line = input.line(&mut header)?;
        if line == b"end" {
            break;
        }
        if let Some(hex) = line.strip_prefix(b"seed ") {
            seed(hex);
            continue;
        }
        let bad = |what| Failure {
            what,
            errno: sys::EIO,
        };
        let mut fields = line
            .strip_prefix(b"module ")
            .ok_or(bad("a header that is not `module <file> <size> <fnv>`"))?
            .split(|&b| b == b' ');
        let (Some(file), Some(size), Some(fnv), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(bad("a header that is not `module <file> <size> <fnv>`"));
        };
        let size = number(size, 10)
            .and_then(|n| usize::try_from(n).ok())
            .ok_or(bad("a size that is not a number"))?;
        let fnv = number(fnv, 16).ok_or(bad("a checksum that is not hex"))?;
        if file.is_empty() || file.contains(&b'/') {
            return Err(bad("an empty file name, or one with a `/`"));
        }
        let mut path_buf = [0u8; order::PATH_CAPACITY];
        let path = order::path(file, &mut path_buf).ok_or(Failure {
            what: "a file name too long",
            errno: sys::ENAMETOOLONG,
        })?;
        let out = sys::create(path).map_err(|errno| Failure {
            what: "creating the module's file",
            errno,
        })?;
        let mut hash = FNV_START;
        let mut left = size;
        while left > 0 {
            let bytes = input.available()?;
            let take = bytes.len().min(left);
            let chunk = bytes.get(..take).unwrap_or_default();
            hash = fnv1a(chunk, hash);
            sys::write_all(out.raw(), chunk).map_err(|errno| Failure {
                what: "writing the module's file",
                errno,
            })?;
            input.pos += take;
            left -= take;
        }
        if hash != fnv {
            return Err(bad("a module whose bytes do not match its checksum"));
        }
        let entry = order_len + file.len() + 1;
        let slot = order
            .get_mut(order_len..entry)
            .ok_or(bad("more modules than /modules/order holds"))?;
        slot.get_mut(..file.len())
            .unwrap_or_default()
            .copy_from_slice(file);
        *slot.last_mut().ok_or(bad("an empty file name"))? = b'\n';
        order_len = entry;
    }
    let out = sys::create(c"/modules/order").map_err(|errno| Failure {
        what: "creating /modules/order",
        errno,
    })?;
    sys::write_all(out.raw(), order.get(..order_len).unwrap_or_default()).map_err(|errno| Failure {
        what: "writing /modules/order",
        errno,
    })
}

/// `RNDRESEEDCRNG` (`_IO('R', 0x07)`): reseed the kernel's generator from its input pool now.
#[cfg(not(any(target_arch = "powerpc", target_arch = "powerpc64")))]
const RNDRESEEDCRNG: usize = 0x5207;
/// powerpc's `_IO` sets its own "no data" direction bit.
#[cfg(any(target_arch = "powerpc", target_arch = "powerpc64"))]
const RNDRESEEDCRNG: usize = 0x2000_5207;

/// Mixes the bytes `hex` spells into the kernel's input pool and reseeds its generator. A
/// failure is said, and the run goes on (with the saved guest's randomness).
fn seed(hex: &[u8]) {
    let mut bytes = [0u8; 64];
    let mut len = 0;
    for pair in hex.chunks(2) {
        let (Some(slot), Some(byte)) = (
            bytes.get_mut(len),
            pair.iter().try_fold(0u8, |n, &d| {
                Some(n.checked_mul(16)? | char::from(d).to_digit(16)? as u8)
            }),
        ) else {
            Line::new()
                .str("seed: not up to 64 bytes in hex; ignored")
                .print();
            return;
        };
        *slot = byte;
        len += 1;
    }
    let result = sys::open_write(c"/devtmpfs/urandom").and_then(|urandom| {
        sys::write_all(urandom.raw(), bytes.get(..len).unwrap_or_default())?;
        sys::ioctl_none(&urandom, RNDRESEEDCRNG)
    });
    if let Err(errno) = result {
        Line::new()
            .str("seed: ")
            .outcome(Err(errno))
            .str(" (the generator goes on from the saved state)")
            .print();
    }
}

/// The number `digits` spell in `radix`, if they do and it fits in 64 bits.
fn number(digits: &[u8], radix: u32) -> Option<u64> {
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u64, |n, &d| {
        let d = char::from(d).to_digit(radix)?;
        n.checked_mul(u64::from(radix))?.checked_add(u64::from(d))
    })
}

/// The start of a 64-bit FNV-1a hash (the runner's `infra::hash::FNV_START`).
const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// 64-bit FNV-1a of `bytes`, continuing from `hash`: the runner's `infra::hash::fnv`.
fn fnv1a(bytes: &[u8], mut hash: u64) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x100_0000_01b3);
    }
    hash
}
