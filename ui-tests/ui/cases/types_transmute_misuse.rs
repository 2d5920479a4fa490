// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `types` and `transmute` misuse, rejected as Linux 7.3 rejects it: a `NotThreadSafe` type
//! sent to another thread, an `Opaque` in a `static` (not `Sync`), a `bool` read from bytes
//! (not every byte is a `bool`), and a mutable view of a type that is not `AsBytes`.

use kernel_core::transmute::FromBytes;
use kernel_core::types::{NotThreadSafe, Opaque};

struct TaskLocal {
    _marker: NotThreadSafe,
}

static SHARED: Opaque<u32> = Opaque::new(0);

#[repr(C)]
struct OnlyFromBytes(u32);
// SAFETY: Any bytes are a valid `u32`.
unsafe impl FromBytes for OnlyFromBytes {}

fn send<T: Send>(_: T) {}

fn main() {
    send(TaskLocal { _marker: NotThreadSafe });
    let _ = &SHARED;
    let _ = bool::from_bytes(&[1]);
    let mut bytes = [0_u8; 4];
    let _ = OnlyFromBytes::from_bytes_mut(&mut bytes);
}
