// SPDX-License-Identifier: GPL-2.0
// Binding a static key to a program (fd_array with fd_array_cnt) needs an
// fd open for writing, as flipping it does: a read-only fd of an unbound,
// frozen key gets EPERM ("static key map: fd N is not open for writing")
// and leaves the key unbound, so the program it was made for still binds
// it (through a read-write or a write-only fd) and flips it. A read-only
// holder used to bind the key itself: the rightful load then got EBUSY.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_kfunc.h"

static const struct bpf_insn insns[] = {
	GOTOL_OR_NOP(2),	/* 0: the site: jumps while the key is on */
	MOV64_IMM(BPF_REG_0, 1),
	EXIT(),
	MOV64_IMM(BPF_REG_0, 2),
	EXIT(),
};
static const __u32 offs[] = { 0 };

/* load the program with the key behind @fd; print and check the result */
static int load_with(const char *what, int fd, int want)
{
	int prog = prog_load(insns, ARRAY_SIZE(insns), &fd, 1);

	expect_err(what, prog, want);
	if (prog < 0)
		print_last_log_line();
	return prog;
}

int main(void)
{
	int key, ro, wo, prog;

	require_static_keys_kernel();
	key = static_key_create(BPF_F_STATIC_KEY, offs, 1, true);
	ro = map_fd_reopen(key, BPF_F_RDONLY);
	if (ro < 0) {
		printf("FAIL: read-only fd: %s\n", errname(ro));
		return 1;
	}

	// CHECK: bind through a read-only fd: EPERM
	// CHECK-NEXT: log: static key map: fd {{[0-9]+}} is not open for writing
	prog = load_with("bind through a read-only fd", ro, -EPERM);
	if (prog >= 0)
		close(prog);
	// CHECK-NEXT: bind through the read-write fd: OK
	prog = load_with("bind through the read-write fd", key, 0);
	if (prog >= 0) {
		int err = static_key_update(key, 1);

		// CHECK-NEXT: flip on: OK, target returns 2
		printf("flip on: %s, target returns %u\n", errname(err), prog_run(prog));
		failures += err != 0;
	}

	key = static_key_create(BPF_F_STATIC_KEY, offs, 1, true);
	wo = map_fd_reopen(key, BPF_F_WRONLY);
	if (wo < 0) {
		printf("FAIL: write-only fd: %s\n", errname(wo));
		return 1;
	}
	// CHECK-NEXT: bind through a write-only fd: OK
	prog = load_with("bind through a write-only fd", wo, 0);
	// CHECK-NEXT: it runs with the key off: target returns 1
	if (prog >= 0)
		printf("it runs with the key off: target returns %u\n", prog_run(prog));
	// CHECK-NEXT: PASSED
	return finish();
}
