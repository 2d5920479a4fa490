// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Linux 7.3's own `fmt!` (`rust/macros/fmt.rs`, included unchanged from the tree in
//! `KERNEL_CORE_LINUX_SRC`), exported as the kernel's `macros/lib.rs` exports it.
//!
//! It is `core::format_args!` with every argument, inline ones (`{name}`) included, wrapped in
//! `::kernel::fmt::Adapter`: the differential crate (`linux7_3`) calls itself `kernel` (`extern
//! crate self as kernel;`), and a test that expands it names the differential crate so
//! (`extern crate linux7_3 as kernel;`), as a kernel crate's code reaches `kernel`. The
//! differential tests compare what it formats with what kernel-core's `fmt!` does.

/// `kernel`'s `macros::fmt`: Linux 7.3's `rust/macros/fmt.rs`.
mod fmt {
    include!(concat!(env!("OUT_DIR"), "/fmt.rs"));
}

/// Like [`core::format_args!`], but wraps every argument in `::kernel::fmt::Adapter` (Linux
/// 7.3's `macros::fmt`, whose body this is).
#[proc_macro]
pub fn fmt(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    fmt::fmt(input.into()).into()
}
