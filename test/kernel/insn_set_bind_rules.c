// Binding an instruction set to a program at BPF_PROG_LOAD (fd_array with
// fd_array_cnt): the map must be frozen, its offsets sorted, unique, inside
// the program and not in the middle of an ld_imm64; a map is bound to one
// program only (EBUSY for the next one, also after the first is unloaded),
// but a failed load releases it.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"

static struct bpf_insn prog[] = {
	/* 0 */ INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_0, 0, 0, 1), INSN(0, 0, 0, 0, 0),
	/* 2 */ ADD64_IMM(BPF_REG_0, 1),
	/* 3 */ EXIT(),
};

static int load_with(const __u32 *offs, __u32 n, bool freeze)
{
	int fd = insn_set_create(0, offs, n, freeze);
	int prog_fd = prog_load(prog, ARRAY_SIZE(prog), &fd, 1);

	if (prog_fd >= 0)
		close(prog_fd);
	close(fd);
	return prog_fd;
}

int main(void)
{
	int fd, prog_fd, fd2;

	require_static_keys_kernel();

	// CHECK: valid set: OK
	expect_err("valid set", load_with((__u32[]){ 0, 2, 3 }, 3, true), 0);
	print_log_line();
	// CHECK: not frozen: EINVAL
	// CHECK-NEXT: log: insn_set map: map is not frozen
	expect_err("not frozen", load_with((__u32[]){ 0, 2 }, 2, false), -EINVAL);
	print_log_line();
	// CHECK: unsorted: EINVAL
	// CHECK-NEXT: log: insn_set map: offsets are not sorted and unique
	expect_err("unsorted", load_with((__u32[]){ 2, 0 }, 2, true), -EINVAL);
	print_log_line();
	// CHECK: duplicate: EINVAL
	// CHECK-NEXT: log: insn_set map: offsets are not sorted and unique
	expect_err("duplicate", load_with((__u32[]){ 2, 2 }, 2, true), -EINVAL);
	print_log_line();
	// CHECK: out of range: EINVAL
	// CHECK-NEXT: log: insn_set map: offset out of program range
	expect_err("out of range", load_with((__u32[]){ 0, 4 }, 2, true), -EINVAL);
	print_log_line();
	// CHECK: second half of ld_imm64: EINVAL
	// CHECK-NEXT: log: insn_set map: offset points to the second half of ld_imm64
	expect_err("second half of ld_imm64", load_with((__u32[]){ 1 }, 1, true), -EINVAL);
	print_log_line();
	// CHECK: fd_array_cnt with a non-map fd: EBADF
	{
		int bad = 0;	/* stdin */

		expect_err("fd_array_cnt with a non-map fd",
			   prog_load(prog, ARRAY_SIZE(prog), &bad, 1), -EBADF);
	}

	fd = insn_set_create(0, (__u32[]){ 0 }, 1, true);
	// CHECK: failed load (bad program): EACCES
	{
		struct bpf_insn bad[] = { ADD64_IMM(BPF_REG_0, 1), EXIT() }; /* r0 uninit */

		expect_err("failed load (bad program)",
			   prog_load(bad, ARRAY_SIZE(bad), &fd, 1), -EACCES);
	}
	// CHECK: retry after a failed load: OK
	prog_fd = prog_load(prog, ARRAY_SIZE(prog), &fd, 1);
	expect_err("retry after a failed load", prog_fd, 0);
	// CHECK: second program: EBUSY
	// CHECK-NEXT: log: insn_set map: map is already bound to a program
	fd2 = prog_load(prog, ARRAY_SIZE(prog), &fd, 1);
	expect_err("second program", fd2, -EBUSY);
	print_log_line();
	close(prog_fd);
	usleep(200 * 1000);	/* let the deferred free of the program run */
	// CHECK: after the first program is unloaded: EBUSY
	expect_err("after the first program is unloaded",
		   prog_load(prog, ARRAY_SIZE(prog), &fd, 1), -EBUSY);
	close(fd);
	// CHECK: PASSED
	return finish();
}
