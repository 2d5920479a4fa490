// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A field projection never goes through `Deref`: the field would not be inside the memory
//! the pointer points to. `ptr::project!` on a type that implements `Deref` does not compile
//! (the projection's `DEREF` parameter cannot be inferred), as in Linux 7.3.

struct Wrapper {
    inner: u32,
}

impl core::ops::Deref for Wrapper {
    type Target = u32;

    fn deref(&self) -> &u32 {
        &self.inner
    }
}

fn main() {
    let wrapper: *const Wrapper = core::ptr::dangling();
    let _ = kernel_core::ptr::project!(wrapper, .inner);
}
