# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# kernel-core for an out-of-tree module's Kbuild, on Linux 6.12, 7.2 and 7.3.
#
# Builds:
#   - libkernel_core_macros.so: the proc-macro crate, for the host, with the rustc of the kernel,
#     once per kernel build and rustc (cached, see below);
#   - kernel_core.o (+ libkernel_core.rmeta), in the module's own build directory: kernel-core,
#     with the kernel's flags, `--cfg kernel`, and the kernel's own `build_error`, once per
#     kernel build and rustc too (cached, see below);
# and lets the module's crates use them. In a module's Kbuild:
#
#   kernel-core-users := mydriver                  # the crates (object names, no .o) using it
#   include /path/to/kernel-core/kbuild/kernel-core.mk
#   obj-m := mydriver_mod.o
#   mydriver_mod-y := mydriver.o $(kernel-core-objs)
#
# A composite module cannot share its name with one of its objects, hence mydriver_mod.
# Objects land in the module's build directory, so one copy of the sources serves any number
# of kernels and architectures.
#
# The sources are those of the kernel-core package this file comes with: included as
# `kbuild/kernel-core.mk` of a checkout, or as `kernel-core.mk` of the `kernel-core` package
# (cargo's source cache, a vendor directory), which ships this file. Set
# `KERNEL_CORE_SRC` (the `kernel-core` package's directory) and `KERNEL_CORE_MACROS_SRC` (the
# `kernel-core-macros` package's) to use others: `cargo kernel-core` passes the ones the
# driver's `Cargo.toml` resolves, so that the host tests and the module use the same version.

kernel-core-mk-dir := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
ifeq ($(KERNEL_CORE_SRC),)
KERNEL_CORE_SRC := $(if $(wildcard $(kernel-core-mk-dir)/src/kernel_core.rs),$(kernel-core-mk-dir),$(abspath $(kernel-core-mk-dir)/../kernel-core))
endif
ifeq ($(KERNEL_CORE_MACROS_SRC),)
KERNEL_CORE_MACROS_SRC := $(abspath $(KERNEL_CORE_SRC)/../macros)
endif
ifeq ($(wildcard $(KERNEL_CORE_SRC)/src/kernel_core.rs),)
$(error kernel-core.mk: no kernel-core sources in KERNEL_CORE_SRC=$(KERNEL_CORE_SRC) (expected src/kernel_core.rs there))
endif
ifeq ($(wildcard $(KERNEL_CORE_MACROS_SRC)/src/kernel_core_macros.rs),)
$(error kernel-core.mk: no kernel-core-macros sources in KERNEL_CORE_MACROS_SRC=$(KERNEL_CORE_MACROS_SRC) (set it to the kernel-core-macros package of the same version))
endif
ifeq ($(KERNEL_CORE_PIN_INIT_SRC),)
KERNEL_CORE_PIN_INIT_SRC := $(abspath $(KERNEL_CORE_SRC)/../pin-init)
endif
kernel-core-objs := kernel_core.o

ifeq ($(origin kernel-core-users),undefined)
$(error kernel-core.mk: set kernel-core-users (the crates that use kernel-core) before including it)
endif

# Which kernel has which API: the cfgs of `api-levels` (next to this file) that this kernel's
# version reaches, the one list that the runner and rust-analyzer's set-up read too.
kernel-core-api-levels := $(kernel-core-mk-dir)/api-levels
ifeq ($(wildcard $(kernel-core-api-levels)),)
$(error kernel-core.mk: $(kernel-core-api-levels) is missing: it ships with kernel-core.mk)
endif
kernel-core-cfgs := --cfg kernel $(shell awk -v v=$(VERSION) -v p=$(PATCHLEVEL) \
	'!/^\#/ && NF == 2 { split($$1, at, "."); if (v > at[1] || (v == at[1] && p >= at[2])) printf "--cfg %s ", $$2 }' \
	$(kernel-core-api-levels))

