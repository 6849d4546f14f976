// SPDX-License-Identifier: GPL-2.0
// A static branch whose jump lands on the next machine instruction is still
// a site of its key: the JIT emits it (x86: a 2-byte nop 66 90 or jmp rel8
// eb 00; arm64: NOP or B +n as any other site) and records it, and each
// update rewrites it. Two such sites: a goto_or_nop +0 (the next BPF
// instruction) and a gotol_or_nop +1 over `r1 = r1`, a 64-bit move of a
// register to itself, for which the x86 JIT emits no code. Jumping or not
// makes no difference to the result, only to the image.
//
// Before the fix the x86 JIT optimized both out (displacement 0) and never
// recorded them: updates returned 0 and rewrote nothing.
//
// RUN: %qemu-run %s | FileCheck %s --check-prefixes=CHECK,%jited-prefix
#include "bpfsk_test.h"

static const struct bpf_insn prog[] = {
	/* 0 */ MOV64_IMM(BPF_REG_0, 1),
	/* 1 */ GOTO_OR_NOP(0),			/* to [2] */
	/* 2 */ GOTOL_OR_NOP(1),		/* over [3] to [4] */
	/* 3 */ MOV64_REG(BPF_REG_1, BPF_REG_1),
	/* 4 */ EXIT(),
};

static unsigned char img[3][1024];
static __u32 len[3];

int main(void)
{
	int key, prog_fd;

	require_static_keys_kernel();

	key = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 1, 2 }, 2, true);
	// CHECK: load: OK
	prog_fd = prog_load_checked(prog, ARRAY_SIZE(prog), &key, 1);

	// CHECK-NEXT: key off: result 1
	printf("key off: result %u\n", prog_run(prog_fd));
	// CHECK-NEXT: xlated off: [1] src_reg 1 [2] src_reg 1, state off
	print_xlated_sites(prog_fd, key, "off");
	len[0] = prog_jited(prog_fd, img[0], sizeof(img[0]));

	// CHECK-NEXT: update on: OK
	expect_err("update on", static_key_update(key, 1), 0);
	// CHECK-NEXT: key on: result 1
	printf("key on: result %u\n", prog_run(prog_fd));
	// CHECK-NEXT: xlated on: [1] src_reg 1 [2] src_reg 1, state on
	print_xlated_sites(prog_fd, key, "on");
	len[1] = prog_jited(prog_fd, img[1], sizeof(img[1]));

	// CHECK-NEXT: update off: OK
	expect_err("update off", static_key_update(key, 0), 0);
	len[2] = prog_jited(prog_fd, img[2], sizeof(img[2]));

	// CHECK-NEXT: jited off -> on:
	// JIT-X86-NEXT:   site 1 (2 bytes): 66 90 -> eb 00
	// JIT-X86-NEXT:   site 2 (2 bytes): 66 90 -> eb 00
	// arm64: B +1 (to [2]) and B +2 (over the mov of [3])
	// JIT-ARM64-NEXT:   site 1 (4 bytes): 1f 20 03 d5 -> 01 00 00 14
	// JIT-ARM64-NEXT:   site 2 (4 bytes): 1f 20 03 d5 -> 02 00 00 14
	// CHECK-NEXT:   2 site(s) changed
	printf("jited off -> on:\n");
	if (print_jited_diff(img[0], img[1], len[0]) != 2)
		failures++;
	// CHECK-NEXT: jited on -> off:
	// JIT-X86-NEXT:   site 1 (2 bytes): eb 00 -> 66 90
	// JIT-X86-NEXT:   site 2 (2 bytes): eb 00 -> 66 90
	// JIT-ARM64-NEXT:   site 1 (4 bytes): 01 00 00 14 -> 1f 20 03 d5
	// JIT-ARM64-NEXT:   site 2 (4 bytes): 02 00 00 14 -> 1f 20 03 d5
	// CHECK-NEXT:   2 site(s) changed
	printf("jited on -> off:\n");
	if (print_jited_diff(img[1], img[2], len[1]) != 2)
		failures++;

	close(prog_fd);
	close(key);
	// CHECK-NEXT: PASSED
	return finish();
}
