// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: the `pr_*!` macros as a test reads them back through
//! `kernel_core::extras::log`: levels, the module's prefix, continuation lines, the `_once`
//! forms, and the isolation of captures between threads (`cargo test` runs these tests in
//! parallel threads, and some spawn their own).

use std::sync::{Arc, Barrier};
use std::thread;

use kernel_core::extras::log::{self, Level, Line};
use kernel_core::{
    do_once_lite, pr_alert, pr_alert_once, pr_cont, pr_crit, pr_crit_once, pr_debug, pr_emerg,
    pr_emerg_once, pr_err, pr_err_once, pr_info, pr_info_once, pr_notice, pr_notice_once, pr_warn,
    pr_warn_once,
};

/// The texts of `lines`, without their levels.
fn texts(lines: &[Line]) -> Vec<&str> {
    lines.iter().map(Line::text).collect()
}

#[test]
fn every_level_with_the_crate_as_prefix() {
    let log = log::capture();
    pr_emerg!("0\n");
    pr_alert!("1\n");
    pr_crit!("2\n");
    pr_err!("3\n");
    pr_warn!("4\n");
    pr_notice!("5\n");
    pr_info!("6\n");
    pr_debug!("7\n"); // this crate has debug assertions in the test profile
    let lines = log.take();
    let expected = [
        "<0>print: 0",
        "<1>print: 1",
        "<2>print: 2",
        "<3>print: 3",
        "<4>print: 4",
        "<5>print: 5",
        "<6>print: 6",
    ];
    assert_eq!(lines[..7], expected);
    let levels: Vec<Level> = lines.iter().map(Line::level).collect();
    assert_eq!(levels[..2], [Level::Emerg, Level::Alert]);
    if cfg!(debug_assertions) {
        assert_eq!(lines[7], "<7>print: 7");
        assert_eq!(lines.len(), 8);
    } else {
        assert_eq!(lines.len(), 7);
    }
}

#[test]
fn the_prefix_is_the_crates_from_any_module() {
    mod inner {
        pub(super) fn print() {
            kernel_core::pr_info!("from a module\n");
        }
    }
    let log = log::capture();
    inner::print();
    assert_eq!(log.lines(), ["<6>print: from a module"]);
}

#[test]
fn arguments_format_with_the_kernels_traits() {
    let log = log::capture();
    let name = c"eth0";
    let raw = kernel_core::b_str!("a\tb");
    let value = 0_u8;
    pr_info!("{name} {raw} {:#x} {:?} {:p}\n", 255, Some(1), &value);
    let line = log.take().remove(0);
    let width = 2 + 2 * size_of::<usize>();
    let (start, pointer) = line.text().split_at(line.text().len() - width);
    assert_eq!(start, "print: eth0 a\\tb 0xff Some(1) ");
    assert!(pointer.starts_with("0x"));
    let address = core::ptr::from_ref(&value).addr();
    assert_ne!(pointer, format!("{address:#0width$x}"));
}

#[test]
fn continuation_extends_the_open_line() {
    let log = log::capture();
    pr_info!("a");
    pr_cont!("b");
    assert_eq!(log.lines(), ["<6>print: ab"]); // open, but shown
    pr_cont!("c\n");
    pr_cont!("d\n"); // nothing open: a line of its own at the default level
    pr_info!("e");
    pr_err!("f\n"); // ends the open line
    pr_cont!("g");
    pr_cont!("\n");
    assert_eq!(
        log.take(),
        [
            "<6>print: abc",
            "<4>d",
            "<6>print: e",
            "<3>print: f",
            "<4>g"
        ]
    );
}

#[test]
fn several_lines_in_one_message() {
    let log = log::capture();
    pr_notice!("first\nsecond\n\nlast");
    pr_cont!(" more\n");
    pr_info!("\n");
    assert_eq!(
        log.take(),
        [
            "<5>print: first",
            "<5>second",
            "<5>",
            "<5>last more",
            "<6>print: "
        ]
    );
}

