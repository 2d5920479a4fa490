// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Linux 7.3's own doc examples of the modules kernel-core mirrors, compiled and run against
//! kernel-core on the host, unchanged but for `kernel::` written `kernel_core::`.
//!
//! The examples are read from the kernel tree at test time (`extract.rs`, with its own tests)
//! and each becomes the program the kernel's doctest machinery makes of it: rustdoc's wrapping
//! (`fn main`, `Result` when the code ends with `(())`), inside a block that imports the
//! prelude (`use kernel_core::prelude::*;`, as the kernel's `scripts/rustdoc_test_gen.rs`
//! imports `kernel::prelude::*`), in a package of its own, one binary per example, built with
//! cargo in debug mode (as rustdoc builds doctests) with kernel-core's `std` feature (the
//! host's clocks). `no_run` examples are built, `compile_fail` ones must fail to build,
//! `should_panic` ones must panic, `ignore` ones are reported and not built (the kernel builds
//! none of them either).
//!
//! Examples that need what the host has no equivalent of (the kernel's pages, its devices,
//! workqueues and interrupts, its C constants) or unstable Rust that the kernel enables
//! (`CoercePointee`, `arbitrary_self_types`, pin-init's nightly `alloc` feature) are left out by
//! [`EXCLUDED`], each with its reason; every other example counts, the driver's logic included
//! (`alloc`, `sync`, `init`, `str`, `fmt`, `print`, `transmute`, `types`, `page`, `uaccess`,
//! `module`, `list`, and the `pin_init` crate's own examples, built as that crate's doctests are, against
//! kernel-core's `pin_init`). As in the kernel's doctests (`scripts/rustdoc_test_gen.rs`),
//! `assert_eq!` is an `assert!` of `==`. The check prints every example with its verdict (a failure with the
//! compiler's or the panic's first lines), the count, and fails below [`THRESHOLD`].

#[path = "doc_examples/extract.rs"]
mod extract;
#[path = "doc_examples/json.rs"]
mod json;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use extract::{Example, Flags};

/// The extracted Linux 7.3 tree (`KERNEL_CORE_LINUX_SRC` when this crate was built).
const TREE: &str = env!("KERNEL_CORE_DIFFERENTIAL_TREE");

/// The files whose examples are checked, relative to the tree: the mirrored modules of
/// `rust/kernel/` (a directory stands for every `.rs` file under it), and of
/// `rust/macros/lib.rs` the two procedural macros kernel-core mirrors.
const SOURCES: &[(&str, Option<&[&str]>)] = &[
    ("rust/kernel/build_assert.rs", None),
    ("rust/kernel/sizes.rs", None),
    ("rust/kernel/ptr.rs", None),
    ("rust/kernel/ptr", None),
    ("rust/kernel/time.rs", None),
    ("rust/kernel/time", None),
    ("rust/kernel/bits.rs", None),
    ("rust/kernel/bitfield.rs", None),
    ("rust/kernel/num.rs", None),
    ("rust/kernel/num", None),
    ("rust/kernel/impl_flags.rs", None),
    ("rust/kernel/io.rs", None),
    ("rust/kernel/io", None),
    ("rust/kernel/error.rs", None),
    ("rust/kernel/prelude.rs", None),
    // The driver's logic: allocation, locks and `Arc`, in-place initialisation, strings,
    // formatting and printing, byte reinterpretation, types, pages, user memory, modules,
    // intrusive lists.
    ("rust/kernel/alloc.rs", None),
    ("rust/kernel/alloc", None),
    ("rust/kernel/init.rs", None),
    ("rust/kernel/sync.rs", None),
    ("rust/kernel/sync", None),
    ("rust/kernel/str.rs", None),
    ("rust/kernel/str", None),
    ("rust/kernel/fmt.rs", None),
    ("rust/kernel/print.rs", None),
    ("rust/kernel/transmute.rs", None),
    ("rust/kernel/types.rs", None),
    ("rust/kernel/page.rs", None),
    ("rust/kernel/uaccess.rs", None),
    ("rust/kernel/module.rs", None),
    ("rust/kernel/module_param.rs", None),
    ("rust/kernel/list.rs", None),
    ("rust/kernel/list", None),
    // The `pin_init` crate, whose examples are written for the crate alone (with `std`).
    ("rust/pin-init/src", None),
    (
        "rust/macros/lib.rs",
        Some(&["paste", "kunit_tests", "module", "vtable", "export", "fmt"]),
    ),
];

