// SPDX-License-Identifier: GPL-2.0
// Bad input to static keys gets a clear errno: BPF_STATIC_KEY_UPDATE on a
// map that is not a static key, with on > 1, on a key not bound to a program
// or whose program is gone, on a bad fd or one that is not a map; and
// BPF_PROG_LOAD with a static key entry that is not a static branch, or
// one branch in two keys.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"

static const struct bpf_insn prog[] = {
	/* 0 */ MOV64_IMM(BPF_REG_0, 1),
	/* 1 */ GOTOL_OR_NOP(1),
	/* 2 */ JA(1),
	/* 3 */ MOV64_IMM(BPF_REG_0, 2),
	/* 4 */ EXIT(),
};

static int load(int *fds, int n)
{
	return prog_load(prog, ARRAY_SIZE(prog), fds, n);
}

int main(void)
{
	int arr, plain, key, key2, fds[2], prog_fd, i, err;

	require_static_keys_kernel();

	arr = map_create(BPF_MAP_TYPE_ARRAY, 4, 4, 1, 0, 0);
	// CHECK: update an array map: EINVAL
	expect_err("update an array map", static_key_update(arr, 1), -EINVAL);
	plain = insn_array_create((__u32[]){ 1 }, 1, true);
	// CHECK: update an insn array without BPF_F_STATIC_KEY: EINVAL
	expect_err("update an insn array without BPF_F_STATIC_KEY", static_key_update(plain, 1), -EINVAL);
	key = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1, true);
	// CHECK: update with on = 2: EINVAL
	expect_err("update with on = 2", static_key_update(key, 2), -EINVAL);
	// CHECK: update a key not bound to a program: EINVAL
	expect_err("update a key not bound to a program", static_key_update(key, 1), -EINVAL);
	// CHECK: update a bad fd: EBADF
	expect_err("update a bad fd", static_key_update(1000, 1), -EBADF);
	// CHECK: update a non-map fd (stdin): EINVAL
	expect_err("update a non-map fd (stdin)", static_key_update(0, 1), -EINVAL);

	// CHECK: key entry on a mov: EINVAL
	// CHECK-NEXT: log: static key map: entry 0: instruction 0 is not a static branch
	key2 = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 0 }, 1, true);
	expect_err("key entry on a mov", load(&key2, 1), -EINVAL);
	print_log_line();
	close(key2);
	// CHECK: key entry on a plain goto: EINVAL
	// CHECK-NEXT: log: static key map: entry 0: instruction 2 is not a static branch
	key2 = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 2 }, 1, true);
	expect_err("key entry on a plain goto", load(&key2, 1), -EINVAL);
	print_log_line();
	close(key2);
	// CHECK: one branch in two keys: EINVAL
	// CHECK-NEXT: log: static branch at xlated offset 1 belongs to two static keys
	fds[0] = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1, true);
	fds[1] = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1, true);
	expect_err("one branch in two keys", load(fds, 2), -EINVAL);
	print_log_line();
	// The failed load released both keys: they can be used again.
	// CHECK: first key alone after the failed load: OK
	prog_fd = load(fds, 1);
	expect_err("first key alone after the failed load", prog_fd, 0);
	close(prog_fd);
	close(fds[0]);
	close(fds[1]);

	// Reserved src_reg values of a JA are still rejected.
	for (i = 0; i < 2; i++) {
		static const __u8 bad_src[] = { BPF_STATIC_BRANCH_NOP, 4 };
		struct bpf_insn p[] = {
			MOV64_IMM(BPF_REG_0, 1),
			INSN(BPF_JMP32 | BPF_JA, 0, bad_src[i], 0, 0),
			EXIT(),
		};
		char what[64];

		snprintf(what, sizeof(what), "gotol with src_reg %u", bad_src[i]);
		// CHECK: gotol with src_reg 2: EINVAL
		// CHECK-NEXT: BPF_JA uses reserved fields
		// CHECK: gotol with src_reg 4: EINVAL
		// CHECK-NEXT: BPF_JA uses reserved fields
		expect_err(what, prog_load(p, ARRAY_SIZE(p), NULL, 0), -EINVAL);
		printf("%s\n", strstr(verifier_log, "BPF_JA uses reserved fields") ?
		       "BPF_JA uses reserved fields" : verifier_log);
	}

	// CHECK: load with the key: OK
	prog_fd = load(&key, 1);
	expect_err("load with the key", prog_fd, 0);
	// CHECK: update the bound key: OK
	expect_err("update the bound key", static_key_update(key, 1), 0);
	close(prog_fd);
	/* the program is freed after an RCU grace period and a work item */
	for (i = 0; i < 100; i++) {
		err = static_key_update(key, 0);
		if (err)
			break;
		usleep(20 * 1000);
	}
	// CHECK: update after the program is gone: EINVAL
	expect_err("update after the program is gone", err, -EINVAL);
	// CHECK: PASSED
	return finish();
}
