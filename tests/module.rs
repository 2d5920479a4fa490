// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: `module!` and the modules that `extras::module` loads and unloads: `init` and
//! `Drop` as `insmod` and `rmmod` run them, parameters as the kernel parses them, one load at
//! a time across threads, failed and panicking loads, `THIS_MODULE`, what `modinfo` would
//! show, `#[vtable]`'s `OwnerModule` and `#[export]`.
//!
//! The crate's own `module!` is at its root, as in a driver (it is the `LocalModule` of the
//! `#[vtable]` impls below); the modules that the tests load are declared in submodules, which
//! only the host allows (a kernel crate has one `module!`).
//!
//! Miri-clean: `cargo +nightly miri test -p kernel-core-tests --test module`.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::mpsc;
use std::time::Duration;

use kernel_core::error::VTABLE_DEFAULT_ERROR;
use kernel_core::extras::log;
use kernel_core::extras::module::{load, load_with, name_of, Declared};
use kernel_core::module::this_module;
use kernel_core::prelude::*;
use kernel_core::ModuleMetadata;

module! {
    type: Tests,
    name: "module_tests",
    authors: ["kernel-core"],
    description: "The crate's own module",
    license: "GPL",
}

/// The crate's module: the `LocalModule` of its `#[vtable]` impls.
struct Tests;

impl kernel_core::Module for Tests {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(Tests)
    }
}

/// A module with every kind of parameter, which counts its loads and unloads.
mod sample {
    use super::*;

    pub(crate) static INITS: AtomicUsize = AtomicUsize::new(0);
    pub(crate) static EXITS: AtomicUsize = AtomicUsize::new(0);
    /// What the last `init` saw as its `THIS_MODULE`.
    pub(crate) static SEEN_MODULE: AtomicUsize = AtomicUsize::new(0);

    module! {
        type: Sample,
        name: "sample-mod",
        authors: ["First Author", "Second Author"],
        description: "A sample module, with \"quotes\"\nand two lines",
        license: "Dual MIT/GPL",
        alias: ["sample", "smpl"],
        firmware: ["sample/fw.bin"],
        imports_ns: ["SAMPLE_NS"],
        params: {
            small: i8 {
                default: -1,
                description: "An i8",
            },
            byte: u8 {
                default: 7,
                description: "A u8",
            },
            wide: u64 {
                default: 1 << 40,
                description: "A u64",
            },
            count: usize {
                default: 3,
                description: "How many numbers",
            },
            offset: isize {
                default: 0,
                description: "An isize",
            },
            verbose: bool {
                default: false,
                description: "Print more",
            },
            fail_with: i32 {
                default: 0,
                description: "An errno for init to fail with",
            },
        },
    }

    pub(crate) struct Sample {
        pub(crate) numbers: KVec<usize>,
        pub(crate) small: i8,
        pub(crate) byte: u8,
        pub(crate) wide: u64,
        pub(crate) offset: isize,
        pub(crate) verbose: bool,
    }

    impl kernel_core::Module for Sample {
        fn init(module: &'static ThisModule) -> Result<Self> {
            SEEN_MODULE.store(module.as_ptr().addr(), SeqCst);
            let fail_with = module_parameters::fail_with.value();
            if fail_with != 0 {
                pr_err!("failing with {}\n", fail_with);
                return Err(Error::from_errno(fail_with));
            }
            INITS.fetch_add(1, SeqCst);
            let mut numbers = KVec::new();
            for i in 0..module_parameters::count.value() {
                numbers.push(i, GFP_KERNEL)?;
            }
            pr_info!("loaded with {} numbers\n", numbers.len());
            Ok(Sample {
                numbers,
                small: module_parameters::small.value(),
                byte: module_parameters::byte.value(),
                wide: module_parameters::wide.value(),
                offset: module_parameters::offset.value(),
                verbose: *module_parameters::verbose.value_ref(),
            })
        }
    }

    impl Drop for Sample {
        fn drop(&mut self) {
            EXITS.fetch_add(1, SeqCst);
            pr_info!("unloaded\n");
        }
    }

    /// A parameter, from outside `init`.
    pub(crate) fn count() -> usize {
        module_parameters::count.value()
    }

    /// A reference to a parameter's value, which outlives loads.
    pub(crate) fn byte_ref() -> &'static u8 {
        module_parameters::byte.value_ref()
    }
}

use sample::Sample;

/// Tests that load `Sample` take turns (a second load would wait), and see its counters alone.
fn counters() -> (usize, usize) {
    (sample::INITS.load(SeqCst), sample::EXITS.load(SeqCst))
}