/// The examples left out, by file, item and number among the item's examples (as the report
/// names them), with the reason: each needs something the host has no equivalent of.
const EXCLUDED: &[(&str, &str, usize, &str)] = &[
    (
        "rust/kernel/sizes.rs",
        "(module)",
        1,
        "pages: divides by `kernel::page::PAGE_SIZE`",
    ),
    (
        "rust/kernel/time/hrtimer.rs",
        "(module)",
        1,
        "allocation and printing: an hrtimer in an `Arc::pin_init(.., GFP_KERNEL)`, `pr_info!`",
    ),
    (
        "rust/kernel/time/hrtimer.rs",
        "(module)",
        2,
        "allocation and printing: an hrtimer in a `KBox` (`Box::pin_init(.., GFP_KERNEL)`), `pr_info!`",
    ),
    (
        "rust/kernel/time/hrtimer.rs",
        "(module)",
        3,
        "allocation and printing: an hrtimer in an `Arc::pin_init(.., GFP_KERNEL)`, `pr_info!`",
    ),
    (
        "rust/kernel/time/hrtimer.rs",
        "(module)",
        4,
        "allocation and printing: an hrtimer in an `Arc::pin_init(.., GFP_KERNEL)`, `pr_info!`",
    ),
    (
        "rust/kernel/io/register.rs",
        "(module)",
        2,
        "printing: `pr_info!` of the chip revision",
    ),
    (
        "rust/kernel/error.rs",
        "Result",
        1,
        "allocation and printing: `KVec::push(.., GFP_KERNEL)`, `pr_err!`",
    ),
    (
        "rust/kernel/error.rs",
        "Result",
        2,
        "allocation and printing: `KVec::push(.., GFP_KERNEL)`, `pr_err!`",
    ),
    (
        "rust/kernel/error.rs",
        "Result",
        3,
        "allocation: `KVec::push(.., GFP_KERNEL)`",
    ),
    (
        "rust/kernel/alloc/allocator.rs",
        "to_page",
        1,
        "pages: `Vmalloc::to_page`, the kernel's `struct page` of a vmalloc address",
    ),
    (
        "rust/kernel/alloc/kbox.rs",
        "Box",
        2,
        "the C constant `bindings::KMALLOC_MAX_SIZE` (kernel-core's host has no `bindings`)",
    ),
    (
        "rust/kernel/alloc/kbox.rs",
        "Box",
        3,
        "the C constant `bindings::KMALLOC_MAX_SIZE` (kernel-core's host has no `bindings`)",
    ),
    (
        "rust/kernel/alloc/kbox.rs",
        "Box",
        4,
        "unstable Rust: `KBox<T>` to `KBox<dyn Trait>` needs `CoercePointee` (the kernel enables it)",
    ),
    (
        "rust/kernel/alloc/kbox.rs",
        "impl",
        3,
        "pages: `VmallocPageIter` and `AsPageIter` walk the kernel's `struct page`s",
    ),
    (
        "rust/kernel/alloc/kvec.rs",
        "impl",
        3,
        "pages: `VmallocPageIter` and `AsPageIter` walk the kernel's `struct page`s",
    ),
    (
        "rust/kernel/sync/arc.rs",
        "Arc",
        2,
        "unstable Rust: `self: Arc<Self>` needs `arbitrary_self_types` (the kernel enables it)",
    ),
    (
        "rust/kernel/sync/arc.rs",
        "Arc",
        3,
        "unstable Rust: `self: Arc<Self>` needs `arbitrary_self_types` (the kernel enables it)",
    ),
    (
        "rust/kernel/sync/arc.rs",
        "ArcBorrow",
        2,
        "unstable Rust: `self: ArcBorrow<'_, Self>` needs `arbitrary_self_types`",
    ),
    (
        "rust/kernel/sync/completion.rs",
        "Completion",
        1,
        "workqueues: a `Completion` completed from `kernel::workqueue` work",
    ),
    (
        "rust/kernel/sync/lock/spinlock.rs",
        "SpinLockIrq",
        2,
        "interrupts: `kernel::interrupt::LocalInterruptDisabled`, the CPU's interrupt state",
    ),
    (
        "rust/kernel/page.rs",
        "BorrowedPage",
        1,
        "pages: a `struct page` from `bindings::alloc_pages`",
    ),
    (
        "rust/kernel/page.rs",
        "alloc_page",
        1,
        "pages: `Page::alloc_page`, the kernel's page allocator",
    ),
    (
        "rust/kernel/page.rs",
        "alloc_page",
        2,
        "pages: `Page::alloc_page`, the kernel's page allocator",
    ),
    (
        "rust/kernel/uaccess.rs",
        "write_dma",
        1,
        "DMA: `UserSliceWriter::write_dma` copies from a device's `dma::Coherent` memory",
    ),
    (
        "rust/kernel/list.rs",
        "List",
        2,
        "unstable Rust: `ListArc<DTWrap<A>>` to `ListArc<DTWrap<dyn Foo>>` needs `CoercePointee` \
         (the kernel enables it)",
    ),
    (
        "rust/pin-init/src/lib.rs",
        "(module)",
        5,
        "unstable Rust: `#![feature(allocator_api)]` (pin-init's `alloc` feature, nightly only)",
    ),
    (
        "rust/macros/lib.rs",
        "vtable",
        2,
        "a module: 7.3's `#[vtable]` names the crate's `LocalModule`, which `module!` declares in \
         the kernel's doctest module",
    ),
];

