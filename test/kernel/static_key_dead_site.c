// SPDX-License-Identifier: GPL-2.0
// A static branch that the verifier proves dead is removed with the rest of
// the dead code: its key entry reads 0xffffffff and updating the key skips
// it (nothing to patch), while the key's live site still flips.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"

int main(void)
{
	struct bpf_insn prog[] = {
		/* 0 */ MOV64_IMM(BPF_REG_0, 1),
		/* 1 */ GOTOL_OR_NOP(1),		/* live site */
		/* 2 */ JA(1),
		/* 3 */ MOV64_IMM(BPF_REG_0, 2),
		/* 4 */ MOV64_IMM(BPF_REG_1, 0),
		/* 5 */ JEQ_IMM(BPF_REG_1, 0, 2),	/* always taken */
		/* 6 */ GOTOL_OR_NOP(0),		/* dead site */
		/* 7 */ MOV64_IMM(BPF_REG_0, 5),	/* dead */
		/* 8 */ EXIT(),
	};
	int key, prog_fd;
	__u32 v0 = 0, v1 = 0;

	require_static_keys_kernel();

	key = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 1, 6 }, 2, true);
	// CHECK: load: OK
	prog_fd = prog_load_checked(prog, ARRAY_SIZE(prog), &key, 1);
	v0 = xlated_off_of(key, 0);
	v1 = xlated_off_of(key, 1);
	// CHECK-NEXT: live site: 1, dead site: 0xffffffff
	printf("live site: %u, dead site: 0x%x\n", v0, v1);
	if (v0 != 1 || v1 != 0xffffffff)
		failures++;
	// CHECK-NEXT: off: 1
	printf("off: %u\n", prog_run(prog_fd));
	// CHECK-NEXT: update on: OK
	expect_err("update on", static_key_update(key, 1), 0);
	// CHECK-NEXT: on: 2
	printf("on: %u\n", prog_run(prog_fd));
	// CHECK: PASSED
	return finish();
}