# kernel-core's C helpers (kernel_core_helpers.c, next to this file): one-line wrappers around
# the kernel's `static inline` readl() & co., fsleep(), udelay(), cpu_relax(), spinlocks,
# completions, barriers, refcounts, ..., which Linux 6.12's Rust support exports no helpers for
# (7.1 and later have most, and kernel-core calls those there; 7.2 lacks the irqsave spinlock
# ones that 7.3's `SpinLockIrq` needs). Compiled into the module with the kernel's own headers
# and flags, on every kernel before 7.3.
ifeq ($(findstring kernel_core_linux_7_3,$(kernel-core-cfgs)),)
kernel-core-objs += kernel_core_helpers.o
$(obj)/kernel_core_helpers.o: $(kernel-core-mk-dir)/kernel_core_helpers.c FORCE
	+$(call if_changed_rule,cc_o_c)
# UML's <asm/io.h> (asm-generic's inb() & co. on a NULL PCI_IOBASE) warns with clang on 6.12,
# in every file that includes <linux/io.h>: the kernel's header, not this file.
ifdef CONFIG_UML
CFLAGS_kernel_core_helpers.o += $(call cc-disable-warning,null-pointer-arithmetic)
endif
endif

# User-Mode Linux builds Rust with `-Crelocation-model=pie` (arch/um/Makefile), whose code
# in a module reaches the kernel's symbols through the GOT: `R_X86_64_GOTPCREL` relocations,
# which the x86 module loader refuses ("Unknown rela relocation: 9"), so no Rust module loads.
# UML's C code is built with `-mcmodel=large` instead, which needs no GOT: so is every crate
# kernel-core.mk builds (kernel-core, the driver's library and its users).
ifdef CONFIG_UML
kernel-core-cfgs += -Crelocation-model=static -Ccode-model=large
endif

# KERNEL_CORE_KUNIT_HARNESS=y: a test build for a kernel without built-in KUnit (a
# distribution's stock kernel). The `#[kunit_tests]` suites are then built and registered for
# kernel-core's harness module, kernel_core_kunit.ko (kernel_core_kunit.c, next to this file),
# which runs them when their module loads, as KUnit would. Without it, they are compiled out
# on such kernels, as the kernel's own `#[kunit_tests]` compiles them out: a module built for
# shipping holds no tests and needs no harness.
ifeq ($(KERNEL_CORE_KUNIT_HARNESS),y)
ifneq ($(CONFIG_KUNIT),y)
kernel-core-cfgs += --cfg kernel_core_kunit_harness
endif
endif

# KERNEL_CORE_SWITCH_BACK=y: the switch-back check (see kbuild/switch-back/kernel_core.rs).
# `kernel_core` is then a crate that re-exports the kernel's own items under kernel-core's
# mirrored paths, and the users build against it unchanged.
ifeq ($(KERNEL_CORE_SWITCH_BACK),y)
kernel-core-crate-root := $(abspath $(KERNEL_CORE_SRC)/..)/kbuild/switch-back/kernel_core.rs
ifeq ($(wildcard $(kernel-core-crate-root)),)
$(error kernel-core.mk: KERNEL_CORE_SWITCH_BACK=y needs a checkout of kernel-core, not a package)
endif
kernel-core-cfgs += --cfg kernel_core_switch_back
else
kernel-core-crate-root := $(KERNEL_CORE_SRC)/src/kernel_core.rs
endif

# The proc-macro crate, built like the kernel's own `macros` (`cmd_rustc_procmacro` in
# `rust/Makefile`): for the host, by the kernel's rustc, since a proc macro only loads into the
# compiler that built it.
#
# It depends on nothing of the driver, only on its sources, that rustc and these flags, so it
# is built once and shared by every module built against the same kernel build: in
# `$(KERNEL_CORE_MACROS_CACHE)` (default: `.kernel-core/macros` in the kernel's build
# directory), under a key that hashes the command, `rustc -vV` and the sources. Another rustc,
# other flags or other sources make another key, so a stale crate is never used; a finished
# crate is renamed into place, so parallel builds can share the cache.
kernel-core-macros-src := $(sort $(shell find $(KERNEL_CORE_MACROS_SRC)/src -name '*.rs'))
kernel-core-macros-rustc = $(RUSTC) $(rust_common_flags) \
	-Clinker-flavor=gcc -Clinker=$(HOSTCC) \
	-Clink-args='$(call escsq,$(or $(KBUILD_PROCMACROLDFLAGS),$(KBUILD_HOSTLDFLAGS)))' \
	--extern proc_macro --crate-type proc-macro --crate-name kernel_core_macros