/// The examples that write `_` for a const generic argument (`v.shr::<8, _>()`), which Rust
/// accepts from 1.89 on (`generic_arg_infer`); the kernel enables the feature on older
/// compilers. Left out, with that reason, when this check runs on an older one (the MSRV run).
const NEEDS_RUST_1_89: &[(&str, &str, usize)] = &[
    ("rust/kernel/bitfield.rs", "(module)", 5),
    ("rust/kernel/num/bounded.rs", "shr", 1),
    ("rust/kernel/num/bounded.rs", "shr_exact", 1),
    ("rust/kernel/num/bounded.rs", "shl", 1),
];

/// The minor version of the Rust release that builds the examples (`85` for 1.85).
const RUSTC_MINOR: &str = env!("KERNEL_CORE_DIFFERENTIAL_RUSTC_MINOR");

/// The fewest examples that must pass: all that are checked but two, `io::mem`'s two
/// `IoRequest` examples, which need a platform device the host has no equivalent of. On
/// compilers older than 1.89 the four examples of [`NEEDS_RUST_1_89`] are left out, and count
/// neither way.
const THRESHOLD: usize = 227;

/// How long one example may run.
const TIMEOUT: Duration = Duration::from_secs(30);

/// One example of one file, and what became of it.
struct Case {
    file: String,
    example: Example,
    verdict: Verdict,
}

/// What became of an example.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Verdict {
    /// Built (and, unless `no_run`, ran) as rustdoc requires.
    Passed,
    /// Did not: why, in a few lines.
    Failed(String),
    /// Left out by [`EXCLUDED`], for this reason.
    Excluded(&'static str),
    /// Marked `ignore`: rustdoc (and the kernel) builds none of these.
    Ignored,
    /// Not decided yet.
    Pending,
}

impl Case {
    /// `rust/kernel/io.rs:512 try_cast#1`.
    fn name(&self) -> String {
        format!(
            "{}:{} {}#{}",
            self.file, self.example.line, self.example.item, self.example.index
        )
    }
}

/// The `.rs` files of `path` under the tree: the file itself, or every file under a directory,
/// sorted.
fn source_files(tree: &Path, path: &str) -> Vec<String> {
    let full = tree.join(path);
    if full.is_file() {
        return vec![path.to_owned()];
    }
    let mut files = Vec::new();
    let mut dirs = vec![full];
    while let Some(dir) = dirs.pop() {
        let entries =
            std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("listing {}: {e}", dir.display()));
        for entry in entries {
            let entry = entry.unwrap_or_else(|e| panic!("listing {}: {e}", dir.display()));
            let p = entry.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let relative = p.strip_prefix(tree).expect("under the tree");
                files.push(relative.to_string_lossy().into_owned());
            }
        }
    }
    files.sort();
    files
}

/// Every example of [`SOURCES`], with [`EXCLUDED`] and `ignore` already decided.
fn cases(tree: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    for (path, items) in SOURCES {
        for file in source_files(tree, path) {
            let full = tree.join(&file);
            let text = std::fs::read_to_string(&full)
                .unwrap_or_else(|e| panic!("reading {}: {e}", full.display()));
            for example in extract::extract(&text) {
                if items.is_some_and(|items| !items.contains(&example.item.as_str())) {
                    continue;
                }
                let excluded = EXCLUDED.iter().find(|(f, item, index, _)| {
                    *f == file && *item == example.item && *index == example.index
                });
                let too_new = NEEDS_RUST_1_89.iter().any(|(f, item, index)| {
                    *f == file && *item == example.item && *index == example.index
                }) && RUSTC_MINOR.parse::<u32>().is_ok_and(|minor| minor < 89);
                let verdict = match excluded {
                    Some((.., reason)) => Verdict::Excluded(reason),
                    None if too_new => Verdict::Excluded(
                        "needs Rust 1.89 (`_` for a const generic argument), newer than the \
                         compiler of this run; the kernel enables `generic_arg_infer` there",
                    ),
                    None if example.flags.ignore => Verdict::Ignored,
                    // pin-init's examples of its nightly-only `alloc` feature (`Box`/`Arc` with
                    // `allocator_api`), which a stable compiler cannot build.
                    None if example.code.contains("#![feature(") => Verdict::Excluded(
                        "needs a nightly compiler: `#![feature(...)]` (pin-init's `alloc` \
                         feature, `allocator_api`)",
                    ),
                    None => Verdict::Pending,
                };
                cases.push(Case {
                    file: file.clone(),
                    example,
                    verdict,
                });
            }
        }
    }
    cases
}

