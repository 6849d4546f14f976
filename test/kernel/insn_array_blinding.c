// SPDX-License-Identifier: GPL-2.0
// Instruction arrays with constant blinding (kernel-patches/0016,
// bpf_jit_harden=2): the JIT compiles a copy in which each instruction with
// a constant became three through r11, and the entries move with them.
// Without subprograms the offsets name the same instructions in the xlated
// dump (which is the blinded copy); with a BPF-to-BPF call they are offsets
// into the blinded functions one after the other (upstream's rule), and
// jitted_off still points into the image of the entry's function.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_blinding.h"

static void show(int map, const __u32 *offs, int n)
{
	struct bpf_insn_array_value v;
	int i;

	printf("  xlated:");
	for (i = 0; i < n; i++) {
		insn_array_lookup(map, i, &v);
		if (v.orig_off != offs[i])
			failures++;
		printf(" %u->%s", v.orig_off, xoff(v.xlated_off));
	}
	printf("\n");
}

int main(void)
{
	const struct bpf_insn one[] = {
		/* 0 */ MOV64_IMM(BPF_REG_0, 1),
		/* 1 */ MOV64_IMM(BPF_REG_1, 2),
		/* 2 */ ADD64_REG(BPF_REG_0, BPF_REG_1),
		/* 3 */ EXIT(),
	};
	const __u32 one_offs[] = { 0, 1, 2, 3 };
	const struct bpf_insn two[] = {
		/* 0 */ MOV64_IMM(BPF_REG_0, 1),
		/* 1 */ CALL_SUB(1),
		/* 2 */ EXIT(),
		/* 3 */ MOV64_IMM(BPF_REG_0, 5),	/* the called function */
		/* 4 */ EXIT(),
	};
	const __u32 two_offs[] = { 0, 1, 2, 3, 4 };
	struct bpf_insn xlated[MAX_INSNS];
	struct bpf_insn_array_value v;
	int map, prog_fd, i, r11;
	__u32 n;

	require_insn_array_kernel();

	// CHECK: bpf_jit_harden=0: OK
	must_harden("0");
	map = insn_array_create(one_offs, ARRAY_SIZE(one_offs), true);
	prog_fd = prog_load(one, ARRAY_SIZE(one), &map, 1);
	// CHECK-NEXT: one function, not blinded: OK, 4 insns, run 3
	n = prog_fd >= 0 ? prog_xlated(prog_fd, xlated, MAX_INSNS) : 0;
	printf("one function, not blinded: %s, %u insns, run %u\n", errname(prog_fd < 0 ? prog_fd : 0), n,
	       prog_fd >= 0 ? prog_run(prog_fd) : 0);
	// CHECK-NEXT: xlated: 0->0 1->1 2->2 3->3
	show(map, one_offs, ARRAY_SIZE(one_offs));
	close(prog_fd);
	close(map);

	// CHECK: bpf_jit_harden=2: OK
	must_harden("2");
	map = insn_array_create(one_offs, ARRAY_SIZE(one_offs), true);
	prog_fd = prog_load_or_die("load", one, ARRAY_SIZE(one), &map, 1);
	n = prog_xlated(prog_fd, xlated, MAX_INSNS);
	for (i = 0, r11 = 0; i < (int)n; i++)
		r11 += xlated[i].dst_reg == REG_AX || xlated[i].src_reg == REG_AX;
	// CHECK-NEXT: one function, blinded: 8 insns, 6 using r11, run 3
	printf("one function, blinded: %u insns, %d using r11, run %u\n", n, r11,
	       prog_run(prog_fd));
	// CHECK-NEXT: xlated: 0->0 1->3 2->6 3->7
	show(map, one_offs, ARRAY_SIZE(one_offs));
	/* each entry names its instruction (or the first of its sequence) in the dump */
	insn_array_lookup(map, 2, &v);
	check(v.xlated_off < n && xlated[v.xlated_off].code == (BPF_ALU64 | BPF_ADD | BPF_X),
	      "entry 2 is r0 += r1 in the dump");
	insn_array_lookup(map, 3, &v);
	check(v.xlated_off < n && xlated[v.xlated_off].code == (BPF_JMP | BPF_EXIT),
	      "entry 3 is exit in the dump");
	insn_array_lookup(map, 1, &v);
	check(v.xlated_off < n && xlated[v.xlated_off].dst_reg == REG_AX,
	      "entry 1 starts its blinded sequence");
	close(prog_fd);
	close(map);

	map = insn_array_create(two_offs, ARRAY_SIZE(two_offs), true);
	prog_fd = prog_load_or_die("load", two, ARRAY_SIZE(two), &map, 1);
	// CHECK: two functions, blinded: run 5
	printf("two functions, blinded: run %u\n", prog_run(prog_fd));
	// CHECK-NEXT: xlated: 0->0 1->3 2->4 3->5 4->8
	show(map, two_offs, ARRAY_SIZE(two_offs));
	{
		struct bpf_insn_array_value first, last;

		insn_array_lookup(map, 3, &first);
		insn_array_lookup(map, 4, &last);
		check(first.jitted_off > 0 && first.jitted_off < last.jitted_off &&
		      last.jitted_off < jited_len(prog_fd),
		      "called function: its entries inside its image, in order");
	}
	close(prog_fd);
	close(map);
	must_harden("0");
	// CHECK: PASSED
	return finish();
}
