// SPDX-License-Identifier: GPL-2.0
// A flip queued with bpf_static_key_set() while the key's work is writing
// the sites of an earlier one is kept and applied after it (docs/abi.md
// "Flipping a key from BPF": the last request wins). A key with 4,096
// sites takes long enough to write under TCG that a second request falls
// inside the first one's write: queue "on", wait 0 to 20 ms, queue
// "off", and the key must read off (BPF_OBJ_GET_INFO_BY_FD applies what
// is still queued). The work used to clear the key's request once its
// flip was written, erasing the "off" queued meanwhile: the key stayed on.
// Single-threaded TCG, as the other SMP tests (see
// test/e2e/stress-flip-while-running-smp.c).
//
// RUN: env BPFSK_QEMU_SMP=2 BPFSK_QEMU_TCG_THREAD=single BPFSK_QEMU_TIMEOUT=300 %qemu-run %s | FileCheck %s
#include "static_key_kfunc.h"
#include <sys/sysinfo.h>

#define SITES 4096

static struct bpf_insn insns[SITES + 4];
static __u32 offs[SITES];

/* queue a flip of the key to @on through the syscall program @flipper */
static void queue(int flipper, __u32 on)
{
	__u32 ctx[2] = { on, 0 };
	int ret = syscall_prog_run(flipper, ctx);

	if (ret) {
		printf("FAIL: bpf_static_key_set(%u) returned %d\n", on, ret);
		exit(1);
	}
}

int main(void)
{
	static const int delays_ms[] = { 0, 1, 2, 5, 20 };
	int key, target, flipper, state;
	unsigned int i;

	require_static_keys_kernel();
	if (get_nprocs() < 2) {
		printf("FAIL: %d CPU online, the test needs 2\n", get_nprocs());
		return 1;
	}
	/*
	 * 4,095 sites jumping to the next instruction, and a last one that
	 * jumps to r0 = 2 while the key is on: r0 = 1 while it is off
	 */
	for (i = 0; i < SITES; i++) {
		insns[i] = GOTO_OR_NOP(i == SITES - 1 ? 2 : 0);
		offs[i] = i;
	}
	insns[SITES] = MOV64_IMM(BPF_REG_0, 1);
	insns[SITES + 1] = EXIT();
	insns[SITES + 2] = MOV64_IMM(BPF_REG_0, 2);
	insns[SITES + 3] = EXIT();
	key = static_key_create(BPF_F_STATIC_KEY, offs, SITES, true);
	/* no log: the verifier's log of 4,100 instructions is longer than verifier_log */
	target = prog_load_full(BPF_PROG_TYPE_SOCKET_FILTER, 0, NULL, insns, SITES + 4, &key, 1,
				0);
	if (target < 0) {
		printf("FAIL: target with 4096 sites: %s\n", errname(target));
		return 1;
	}
	flipper = flipper_load(key, kfunc_id("bpf_static_key_set"), BPF_F_SLEEPABLE);
	if (flipper < 0) {
		printf("FAIL: flipper load: %s\n%s", errname(flipper), verifier_log);
		return 1;
	}

	for (i = 0; i < ARRAY_SIZE(delays_ms); i++) {
		queue(flipper, 1);
		if (delays_ms[i])
			usleep(delays_ms[i] * 1000);
		queue(flipper, 0);
		state = static_key_state(key);
		// CHECK: on, 0 ms, off: state 0
		// CHECK-NEXT: on, 1 ms, off: state 0
		// CHECK-NEXT: on, 2 ms, off: state 0
		// CHECK-NEXT: on, 5 ms, off: state 0
		// CHECK-NEXT: on, 20 ms, off: state 0
		printf("on, %d ms, off: state %d\n", delays_ms[i], state);
		failures += state != 0;
	}
	/* and the sites agree with the state */
	// CHECK-NEXT: target returns 1
	printf("target returns %u\n", prog_run(target));
	// CHECK-NEXT: PASSED
	return finish();
}
