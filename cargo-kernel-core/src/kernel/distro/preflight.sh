#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# kernel-core's preflight: whether Rust modules can be built for one kernel release on this
# machine, item by item, each missing one with its fix. Written by cargo kernel-core: shipped
# in the DKMS packages it makes (their build runs it first, so that a missing piece fails the
# build with this message, never with a rustc error), and run by `cargo kernel-core doctor`.
# The kernel's own files decide: its .config (CONFIG_RUST, CONFIG_RUSTC_VERSION_TEXT,
# CONFIG_BINDGEN_VERSION_TEXT), its Rust metadata (the rustc version recorded in
# rust/libcore.rmeta), its arch Makefile (whether Rust code needs scripts/target.json), and
# the record the metadata overlay package keeps of the headers it was built for.
#
# Usage: kernel-core-preflight KERNELRELEASE [KERNEL_BUILD_DIR]
#   KERNEL_BUILD_DIR: default /lib/modules/KERNELRELEASE/build. RUSTC and BINDGEN name the
#   tools the build uses (default: rustc and bindgen, found on PATH).
# Prints a line per item, `  ok       ITEM: what was found` or `  missing  ITEM: what is
# wrong. Fix: what to do`; exits 0 when every item is ok, 1 when one is missing, 2 on misuse.

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ -z "$1" ]; then
    echo "usage: $0 KERNELRELEASE [KERNEL_BUILD_DIR]" >&2
    exit 2
fi
krel=$1
kdir=${2:-/lib/modules/$krel/build}
rustc=${RUSTC:-rustc}
bindgen=${BINDGEN:-bindgen}
count=0

ok() {
    printf '  %-8s %s: %s\n' ok "$1" "$2"
}

missing() {
    printf '  %-8s %s: %s\n' missing "$1" "$2"
    count=$((count + 1))
}

# The value of a CONFIG_ option in the kernel's .config, unquoted.
config() {
    sed -n "s/^$1=\"\{0,1\}\([^\"]*\)\"\{0,1\}\$/\1/p" "$kdir/.config" | head -n 1
}

# The installed version of a Debian package, or nothing.
package_version() {
    command -v dpkg-query >/dev/null 2>&1 &&
        dpkg-query -W -f '${Version}' "$1" 2>/dev/null
}

# What apt would install as PACKAGE, if it is of RELEASE (`1.85.1` for `1.85.1+dfsg1-1`).
apt_candidate() {
    command -v apt-cache >/dev/null 2>&1 || return 0
    candidate=$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p' | head -n 1)
    case $candidate in
        "$2"+* | "$2"-* | "$2"~*) echo "$candidate" ;;
    esac
}

# The rustc version string recorded in an .rmeta file's header: `rust`, format and
# position bytes, then the string, its length in the byte before it.
rmeta_rustc() {
    od -An -v -tu1 -N 256 "$1" 2>/dev/null | awk '
        { for (i = 1; i <= NF; i++) b[n++] = $i }
        END {
            if (b[0] != 114 || b[1] != 117 || b[2] != 115 || b[3] != 116) exit
            for (i = 5; i + 6 < n; i++)
                if (b[i] == 114 && b[i+1] == 117 && b[i+2] == 115 && b[i+3] == 116 &&
                    b[i+4] == 99 && b[i+5] == 32) {
                    s = ""
                    for (j = i; j < i + b[i-1] && j < n; j++) s = s sprintf("%c", b[j])
                    print s
                    exit
                }
        }'
}

# The machine an ELF file is code for (e_machine, little- or big-endian), by name.
elf_machine() {
    # shellcheck disable=SC2046 # the numbers, one a field
    set -- $(od -An -tu1 -j5 -N1 "$1" 2>/dev/null) $(od -An -tu1 -j18 -N2 "$1" 2>/dev/null)
    [ $# -eq 3 ] || return 0
    if [ "$1" = 2 ]; then number=$(($2 * 256 + $3)); else number=$(($3 * 256 + $2)); fi
    case $number in
        62) echo x86_64 ;; 183) echo aarch64 ;; 40) echo arm ;; 243) echo riscv64 ;;
        258) echo loongarch64 ;; 22) echo s390x ;; 21) echo ppc64 ;; 20) echo ppc ;;
        *) echo "machine $number" ;;
    esac
}

