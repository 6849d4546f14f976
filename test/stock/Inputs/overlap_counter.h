/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The overlap of a link libbpf attaches by section name (Inputs/
 * tracing_counters.c): one program of the object loaded and attached with
 * BPFKEYS_ATTACH_OVERLAP, 10 events off, a flip, 10 events on, then 20
 * flips while a thread makes events without pause. Outside a flip each
 * event is counted once, by the version of the current state. During a
 * flip the new version is attached before the old one is detached, so no
 * event is missed and the ones in between are counted twice: their number
 * is printed (the window measured as events, not asserted).
 */
#ifndef OVERLAP_COUNTER_H
#define OVERLAP_COUNTER_H

#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>

#include "stock_test.h"

#define PID_SLOT 15 /* tracing_counters.c */
#define OVERLAP_FLIPS 20

static int overlap_calls_fd;
static long overlap_syscall = SYS_getppid;
static atomic_bool overlap_stop;
static atomic_ullong overlap_made;

static uint64_t overlap_slot(uint32_t slot)
{
	uint64_t n;

	if (bpf_map_lookup_elem(overlap_calls_fd, &slot, &n))
		fail("calls[%u]: %s", slot, strerror(errno));
	return n;
}

static uint64_t overlap_counted(void)
{
	uint64_t sum = 0;

	for (uint32_t slot = 0; slot < PID_SLOT; slot++)
		sum += overlap_slot(slot);
	return sum;
}

static void overlap_events(int times)
{
	for (int i = 0; i < times; i++)
		syscall(overlap_syscall, 0);
}

static void *overlap_event_thread(void *arg)
{
	(void)arg;
	while (!atomic_load(&overlap_stop)) {
		syscall(overlap_syscall, 0);
		atomic_fetch_add(&overlap_made, 1);
	}
	return NULL;
}

/* the test of program number `index` of tracing_counters.c; events: SYS_getppid or SYS_getpgid */
static inline int overlap_test(const char *path, const char *program, uint32_t index, long events)
{
	uint64_t pid = (uint64_t)getpid(), before, counted;
	struct bpfkeys_object *obj = stock_open(path, NULL);
	struct bpfkeys_link *link;
	pthread_t thread;
	int n, err;

	overlap_syscall = events;
	for (size_t p = 0; p < bpfkeys_program_count(obj); p++)
		if (bpfkeys_set_autoload(obj, bpfkeys_program_name(obj, p),
					 !strcmp(bpfkeys_program_name(obj, p), program)))
			fail("autoload: %s", bpfkeys_errmsg(obj));
	err = bpfkeys_load(obj);
	if (err)
		fail("load: %s", bpfkeys_errmsg(obj));
	overlap_calls_fd = bpfkeys_map_fd(obj, "calls");
	if (bpf_map_update_elem(overlap_calls_fd, &(uint32_t){ PID_SLOT }, &pid, BPF_ANY))
		fail("pid: %s", strerror(errno));
	link = bpfkeys_attach(obj, program, BPFKEYS_ATTACH_OVERLAP);
	if (!link)
		fail("attach: %s", bpfkeys_errmsg(obj));
	printf("link: %s, %s, atomic: %s\n", bpfkeys_link_type(link), bpfkeys_link_target(link),
	       bpfkeys_link_is_atomic(link) ? "yes" : "no");
	overlap_events(10);
	printf("off: %llu counted off, %llu on\n", (unsigned long long)overlap_slot(2 * index),
	       (unsigned long long)overlap_slot(2 * index + 1));
	n = bpfkeys_set(obj, "trace_key", true);
	overlap_events(10);
	printf("on: %d replaced, %llu counted off, %llu on\n", n,
	       (unsigned long long)overlap_slot(2 * index),
	       (unsigned long long)overlap_slot(2 * index + 1));

	before = overlap_counted();
	if (pthread_create(&thread, NULL, overlap_event_thread, NULL))
		fail("pthread_create");
	for (int i = 0; i < OVERLAP_FLIPS; i++) {
		usleep(2000);
		if (bpfkeys_set(obj, "trace_key", i % 2 != 0) != 1)
			fail("flip %d: %s", i, bpfkeys_errmsg(obj));
	}
	usleep(2000);
	atomic_store(&overlap_stop, true);
	pthread_join(thread, NULL);
	counted = overlap_counted() - before;
	printf("during %d flips: none missed: %s\n", OVERLAP_FLIPS,
	       counted >= atomic_load(&overlap_made) ? "yes" : "no");
	/* to stderr: a measurement, not part of the expected output */
	fprintf(stderr, "overlap: %llu events during %d flips, %llu counted twice\n",
		(unsigned long long)atomic_load(&overlap_made), OVERLAP_FLIPS,
		(unsigned long long)(counted - atomic_load(&overlap_made)));
	bpfkeys_close(obj);
	return 0;
}

#endif /* OVERLAP_COUNTER_H */