kernel-core-macros-key := $(shell { printf '%s\n' '$(call escsq,$(kernel-core-macros-rustc))'; \
	$(RUSTC) -vV; cat $(kernel-core-macros-src); } | sha256sum | cut -c1-16)
kernel-core-macros-cache := $(or $(KERNEL_CORE_MACROS_CACHE),$(abspath $(objtree))/.kernel-core/macros)
kernel-core-macros-cached := $(kernel-core-macros-cache)/$(kernel-core-macros-key)/libkernel_core_macros.so
# What the crates use: a link to the cached crate, in the module's build directory.
kernel-core-macros := $(obj)/libkernel_core_macros.so

quiet_cmd_kernel_core_macros = RUSTC P $@
      cmd_kernel_core_macros = \
	mkdir -p $(dir $@) && \
	$(kernel-core-macros-rustc) --emit=link=$@.$$$$.tmp \
		$(KERNEL_CORE_MACROS_SRC)/src/kernel_core_macros.rs && \
	mv -f $@.$$$$.tmp $@

# No prerequisites and no FORCE: the key in its path changes whenever what it is built from
# does, so an existing crate is never rebuilt. (Sources with newer times, such as a vendor
# directory unpacked again, must not rebuild it in place: kernel_core.o's cached metadata
# names this very crate, and a rebuilt one would no longer match it.)
$(kernel-core-macros-cached):
	+$(call cmd,kernel_core_macros)

# Relinked on every build, which costs nothing: its users see the cached crate's own time.
$(kernel-core-macros): $(kernel-core-macros-cached) FORCE
	$(Q)ln -sfn $< $@

# `pin_init`: Linux 7.2 and later build the kernel's own crate of that name, which Kbuild gives
# every crate of a module (`--extern pin_init`). Linux 6.12 has none (its initialisers are
# macro_rules in `kernel::init`): there kernel-core's pin-init crate (`kernel-core-pin-init`,
# Linux 7.3's API over 6.12's `kernel::init` traits) is built into the module and given to
# kernel-core and its users under that name. Which kernel has the crate is asked of its build
# (the crate's metadata), not of its version.
ifeq ($(wildcard $(objtree)/rust/libpin_init.rmeta),)
ifeq ($(wildcard $(KERNEL_CORE_PIN_INIT_SRC)/src/kernel_core_pin_init.rs),)
$(error kernel-core.mk: this kernel has no pin_init crate and there are no kernel-core-pin-init sources in KERNEL_CORE_PIN_INIT_SRC=$(KERNEL_CORE_PIN_INIT_SRC) (set it to the kernel-core-pin-init package of the same version))
endif
kernel-core-objs += kernel_core_pin_init.o
# `-L`: a crate that reaches it under the alias also needs it findable by its own name.
kernel-core-pin-init-extern = --extern pin_init=$(obj)/libkernel_core_pin_init.rmeta -L $(obj)
kernel-core-pin-init-o = $(obj)/kernel_core_pin_init.o
kernel-core-pin-init-src := $(sort $(shell find $(KERNEL_CORE_PIN_INIT_SRC)/src -name '*.rs'))
RUSTFLAGS_kernel_core_pin_init.o = $(kernel-core-cfgs) \
	--remap-path-prefix=$(KERNEL_CORE_PIN_INIT_SRC)/src=pin_init \
	--extern kernel_core_macros=$(kernel-core-macros) \
	--emit=metadata=$(obj)/libkernel_core_pin_init.rmeta
$(obj)/kernel_core_pin_init.o: $(KERNEL_CORE_PIN_INIT_SRC)/src/kernel_core_pin_init.rs $(kernel-core-macros) FORCE
	+$(call if_changed_rule,rustc_o_rs)
clean-files += libkernel_core_pin_init.rmeta
endif

