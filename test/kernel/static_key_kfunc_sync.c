// SPDX-License-Identifier: GPL-2.0
// bpf_static_key_set_sync() from a sleepable BPF_PROG_TYPE_SYSCALL program
// (docs/abi.md "Flipping a key from BPF"). The flipper refers to the key
// of another program with an ld_imm64, without being bound to it: the key
// can be bound by its program after the flipper was loaded, the flipper
// sets it (state in map_extra, the program's result), and the key keeps
// working when the flipper is gone. A syscall program that binds a key and
// refers to it flips its own branch and sees the new state in the same
// run. Errors are the syscall's: on > 1, a key no program is bound to, a
// key whose program is gone (EINVAL).
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_kfunc.h"

static int set_sync;

static int flip(int flipper, __u32 on)
{
	__u32 ctx[2] = { on, 0 };

	return syscall_prog_run(flipper, ctx);
}

/*
 * A sleepable syscall program that binds its own key (one site) and flips
 * it to ctx[0] before the site: returns 1 or 2 as the target does, plus 16
 * if the kfunc failed.
 */
static int self_flipper_load(int *key)
{
	static const __u32 offs[] = { 5 };
	int prog;

	*key = static_key_create(BPF_F_STATIC_KEY, offs, 1, true);
	{
		const struct bpf_insn insns[] = {
			LDX_W(BPF_REG_2, BPF_REG_1, 0),		/* 0 */
			LD_MAP_FD(BPF_REG_1, *key),		/* 1-2 */
			KFUNC_CALL(set_sync),			/* 3 */
			MOV64_REG(BPF_REG_6, BPF_REG_0),	/* 4 */
			GOTOL_OR_NOP(2),			/* 5: the site */
			MOV64_IMM(BPF_REG_0, 1),		/* 6 */
			JA(1),					/* 7 */
			MOV64_IMM(BPF_REG_0, 2),		/* 8 */
			JEQ_IMM(BPF_REG_6, 0, 1),		/* 9 */
			ADD64_IMM(BPF_REG_0, 16),		/* 10 */
			EXIT(),					/* 11 */
		};

		prog = prog_load_as(BPF_PROG_TYPE_SYSCALL, BPF_F_SLEEPABLE, insns,
				    ARRAY_SIZE(insns), key, 1);
	}
	if (prog < 0) {
		printf("FAIL: self flipper load: %s\n%s", errname(prog), verifier_log);
		exit(1);
	}
	return prog;
}

int main(void)
{
	static const __u32 offs[] = { 0 };
	int key, target, flipper, self_key, self, ret, i;

	require_static_keys_kernel();
	set_sync = kfunc_id("bpf_static_key_set_sync");

	/* the flipper first: referring to the key does not bind it */
	key = static_key_create(BPF_F_STATIC_KEY, offs, 1, true);
	flipper = flipper_load(key, set_sync, BPF_F_SLEEPABLE);
	if (flipper < 0) {
		printf("FAIL: flipper load: %s\n%s", errname(flipper), verifier_log);
		return 1;
	}
	// CHECK: unbound key: EINVAL
	expect_err("unbound key", flip(flipper, 1), -EINVAL);
	{
		static const struct bpf_insn insns[] = {
			GOTOL_OR_NOP(2), MOV64_IMM(BPF_REG_0, 1), EXIT(),
			MOV64_IMM(BPF_REG_0, 2), EXIT(),
		};

		target = prog_load(insns, ARRAY_SIZE(insns), &key, 1);
		// CHECK-NEXT: target binds the key the flipper refers to: OK
		expect_err("target binds the key the flipper refers to", target, 0);
		if (target < 0)
			return finish();
	}
	// CHECK-NEXT: loaded: state 0, target returns 1
	printf("loaded: state %d, target returns %u\n", static_key_state(key), prog_run(target));
	// CHECK-NEXT: set on: OK
	expect_err("set on", flip(flipper, 1), 0);
	// CHECK-NEXT: after on: state 1, target returns 2
	printf("after on: state %d, target returns %u\n", static_key_state(key), prog_run(target));
	// CHECK-NEXT: set on again: OK
	expect_err("set on again", flip(flipper, 1), 0);
	// CHECK-NEXT: set off: OK
	expect_err("set off", flip(flipper, 0), 0);
	// CHECK-NEXT: after off: state 0, target returns 1
	printf("after off: state %d, target returns %u\n", static_key_state(key), prog_run(target));
	// CHECK-NEXT: on = 2: EINVAL
	expect_err("on = 2", flip(flipper, 2), -EINVAL);
	// CHECK-NEXT: after on = 2: state 0, target returns 1
	printf("after on = 2: state %d, target returns %u\n", static_key_state(key),
	       prog_run(target));

	/* the flipper's end does not end the key */
	close(flipper);
	// CHECK-NEXT: syscall after the flipper is gone: OK
	expect_err("syscall after the flipper is gone", static_key_update(key, 1), 0);
	// CHECK-NEXT: then: state 1, target returns 2
	printf("then: state %d, target returns %u\n", static_key_state(key), prog_run(target));

	/* a new flipper; then the target goes: the key is dead */
	flipper = flipper_load(key, set_sync, BPF_F_SLEEPABLE);
	if (flipper < 0) {
		printf("FAIL: second flipper load: %s\n%s", errname(flipper), verifier_log);
		return 1;
	}
	// CHECK-NEXT: second flipper, set off: OK
	expect_err("second flipper, set off", flip(flipper, 0), 0);
	// CHECK-NEXT: then: state 0, target returns 1
	printf("then: state %d, target returns %u\n", static_key_state(key), prog_run(target));
	/* the program is freed after its last fd closes, through RCU and a work */
	close(target);
	for (i = 0; i < 5000 && (ret = flip(flipper, 1)) != -EINVAL; i++)
		usleep(1000);
	// CHECK-NEXT: target gone: EINVAL
	expect_err("target gone", ret, -EINVAL);
	close(flipper);
	close(key);

	/* a program flipping a key it is itself using */
	self = self_flipper_load(&self_key);
	// CHECK-NEXT: self, on: returns 2, state 1
	ret = flip(self, 1);
	printf("self, on: returns %d, state %d\n", ret, static_key_state(self_key));
	// CHECK-NEXT: self, on again: returns 2, state 1
	ret = flip(self, 1);
	printf("self, on again: returns %d, state %d\n", ret, static_key_state(self_key));
	// CHECK-NEXT: self, off: returns 1, state 0
	ret = flip(self, 0);
	printf("self, off: returns %d, state %d\n", ret, static_key_state(self_key));
	// CHECK-NEXT: self, on = 2: returns 17, state 0
	ret = flip(self, 2);
	printf("self, on = 2: returns %d, state %d\n", ret, static_key_state(self_key));
	// CHECK-NEXT: PASSED
	return finish();
}
