// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A raw tracepoint's link cannot be updated: libbpfkeys refuses to attach it unless
// the caller accepts the overlap (BPFKEYS_ATTACH_OVERLAP), then a flip
// attaches the new program before detaching the old one. Outside a flip
// each getppid(2) is counted once, by the version of the current state: 10 calls
// off, a flip, 10 calls on, a flip back, 10 calls off again.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/raw_tp_counter.c -o %t/raw_tp.o
// RUN: %bpfld -o %t/linked.o %t/raw_tp.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
#include <sys/syscall.h>

#include "stock_test.h"

static int calls_fd;

static uint64_t calls(uint32_t slot)
{
	uint64_t n;

	if (bpf_map_lookup_elem(calls_fd, &slot, &n))
		fail("calls[%u]: %s", slot, strerror(errno));
	return n;
}

static void call_getppid(int times)
{
	for (int i = 0; i < times; i++)
		syscall(SYS_getppid);
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;
	struct bpfkeys_link *link;
	uint64_t pid = (uint64_t)getpid(), nr = SYS_getppid;
	uint32_t first_id;
	int n;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	setvbuf(stderr, NULL, _IONBF, 0);
	obj = stock_open_and_load(argv[1]);
	calls_fd = bpfkeys_map_fd(obj, "calls");
	if (bpf_map_update_elem(calls_fd, &(uint32_t){ 2 }, &pid, BPF_ANY) ||
	    bpf_map_update_elem(calls_fd, &(uint32_t){ 3 }, &nr, BPF_ANY))
		fail("pid, syscall: %s", strerror(errno));

	// CHECK: libbpfkeys: {{.*}}linked.o: error: program 'count_syscall' (section raw_tp/sys_enter): its link cannot be updated by BPF_LINK_UPDATE, so a flip would attach the new version before detaching the old one (both run in between); pass BPFKEYS_ATTACH_OVERLAP to accept that, or use bpfkeys_attach_xdp/cgroup/tcx
	// CHECK-NEXT: without BPFKEYS_ATTACH_OVERLAP: Operation not supported
	link = bpfkeys_attach(obj, "count_syscall", 0);
	printf("without BPFKEYS_ATTACH_OVERLAP: %s\n", link ? "attached" : strerror(errno));
	link = bpfkeys_attach(obj, "count_syscall", BPFKEYS_ATTACH_OVERLAP);
	if (!link)
		fail("attach: %s", bpfkeys_errmsg(obj));
	first_id = link_prog_id(bpfkeys_link_fd(link));
	call_getppid(10);
	// CHECK-NEXT: atomic: no; off: 10 calls off, 0 on
	printf("atomic: %s; off: %llu calls off, %llu on\n",
	       bpfkeys_link_is_atomic(link) ? "yes" : "no", (unsigned long long)calls(0),
	       (unsigned long long)calls(1));
	n = bpfkeys_set(obj, "trace_key", true);
	call_getppid(10);
	// CHECK-NEXT: on: replaced 1, 10 calls off, 10 on, the link runs the new program: yes
	printf("on: replaced %d, %llu calls off, %llu on, the link runs the new program: %s\n", n,
	       (unsigned long long)calls(0), (unsigned long long)calls(1),
	       link_prog_id(bpfkeys_link_fd(link)) == prog_id(obj, "count_syscall") &&
			       prog_id(obj, "count_syscall") != first_id
		       ? "yes"
		       : "no");
	n = bpfkeys_set(obj, "trace_key", false);
	call_getppid(10);
	// CHECK-NEXT: off again: replaced 1, 20 calls off, 10 on
	printf("off again: replaced %d, %llu calls off, %llu on\n", n, (unsigned long long)calls(0),
	       (unsigned long long)calls(1));
	bpfkeys_close(obj);
	return 0;
}
