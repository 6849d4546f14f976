// SPDX-License-Identifier: GPL-2.0
// Binding a static key to a program at BPF_PROG_LOAD (fd_array with
// fd_array_cnt), the rules a key adds to upstream's INSN_ARRAY ones
// (frozen, entries inside the program, one program per map: the
// insn_array_* tests): every entry names a static branch (static_key_errors.c
// has a mov and a plain goto), no two entries name the same one, an entry
// past the end is refused with its own message; the entries need not be
// sorted; a non-map fd in fd_array_cnt is EBADF.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"

/* r0 = 1 + (site 1 jumps ? 0 : 10) + (site 3 jumps ? 0 : 100) */
static struct bpf_insn prog[] = {
	/* 0 */ MOV64_IMM(BPF_REG_0, 1),
	/* 1 */ GOTO_OR_NOP(1),
	/* 2 */ ADD64_IMM(BPF_REG_0, 10),
	/* 3 */ NOP_OR_GOTO(1),
	/* 4 */ ADD64_IMM(BPF_REG_0, 100),
	/* 5 */ EXIT(),
};

static int load_with(const __u32 *offs, __u32 n, __u32 *result)
{
	int fd = static_key_create(BPF_F_STATIC_KEY, offs, n, true);
	int prog_fd = prog_load(prog, ARRAY_SIZE(prog), &fd, 1);

	if (prog_fd >= 0) {
		*result = prog_run(prog_fd);
		close(prog_fd);
	}
	close(fd);
	return prog_fd;
}

int main(void)
{
	__u32 r = 0;

	require_static_keys_kernel();

	// CHECK: sorted: OK, result 11
	expect_err("sorted", load_with((__u32[]){ 1, 3 }, 2, &r), 0);
	printf("sorted: OK, result %u\n", r);
	if (r != 11)
		failures++;
	// CHECK: unsorted: OK, result 11
	r = 0;
	expect_err("unsorted", load_with((__u32[]){ 3, 1 }, 2, &r), 0);
	printf("unsorted: OK, result %u\n", r);
	if (r != 11)
		failures++;
	// CHECK: duplicate: EINVAL
	// CHECK-NEXT: log: static key map: entry 1: instruction 1 is named by an entry before it
	expect_err("duplicate", load_with((__u32[]){ 1, 1 }, 2, &r), -EINVAL);
	print_log_line();
	// CHECK: duplicate, not adjacent: EINVAL
	// CHECK-NEXT: log: static key map: entry 2: instruction 1 is named by an entry before it
	expect_err("duplicate, not adjacent", load_with((__u32[]){ 1, 3, 1 }, 3, &r), -EINVAL);
	print_log_line();
	// CHECK: past the end: EINVAL
	// CHECK-NEXT: log: {{.*}}past the end of the program
	expect_err("past the end", load_with((__u32[]){ 1, 6 }, 2, &r), -EINVAL);
	print_log_line();
	// CHECK: fd_array_cnt with a non-map fd: EBADF
	{
		int bad = 0;	/* stdin */

		expect_err("fd_array_cnt with a non-map fd",
			   prog_load(prog, ARRAY_SIZE(prog), &bad, 1), -EBADF);
	}
	// CHECK: PASSED
	return finish();
}
