// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A `#[vtable]` impl in a crate without `module!`: as in Linux 7.3, its `OwnerModule` is the
//! crate's `LocalModule`, which `module!` declares.

use kernel_core::prelude::*;

#[vtable]
trait Operations {
    fn open(&self) -> Result {
        Ok(())
    }
}

struct File;

#[vtable]
impl Operations for File {}

fn main() {}
