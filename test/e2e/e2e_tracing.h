/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the end-to-end tests of tracing programs (fentry, kprobe,
 * tracepoint) with static keys in the patched kernel under qemu: tracefs,
 * the object's internal maps (.bss, as a skeleton's skel->bss), the trace
 * buffer. A kernel without tracing (CONFIG_FTRACE, CONFIG_BPF_EVENTS, ...)
 * makes the tests fail: no tracefs, or the programs do not load or attach.
 */
#ifndef E2E_TRACING_H
#define E2E_TRACING_H

#include "e2e_loader.h"
#include <time.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define E2E_TRACEFS "/sys/kernel/tracing"

/* tracefs at /sys/kernel/tracing: libbpf reads tracepoint ids from it */
static inline void e2e_mount_tracefs(void)
{
	struct stat st;

	if (stat(E2E_TRACEFS, &st)) {
		printf("FAIL: no %s: kernel without tracing (CONFIG_FTRACE)\n", E2E_TRACEFS);
		exit(1);
	}
	if (stat(E2E_TRACEFS "/trace", &st) &&
	    mount("tracefs", E2E_TRACEFS, "tracefs", 0, NULL)) {
		printf("FAIL: mount tracefs: %s\n", strerror(errno));
		exit(1);
	}
}

/* The internal map whose name ends with @suffix (".bss", ".data", ...). */
static inline struct bpf_map *e2e_internal_map(struct bpf_object *obj, const char *suffix)
{
	size_t n = strlen(suffix);
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj) {
		const char *name = bpf_map__name(map);
		size_t len = strlen(name);

		if (len >= n && !strcmp(name + len - n, suffix))
			return map;
	}
	printf("FAIL: no %s map\n", suffix);
	exit(1);
}

/* The mmapped value of an internal map (as skel->bss / skel->data). */
static inline void *e2e_global_data(struct bpf_object *obj, const char *suffix, size_t min)
{
	size_t sz = 0;
	void *p = bpf_map__initial_value(e2e_internal_map(obj, suffix), &sz);

	if (!p || sz < min) {
		printf("FAIL: %s is not mapped (%zu bytes)\n", suffix, sz);
		exit(1);
	}
	return p;
}

/* Lines of the trace buffer that contain @what. */
static inline int e2e_count_trace_lines(const char *what)
{
	char line[1024];
	int n = 0;
	FILE *f = fopen(E2E_TRACEFS "/trace", "r");

	if (!f) {
		printf("FAIL: %s/trace: %s\n", E2E_TRACEFS, strerror(errno));
		failures++;
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (strstr(line, what))
			n++;
	fclose(f);
	return n;
}

static inline struct bpf_link *e2e_attach(struct bpf_program *prog)
{
	struct bpf_link *link = bpf_program__attach(prog);

	if (!link) {
		printf("FAIL: attach %s: %s\n", bpf_program__name(prog), strerror(errno));
		exit(1);
	}
	printf("%s: attached\n", bpf_program__name(prog));
	return link;
}

#endif /* E2E_TRACING_H */