# This machine, by the same names.
host_machine() {
    case $(uname -m) in
        x86_64 | amd64) echo x86_64 ;; aarch64 | arm64) echo aarch64 ;; armv7* | arm*) echo arm ;;
        riscv64) echo riscv64 ;; loongarch64) echo loongarch64 ;; s390x) echo s390x ;;
        ppc64 | ppc64le) echo ppc64 ;; ppc) echo ppc ;; *) uname -m ;;
    esac
}

debian=
[ -f /etc/debian_version ] && debian=yes
headers_package=linux-headers-$krel
overlay_package=linux-rust-metadata-$krel
stamp=$kdir/rust/metadata-overlay

echo "kernel-core preflight for Linux $krel ($kdir)"

# 1. The headers.
if [ ! -f "$kdir/.config" ]; then
    missing headers "no kernel headers for $krel: $kdir/.config is missing. Fix: install the headers of that release${debian:+ (apt install $headers_package)}"
    for item in CONFIG_RUST rustc "Rust metadata" "proc macros" target.json bindgen overlay; do
        missing "$item" "not checked: it needs the headers of the kernel (above)"
    done
    echo "kernel-core preflight: $count missing; no Rust module can be built for $krel until that is fixed"
    exit 1
fi
version=$(package_version "$headers_package")
ok headers "$kdir${version:+ ($headers_package $version)}"

# 2. Rust in the kernel.
if [ "$(config CONFIG_RUST)" != y ]; then
    missing CONFIG_RUST "$krel was built without Rust (CONFIG_RUST is not set, CONFIG_RUSTC_VERSION=$(config CONFIG_RUSTC_VERSION)): no Rust module can be built for it, by anyone. Fix: run a kernel built with Rust${debian:+ (on Debian 13, the 7.3 kernels of trixie-backports: apt install -t trixie-backports linux-image-amd64 linux-headers-amd64)}"
    for item in rustc "Rust metadata" "proc macros" target.json bindgen overlay; do
        missing "$item" "not checked: the kernel has no Rust"
    done
    echo "kernel-core preflight: $count missing; no Rust module can be built for $krel"
    exit 1
fi
ok CONFIG_RUST "the kernel has Rust (CONFIG_RUST=y)"

# 3. The kernel's own rustc.
want=$(config CONFIG_RUSTC_VERSION_TEXT)
release=$(echo "$want" | sed -n 's/^rustc \([0-9][0-9.]*\).*/\1/p')
rustc_fix() {
    candidate=$(apt_candidate rustc "$release")
    printf "Fix: install the rustc that prints exactly \`%s\`: the kernel's own build of rustc %s" "$want" "$release"
    [ -z "$candidate" ] || printf ' (apt install rustc: the candidate is %s)' "$candidate"
    printf '; another build of the same release fails with E0514'
}
if ! have=$("$rustc" --version 2>/dev/null); then
    missing rustc "no $rustc on PATH; the kernel was built with \`$want\` (its .config). $(rustc_fix)"
elif [ "$have" != "$want" ]; then
    missing rustc "\`$rustc\` is \`$have\`, but the kernel was built with \`$want\` (its .config). $(rustc_fix)"
else
    ok rustc "\`$have\`, the kernel's own (its .config)"
fi

# 4. The Rust metadata (Debian's linux-headers carry none).
overlay_fix="Fix: install $overlay_package, the metadata overlay package made for this release (\`cargo kernel-core package --overlay --kernel-release $krel\` makes it)"
absent=
for file in rust/libcore.rmeta rust/libkernel.rmeta rust/libmacros.so; do
    [ -f "$kdir/$file" ] || absent="$absent $file"
done
if [ -n "$absent" ]; then
    missing "Rust metadata" "no Rust metadata for $krel: $kdir lacks${absent} (E0463 without it). $overlay_fix"
else
    recorded=$(rmeta_rustc "$kdir/rust/libcore.rmeta")
    if [ "$recorded" != "$want" ]; then
        missing "Rust metadata" "$kdir/rust/libcore.rmeta was built by \`${recorded:-an unknown rustc}\`, but the kernel by \`$want\`: not this kernel's metadata (E0514). $overlay_fix"
    else
        ok "Rust metadata" "rust/libcore.rmeta, libkernel.rmeta and the proc macros, built by \`$recorded\`"
    fi