#[test]
fn load_runs_init_and_drop_runs_exit() {
    let log = log::capture();
    let module = load::<Sample>().unwrap();
    let (inits, exits) = counters();
    assert_eq!(module.numbers.as_slice(), &[0, 1, 2]);
    assert_eq!(format!("{module:?}"), "Loaded(\"sample-mod\")");
    drop(module);
    assert_eq!(counters(), (inits, exits + 1));
    let lines = log.take();
    // The messages carry the module's name, as the kernel's `pr_*!` take it from `module!`.
    assert_eq!(lines[0].text(), "sample-mod: loaded with 3 numbers");
    assert_eq!(lines[1].text(), "sample-mod: unloaded");
    assert_eq!(lines[0].level(), log::Level::Info);
}

#[test]
fn parameters_have_their_defaults() {
    let module = load::<Sample>().unwrap();
    assert_eq!(
        (
            module.small,
            module.byte,
            module.wide,
            module.offset,
            module.verbose
        ),
        (-1, 7, 1 << 40, 0, false)
    );
    assert_eq!(sample::count(), 3);
}

#[test]
fn parameters_are_read_as_the_kernel_reads_them() {
    let module = load_with::<Sample>(
        "small=-128 byte=0xff wide=18446744073709551615 count=010 offset=-5 verbose=on",
    )
    .unwrap();
    assert_eq!(module.small, -128);
    assert_eq!(module.byte, 255);
    assert_eq!(module.wide, u64::MAX);
    assert_eq!(module.numbers.len(), 8); // octal
    assert_eq!(module.offset, -5);
    assert!(module.verbose);
    assert_eq!(sample::count(), 8);
    drop(module);
    // Unloaded: the defaults again.
    assert_eq!(sample::count(), 3);
}

#[test]
fn parameter_names_take_dashes_and_values_quotes() {
    let module = load_with::<Sample>("  \"count=2\"   fail-with=0 verbose=\"y\"  ").unwrap();
    assert_eq!(module.numbers.len(), 2);
    assert!(module.verbose);
}

#[test]
fn unknown_parameters_and_those_after_dashes_are_ignored_with_a_warning() {
    let log = log::capture();
    let module = load_with::<Sample>("nope=1 count=1 -- count=5 more").unwrap();
    assert_eq!(module.numbers.len(), 1);
    let lines = log.take();
    assert_eq!(lines[0].level(), log::Level::Warning);
    assert!(lines[0]
        .text()
        .ends_with("sample-mod: unknown parameter 'nope' ignored"));
    assert!(lines[1]
        .text()
        .ends_with("sample-mod: parameters 'count=5 more' after `--' ignored"));
}

#[test]
fn a_bad_parameter_fails_the_load_before_init() {
    let log = log::capture();
    for args in [
        "byte=256",
        "small=x",
        "verbose=maybe",
        "count=-1",
        "verbose",
    ] {
        assert_eq!(load_with::<Sample>(args).err(), Some(EINVAL), "{args}");
    }
    assert_eq!(load_with::<Sample>("count=1 count=2").err(), Some(EEXIST));
    // The loader's complaints, and nothing of `init` (which prints as it loads).
    let lines = log.take();
    assert_eq!(lines.len(), 6);
    assert!(lines.iter().all(|line| line.level() == log::Level::Err));
    assert!(lines[0]
        .text()
        .ends_with("sample-mod: `256' invalid for parameter `byte'"));
    assert!(lines[4]
        .text()
        .ends_with("sample-mod: `' invalid for parameter `verbose'"));
    assert!(lines[5]
        .text()
        .ends_with("sample-mod: `2' invalid for parameter `count'"));
    // Nothing stuck: the next load has the defaults.
    assert_eq!(load::<Sample>().unwrap().numbers.len(), 3);
}

#[test]
fn a_failed_init_leaves_the_module_unloaded() {
    let log = log::capture();
    assert_eq!(load_with::<Sample>("fail_with=-19").err(), Some(ENODEV));
    // `init` failed before it made a `Sample`: nothing to drop, no `unloaded`.
    let lines = log.take();
    assert_eq!(lines.len(), 1);
    assert!(lines[0].text().ends_with(": failing with -19"));
    let module = load::<Sample>().unwrap();
    assert_eq!(module.numbers.len(), 3);
}

