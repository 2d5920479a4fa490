// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `#[derive(Zeroable)]` needs every field to be `Zeroable`: the error is at the field that is
//! not. (`#[derive(MaybeZeroable)]` would derive nothing instead.)

use pin_init::Zeroable;

#[derive(Zeroable)]
struct Named {
    id: u32,
    name: &'static str,
}

#[derive(Zeroable)]
struct Boxed(u8, Box<u8>);

fn main() {}
