// SPDX-License-Identifier: GPL-2.0
// The verifier keeps an instruction array up to date across its rewrites
// (kernel-patches/0016): a 64-bit division by a register becomes a guarded
// sequence (an entry on it stays on the first instruction of the sequence,
// later entries move by its growth), dead code and the always-taken branch
// over it are removed (xlated_off reads 0xffffffff), and every other entry
// names the same instruction in the xlated program read back after the load.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"

int main(void)
{
	const struct bpf_insn prog[] = {
		/* 0 */ MOV64_IMM(BPF_REG_0, 6),
		/* 1 */ MOV64_IMM(BPF_REG_1, 2),
		/* 2 */ JEQ_IMM(BPF_REG_1, 2, 1),	/* always taken: removed */
		/* 3 */ MOV64_IMM(BPF_REG_1, 0),	/* dead: removed */
		/* 4 */ DIV64_REG(BPF_REG_0, BPF_REG_1),	/* expanded */
		/* 5 */ ADD64_IMM(BPF_REG_0, 40),
		/* 6 */ EXIT(),
	};
	const __u32 offs[] = { 6, 5, 4, 3, 2, 1, 0 };
	struct bpf_insn xlated[64];
	struct bpf_insn_array_value v;
	int map, prog_fd, i, err;
	__u32 n;

	require_insn_array_kernel();

	map = insn_array_create(offs, ARRAY_SIZE(offs), true);
	// CHECK: load: OK
	prog_fd = prog_load_checked(prog, ARRAY_SIZE(prog), &map, 1);
	// CHECK-NEXT: run: 43
	printf("run: %u\n", prog_run(prog_fd));
	n = prog_xlated(prog_fd, xlated, ARRAY_SIZE(xlated));
	// CHECK-NEXT: xlated: 8 insns
	printf("xlated: %u insns\n", n);

	// CHECK-NEXT: [0] orig 6 -> xlated 7: exit
	// CHECK-NEXT: [1] orig 5 -> xlated 6: r0 += 40
	// CHECK-NEXT: [2] orig 4 -> xlated 2: start of the division's sequence
	// CHECK-NEXT: [3] orig 3 -> xlated removed
	// CHECK-NEXT: [4] orig 2 -> xlated removed
	// CHECK-NEXT: [5] orig 1 -> xlated 1: r1 = 2
	// CHECK-NEXT: [6] orig 0 -> xlated 0: r0 = 6
	for (i = 0; i < (int)ARRAY_SIZE(offs); i++) {
		const struct bpf_insn *x;
		const char *what = "?";

		err = insn_array_lookup(map, i, &v);
		if (err) {
			printf("FAIL: lookup [%d]: %s\n", i, errname(err));
			failures++;
			continue;
		}
		if (v.orig_off != offs[i])
			failures++;
		if (v.xlated_off == 0xffffffff) {
			printf("[%d] orig %u -> xlated removed\n", i, v.orig_off);
			continue;
		}
		if (v.xlated_off >= n) {
			printf("FAIL: [%d] xlated_off %u out of the program\n", i, v.xlated_off);
			failures++;
			continue;
		}
		x = &xlated[v.xlated_off];
		if (x->code == (BPF_JMP | BPF_EXIT))
			what = "exit";
		else if (x->code == (BPF_ALU64 | BPF_ADD | BPF_K) && x->imm == 40)
			what = "r0 += 40";
		else if (x->code == (BPF_ALU64 | BPF_MOV | BPF_K) && x->dst_reg == 1 && x->imm == 2)
			what = "r1 = 2";
		else if (x->code == (BPF_ALU64 | BPF_MOV | BPF_K) && x->dst_reg == 0 && x->imm == 6)
			what = "r0 = 6";
		else if (v.orig_off == 4 && v.xlated_off == 2)
			what = "start of the division's sequence";
		printf("[%d] orig %u -> xlated %u: %s\n", i, v.orig_off, v.xlated_off, what);
	}
	close(prog_fd);
	close(map);
	// CHECK: PASSED
	return finish();
}