#[test]
fn a_thread_cannot_load_a_module_twice() {
    let module = load::<Sample>().unwrap();
    assert_eq!(load::<Sample>().err(), Some(EEXIST));
    assert_eq!(load_with::<Sample>("count=1").err(), Some(EEXIST));
    // Its parameters were not touched.
    assert_eq!(sample::count(), 3);
    drop(module);
    load::<Sample>().unwrap().unload();
}

#[test]
fn another_thread_waits_for_the_unload() {
    let module = load_with::<Sample>("count=4").unwrap();
    let unloading = AtomicBool::new(false);
    let (ready, waiting) = mpsc::channel();
    std::thread::scope(|s| {
        let other = s.spawn(|| {
            ready.send(()).unwrap();
            let second = load::<Sample>().unwrap();
            // It could only load once the first was unloaded, with the defaults.
            assert!(unloading.load(SeqCst));
            second.numbers.len()
        });
        waiting.recv().unwrap();
        std::thread::sleep(Duration::from_millis(if cfg!(miri) { 1 } else { 20 }));
        assert_eq!(sample::count(), 4);
        unloading.store(true, SeqCst);
        drop(module);
        assert_eq!(other.join().unwrap(), 3);
    });
}

#[test]
fn a_panicking_init_unloads_the_module() {
    mod panicky {
        use kernel_core::prelude::*;

        module! {
            type: Panicky,
            name: "panicky",
            license: "GPL",
            params: {
                boom: bool {
                    default: true,
                    description: "Whether init panics",
                },
            },
        }

        pub(crate) struct Panicky;

        impl kernel_core::Module for Panicky {
            fn init(_module: &'static ThisModule) -> Result<Self> {
                assert!(!module_parameters::boom.value(), "init panics");
                Ok(Panicky)
            }
        }
    }

    let panic = std::panic::catch_unwind(load::<panicky::Panicky>);
    assert!(panic.is_err());
    // Neither loaded nor holding its parameters.
    assert!(load_with::<panicky::Panicky>("boom=n").is_ok());
}

#[test]
fn value_refs_outlive_the_load_that_set_them() {
    let module = load_with::<Sample>("byte=42").unwrap();
    let kept = sample::byte_ref();
    assert_eq!(*kept, 42);
    drop(module);
    let again = load_with::<Sample>("byte=43").unwrap();
    assert_eq!((*kept, *sample::byte_ref()), (42, 43));
    drop(again);
    assert_eq!(*sample::byte_ref(), 7);
}

#[test]
fn this_module_is_the_modules_own() {
    let module = load::<Sample>().unwrap();
    let this = this_module::<Sample>();
    assert_eq!(sample::SEEN_MODULE.load(SeqCst), this.as_ptr().addr());
    assert!(!this.as_ptr().is_null());
    assert_eq!(name_of(this), Some(c"sample-mod"));
    assert_eq!(Sample::NAME, c"sample-mod");
    assert_eq!(this_module::<Tests>().as_ptr(), Tests::THIS_MODULE.as_ptr());
    assert_ne!(this_module::<Tests>().as_ptr(), this.as_ptr());
    assert_eq!(name_of(this_module::<Tests>()), Some(c"module_tests"));
    drop(module);
}

#[test]
fn module_declares_the_log_prefix_and_local_module() {
    assert_eq!(__LOG_PREFIX, b"module_tests\0");
    let _: LocalModule = Tests;
    assert_eq!(<LocalModule as ModuleMetadata>::NAME, c"module_tests");
}

#[test]
fn modinfo_is_what_module_says() {
    let info = Sample::modinfo();
    assert_eq!(info.name, "sample-mod");
    assert_eq!(info.authors, ["First Author", "Second Author"]);
    assert_eq!(
        info.description,
        Some("A sample module, with \"quotes\"\nand two lines")
    );
    assert_eq!(info.license, "Dual MIT/GPL");
    assert_eq!(info.alias, ["sample", "smpl"]);
    assert_eq!(info.firmware, ["sample/fw.bin"]);
    assert_eq!(info.imports_ns, ["SAMPLE_NS"]);
    let params: std::vec::Vec<(&str, &str, &str)> = info
        .params
        .iter()
        .map(|p| (p.name, p.type_name, p.description))
        .collect();
    assert_eq!(params[0], ("small", "i8", "An i8"));
    assert_eq!(
        params[6],
        ("fail_with", "i32", "An errno for init to fail with")
    );
    assert_eq!(params.len(), 7);
    let own = Tests::modinfo();
    assert_eq!(
        (own.name, own.description),
        ("module_tests", Some("The crate's own module"))
    );
    assert!(own.params.is_empty() && own.alias.is_empty());
}

