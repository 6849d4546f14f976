// SPDX-License-Identifier: GPL-2.0
// A static key kfunc given a register that is not a map pointer is refused
// at load with EINVAL ("arg#0 is not a static key"), and the verifier looks
// at no map: the kfunc's __map argument is checked for a static key only
// once the register's type says it holds a map. A bounds-checked packet
// pointer keeps its range where a map pointer would be (the two share a
// union in the register state), so an XDP program passing one to
// bpf_static_key_set() made the verifier read a "map" at that small
// address and oops in BPF_PROG_LOAD.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_kfunc.h"

#define JGT_REG(DST, SRC, OFF)	INSN(BPF_JMP | BPF_JGT | BPF_X, DST, SRC, OFF, 0)

int main(void)
{
	int set, fd;

	require_static_keys_kernel();
	set = kfunc_id("bpf_static_key_set");
	{
		const struct bpf_insn insns[] = {
			LDX_W(BPF_REG_2, BPF_REG_1, 0),		/* data */
			LDX_W(BPF_REG_3, BPF_REG_1, 4),		/* data_end */
			MOV64_REG(BPF_REG_1, BPF_REG_2),
			ADD64_IMM(BPF_REG_1, 14),
			JGT_REG(BPF_REG_1, BPF_REG_3, 3),	/* r2 now has range 14 */
			MOV64_REG(BPF_REG_1, BPF_REG_2),
			MOV64_IMM(BPF_REG_2, 1),
			KFUNC_CALL(set),
			MOV64_IMM(BPF_REG_0, XDP_PASS),
			EXIT(),
		};

		fd = prog_load_as(BPF_PROG_TYPE_XDP, 0, insns, ARRAY_SIZE(insns), NULL, 0);
		// CHECK: checked packet pointer to bpf_static_key_set: EINVAL
		expect_err("checked packet pointer to bpf_static_key_set", fd, -EINVAL);
		// CHECK-NEXT: log: arg#0 is not a static key
		print_last_log_line();
		if (fd >= 0)
			close(fd);
	}
	// CHECK-NEXT: PASSED
	return finish();
}
