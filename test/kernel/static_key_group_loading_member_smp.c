// SPDX-License-Identifier: GPL-2.0
// Two vCPUs: a thread on CPU 1 flips a group through its anchor, over and
// over, while CPU 0 creates members and loads a program bound to each. A
// member whose program is loading takes the group's flips (a key in no
// group would make them fail with EBUSY), and the JIT emits its sites for
// the state the key had when the program bound it: the load brings the
// sites to the group's state before it returns. So every flip succeeds,
// flips do land during loads, and after each load (the flipper paused)
// every program, the new one included, runs as the group's state says.
//
// qemu runs with single-threaded TCG, as the other SMP tests do (see
// test/e2e/stress-flip-while-running-smp.c).
//
// RUN: env BPFSK_QEMU_SMP=2 BPFSK_QEMU_TCG_THREAD=single BPFSK_QEMU_TIMEOUT=300 %qemu-run %s | FileCheck %s
#define _GNU_SOURCE /* CPU affinity */
#include "static_key_group.h"
#include <sys/sysinfo.h>

#define LOADS 24
static int anchor;
static int run = 1;
static long flips, flip_errors;
/* held by the flipper around each flip, by CPU 0 while it checks */
static pthread_mutex_t flip_lock = PTHREAD_MUTEX_INITIALIZER;

static void *flipper(void *arg)
{
	int on = 1;

	(void)arg;
	while (__atomic_load_n(&run, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&flip_lock);
		if (static_key_update(anchor, on))
			flip_errors++;
		__atomic_add_fetch(&flips, 1, __ATOMIC_ACQ_REL);
		pthread_mutex_unlock(&flip_lock);
		on = !on;
		/* let CPU 0 take the lock between flips */
		usleep(50);
	}
	return NULL;
}

int main(void)
{
	int keys[LOADS], progs[LOADS], i, j, bad = 0, loads_with_flips = 0;
	long before;
	pthread_t t;

	require_static_keys_kernel();
	if (get_nprocs() < 2) {
		printf("FAIL: needs 2 CPUs, has %d\n", get_nprocs());
		return 1;
	}
	pin_self_or_die(0);
	anchor = group_anchor_create(false);
	t = start_pinned_or_die(1, "flipper", flipper, NULL);

	for (i = 0; i < LOADS; i++) {
		keys[i] = group_member_create(anchor);
		before = __atomic_load_n(&flips, __ATOMIC_ACQUIRE);
		progs[i] = group_prog_load(i, keys[i]);
		if (__atomic_load_n(&flips, __ATOMIC_ACQUIRE) != before)
			loads_with_flips++;

		pthread_mutex_lock(&flip_lock);
		for (j = 0; j <= i; j++) {
			const char *want = static_key_state(anchor) ? "on" : "off";
			const char *got = group_prog_state(progs[j], j);

			if (strcmp(got, want) || static_key_state(keys[j]) != static_key_state(anchor)) {
				printf("FAIL: after load %d: program %d runs %s, group is %s\n", i, j,
				       got, want);
				bad++;
			}
		}
		pthread_mutex_unlock(&flip_lock);
	}
	__atomic_store_n(&run, 0, __ATOMIC_RELEASE);
	pthread_join(t, NULL);

	printf("%d loads, %ld flips, %d loads with a flip during them\n", LOADS, flips,
	       loads_with_flips);
	// CHECK: flip errors: 0
	printf("flip errors: %ld\n", flip_errors);
	// CHECK-NEXT: programs not in the group's state: 0
	printf("programs not in the group's state: %d\n", bad);
	// CHECK-NEXT: flips landed during loads: yes
	printf("flips landed during loads: %s\n", loads_with_flips ? "yes" : "no");
	failures += bad + (flip_errors != 0) + !loads_with_flips;
	// CHECK-NEXT: PASSED
	return finish();
}
