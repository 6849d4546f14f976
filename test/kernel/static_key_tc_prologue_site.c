// SPDX-License-Identifier: GPL-2.0
// A program whose first instruction is a static branch loads and flips
// when the verifier inserts instructions before it: a tc program that
// writes packet data gets a prologue (bpf_unclone_prologue()) patched in
// before instruction 0, which ends up after it. The key's entry follows
// the branch; it used to stay at offset 0, on the prologue's first
// instruction, and the load failed with EFAULT ("verifier bug: static key
// entry not on a static branch"). A function that starts with
// if (bpf_static_branch_unlikely(&key)) compiles to exactly this.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_kfunc.h"
#include <stddef.h>

#define JGT_REG(DST, SRC, OFF)	INSN(BPF_JMP | BPF_JGT | BPF_X, DST, SRC, OFF, 0)
#define ST_B(DST, OFF, IMM)	INSN(BPF_ST | BPF_MEM | BPF_B, DST, 0, OFF, IMM)

int main(void)
{
	static const struct bpf_insn insns[] = {
		GOTOL_OR_NOP(8),	/* 0: the site: to r0 = 2 while the key is on */
		LDX_W(BPF_REG_2, BPF_REG_1, offsetof(struct __sk_buff, data)),
		LDX_W(BPF_REG_3, BPF_REG_1, offsetof(struct __sk_buff, data_end)),
		MOV64_REG(BPF_REG_4, BPF_REG_2),
		ADD64_IMM(BPF_REG_4, 1),
		JGT_REG(BPF_REG_4, BPF_REG_3, 1),
		ST_B(BPF_REG_2, 0, 0),	/* a direct packet write: the prologue */
		MOV64_IMM(BPF_REG_0, 1),
		EXIT(),
		MOV64_IMM(BPF_REG_0, 2),
		EXIT(),
	};
	static const __u32 offs[] = { 0 };
	int key, prog, err;

	require_static_keys_kernel();
	key = static_key_create(BPF_F_STATIC_KEY, offs, 1, true);
	prog = prog_load_as(BPF_PROG_TYPE_SCHED_CLS, 0, insns, ARRAY_SIZE(insns), &key, 1);
	// CHECK: tc program writing packet data, site at 0: OK
	expect_err("tc program writing packet data, site at 0", prog, 0);
	if (prog < 0) {
		print_last_log_line();
		return finish();
	}
	// CHECK-NEXT: key off: returns 1
	printf("key off: returns %u\n", prog_run(prog));
	err = static_key_update(key, 1);
	// CHECK-NEXT: key on: OK, returns 2
	printf("key on: %s, returns %u\n", errname(err), prog_run(prog));
	failures += err != 0;
	err = static_key_update(key, 0);
	// CHECK-NEXT: key off again: OK, returns 1
	printf("key off again: %s, returns %u\n", errname(err), prog_run(prog));
	failures += err != 0;
	// CHECK-NEXT: PASSED
	return finish();
}
