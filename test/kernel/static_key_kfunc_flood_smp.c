// SPDX-License-Identifier: GPL-2.0
// Two vCPUs flip one key from BPF at once, then a flood of 100,000 flips
// from BPF races user space's flips (docs/abi.md "Flipping a key from
// BPF"). Phase 1: CPU 0 fires kprobe programs that queue flips
// (bpf_static_key_set(), on getpid/getppid) while CPU 1 runs a sleepable
// syscall program that flips synchronously (bpf_static_key_set_sync()).
// Phase 2: CPU 0 fires 100,000 kprobe flips while CPU 1 flips with
// BPF_STATIC_KEY_UPDATE. With kernel.panic_on_warn=1 (a WARN kills the
// guest). After each phase the last writer wins and everything agrees:
// the state in map_extra, the target's result, its jited image (the same
// bytes as after a plain syscall flip to that state) and its xlated
// program (never rewritten); 100 ms later nothing older has overwritten it.
//
// qemu runs with single-threaded TCG, as the other SMP tests (see
// test/e2e/stress-flip-while-running-smp.c).
//
// RUN: env BPFSK_QEMU_SMP=2 BPFSK_QEMU_TCG_THREAD=single BPFSK_QEMU_TIMEOUT=600 %qemu-run %s | FileCheck %s
#define _GNU_SOURCE /* CPU affinity */
#include "static_key_kfunc.h"
#include <pthread.h>
#include <sched.h>
#include <sys/sysinfo.h>

#define JIT_MAX 4096
#define FLOOD 100000

static int key, target, sync_flipper;
static volatile int running;
static int user_flips, user_errors, sync_flips, sync_errors;
static unsigned char jit_state[2][JIT_MAX];
static __u32 jit_len[2];
static struct bpf_insn xlated_loaded[64];
static __u32 xlated_cnt;

static void *kprobe_flood(void *arg)
{
	long n = (long)arg, i;

	for (i = 0; i < n; i++)
		syscall(i & 1 ? SYS_getppid : SYS_getpid);
	running = 0;
	return NULL;
}

static void *sync_flips_loop(void *arg)
{
	(void)arg;
	while (running) {
		__u32 ctx[2] = { sync_flips & 1, 0 };

		if (syscall_prog_run(sync_flipper, ctx))
			sync_errors++;
		sync_flips++;
	}
	return NULL;
}

static void *user_flips_loop(void *arg)
{
	(void)arg;
	while (running) {
		if (static_key_update(key, user_flips & 1))
			user_errors++;
		user_flips++;
	}
	return NULL;
}

/* state, result, jited and xlated agree with @want; prints and counts */
static void check_final(const char *what, int want)
{
	unsigned char jit[JIT_MAX];
	struct bpf_insn xlated[64];
	int state = static_key_state(key), bad = 0;
	__u32 ret = prog_run(target), len = prog_jited(target, jit, sizeof(jit));
	__u32 cnt = prog_xlated(target, xlated, ARRAY_SIZE(xlated));

	bad += state != want || ret != (__u32)(1 + want);
	bad += len != jit_len[want] || memcmp(jit, jit_state[want], len);
	bad += cnt != xlated_cnt || memcmp(xlated, xlated_loaded, cnt * sizeof(*xlated));
	printf("%s: state %d, target returns %u, jited %s, xlated %s\n", what, state, ret,
	       len == jit_len[want] && !memcmp(jit, jit_state[want], len) ? "as set" : "WRONG",
	       cnt == xlated_cnt && !memcmp(xlated, xlated_loaded, cnt * sizeof(*xlated)) ?
	       "as loaded" : "WRONG");
	failures += bad != 0;
}