# kernel-core itself: the kernel's rule for a Rust object (`rustc_o_rs` in
# `scripts/Makefile.build`), with the source outside the module directory and the metadata
# emitted next to the object for the crates that use it.
# `--remap-path-prefix`: panic locations name `kernel_core/time.rs` and so on, short like the
# kernel's own `rust/kernel/time.rs`, instead of this checkout's absolute path.
RUSTFLAGS_kernel_core.o := $(kernel-core-cfgs) --extern build_error \
	--remap-path-prefix=$(KERNEL_CORE_SRC)/src=kernel_core \
	--extern kernel_core_macros=$(kernel-core-macros) $(kernel-core-pin-init-extern) \
	--emit=metadata=$(obj)/libkernel_core.rmeta

# Like the macros, kernel_core.o depends on nothing of the driver: the kernel's rule, run in
# another module's directory, makes the same object. So the first module built against a
# kernel build runs that rule and stores the object and its metadata in
# `$(KERNEL_CORE_OBJECT_CACHE)` (default: `.kernel-core/objects` in the kernel's build
# directory), and the next ones copy them, under a key that hashes the rule's command (the
# module's directory taken out), `rustc -vV`, kernel-core's and its macros' sources (the
# metadata names the macros crate it was built with), and the kernel's crates'
# metadata and `rustc_cfg`: anything else makes another key. A finished entry is renamed
# into place, so parallel builds can share the cache; a cache that cannot be written (a
# read-only kernel build directory) costs only the time to build the object again.
kernel-core-o-cache := $(or $(KERNEL_CORE_OBJECT_CACHE),$(abspath $(objtree))/.kernel-core/objects)
kernel-core-o-sources := $(kernel-core-crate-root) $(sort $(shell find $(KERNEL_CORE_SRC)/src -name '*.rs')) \
	$(kernel-core-pin-init-src)
