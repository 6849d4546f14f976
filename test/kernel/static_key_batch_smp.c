// SPDX-License-Identifier: GPL-2.0
// Two vCPUs: a thread on CPU 1 flips the instances of one key in two
// programs (four sites each, 2-byte and 5-byte) with one
// BPF_STATIC_KEY_UPDATE per flip (map_fds of both, one text poke batch)
// while CPU 0 runs the programs in a loop. No crash, every run returns a
// result of its own program (16 * id + a 4-bit mask of the sites that did
// not jump), all-off (5) and all-on (10) are both seen for each program
// (the runs overlapped the flips), and after the flipper stops both
// programs behave as the state last set. Then the same with
// TEST_STATIC_KEY_UPDATE_PER_SITE (the old path, one text_poke_bp() per
// site). A run may see some sites of its program flipped and others not
// (text pokes are not atomic across sites, batched or not): such results
// are counted and printed, not rejected.
//
// qemu runs with single-threaded TCG, as the e2e SMP stress test does (see
// test/e2e/stress-flip-while-running-smp.c: qemu 7.2's multi-threaded TCG
// executes stale translations of cross-modified code).
//
// RUN: env BPFSK_QEMU_SMP=2 BPFSK_QEMU_TCG_THREAD=single BPFSK_QEMU_TIMEOUT=300 %qemu-run %s | FileCheck %s
#define _GNU_SOURCE /* CPU affinity */
#include "static_key_batch.h"
#include <pthread.h>
#include <sched.h>
#include <sys/sysinfo.h>

static int keys[2], progs[2];
static volatile int flipping;
static int flips, flip_flags, flip_errors;

static void *flipper(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < flips; i++) {
		/* ends with i = flips - 1, odd: on */
		if (keys_update(keys, 2, i & 1, flip_flags))
			flip_errors++;
	}
	flipping = 0;
	return NULL;
}

static void stress(const char *what, int n, int flags)
{
	unsigned long counts[2][16] = { { 0 } }, runs = 0, bad = 0, mixed = 0;
	pthread_t t;
	int p, r;

	flips = n;
	flip_flags = flags;
	flip_errors = 0;
	flipping = 1;
	t = start_pinned_or_die(1, "the flipper", flipper, NULL);
	while (flipping) {
		for (p = 0; p < 2; p++) {
			__u32 got = prog_run(progs[p]);

			runs++;
			if (got / 16 != (__u32)p) {
				bad++;
				continue;
			}
			counts[p][got % 16]++;
			if (got % 16 != BATCH_OFF && got % 16 != BATCH_ON)
				mixed++;
		}
	}
	pthread_join(t, NULL);
	printf("%s: %d flips, %d errors, %lu runs, %lu invalid results\n", what, flips,
	       flip_errors, runs, bad);
	for (p = 0; p < 2; p++) {
		printf("%s: p%d all off %s, all on %s\n", what, p,
		       counts[p][BATCH_OFF] ? "seen" : "NOT SEEN",
		       counts[p][BATCH_ON] ? "seen" : "NOT SEEN");
		if (!counts[p][BATCH_OFF] || !counts[p][BATCH_ON])
			failures++;
		for (r = 0; r < 16; r++)
			if (counts[p][r])
				printf("  p%d result %d: %lu runs\n", p, 16 * p + r, counts[p][r]);
	}
	printf("%s: %lu runs saw a flip half done\n", what, mixed);
	if (flip_errors || bad) {
		printf("FAIL: %s\n", what);
		failures++;
	}
	printf("%s final: p0=%u p1=%u\n", what, prog_run(progs[0]), prog_run(progs[1]));
	if (prog_run(progs[0]) != BATCH_ON || prog_run(progs[1]) != 16 + BATCH_ON)
		failures++;
}

int main(void)
{

	require_static_keys_kernel();
	// CHECK: online cpus: 2
	printf("online cpus: %d\n", get_nprocs());
	pin_self_or_die(0);
	batch_load(0, &keys[0], &progs[0]);
	batch_load(1, &keys[1], &progs[1]);

	// CHECK: batch: 1000 flips, 0 errors, {{[0-9]+}} runs, 0 invalid results
	// CHECK-NEXT: batch: p0 all off seen, all on seen
	// CHECK: batch: p1 all off seen, all on seen
	// CHECK: batch final: p0=10 p1=26
	stress("batch", 1000, 0);
	if (keys_update(keys, 2, 0, 0)) {
		printf("FAIL: off\n");
		return 1;
	}
	// CHECK: per-site: 200 flips, 0 errors, {{[0-9]+}} runs, 0 invalid results
	// CHECK-NEXT: per-site: p0 all off seen, all on seen
	// CHECK: per-site: p1 all off seen, all on seen
	// CHECK: per-site final: p0=10 p1=26
	stress("per-site", 200, TEST_STATIC_KEY_UPDATE_PER_SITE);
	// CHECK: PASSED
	return finish();
}
