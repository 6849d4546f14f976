// SPDX-License-Identifier: GPL-2.0
// One instruction array describes one program (kernel-patches/0016): a
// second load with a map that a loaded program has gets EBUSY, also after
// that program is gone; a load that the verifier rejects gives the map
// back, so the next load can use it.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"

int main(void)
{
	const struct bpf_insn good[] = {
		MOV64_IMM(BPF_REG_0, 1),
		EXIT(),
	};
	/* r0 is read before it is written: rejected */
	const struct bpf_insn bad[] = {
		MOV64_REG(BPF_REG_0, BPF_REG_2),
		EXIT(),
	};
	const __u32 offs[] = { 0, 1 };
	int map, a, b;

	require_insn_array_kernel();

	map = insn_array_create(offs, ARRAY_SIZE(offs), true);
	// CHECK: rejected program: EACCES
	expect_err("rejected program", prog_load(bad, ARRAY_SIZE(bad), &map, 1), -EACCES);
	a = prog_load(good, ARRAY_SIZE(good), &map, 1);
	// CHECK-NEXT: first program after the rejected one: OK
	expect_err("first program after the rejected one", a, 0);
	b = prog_load(good, ARRAY_SIZE(good), &map, 1);
	// CHECK-NEXT: second program: EBUSY
	expect_err("second program", b, -EBUSY);
	if (b >= 0)
		close(b);
	// CHECK-NEXT: first program runs: 1
	printf("first program runs: %u\n", a >= 0 ? prog_run(a) : 0);
	if (a >= 0)
		close(a);
	/* the program is freed after an RCU grace period; the map stays taken */
	usleep(100000);
	b = prog_load(good, ARRAY_SIZE(good), &map, 1);
	// CHECK-NEXT: after the first program is closed: EBUSY
	expect_err("after the first program is closed", b, -EBUSY);
	if (b >= 0)
		close(b);
	close(map);
	// CHECK: PASSED
	return finish();
}
