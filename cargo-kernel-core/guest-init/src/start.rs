// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The ELF entry point `_start`, one small `global_asm!` per architecture.
//!
//! The kernel starts PID 1 with the stack pointer at `argc`, followed by `argv`, `envp` and the
//! auxiliary vector, and with no usable return address. Each `_start` clears the frame pointer
//! and return address (so that backtraces end here), passes that initial stack pointer as the
//! first argument, aligns the stack to 16 bytes (what the 64-bit ABIs require at a call; 32-bit
//! arm's AAPCS needs only 8, s390x's ELF ABI 8, 32-bit powerpc's 16) and calls [`rust_start`], which never returns; a
//! trapping instruction follows just in case. The initial stack itself, from `argc` up, is never
//! written: the Rust code's frames all lie below it, so [`crate::env`] can read it later.
//!
//! s390x differs in one more way: its ABI has no red zone but a 160-byte register save area
//! that every caller provides at the bottom of its frame (the callee stores its registers
//! there), with the back chain (the caller's stack pointer, 0 for the outermost frame) in its
//! first 8 bytes. `_start` carves that out below the initial stack.
//!
//! PowerPC has no frame-pointer register to clear, but a frame of its own for the callee to
//! save the link register in (at 16 bytes in on 64-bit ELFv2, 4 on 32-bit SysV), with a zero
//! back chain at its start: `_start` makes that frame (32 bytes on 64-bit, the ELFv2 minimum;
//! 16 on 32-bit) below the aligned stack with one `stdu`/`stwu` of zero. 64-bit ELFv2 code
//! also reaches its data through the TOC pointer `r2`, which nobody has set at the entry
//! point: the kernel puts the entry address in `r12` (`start_thread()`), from which `_start`
//! computes `.TOC.` as a function's global entry point does.

/// The first Rust code that runs: hands over to [`crate::main`].
///
/// `sp` is the initial stack pointer (it points at `argc`).
extern "C" fn rust_start(sp: *const usize) -> ! {
    crate::main(sp)
}

#[cfg(target_arch = "x86_64")]
core::arch::global_asm!(
    ".section .text._start, \"ax\", @progbits",
    ".globl _start",
    ".type _start, @function",
    "_start:",
    "    xor ebp, ebp",
    "    mov rdi, rsp",
    "    and rsp, -16",
    // `call` pushes the return address, leaving `rsp` 8 bytes off 16 as a function expects.
    "    call {entry}",
    "    ud2",
    ".size _start, . - _start",
    entry = sym rust_start,
);

#[cfg(target_arch = "aarch64")]
core::arch::global_asm!(
    ".section .text._start, \"ax\", %progbits",
    ".globl _start",
    ".type _start, %function",
    "_start:",
    "    mov x29, xzr",
    "    mov x30, xzr",
    "    mov x0, sp",
    "    and x1, x0, #~15",
    "    mov sp, x1",
    "    bl {entry}",
    "    brk #0",
    ".size _start, . - _start",
    entry = sym rust_start,
);

#[cfg(target_arch = "riscv64")]
core::arch::global_asm!(
    ".section .text._start, \"ax\", %progbits",
    ".globl _start",
    ".type _start, %function",
    "_start:",
    // The psABI makes the startup code set `gp`, in case the linker relaxed accesses to it.
    // The load itself must not be relaxed into a `gp`-relative one.
    "    .option push",
    "    .option norelax",
    "    lla gp, __global_pointer$",
    "    .option pop",
    "    mv s0, zero",
    "    mv ra, zero",
    "    mv a0, sp",
    "    andi sp, sp, -16",
    "    call {entry}",
    "    unimp",
    ".size _start, . - _start",
    entry = sym rust_start,
);

#[cfg(target_arch = "loongarch64")]
core::arch::global_asm!(
    ".section .text._start, \"ax\", %progbits",
    ".globl _start",
    ".type _start, %function",
    "_start:",
    "    move $fp, $zero",
    "    move $ra, $zero",
    "    move $a0, $sp",
    // Clear bits 3..0 of `$sp`.
    "    bstrins.d $sp, $zero, 3, 0",
    "    bl {entry}",
    "    break 0",
    ".size _start, . - _start",
    entry = sym rust_start,
);

#[cfg(target_arch = "arm")]
core::arch::global_asm!(
    ".section .text._start, \"ax\", %progbits",
    // `_start` is Arm code whatever the rest is: the kernel jumps to an even `e_entry` in Arm
    // state, and `bl` to a Thumb `rust_start` would become `blx` at link time.
    ".arm",
    ".globl _start",
    ".type _start, %function",
    "_start:",
    // `r11` is the frame pointer in Arm code, `r7` in Thumb code; clear both.
    "    mov r11, #0",
    "    mov r7, #0",
    "    mov lr, #0",
    "    mov r0, sp",
    "    bic r1, r0, #15",
    "    mov sp, r1",
    "    bl {entry}",
    "    udf #0",
    ".size _start, . - _start",
    entry = sym rust_start,
);

#[cfg(target_arch = "s390x")]
core::arch::global_asm!(
    ".section .text._start, \"ax\", @progbits",
    ".globl _start",
    ".type _start, @function",
    "_start:",
    "    lgr %r2, %r15",
    // Round down to 16 bytes, then reserve the 160-byte save area (still 16-byte aligned).
    "    nill %r15, 0xfff0",
    "    aghi %r15, -160",
    // A zero back chain ends the chain of frames here.
    "    xc 0(8,%r15), 0(%r15)",
    "    lghi %r11, 0",
    "    brasl %r14, {entry}",
    // Opcode 0x0000 is not an instruction: an operation exception (SIGILL) if it ever runs.
    "    .short 0",
    ".size _start, . - _start",
    entry = sym rust_start,
);

#[cfg(target_arch = "powerpc64")]
core::arch::global_asm!(
    ".section .text._start, \"ax\", @progbits",
    ".globl _start",
    ".type _start, @function",
    "_start:",
    // `r12` holds `_start`'s address (ELFv2 process entry): the TOC pointer from it.
    "    addis 2, 12, (.TOC. - _start)@ha",
    "    addi 2, 2, (.TOC. - _start)@l",
    "    mr 3, 1",
    "    clrrdi 1, 1, 4",
    "    li 0, 0",
    // The outermost frame: its back chain (at 0) is 0, and `rust_start` saves `lr` at 16.
    "    stdu 0, -32(1)",
    "    mtlr 0",
    "    bl {entry}",
    // Where a call through a stub would restore `r2`; `rust_start` shares this TOC.
    "    nop",
    "    trap",
    ".size _start, . - _start",
    entry = sym rust_start,
);

#[cfg(target_arch = "powerpc")]
core::arch::global_asm!(
    ".section .text._start, \"ax\", @progbits",
    ".globl _start",
    ".type _start, @function",
    "_start:",
    "    mr 3, 1",
    "    clrrwi 1, 1, 4",
    "    li 0, 0",
    // The outermost frame: its back chain (at 0) is 0, and `rust_start` saves `lr` at 4.
    "    stwu 0, -16(1)",
    "    mtlr 0",
    "    bl {entry}",
    "    trap",
    ".size _start, . - _start",
    entry = sym rust_start,
);
