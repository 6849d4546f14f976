// SPDX-License-Identifier: GPL-2.0
// Static keys whose sites are in a BPF-to-BPF-called subprogram, which the
// JIT compiles separately: key A controls a site in the main program, key B
// one in the callee, key C one in each. Each key flips only its own sites.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"

/* main: r0 = sub(); if (A) r0 += 10; return r0
 * sub:  return B ? 2 : 1
 */
static const struct bpf_insn prog[] = {
	/* 0 */ CALL_SUB(4),
	/* 1 */ GOTOL_OR_NOP(1),
	/* 2 */ EXIT(),
	/* 3 */ ADD64_IMM(BPF_REG_0, 10),
	/* 4 */ EXIT(),
	/* 5 */ MOV64_IMM(BPF_REG_0, 1),	/* sub */
	/* 6 */ GOTOL_OR_NOP(1),
	/* 7 */ EXIT(),
	/* 8 */ MOV64_IMM(BPF_REG_0, 2),
	/* 9 */ EXIT(),
};

static void set(int fd, int on, const char *what, int prog_fd, __u32 want)
{
	int err = static_key_update(fd, on);
	__u32 r0 = prog_run(prog_fd);

	printf("%s: %s, result %u\n", what, errname(err), r0);
	if (err || r0 != want)
		failures++;
}

int main(void)
{
	int keys[2], prog_fd, c;

	require_static_keys_kernel();

	keys[0] = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1, true);
	keys[1] = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 6 }, 1, true);
	prog_fd = prog_load_or_die("load", prog, ARRAY_SIZE(prog), keys, 2);
	// CHECK: A off, B off: 1
	printf("A off, B off: %u\n", prog_run(prog_fd));
	// CHECK-NEXT: B on: OK, result 2
	set(keys[1], 1, "B on", prog_fd, 2);
	// CHECK-NEXT: A on: OK, result 12
	set(keys[0], 1, "A on", prog_fd, 12);
	// CHECK-NEXT: B off: OK, result 11
	set(keys[1], 0, "B off", prog_fd, 11);
	// CHECK-NEXT: A off: OK, result 1
	set(keys[0], 0, "A off", prog_fd, 1);
	close(prog_fd);

	c = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 1, 6 }, 2, true);
	prog_fd = prog_load_or_die("load", prog, ARRAY_SIZE(prog), &c, 1);
	// CHECK: C off: 1
	printf("C off: %u\n", prog_run(prog_fd));
	// CHECK-NEXT: C on: OK, result 12
	set(c, 1, "C on", prog_fd, 12);
	// CHECK-NEXT: C off: OK, result 1
	set(c, 0, "C off", prog_fd, 1);
	// CHECK: PASSED
	return finish();
}
