// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bootstrap: load the skeleton, attach, and flip the static key
 * trace_events while a thread makes syscalls: off, the program only counts
 * them; on, every one arrives as an event; off again, the events stop.
 * Exits 1 if any phase does not show that.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bootstrap.h"
#include "bootstrap.skel.h"

static atomic_bool stop;

/* the events flow while the key flips: a thread that makes syscalls */
static void *make_syscalls(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop))
		getppid();
	return NULL;
}

static int count_event(void *ctx, void *data, size_t size)
{
	(void)data;
	if (size >= sizeof(struct event))
		(*(unsigned long *)ctx)++;
	return 0;
}

/*
 * The events of about ms milliseconds: from the ring buffer, or, on a kernel
 * without epoll (libbpf's ring buffer needs it), the program's count of them.
 */
static unsigned long poll_events(struct bootstrap *skel, struct ring_buffer *rb,
				 unsigned long *events, int ms)
{
	unsigned long before = *events;

	if (!rb) {
		usleep(ms * 1000);
		*events = skel->bss->traced;
		return *events - before;
	}
	for (int waited = 0; waited < ms; waited += 50)
		if (ring_buffer__poll(rb, 50) < 0)
			break;
	return *events - before;
}

int main(void)
{
	struct bootstrap *skel;
	struct ring_buffer *rb = NULL;
	unsigned long events = 0, seen;
	unsigned long long syscalls;
	pthread_t worker;
	int err, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	skel = bootstrap__open();
	if (!skel) {
		fprintf(stderr, "bootstrap: error: open: %s\n", strerror(errno));
		return 1;
	}
	skel->rodata->target_pid = (unsigned int)getpid(); /* set before load */
	err = bootstrap__load(skel);
	if (!err)
		err = bootstrap__attach(skel);
	if (err) {
		fprintf(stderr, "bootstrap: error: load or attach: %s (%s)\n", strerror(-err),
			bpfkeys_errmsg(skel->obj));
		bootstrap__destroy(skel);
		return 1;
	}
	printf("loaded on a %s kernel; trace_events off\n",
	       skel->kernel_has_static_keys ? "patched" : "stock");
	rb = ring_buffer__new(skel->maps.events, count_event, &events, NULL);
	if (!rb && errno == ENOSYS)
		printf("no epoll in this kernel: events counted by the program\n");
	if ((!rb && errno != ENOSYS) || pthread_create(&worker, NULL, make_syscalls, NULL)) {
		fprintf(stderr, "bootstrap: error: ring buffer or thread: %s\n", strerror(errno));
		ring_buffer__free(rb);
		bootstrap__destroy(skel);
		return 1;
	}

	seen = poll_events(skel, rb, &events, 200);
	syscalls = skel->bss->syscalls;
	printf("key off: syscalls counted: %s, events: %lu\n", syscalls ? "yes" : "no", seen);
	failed |= !syscalls || seen;

	err = bootstrap__static_keys__set_trace_events(skel, true);
	seen = err ? 0 : poll_events(skel, rb, &events, 200);
	printf("key on: events: %s\n", seen ? "yes" : "no");
	failed |= err || !seen;

	err = bootstrap__static_keys__set_trace_events(skel, false);
	usleep(50000); /* a run of the key-on program that started before the flip ends */
	if (rb)
		ring_buffer__consume(rb); /* what the key-on program sent before the flip */
	else
		events = skel->bss->traced;
	syscalls = skel->bss->syscalls;
	seen = err ? 0 : poll_events(skel, rb, &events, 200);
	printf("key off again: new events: %lu, syscalls still counted: %s\n", seen,
	       skel->bss->syscalls > syscalls ? "yes" : "no");
	failed |= err || seen || skel->bss->syscalls <= syscalls;

	atomic_store(&stop, true);
	pthread_join(worker, NULL);
	printf("%lu events in all, %llu dropped\n", events, (unsigned long long)skel->bss->dropped);
	ring_buffer__free(rb);
	bootstrap__destroy(skel);
	return failed;
}
