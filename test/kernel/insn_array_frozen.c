// SPDX-License-Identifier: GPL-2.0
// Binding an instruction array to a program (kernel-patches/0016): the map
// must be frozen, and every entry must be the offset of an instruction of
// the program (not past its end, not the second half of an ld_imm64);
// otherwise the load fails with EINVAL and the map can still be used.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"

static const struct bpf_insn prog[] = {
	/* 0 */ MOV64_IMM(BPF_REG_0, 1),
	/* 1 */ INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, 0, 0, 5),
	/* 2 */ INSN(0, 0, 0, 0, 0),
	/* 3 */ EXIT(),
};

static int load_with(int map)
{
	int fd = prog_load(prog, ARRAY_SIZE(prog), &map, 1);

	if (fd >= 0)
		close(fd);
	return fd;
}

int main(void)
{
	const __u32 good[] = { 0, 1, 3 };
	const __u32 past_end[] = { 0, 4 };
	const __u32 ld_imm64_half[] = { 2 };
	int map, err;

	require_insn_array_kernel();

	map = insn_array_create(good, ARRAY_SIZE(good), false);
	// CHECK: not frozen: EINVAL
	expect_err("not frozen", load_with(map), -EINVAL);
	// CHECK-NEXT:   log: insn_array map: not frozen, or an entry is not an instruction
	print_log_line();
	err = map_freeze(map);
	// CHECK-NEXT: frozen after the failed load: OK
	expect_err("frozen after the failed load", err, 0);
	// CHECK-NEXT: load once frozen: OK
	expect_err("load once frozen", load_with(map), 0);
	close(map);

	map = insn_array_create(past_end, ARRAY_SIZE(past_end), true);
	// CHECK-NEXT: offset past the end: EINVAL
	expect_err("offset past the end", load_with(map), -EINVAL);
	close(map);

	map = insn_array_create(ld_imm64_half, ARRAY_SIZE(ld_imm64_half), true);
	// CHECK-NEXT: second half of an ld_imm64: EINVAL
	expect_err("second half of an ld_imm64", load_with(map), -EINVAL);
	close(map);

	// CHECK: PASSED
	return finish();
}
