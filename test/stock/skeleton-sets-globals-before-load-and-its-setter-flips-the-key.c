// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// `bpfkeys gen skeleton` of the resolved object gives a header a user
// program compiles against (with libbpfkeys) and runs on the host's stock
// kernel: .rodata and .data set between open and load hold in the loaded
// programs, .bss reads the counters through the mapped map, the key's
// setter flips it (the XDP program, run by BPF_PROG_TEST_RUN, and the raw
// tracepoint that __attach() attached both take the new state: the link
// followed the flip), and the skeleton's probe says the kernel has no
// static keys.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/skeleton_counter.c -o %t/counter.bpf.o
// RUN: %bpfld -o %t/counter.linked.o %t/counter.bpf.o
// RUN: %bpfkeys resolve %t/counter.linked.o -o %t/counter.resolved.o
// RUN: %bpfkeys gen skeleton %t/counter.resolved.o > %t/counter.skel.h
// RUN: %stock_cc -I%t %s %stock_libs -o %t/test
// RUN: %run %t/test | FileCheck %s
// CHECK: open: rodata multiplier 1, data offset 7
// CHECK-NEXT: loaded: kernel has static keys: no, rodata multiplier 5, my_pid is ours: yes
// CHECK-NEXT: key off: count_runs returns 2, runs 1
// CHECK-NEXT: key off: syscalls counted 0
// CHECK-NEXT: key on: count_runs returns 61, runs 2
// CHECK-NEXT: key on: syscalls counted at least 10: yes
// CHECK-NEXT: key off again: count_runs returns 2, runs 3, syscalls still: yes
#include "stock_test.h"
#include "counter.skel.h"

static unsigned int run_xdp(struct counter *skel)
{
	unsigned char packet[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = packet, .data_size_in = sizeof(packet),
		    .repeat = 1);

	if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.count_runs), &opts))
		fail("test run: %s", strerror(errno));
	return opts.retval;
}

static void some_syscalls(int n)
{
	for (int i = 0; i < n; i++)
		if (getppid() < 0)
			fail("getppid");
}

int main(void)
{
	struct counter *skel;
	unsigned int retval;
	uint64_t before;
	int err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0)
		fail("needs root");
	skel = counter__open();
	if (!skel)
		fail("open: %s", strerror(errno));
	printf("open: rodata multiplier %u, data offset %u\n", skel->rodata->multiplier,
	       skel->data->offset);
	skel->rodata->multiplier = 5;
	skel->rodata->my_pid = (uint32_t)getpid();
	skel->data->offset = 11;
	err = counter__load(skel);
	if (err)
		fail("load: %s (%s)", strerror(-err), bpfkeys_errmsg(skel->obj));
	printf("loaded: kernel has static keys: %s, rodata multiplier %u, my_pid is ours: %s\n",
	       skel->kernel_has_static_keys ? "yes" : "no", skel->rodata->multiplier,
	       skel->rodata->my_pid == (uint32_t)getpid() ? "yes" : "no");
	err = counter__attach(skel);
	if (err || !skel->links.count_syscalls)
		fail("attach: %s", strerror(-err));
	retval = run_xdp(skel);
	printf("key off: count_runs returns %u, runs %llu\n", retval,
	       (unsigned long long)skel->bss->runs);
	some_syscalls(10);
	printf("key off: syscalls counted %llu\n", (unsigned long long)skel->bss->syscalls);

	err = counter__static_keys__set_verbose_key(skel, true);
	if (err)
		fail("set verbose_key on: %s", strerror(-err));
	retval = run_xdp(skel);
	printf("key on: count_runs returns %u, runs %llu\n", retval,
	       (unsigned long long)skel->bss->runs);
	some_syscalls(10);
	printf("key on: syscalls counted at least 10: %s\n",
	       skel->bss->syscalls >= 10 ? "yes" : "no");

	err = counter__static_keys__set_verbose_key(skel, false);
	if (err)
		fail("set verbose_key off: %s", strerror(-err));
	before = skel->bss->syscalls;
	some_syscalls(10);
	retval = run_xdp(skel);
	printf("key off again: count_runs returns %u, runs %llu, syscalls still: %s\n", retval,
	       (unsigned long long)skel->bss->runs, skel->bss->syscalls == before ? "yes" : "no");
	counter__destroy(skel);
	return 0;
}
