// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Makes COUNT getppid(2) calls counted by the pinned Inputs/tracing_counters.c
 * (its pid filter set to this process) and prints each program's counts:
 * "tracepoint: OFF off, ON on" and the same for tp_btf. Usage:
 * pinned_getppid_calls CALLS_PIN COUNT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>

#define PID_SLOT 15

int main(int argc, char **argv)
{
	uint64_t pid = (uint64_t)getpid(), n[4];
	int fd = argc == 3 ? bpf_obj_get(argv[1]) : -1;

	if (fd < 0 || bpf_map_update_elem(fd, &(uint32_t){ PID_SLOT }, &pid, BPF_ANY)) {
		printf("pinned_getppid_calls: %s: cannot open or write\n", argc > 1 ? argv[1] : "");
		return 1;
	}
	for (int i = 0; i < atoi(argv[2]); i++)
		syscall(SYS_getppid);
	for (uint32_t slot = 0; slot < 4; slot++)
		if (bpf_map_lookup_elem(fd, &slot, &n[slot]))
			return 1;
	printf("tracepoint: %llu off, %llu on; tp_btf: %llu off, %llu on\n",
	       (unsigned long long)n[0], (unsigned long long)n[1], (unsigned long long)n[2],
	       (unsigned long long)n[3]);
	return 0;
}
