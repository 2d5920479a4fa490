// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `#[vtable]` misuse: on something that is not a trait or an impl, with arguments, and an
//! impl of a `#[vtable]` trait without `#[vtable]`.

use kernel_core::prelude::*;

kernel_core::prelude::module! {
    type: Driver,
    name: "driver",
    license: "GPL",
}

struct Driver;

impl kernel_core::Module for Driver {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(Driver)
    }
}

#[vtable]
struct NotATrait;

#[vtable(Operations)]
trait WithArguments {}

#[vtable]
trait Operations {
    fn open(&self) -> Result {
        Ok(())
    }
}

struct Forgot;

// Without `#[vtable]`: `USE_VTABLE_ATTR` and `OwnerModule` are missing.
impl Operations for Forgot {
    fn open(&self) -> Result {
        Ok(())
    }
}

fn main() {}