int main(void)
{
	int set, on_prog, off_prog, on_fd[2], off_fd[2], s;
	pthread_t a, b;

	require_static_keys_kernel();
	if (get_nprocs() < 2) {
		printf("FAIL: %d CPU online, the test needs 2\n", get_nprocs());
		return 1;
	}
	// CHECK: panic_on_warn=1: OK
	must_kernel_sysctl("panic_on_warn", "1");

	set = kfunc_id("bpf_static_key_set");
	target = target_load(BPF_F_STATIC_KEY, &key);
	xlated_cnt = prog_xlated(target, xlated_loaded, ARRAY_SIZE(xlated_loaded));
	for (s = 1; s >= 0; s--) {
		if (static_key_update(key, s)) {
			printf("FAIL: syscall flip to %d\n", s);
			return 1;
		}
		jit_len[s] = prog_jited(target, jit_state[s], JIT_MAX);
	}
	sync_flipper = flipper_load(key, kfunc_id("bpf_static_key_set_sync"), BPF_F_SLEEPABLE);
	on_prog = kprobe_flipper_load(key, set, 1);
	off_prog = kprobe_flipper_load(key, set, 0);
	if (sync_flipper < 0) {
		printf("FAIL: sync flipper: %s\n%s", errname(sync_flipper), verifier_log);
		return 1;
	}
	kprobe_attach(on_prog, SYSCALL_SYM("getpid"), on_fd, 2);
	kprobe_attach(off_prog, SYSCALL_SYM("getppid"), off_fd, 2);

	/* phase 1: queued flips on CPU 0, synchronous ones on CPU 1 */
	running = 1;
	a = start_pinned_or_die(0, "kprobe flips", kprobe_flood, (void *)10000L);
	b = start_pinned_or_die(1, "sync flips", sync_flips_loop, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	// CHECK-NEXT: phase 1: 10000 queued flips on CPU 0, sync flips on CPU 1: 0 failed
	printf("phase 1: 10000 queued flips on CPU 0, sync flips on CPU 1: %d failed\n",
	       sync_errors);
	failures += sync_errors != 0 || sync_flips == 0;
	pin_self_or_die(1);
	{
		__u32 ctx[2] = { 1, 0 };

		s = syscall_prog_run(sync_flipper, ctx);
	}
	usleep(100000);
	// CHECK-NEXT: last writer the sync kfunc, on: state 1, target returns 2, jited as set, xlated as loaded
	check_final("last writer the sync kfunc, on", 1);
	syscall(SYS_getppid);
	// CHECK-NEXT: last writer a kprobe, off: state 0, target returns 1, jited as set, xlated as loaded
	check_final("last writer a kprobe, off", 0);

	/* phase 2: the flood on CPU 0, syscall flips on CPU 1 */
	running = 1;
	a = start_pinned_or_die(0, "kprobe flood", kprobe_flood, (void *)(long)FLOOD);
	b = start_pinned_or_die(1, "syscall flips", user_flips_loop, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	// CHECK-NEXT: phase 2: 100000 queued flips on CPU 0, syscall flips on CPU 1: 0 failed
	printf("phase 2: %d queued flips on CPU 0, syscall flips on CPU 1: %d failed\n", FLOOD,
	       user_errors);
	failures += user_errors != 0 || user_flips == 0;
	// CHECK-NEXT: (syscall flips during the flood: {{[1-9][0-9]*}}, sync flips in phase 1: {{[1-9][0-9]*}})
	printf("(syscall flips during the flood: %d, sync flips in phase 1: %d)\n", user_flips,
	       sync_flips);
	if (static_key_update(key, 1))
		failures++;
	usleep(100000);
	// CHECK-NEXT: last writer user space, on: state 1, target returns 2, jited as set, xlated as loaded
	check_final("last writer user space, on", 1);
	syscall(SYS_getppid);
	usleep(100000);
	// CHECK-NEXT: last writer a kprobe, off: state 0, target returns 1, jited as set, xlated as loaded
	check_final("last writer a kprobe, off", 0);
	// CHECK-NEXT: PASSED
	return finish();
}
