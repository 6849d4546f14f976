// SPDX-License-Identifier: GPL-2.0
// bpf_static_key_set() from kprobe programs (docs/abi.md "Flipping a key
// from BPF"): a kprobe on getpid sets the key of another program (a socket
// filter) on, one on getppid sets it off. The flip is queued and applied by
// a workqueue: the target program sees it without any further syscall, and
// BPF_OBJ_GET_INFO_BY_FD applies a queued flip before it reports the state,
// so state and target agree right after it, every time. A
// BPF_STATIC_KEY_UPDATE that returns after a flip was queued wins over it
// (last writer wins, the older queued flip is never applied after it). A
// flip of a key whose program is gone is dropped. Closing the kprobe
// programs and the key with flips in flight frees them cleanly.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_kfunc.h"
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	int set, key, target, on_prog, off_prog, on_fd, off_fd, i, bad;
	double start;
	__u32 ret;

	require_static_keys_kernel();
	set = kfunc_id("bpf_static_key_set");
	target = target_load(BPF_F_STATIC_KEY, &key);
	on_prog = kprobe_flipper_load(key, set, 1);
	off_prog = kprobe_flipper_load(key, set, 0);
	kprobe_attach(on_prog, SYSCALL_SYM("getpid"), &on_fd, 1);
	kprobe_attach(off_prog, SYSCALL_SYM("getppid"), &off_fd, 1);

	// CHECK: loaded: state 0, target returns 1
	printf("loaded: state %d, target returns %u\n", static_key_state(key), prog_run(target));

	/* the workqueue applies it: poll the target alone, no state read */
	syscall(SYS_getpid);
	start = now();
	while ((ret = prog_run(target)) != 2 && now() - start < 5)
		usleep(1000);
	// CHECK-NEXT: kprobe on getpid: target returns 2 without a syscall on the key (after {{[0-9]+}} us)
	printf("kprobe on getpid: target returns %u without a syscall on the key (after %.0f us)\n",
	       ret, (now() - start) * 1e6);
	syscall(SYS_getppid);
	start = now();
	while ((ret = prog_run(target)) != 1 && now() - start < 5)
		usleep(1000);
	// CHECK-NEXT: kprobe on getppid: target returns 1 without a syscall on the key (after {{[0-9]+}} us)
	printf("kprobe on getppid: target returns %u without a syscall on the key (after %.0f us)\n",
	       ret, (now() - start) * 1e6);

	/* a state read applies the queued flip first */
	for (i = 0, bad = 0; i < 1000; i++) {
		int want = !(i & 1), state;

		syscall(want ? SYS_getpid : SYS_getppid);
		state = static_key_state(key);
		ret = prog_run(target);
		if (state != want || ret != (__u32)(1 + want)) {
			if (!bad++)
				printf("FAIL: flip %d: want %d, state %d, target %u\n", i, want,
				       state, ret);
		}
	}
	// CHECK-NEXT: 1000 flips, each read back at once: 0 wrong
	printf("1000 flips, each read back at once: %d wrong\n", bad);
	failures += bad != 0;

	/* the syscall after a queued flip wins */
	for (i = 0, bad = 0; i < 200; i++) {
		int want = i & 1, err;

		syscall(want ? SYS_getppid : SYS_getpid);	/* queues !want */
		err = static_key_update(key, want);
		if (i % 20 == 19)
			usleep(20000);	/* the workqueue had its chance */
		if (err || static_key_state(key) != want || prog_run(target) != (__u32)(1 + want)) {
			if (!bad++)
				printf("FAIL: round %d: update %s, state %d, want %d\n", i,
				       errname(err), static_key_state(key), want);
		}
	}
	usleep(50000);
	bad += static_key_state(key) != 1 || prog_run(target) != 2;
	// CHECK-NEXT: 200 queued flips each followed by a syscall flip: 0 lost to an older flip
	printf("200 queued flips each followed by a syscall flip: %d lost to an older flip\n",
	       bad);
	failures += bad != 0;

	/*
	 * The key's program goes (freed after its last fd closes, through RCU
	 * and a work: wait until the syscall says the key is dead); then a
	 * queued flip is dropped.
	 */
	close(target);
	for (i = 0; i < 5000 && static_key_update(key, 1) != -EINVAL; i++)
		usleep(1000);
	syscall(SYS_getppid);
	// CHECK-NEXT: target gone, flip off queued: state 1
	printf("target gone, flip off queued: state %d\n", static_key_state(key));

	/* everything goes with flips in flight */
	for (i = 0; i < 50; i++) {
		syscall(SYS_getpid);
		syscall(SYS_getppid);
	}
	close(on_fd);
	close(off_fd);
	close(on_prog);
	close(off_prog);
	close(key);
	usleep(100000);
	// CHECK-NEXT: closed with flips in flight: OK
	printf("closed with flips in flight: OK\n");
	// CHECK-NEXT: PASSED
	return finish();
}
