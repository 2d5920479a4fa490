// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `module!` misuse: each is a compile error that says what is wrong, with Linux 7.3's
//! messages where it has them.

use kernel_core::prelude::*;

mod missing_license {
    kernel_core::prelude::module! {
        type: super::Module,
        name: "m",
    }
}

mod unknown_key {
    kernel_core::prelude::module! {
        type: super::Module,
        name: "m",
        author: "6.12's key",
        license: "GPL",
    }
}

mod duplicated_key {
    kernel_core::prelude::module! {
        type: super::Module,
        name: "m",
        name: "again",
        license: "GPL",
    }
}

mod out_of_order {
    kernel_core::prelude::module! {
        type: super::Module,
        license: "GPL",
        name: "m",
    }
}

mod not_ascii {
    kernel_core::prelude::module! {
        type: super::Module,
        name: "módulo",
        license: "GPL",
    }
}

mod not_a_string {
    kernel_core::prelude::module! {
        type: super::Module,
        name: m,
        license: "GPL",
    }
}

mod authors_not_a_list {
    kernel_core::prelude::module! {
        type: super::Module,
        name: "m",
        authors: "One Author",
        license: "GPL",
    }
}

mod no_last_comma {
    kernel_core::prelude::module! {
        type: super::Module,
        name: "m",
        license: "GPL"
    }
}

mod bad_parameter_type {
    kernel_core::prelude::module! {
        type: super::Module,
        name: "m",
        license: "GPL",
        params: {
            name: &str {
                default: "x",
                description: "A string",
            },
        },
    }
}

mod unsupported_parameter_type {
    kernel_core::prelude::module! {
        type: super::Module,
        name: "m",
        license: "GPL",
        params: {
            ratio: f32 {
                default: 0.5,
                description: "A float",
            },
        },
    }
}

mod parameter_without_description {
    kernel_core::prelude::module! {
        type: super::Module,
        name: "m",
        license: "GPL",
        params: {
            level: u8 {
                default: 1,
            },
        },
    }
}

struct NotAModule;

mod not_a_module {
    kernel_core::prelude::module! {
        type: super::NotAModule,
        name: "not_a_module",
        license: "GPL",
    }
}

struct Module;

impl kernel_core::Module for Module {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(Module)
    }
}

fn main() {}