fi

# 5. The proc macros run inside rustc: they must be code for this machine.
host=$(host_machine)
foreign=
for so in "$kdir"/rust/*.so; do
    [ -f "$so" ] || continue
    machine=$(elf_machine "$so")
    [ -n "$machine" ] && [ "$machine" != "$host" ] && foreign="$foreign ${so##*/} ($machine)"
done
if [ -n "$absent" ]; then
    missing "proc macros" "not checked: no Rust metadata (above)"
elif [ -n "$foreign" ]; then
    missing "proc macros" "code for another machine than this $host one:$foreign: the metadata was built for cross builds on that machine. Fix: install Rust metadata built on a $host machine (\`cargo kernel-core package --overlay\` run on one)"
else
    ok "proc macros" "code for this $host machine"
fi

# 6. target.json, where the kernel's arch Makefile passes it to rustc. The Makefiles are in
# the source tree: the build directory itself, its link named source, or (Debian) the common
# headers its Makefile includes.
included=$(sed -n 's|^include \(.*\)/Makefile$|\1|p' "$kdir/Makefile" 2>/dev/null)
if grep -qs 'scripts/target.json' "$kdir"/arch/*/Makefile "$kdir"/source/arch/*/Makefile \
    ${included:+"$included"/arch/*/Makefile}; then
    if [ -f "$kdir/scripts/target.json" ]; then
        ok target.json "$kdir/scripts/target.json"
    else
        missing target.json "the kernel's arch Makefile passes rustc --target=scripts/target.json, which $kdir lacks. $overlay_fix"
    fi
else
    ok target.json "not used by this architecture's Makefile"
fi

# 7. bindgen of the kernel's version.
want_bindgen=$(config CONFIG_BINDGEN_VERSION_TEXT)
bindgen_release=${want_bindgen#bindgen }
bindgen_fix() {
    candidate=$(apt_candidate bindgen "$bindgen_release")
    printf 'Fix: install bindgen %s' "$bindgen_release"
    [ -z "$candidate" ] || printf ' (apt install bindgen: the candidate is %s)' "$candidate"
}
if ! have=$("$bindgen" --version 2>/dev/null); then
    missing bindgen "no $bindgen on PATH; the kernel's Rust was built with \`$want_bindgen\` (its .config). $(bindgen_fix)"
elif [ "$have" != "$want_bindgen" ]; then
    missing bindgen "\`$bindgen\` is \`$have\`, but the kernel's Rust was built with \`$want_bindgen\` (its .config). $(bindgen_fix)"
else
    ok bindgen "\`$have\`, the kernel's own (its .config)"
fi

# 8. An overlay made for these very headers (Debian may upload new headers of the same release).
if [ -f "$stamp" ]; then
    stale=
    for fact in config:.config symvers:Module.symvers; do
        name=${fact%%:*}
        file=${fact#*:}
        recorded=$(sed -n "s/^$name-sha256 //p" "$stamp")
        actual=$(sha256sum "$kdir/$file" 2>/dev/null | cut -d ' ' -f 1)
        if [ "$recorded" != "$actual" ]; then
            stale="$stale $file"
        fi
    done
    built_for=$(sed -n 's/^headers-version //p' "$stamp")
    package=$(sed -n 's/^package //p' "$stamp")
    if [ -n "$stale" ]; then
        missing overlay "stale: ${package:-the overlay} was built for $headers_package ${built_for:-of another version}, whose${stale} differ from these headers'${version:+ ($version)}. Fix: install ${package:-$overlay_package} of the headers' version${version:+, $version}"
    else
        ok overlay "${package:-the Rust metadata} matches these headers (built for ${built_for:-them})"
    fi
elif [ -n "$absent" ]; then
    missing overlay "not installed. $overlay_fix"
else
    ok overlay "no overlay record: the Rust metadata was built in place"
fi

if [ "$count" -gt 0 ]; then
    echo "kernel-core preflight: $count missing; no Rust module can be built for $krel until that is fixed"
    exit 1
fi
echo "kernel-core preflight: every item ok"
exit 0
