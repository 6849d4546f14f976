// SPDX-License-Identifier: GPL-2.0
// An update of 2,048 keys at once: a key group of an anchor and 2,047
// members (one of them bound to a program) flipped through its anchor, and
// one BPF_STATIC_KEY_UPDATE of 2,048 keys in no group, each bound to its own
// program. Every key takes the new state, every program its new branch, and
// the kernel log gets no warning. Holding one mutex per key, all of one
// lockdep class, overflowed lockdep's 11-bit count of held references at
// 2,048 keys (DEBUG_LOCKS_WARN_ON, lockdep off): on a CONFIG_PROVE_LOCKING
// kernel (scripts/kernel-lockdep-check.sh) this test catches that.
//
// RUN: %qemu-run %s | FileCheck %s
#include <sys/klog.h>
#include <sys/resource.h>

#include "static_key_group.h"

#define KEYS 2048

/* return key ? 2 : 1 */
static const struct bpf_insn one_site_prog[] = {
	MOV64_IMM(BPF_REG_0, 1), GOTOL_OR_NOP(1), EXIT(), MOV64_IMM(BPF_REG_0, 2), EXIT(),
};

static int keys[KEYS], progs[KEYS];

static const char *kernel_log_warning(void)
{
	static char log[1 << 17];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);

	if (n < 0) {
		printf("FAIL: klogctl: %s\n", strerror(errno));
		exit(1);
	}
	log[n] = 0;
	if (strstr(log, "DEBUG_LOCKS_WARN_ON"))
		return "DEBUG_LOCKS_WARN_ON";
	if (strstr(log, "WARNING:"))
		return "WARNING";
	return "none";
}

/* how many of the @n keys read @on */
static int keys_reading(const int *fds, int n, int on)
{
	int i, cnt = 0;

	for (i = 0; i < n; i++)
		cnt += static_key_state(fds[i]) == on;
	return cnt;
}

/* how many of the @n programs return @want */
static int progs_returning(const int *fds, int n, __u32 want)
{
	int i, cnt = 0;

	for (i = 0; i < n; i++)
		cnt += prog_run(fds[i]) == want;
	return cnt;
}

static void group_test(void)
{
	int i, err, bound_prog;

	keys[0] = group_anchor_create(false);
	for (i = 1; i < KEYS; i++) {
		keys[i] =
			group_key_create_raw(BPF_F_STATIC_KEY | BPF_F_STATIC_KEY_JOIN, keys[0], 1);
		if (keys[i] < 0) {
			printf("FAIL: member %d: %s\n", i, errname(keys[i]));
			exit(1);
		}
	}
	group_key_fill(keys[KEYS - 1], (__u32[]){ 1 }, 1);
	bound_prog = prog_load_log(one_site_prog, ARRAY_SIZE(one_site_prog), &keys[KEYS - 1], 1, 0);
	if (bound_prog < 0) {
		printf("FAIL: load: %s\n", errname(bound_prog));
		exit(1);
	}

	err = keys_update(&keys[0], 1, 1, 0);
	// CHECK: group of 2048 on through its anchor: OK, keys on: 2048, program: 2
	printf("group of %d on through its anchor: %s, keys on: %d, program: %u\n", KEYS,
	       errname(err), keys_reading(keys, KEYS, 1), prog_run(bound_prog));
	failures += err != 0 || keys_reading(keys, KEYS, 1) != KEYS;
	err = keys_update(&keys[0], 1, 0, 0);
	// CHECK-NEXT: group of 2048 off through its anchor: OK, keys off: 2048, program: 1
	printf("group of %d off through its anchor: %s, keys off: %d, program: %u\n", KEYS,
	       errname(err), keys_reading(keys, KEYS, 0), prog_run(bound_prog));
	failures += err != 0 || keys_reading(keys, KEYS, 0) != KEYS;

	close(bound_prog);
	for (i = 0; i < KEYS; i++)
		close(keys[i]);
}

static void update_test(void)
{
	int i, err;

	for (i = 0; i < KEYS; i++) {
		keys[i] = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1, true);
		progs[i] = prog_load_log(one_site_prog, ARRAY_SIZE(one_site_prog), &keys[i], 1, 0);
		if (progs[i] < 0) {
			printf("FAIL: load %d: %s\n", i, errname(progs[i]));
			exit(1);
		}
	}

	err = keys_update(keys, KEYS, 1, 0);
	// CHECK-NEXT: 2048 keys on in one update: OK, keys on: 2048, programs returning 2: 2048
	printf("%d keys on in one update: %s, keys on: %d, programs returning 2: %d\n", KEYS,
	       errname(err), keys_reading(keys, KEYS, 1), progs_returning(progs, KEYS, 2));
	failures += err != 0 || progs_returning(progs, KEYS, 2) != KEYS;
	err = keys_update(keys, KEYS, 0, 0);
	// CHECK-NEXT: 2048 keys off in one update: OK, keys off: 2048, programs returning 1: 2048
	printf("%d keys off in one update: %s, keys off: %d, programs returning 1: %d\n", KEYS,
	       errname(err), keys_reading(keys, KEYS, 0), progs_returning(progs, KEYS, 1));
	failures += err != 0 || progs_returning(progs, KEYS, 1) != KEYS;

	/* freeing the programs untracks their keys after the updates */
	for (i = 0; i < KEYS; i++) {
		close(progs[i]);
		close(keys[i]);
	}
}

int main(void)
{
	struct rlimit fds = { .rlim_cur = 3 * KEYS + 64, .rlim_max = 3 * KEYS + 64 };
	const char *warning;

	require_static_keys_kernel();
	if (setrlimit(RLIMIT_NOFILE, &fds)) {
		printf("FAIL: setrlimit: %s\n", strerror(errno));
		return 1;
	}
	// lockdep is on only in a CONFIG_PROVE_LOCKING kernel; not checked here
	printf("lockdep: %s\n", access("/proc/lockdep", F_OK) ? "off" : "on");

	group_test();
	update_test();

	warning = kernel_log_warning();
	// CHECK-NEXT: kernel log warning: none
	printf("kernel log warning: %s\n", warning);
	failures += strcmp(warning, "none") != 0;
	// CHECK: PASSED
	return finish();
}
