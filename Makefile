# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# For people who live in make: every target maps to `cargo xtask`, which does the work.
# (Kbuild reads the `Kbuild` file, not this one, when a kernel builds this directory.)
#
#   make                          build the host crates
#   make test                     everything CI runs (cargo xtask test)
#   make qemu [ARCH=..] [KERNEL=..]   build, boot and run the KUnit suites (cargo xtask qemu)
#   make demo                     the QEMU demo (cargo xtask demo)
#   make KDIR=<build dir> modules build the modules against your own kernel build directory

ARCH ?= x86_64
KERNEL ?= 7.2
CARGO ?= cargo

.PHONY: all test qemu demo modules help

all:
	$(CARGO) build --workspace

test:
	$(CARGO) xtask test

qemu:
	$(CARGO) xtask qemu --arch $(ARCH) --kernel $(KERNEL)

demo:
	$(CARGO) xtask demo

modules:
ifeq ($(KDIR),)
	$(error make modules needs KDIR=<your kernel build directory>)
endif
	$(CARGO) xtask modules --kdir $(KDIR) $(if $(filter command line,$(origin ARCH)),--arch $(ARCH))

help:
	@$(CARGO) xtask --help