/// The program of one example: rustdoc's wrapping, inside a function that imports the prelude
/// as the kernel's doctests do.
fn program(case: &Case) -> String {
    let code = extract::to_kernel_core(&case.example.code);
    let (attrs, body) = extract::wrap(&code);
    // The `pin_init` crate's examples are built as its own doctests are: without the kernel's
    // prelude, against the crate (`kernel-core-pin-init`, with its `std` feature, under the name
    // `pin_init`).
    if case.file.starts_with("rust/pin-init/") {
        // Their hidden lines `include!` the crate's example files relative to the source file
        // (`../examples/mutex.rs`): the same files, from the tree.
        let examples = format!("{TREE}/rust/pin-init/examples/");
        let body = body
            .replace("include!(\"../examples/", &format!("include!(\"{examples}"))
            .replace("#[path = \"../examples/", &format!("#[path = \"{examples}"));
        return format!(
            "// {name}: Linux 7.3's pin-init doc example, unchanged.\n\
             #![allow(unused, dead_code, unused_imports, unreachable_pub, non_snake_case)]\n\
             {attrs}{body}",
            name = case.name(),
        );
    }
    format!(
        "// {name}: Linux 7.3's doc example, `kernel::` written `kernel_core::`.\n\
         #![allow(unused, dead_code, unused_imports, unreachable_pub, non_snake_case)]\n\
         fn main() {{\n\
         // As the kernel's doctests (`scripts/rustdoc_test_gen.rs`): `assert_eq!` is KUnit's,\n\
         // an `assert!` of `==`, which needs no `Debug`.\n\
         #[allow(unused)]\n\
         macro_rules! assert_eq {{ ($left:expr, $right:expr $(,)?) => {{ assert!($left == $right) }}; }}\n\
         #[allow(unused)]\n\
         use ::kernel_core::prelude::*;\n\
         {{\n\
         {attrs}{body}\
         main();\n\
         }}\n\
         }}\n",
        name = case.name(),
    )
}

/// Writes the package of every example to build into `dir`: one binary per example, named by
/// its index in `cases`.
fn write_package(dir: &Path, cases: &[Case], kernel_core: &Path) {
    let src = dir.join("src");
    if src.exists() {
        std::fs::remove_dir_all(&src).expect("removing the old sources");
    }
    std::fs::create_dir_all(&src).expect("creating the package");
    let mut manifest = format!(
        "# Generated by kernel-core-differential's tests/doc_examples.rs: do not edit.\n\
         [package]\nname = \"kc-doc-examples\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\nautobins = false\n\n\
         [dependencies]\nkernel-core = {{ path = {:?}, features = [\"std\"] }}\n\
         pin_init = {{ package = \"kernel-core-pin-init\", path = {:?}, features = [\"std\"] }}\n\n\
         [profile.dev]\ndebug = 0\nincremental = false\n\n[workspace]\n",
        kernel_core.display().to_string(),
        kernel_core.join("../pin-init").display().to_string()
    );
    for (n, case) in cases.iter().enumerate() {
        if case.verdict != Verdict::Pending {
            continue;
        }
        let name = format!("ex{n:03}");
        std::fs::write(src.join(format!("{name}.rs")), program(case)).expect("writing a source");
        write!(
            manifest,
            "\n[[bin]]\nname = \"{name}\"\npath = \"src/{name}.rs\"\n"
        )
        .expect("writing to a String");
    }
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("writing the manifest");
}

/// The first lines of a compiler message or of a program's output, on one line each.
fn excerpt(text: &str, lines: usize) -> String {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .take(lines)
        .collect::<Vec<_>>()
        .join("\n        ")
}