# The kernel's outputs count by name, size and time (hashing their 100 MB or more would cost
# more than the compilation saved); kernel-core's sources by content.
kernel-core-o-kernel-inputs = $(objtree)/include/generated/rustc_cfg $(wildcard $(objtree)/rust/*.rmeta)
kernel-core-o-inputs = $(kernel-core-o-sources) $(kernel-core-o-kernel-inputs)
# The command's own text, with this module's directory replaced, since the object does not
# depend on it (`$(obj)` is `.` on 7.x, the module's absolute directory on 6.12).
kernel-core-o-keycmd = $(subst $(obj)/,@obj@/,$(cmd_rustc_o_rs))

quiet_cmd_kernel_core_o = $(quiet_cmd_rustc_o_rs)
      cmd_kernel_core_o = \
	key=$$({ printf '%s\n' '$(call escsq,$(kernel-core-o-keycmd))'; $(RUSTC) -vV; \
		cat $(kernel-core-o-sources) $(kernel-core-macros-src); stat -L -c '%n %s %Y' $(kernel-core-o-kernel-inputs); } \
		| sha256sum | cut -c1-16); \
	entry=$(kernel-core-o-cache)/$$key; \
	if [ -f $$entry/kernel_core.o ]; then \
		cp -f $$entry/kernel_core.o $@; \
		cp -f $$entry/libkernel_core.rmeta $(obj)/libkernel_core.rmeta; \
		printf '%s: %s\n' '$@' '$(kernel-core-o-inputs) $(kernel-core-macros)' > $(depfile); \
	else \
		$(cmd_rustc_o_rs); \
		{ mkdir -p $(kernel-core-o-cache) && \
		  tmp=$$(mktemp -d $(kernel-core-o-cache)/.tmp.XXXXXX) && \
		  cp $@ $(obj)/libkernel_core.rmeta $$tmp/ && \
		  { mv -T $$tmp $$entry 2>/dev/null || rm -rf $$tmp; }; } || \
		echo "  kernel-core: cannot store kernel_core.o in $(kernel-core-o-cache): the next module will build it again"; \
	fi

define rule_kernel_core_o
	$(call cmd_and_fixdep,kernel_core_o)
	$(call cmd,gen_objtooldep)
endef

$(obj)/kernel_core.o: $(kernel-core-crate-root) $(kernel-core-macros) $(kernel-core-pin-init-o) FORCE
	+$(call if_changed_rule,kernel_core_o)

# The driver's library: its Cargo.toml's [lib] (`src/lib.rs` and every module under it, found
# by rustc as cargo finds them), built as a crate of its own, as cargo builds it, so that
# `crate::` paths and `mod x;` mean the same on the host and in the module. In the Kbuild:
#
#   kernel-core-lib := mydriver            # the [lib]'s crate name
#   kernel-core-lib-src := src/lib.rs      # its root, relative to the Kbuild (this default)
#
# Its object, `kernel-core-lib/<crate>.o`, is among $(kernel-core-objs), and the users get
# `--extern <crate>`. The object has the crate's own name, in a directory of its own (the
# module's object has that name too): Linux 6.12's rule names a crate after its object
# (`--crate-name $(basename $(notdir $@))`), 7.x's rule names none, and this one then
# gives the name itself, so that the crate is `<crate>` on every kernel, as under cargo. `cargo kernel-core` passes Cargo.toml's own name and root as
# KERNEL_CORE_CARGO_LIB and KERNEL_CORE_CARGO_LIB_SRC, and the two must agree.
ifneq ($(kernel-core-lib),)
kernel-core-lib-src ?= src/lib.rs
ifneq ($(KERNEL_CORE_CARGO_LIB),)
ifneq ($(kernel-core-lib):$(kernel-core-lib-src),$(KERNEL_CORE_CARGO_LIB):$(KERNEL_CORE_CARGO_LIB_SRC))
$(error kernel-core.mk: the Kbuild builds the library `$(kernel-core-lib)` from $(kernel-core-lib-src), but Cargo.toml's [lib] is `$(KERNEL_CORE_CARGO_LIB)` in $(KERNEL_CORE_CARGO_LIB_SRC): make kernel-core-lib and kernel-core-lib-src say what Cargo.toml says)
endif
endif
ifneq ($(filter $(kernel-core-lib),core alloc std kernel macros build_error ffi bindings uapi pin_init zerocopy zerocopy_derive syn quote proc_macro2 compiler_builtins kernel_core kernel_core_macros kernel_core_pin_init $(kernel-core-users)),)
$(error kernel-core.mk: kernel-core-lib := $(kernel-core-lib) is the name of another crate of the module: rename the library in Cargo.toml)
endif
kernel-core-lib-o := kernel-core-lib/$(kernel-core-lib).o
kernel-core-objs += $(kernel-core-lib-o)
# Expanded when the rule runs, after scripts/Makefile.build has defined `rust_common_cmd`.
kernel-core-lib-crate-name = $(if $(findstring --crate-name,$(value rust_common_cmd)),,--crate-name $(kernel-core-lib))
RUSTFLAGS_$(kernel-core-lib-o) = $(kernel-core-cfgs) $(kernel-core-lib-crate-name) \
	--extern kernel_core --extern kernel_core_macros=$(kernel-core-macros) $(kernel-core-pin-init-extern) -L $(obj) \
	--emit=metadata=$(obj)/lib$(kernel-core-lib).rmeta $(KERNEL_CORE_USER_RUSTFLAGS)
$(obj)/$(kernel-core-lib-o): $(src)/$(kernel-core-lib-src) $(obj)/kernel_core.o $(kernel-core-macros) FORCE
	+$(call if_changed_rule,rustc_o_rs)
clean-files += lib$(kernel-core-lib).rmeta
endif

# Each user crate: `--extern` both crates (and the library), and build after them. `KERNEL_CORE_USER_RUSTFLAGS`
# adds flags to the users alone: `cargo kernel-core` builds a copy of the driver and passes
# `--remap-path-prefix=<copy>=<driver>`, so that KUnit's messages name the driver's own files.
$(foreach user,$(kernel-core-users),\
	$(eval RUSTFLAGS_$(user).o += $(kernel-core-cfgs) --extern kernel_core \
		--extern kernel_core_macros=$(kernel-core-macros) $(kernel-core-pin-init-extern) -L $(obj) \
		$(if $(kernel-core-lib),--extern $(kernel-core-lib)) $(KERNEL_CORE_USER_RUSTFLAGS))\
	$(eval $(obj)/$(user).o: $(obj)/kernel_core.o $(kernel-core-macros) \
		$(if $(kernel-core-lib),$(obj)/$(kernel-core-lib-o))))

clean-files += libkernel_core_macros.so libkernel_core.rmeta
