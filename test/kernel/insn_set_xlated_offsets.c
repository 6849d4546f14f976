// The verifier keeps an instruction set up to date across its rewrites: a
// division expands into a guarded sequence (later offsets move), dead code
// and the branch over it are removed (they read 0xffffffff), and the
// offsets read back after the load are those of the xlated program.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"

int main(void)
{
	struct bpf_insn prog[] = {
		/* 0 */ MOV64_IMM(BPF_REG_0, 6),
		/* 1 */ MOV64_IMM(BPF_REG_1, 2),
		/* 2 */ JEQ_IMM(BPF_REG_1, 2, 1),	/* always taken */
		/* 3 */ MOV64_IMM(BPF_REG_1, 0),	/* dead */
		/* 4 */ DIV64_REG(BPF_REG_0, BPF_REG_1),	/* expanded by the verifier */
		/* 5 */ EXIT(),
	};
	__u32 offs[] = { 0, 1, 2, 3, 4, 5 };
	struct bpf_insn xlated[64];
	int fd, prog_fd, i;
	__u32 v, n;

	require_static_keys_kernel();

	fd = insn_set_create(0, offs, ARRAY_SIZE(offs), true);
	prog_fd = prog_load(prog, ARRAY_SIZE(prog), &fd, 1);
	// CHECK: load: OK
	expect_err("load", prog_fd, 0);
	if (prog_fd < 0) {
		printf("%s", verifier_log);
		return finish();
	}
	// CHECK: run: 3
	printf("run: %u\n", prog_run(prog_fd));

	// CHECK-NEXT: [0] 0 -> 0
	// CHECK-NEXT: [1] 1 -> 1
	// CHECK-NEXT: [2] 2 -> 0xffffffff
	// CHECK-NEXT: [3] 3 -> 0xffffffff
	// CHECK-NEXT: [4] 4 -> 2
	// CHECK-NEXT: [5] 5 -> 6
	for (i = 0; i < (int)ARRAY_SIZE(offs); i++) {
		map_lookup(fd, i, &v);
		if (v == 0xffffffff)
			printf("[%d] %u -> 0xffffffff\n", i, offs[i]);
		else
			printf("[%d] %u -> %u\n", i, offs[i], v);
	}

	/* The translated offsets name the same instructions in the xlated
	 * program: the division is the last instruction of its expansion and
	 * the exit is where the set says.
	 */
	n = prog_xlated(prog_fd, xlated, ARRAY_SIZE(xlated));
	// CHECK: xlated: 7 insns, [5] is exit: yes
	map_lookup(fd, 5, &v);
	printf("xlated: %u insns, [5] is exit: %s\n", n,
	       v < n && xlated[v].code == (BPF_JMP | BPF_EXIT) ? "yes" : "no");
	// CHECK: PASSED
	return finish();
}