/// Builds every binary of the package in `dir`; returns the errors per binary (the first one
/// of each, rendered).
fn build(dir: &Path, target: &Path) -> BTreeMap<String, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
    let output = Command::new(cargo)
        .args([
            "build",
            "--offline",
            "--bins",
            "--keep-going",
            "--message-format=json",
        ])
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET")
        .stderr(Stdio::piped())
        .output()
        .expect("running cargo");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut errors = BTreeMap::new();
    for line in stdout.lines().filter(|l| l.starts_with('{')) {
        let Ok(value) = json::parse(line) else {
            continue;
        };
        if value.get("reason").and_then(json::Value::as_str) != Some("compiler-message") {
            continue;
        }
        let Some(message) = value.get("message") else {
            continue;
        };
        if message.get("level").and_then(json::Value::as_str) != Some("error") {
            continue;
        }
        let name = value
            .get("target")
            .and_then(|t| t.get("name"))
            .and_then(json::Value::as_str)
            .unwrap_or("?")
            .to_owned();
        let rendered = message
            .get("rendered")
            .and_then(json::Value::as_str)
            .unwrap_or("(no message)")
            .to_owned();
        errors.entry(name).or_insert(rendered);
    }
    if !output.status.success() && errors.is_empty() {
        panic!(
            "cargo build of the doc examples failed without a compiler error:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    errors
}

/// Runs a built example: `Ok(())` if it exited as it should (successfully, or with a panic
/// for `should_panic`), the reason otherwise.
fn run(binary: &Path, flags: Flags) -> Result<(), String> {
    let mut child = Command::new(binary)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {TIMEOUT:?}"));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    let panicked = status.code() == Some(101);
    match (flags.should_panic, status.success(), panicked) {
        (false, true, _) | (true, _, true) => Ok(()),
        (true, true, _) => Err("returned, but must panic (should_panic)".to_owned()),
        _ => Err(format!("{status}: {}", excerpt(&stderr, 4))),
    }
}

#[test]
fn linux_7_3_doc_examples_pass_on_kernel_core() {
    let tree = Path::new(TREE);
    let mut cases = cases(tree);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("doc-examples");
    let target = dir.join("target");
    let kernel_core = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../kernel-core")
        .canonicalize()
        .expect("kernel-core next to differential/");
    write_package(&dir, &cases, &kernel_core);
    let errors = build(&dir, &target);

    for (n, case) in cases.iter_mut().enumerate() {
        if case.verdict != Verdict::Pending {
            continue;
        }
        let name = format!("ex{n:03}");
        let error = errors.get(&name);
        case.verdict = match (case.example.flags.compile_fail, error) {
            (true, Some(_)) => Verdict::Passed,
            (true, None) => Verdict::Failed("built, but must not (compile_fail)".to_owned()),
            (false, Some(error)) => Verdict::Failed(excerpt(error, 6)),
            (false, None) if case.example.flags.no_run => Verdict::Passed,
            (false, None) => match run(&target.join("debug").join(&name), case.example.flags) {
                Ok(()) => Verdict::Passed,
                Err(reason) => Verdict::Failed(reason),
            },
        };
    }

    let count = |f: fn(&Verdict) -> bool| cases.iter().filter(|c| f(&c.verdict)).count();
    let passed = count(|v| *v == Verdict::Passed);
    let failed = count(|v| matches!(v, Verdict::Failed(_)));
    let excluded = count(|v| matches!(v, Verdict::Excluded(_)));
    let ignored = count(|v| *v == Verdict::Ignored);

    println!("Linux 7.3's doc examples on kernel-core ({TREE}):");
    for case in &cases {
        match &case.verdict {
            Verdict::Passed => println!("    pass      {}", case.name()),
            Verdict::Failed(reason) => {
                println!("    FAIL      {}\n        {reason}", case.name())
            }
            Verdict::Excluded(reason) => println!("    excluded  {}: {reason}", case.name()),
            Verdict::Ignored => println!("    ignored   {} (`ignore`: not built)", case.name()),
            Verdict::Pending => unreachable!("every example has a verdict"),
        }
    }
    let checked = passed + failed;
    // Older compilers cannot build the examples of `NEEDS_RUST_1_89`: they count neither way.
    let threshold = if RUSTC_MINOR.parse::<u32>().is_ok_and(|minor| minor < 89) {
        THRESHOLD - NEEDS_RUST_1_89.len()
    } else {
        THRESHOLD
    };
    println!(
        "{passed} of {checked} examples pass ({failed} fail; {excluded} excluded and {ignored} \
         marked `ignore` of {} found); at least {threshold} must",
        cases.len()
    );
    assert!(
        passed >= threshold,
        "only {passed} of {checked} of Linux 7.3's doc examples pass on kernel-core, fewer than \
         {threshold}: see the FAIL lines above"
    );
}