#[test]
fn take_hands_out_the_open_line_as_it_is() {
    let log = log::capture();
    pr_info!("partial");
    assert_eq!(log.take(), ["<6>print: partial"]);
    pr_cont!(" end\n");
    assert_eq!(log.take(), ["<6>print: partial end"]);
    assert!(log.take().is_empty());
}

#[test]
fn once_per_call_site() {
    let log = log::capture();
    for i in 0..3 {
        pr_emerg_once!("emerg {i}\n");
        pr_alert_once!("alert {i}\n");
        pr_crit_once!("crit {i}\n");
        pr_err_once!("err {i}\n");
        pr_warn_once!("warn {i}\n");
        pr_notice_once!("notice {i}\n");
        pr_info_once!("info {i}\n");
        pr_info_once!("other site {i}\n");
    }
    let mut runs = 0;
    for _ in 0..3 {
        do_once_lite! { runs += 1; };
    }
    assert_eq!(runs, 1);
    assert_eq!(
        texts(&log.take()),
        [
            "print: emerg 0",
            "print: alert 0",
            "print: crit 0",
            "print: err 0",
            "print: warn 0",
            "print: notice 0",
            "print: info 0",
            "print: other site 0"
        ]
    );
}

#[test]
fn parallel_threads_see_their_own_lines() {
    const THREADS: usize = 8;
    let barrier = Arc::new(Barrier::new(THREADS));
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            let barrier = Arc::clone(&barrier);
            thread::spawn(move || {
                let log = log::capture();
                barrier.wait();
                for i in 0..20 {
                    pr_info!("thread {t} line {i}");
                    pr_cont!(" end\n");
                }
                let lines = log.take();
                assert_eq!(lines.len(), 20);
                for (i, line) in lines.iter().enumerate() {
                    assert_eq!(line.text(), format!("print: thread {t} line {i} end"));
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
}

#[test]
fn spawned_threads_only_when_attached() {
    let log = log::capture();
    pr_info!("main\n");
    thread::spawn(|| pr_info!("stray\n")).join().unwrap();
    let handle = log.handle();
    thread::spawn(move || {
        let attached = handle.attach();
        pr_info!("worker\n");
        drop(attached);
        pr_info!("detached\n");
    })
    .join()
    .unwrap();
    let handle = log.handle();
    thread::scope(|s| {
        s.spawn(|| {
            let _attached = handle.attach();
            let _again = handle.attach(); // attached twice: one copy of each line
            pr_warn!("scoped\n");
        });
    });
    assert_eq!(
        log.take(),
        ["<6>print: main", "<6>print: worker", "<4>print: scoped"]
    );
}

#[test]
fn nested_captures_both_collect() {
    let outer = log::capture();
    pr_info!("before\n");
    {
        let inner = log::capture();
        pr_info!("inside\n");
        assert_eq!(inner.lines(), ["<6>print: inside"]);
    }
    pr_info!("after\n");
    assert_eq!(
        texts(&outer.lines()),
        ["print: before", "print: inside", "print: after"]
    );
}

#[test]
fn lines_display_and_compare_as_dmesg_shows_them() {
    let log = log::capture();
    pr_crit!("hot\n");
    let line = log.take().remove(0);
    assert_eq!(line.to_string(), "<2>print: hot");
    assert_eq!(line, "<2>print: hot");
    assert_ne!(line, "<3>print: hot");
    assert_ne!(line, "print: hot");
    assert!(format!("{log:?}").starts_with("Capture"));
}

#[test]
fn a_display_that_prints_does_not_deadlock() {
    struct Noisy;
    impl kernel_core::fmt::Display for Noisy {
        fn fmt(&self, f: &mut kernel_core::fmt::Formatter<'_>) -> kernel_core::fmt::Result {
            pr_info!("inner\n");
            f.write_str("noisy")
        }
    }
    let log = log::capture();
    pr_info!("outer {}\n", Noisy);
    assert_eq!(texts(&log.take()), ["print: inner", "print: outer noisy"]);
}

#[test]
fn the_prelude_has_the_printing_macros() {
    use kernel_core::prelude::*;

    let log = log::capture();
    pr_warn!("{}\n", fmt!("{}", 7));
    assert_eq!(log.take(), ["<4>print: 7"]);
}
