// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A relative register used with a base of another family does not compile: `of::<B>()`
//! requires `B: RegisterBase<Family>` for the register's own family, as in Linux 7.3.

use kernel_core::io::register;
use kernel_core::io::register::{RegisterBase, WithBase};

struct EngineBase;
struct QueueBase;
struct Queue0;
impl RegisterBase<QueueBase> for Queue0 {
    const BASE: usize = 0x100;
}

register! {
    ENGINE_CTL(u32) @ EngineBase + 0x4 {
        0:0 run;
    }
}

fn main() {
    let _ = ENGINE_CTL::of::<Queue0>();
}
