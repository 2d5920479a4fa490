#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Runs this crate's macro tests against Linux 7.3's own pin-init crate, built on the host, to
# show that the two behave alike: `tests/macros.rs` and `tests/lints.rs` must pass there
# unchanged (but for the crate's name), and every `ui-tests/ui/cases/pin_init_*.rs` must fail
# to compile there too.
#
# The kernel's `rust/pin-init/` is read from the tree in KERNEL_CORE_LINUX_SRC (default: the
# Linux 7.3 tree in kernel-core's cache), never copied into this repository: a scratch cargo
# workspace points at its files. Its proc macros need `syn`, `quote` and `proc-macro2` from
# crates.io (cargo's cache is enough offline: pass CARGO_NET_OFFLINE=true).
#
# Usage: pin-init/against-linux.sh   (from anywhere; exits non-zero on any difference)

set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
linux=${KERNEL_CORE_LINUX_SRC:-$HOME/.cache/kernel-core/src/linux-source-7.3}
pin_init=$linux/rust/pin-init
[ -f "$pin_init/src/lib.rs" ] || { echo "no rust/pin-init in $linux (set KERNEL_CORE_LINUX_SRC)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/internal" "$work/pin-init/tests"
cat > "$work/Cargo.toml" <<TOML
[workspace]
members = ["internal", "pin-init"]
resolver = "2"
TOML
cat > "$work/internal/Cargo.toml" <<TOML
[package]
name = "pin-init-internal"
version = "0.0.0"
edition = "2021"
[lib]
proc-macro = true
path = "$pin_init/internal/src/lib.rs"
[dependencies]
syn = { version = "2", features = ["full", "visit-mut", "extra-traits"] }
quote = "1"
proc-macro2 = "1"
TOML
cat > "$work/pin-init/Cargo.toml" <<TOML
[package]
name = "pin-init"
version = "0.0.0"
edition = "2021"
[lib]
name = "pin_init"
path = "$pin_init/src/lib.rs"
doctest = false
test = false
[dependencies]
pin-init-internal = { path = "../internal" }
TOML

# The kernel's crate is named `pin_init` already: drop the alias line.
for test in macros lints; do
    grep -v '^extern crate kernel_core_pin_init as pin_init;$' "$here/tests/$test.rs" \
        > "$work/pin-init/tests/$test.rs"
done
cargo test --quiet --manifest-path "$work/Cargo.toml" -p pin-init --test macros --test lints

status=0
for case in "$root"/ui-tests/ui/cases/pin_init_*.rs; do
    name=ui_$(basename "$case" .rs)
    cp "$case" "$work/pin-init/tests/$name.rs"
    if cargo test --quiet --manifest-path "$work/Cargo.toml" -p pin-init --no-run \
        --test "$name" >/dev/null 2>&1; then
        echo "compiles with Linux 7.3's crate, but not here: $case" >&2
        status=1
    else
        echo "fails to compile with Linux 7.3's crate too: $(basename "$case")"
    fi
    rm "$work/pin-init/tests/$name.rs"
done
exit $status
