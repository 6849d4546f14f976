// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * syscount PID SECONDS LINKED.o [MAX_SYSCALL_NUMBERS]: counts the system
 * calls of process PID for SECONDS with per_syscall off (the total only),
 * flips it on and counts as long again, now per syscall number (in a map of
 * MAX_SYSCALL_NUMBERS entries, 512 by default), then prints the five most
 * frequent. PID (a .rodata variable) and the map's size are set before
 * load.
 * The program is loaded and flipped with libbpfkeys on a stock kernel: the
 * flip loads the program for the new state and attaches it before the old
 * one is detached (a raw tracepoint link cannot be updated).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpfkeys/libbpfkeys.h>

struct syscall_count {
	uint32_t nr;
	uint64_t n;
};

static int fail(struct bpfkeys_object *obj, const char *what)
{
	fprintf(stderr, "syscount: error: %s: %s\n", what,
		obj ? bpfkeys_errmsg(obj) : strerror(errno));
	bpfkeys_close(obj);
	return 1;
}

/* .bss of the program: struct syscount_state of syscount.bpf.c */
struct bss {
	uint64_t total;
};

static uint64_t total(int bss_fd)
{
	struct bss bss;

	return bpf_map_lookup_elem(bss_fd, &(uint32_t){ 0 }, &bss) ? 0 : bss.total;
}

static int by_count(const void *a, const void *b)
{
	const struct syscall_count *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : (int)x->nr - (int)y->nr;
}

static void print_top(int counts_fd)
{
	struct syscall_count top[512];
	size_t count = 0;
	uint32_t key, *prev = NULL;

	while (count < 512 && !bpf_map_get_next_key(counts_fd, prev, &key)) {
		top[count].nr = key;
		if (!bpf_map_lookup_elem(counts_fd, &key, &top[count].n))
			count++;
		prev = &key;
	}
	qsort(top, count, sizeof(top[0]), by_count);
	printf("per syscall: %zu syscall numbers seen\n", count);
	for (size_t i = 0; i < count && i < 5; i++)
		printf("  syscall %u: %llu\n", top[i].nr, (unsigned long long)top[i].n);
}

int main(int argc, char **argv)
{
	struct bpf_map_info counts_info = { 0 };
	uint32_t info_len = sizeof(counts_info), target_tgid, max_syscalls = 512;
	struct bpfkeys_object *obj;
	uint64_t before;
	int bss_fd, counts_fd, seconds, replaced;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: %s PID SECONDS LINKED.o [MAX_SYSCALL_NUMBERS]\n", argv[0]);
		return 2;
	}
	target_tgid = (uint32_t)atoi(argv[1]);
	seconds = atoi(argv[2]);
	if (argc == 5)
		max_syscalls = (uint32_t)atoi(argv[4]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	obj = bpfkeys_open_file(argv[3], NULL);
	if (!obj)
		return fail(NULL, argv[3]);
	/* before load, as with a libbpf skeleton: every version a flip loads
	 * keeps the filter (.rodata) and the map's size */
	if (bpfkeys_set_global(obj, "target_tgid", &target_tgid, sizeof(target_tgid)))
		return fail(obj, "target_tgid");
	if (bpfkeys_set_max_entries(obj, "counts", max_syscalls))
		return fail(obj, "counts");
	if (bpfkeys_load(obj))
		return fail(obj, "load");
	bss_fd = bpfkeys_map_fd(obj, ".bss");
	counts_fd = bpfkeys_map_fd(obj, "counts");
	if (bpf_obj_get_info_by_fd(counts_fd, &counts_info, &info_len))
		return fail(NULL, "counts");
	printf("counts: a map of %u syscall numbers\n", counts_info.max_entries);
	if (!bpfkeys_attach(obj, "count_syscalls", BPFKEYS_ATTACH_OVERLAP))
		return fail(obj, "attach");

	sleep((unsigned int)seconds);
	before = total(bss_fd);
	printf("per_syscall off: %llu syscalls of pid %u in %d s\n", (unsigned long long)before,
	       target_tgid, seconds);
	print_top(counts_fd);

	replaced = bpfkeys_set(obj, "per_syscall", true);
	if (replaced < 0)
		return fail(obj, "set per_syscall on");
	printf("per_syscall on: %d program(s) replaced\n", replaced);
	sleep((unsigned int)seconds);
	printf("per_syscall on: %llu syscalls of pid %u in %d s\n",
	       (unsigned long long)(total(bss_fd) - before), target_tgid, seconds);
	print_top(counts_fd);
	bpfkeys_close(obj);
	return 0;
}