/// A module initialized in place: its address never changes, and `init`'s errors fail the
/// load.
mod pinned {
    use core::marker::PhantomPinned;
    use core::sync::atomic::{AtomicUsize, Ordering::SeqCst};

    use kernel_core::prelude::*;

    pub(crate) static ADDRESS: AtomicUsize = AtomicUsize::new(0);

    module! {
        type: Pinned,
        name: "pinned",
        license: "GPL",
        params: {
            fail: bool {
                default: false,
                description: "Fail in the middle of the initializer",
            },
        },
    }

    #[pin_data(PinnedDrop)]
    pub(crate) struct Pinned {
        pub(crate) first: KVec<u8>,
        #[pin]
        anchor: PhantomPinned,
    }

    impl kernel_core::InPlaceModule for Pinned {
        fn init(_module: &'static ThisModule) -> impl PinInit<Self, Error> {
            try_pin_init!(&this in Pinned {
                first: {
                    let mut v = KVec::new();
                    v.push(1, GFP_KERNEL)?;
                    v
                },
                anchor: {
                    ADDRESS.store(this.as_ptr().addr(), SeqCst);
                    if module_parameters::fail.value() {
                        return Err(EBUSY);
                    }
                    PhantomPinned
                },
            })
        }
    }

    #[pinned_drop]
    impl PinnedDrop for Pinned {
        fn drop(self: Pin<&mut Self>) {
            assert_eq!(ADDRESS.load(SeqCst), core::ptr::from_ref(&*self).addr());
        }
    }
}

#[test]
fn in_place_modules_stay_where_they_were_initialized() {
    let module = load::<pinned::Pinned>().unwrap();
    let at = core::ptr::from_ref(module.module().get_ref()).addr();
    assert_eq!(pinned::ADDRESS.load(SeqCst), at);
    assert_eq!(module.first.as_slice(), &[1]);
    module.unload();
    // An error in the middle of the initializer: what it made is dropped, nothing loaded.
    assert_eq!(load_with::<pinned::Pinned>("fail=1").err(), Some(EBUSY));
    assert!(load::<pinned::Pinned>().is_ok());
}

/// A `#[vtable]` trait as a driver API declares one.
#[vtable]
trait FileOps {
    fn open(&self) -> Result<u32> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    fn release(&self) {
        build_error!(VTABLE_DEFAULT_ERROR)
    }
}

struct MyFile;

#[vtable]
impl FileOps for MyFile {
    fn open(&self) -> Result<u32> {
        Ok(0)
    }
}

/// An impl for another module's table, naming its owner.
struct Borrowed;

#[vtable]
impl FileOps for Borrowed {
    type OwnerModule = Sample;
}

/// A trait that declares its owner itself, with a bound of its own.
#[vtable]
trait Owned {
    type OwnerModule: ModuleMetadata + Sync;

    fn probe(&self) -> bool {
        build_error!(VTABLE_DEFAULT_ERROR)
    }
}

#[vtable]
impl Owned for MyFile {}

/// Which of `open` and `release` `T` defines.
fn has<T: FileOps>() -> [bool; 2] {
    [T::HAS_OPEN, T::HAS_RELEASE]
}

fn owner_name<T: FileOps>() -> &'static CStr {
    <T::OwnerModule as ModuleMetadata>::NAME
}

#[test]
fn vtable_impls_belong_to_the_crates_module() {
    assert_eq!(owner_name::<MyFile>(), c"module_tests");
    assert_eq!(owner_name::<Borrowed>(), c"sample-mod");
    assert_eq!(
        <<MyFile as Owned>::OwnerModule as ModuleMetadata>::NAME,
        c"module_tests"
    );
    assert_eq!(has::<MyFile>(), [true, false]);
    assert_eq!(has::<Borrowed>(), [false, false]);
    assert_eq!([<MyFile as Owned>::HAS_PROBE], [false]);
    assert_eq!(MyFile.open(), Ok(0));
}

/// `size_t kernel_core_tests_exported(size_t);` in a driver's header.
#[export]
pub extern "C" fn kernel_core_tests_exported(x: usize) -> usize {
    x * 2
}

// The same function, through its unmangled name, as C reaches it.
extern "C" {
    #[link_name = "kernel_core_tests_exported"]
    fn exported_from_c(x: usize) -> usize;
}

#[test]
fn exported_functions_are_unmangled() {
    assert_eq!(kernel_core_tests_exported(4), 8);
    // SAFETY: The declaration matches the definition above.
    assert_eq!(unsafe { exported_from_c(21) }, 42);
}
