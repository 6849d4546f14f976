// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A legacy tc filter (bpfkeys_attach_tc: cls_bpf on clsact, for kernels
// without tcx) on veth_rx's ingress, driven by frames from its peer while
// another thread flips mode_a and mode_b together: each flip replaces the
// filter in place (BPF_TC_F_REPLACE), so no run saw a mix, the runs counted
// equal the frames sent, and the filter (same handle and priority) runs the
// program of the last flip. Closing the object removes the filter.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/state_counter.c -o %t/counter.o
// RUN: %bpfld -o %t/linked.o %t/counter.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 300 | FileCheck %s
#include "veth_traffic.h"

/* the program the filter runs now, 0 if there is no filter */
static uint32_t filter_prog_id(int ifindex, uint32_t handle, uint32_t priority)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex, .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = handle, .priority = priority);

	return bpf_tc_query(&hook, &opts) ? 0 : opts.prog_id;
}

int main(int argc, char **argv)
{
	struct flipper flipper = { 0 };
	struct bpfkeys_object *obj;
	struct bpfkeys_link *link;
	unsigned int handle, priority;
	uint64_t sent;
	int ifindex, seen_fd;

	if (argc != 3)
		fail("usage: %s LINKED.o FLIPS", argv[0]);
	ifindex = veth_pair_in_own_netns();
	obj = stock_open(argv[1], NULL);
	if (bpfkeys_set_autoload(obj, "count_states", false) || bpfkeys_load(obj))
		fail("load: %s", bpfkeys_errmsg(obj));
	link = bpfkeys_attach_tc(obj, "count_states_tc", ifindex, false);
	if (!link)
		fail("attach: %s", bpfkeys_errmsg(obj));
	// CHECK: tc filter: ifindex {{[0-9]+}} (veth_rx) ingress, handle [[HANDLE:[0-9]+]], priority [[PRIO:[0-9]+]], link fd -1
	printf("%s filter: %s, link fd %d\n", bpfkeys_link_type(link), bpfkeys_link_target(link),
	       bpfkeys_link_fd(link));
	if (sscanf(strstr(bpfkeys_link_target(link), "handle"), "handle %u, priority %u", &handle,
		   &priority) != 2)
		fail("target: %s", bpfkeys_link_target(link));
	seen_fd = bpfkeys_map_fd(obj, "seen");
	flipper.obj = obj;
	flipper.flips = atoi(argv[2]);
	sent = traffic_while_flipping(&flipper, seen_fd, 16);

	// CHECK-NEXT: flips done: 300
	printf("flips done: %d\n", atomic_load(&flipper.done));
	// CHECK-NEXT: runs that saw a mix: 0
	printf("runs that saw a mix: %llu\n", (unsigned long long)seen_count(seen_fd, 2));
	// CHECK-NEXT: runs counted == frames sent: yes
	printf("runs counted == frames sent: %s\n",
	       runs_counted(seen_fd, STATE_COUNTER_SLOTS) == sent ? "yes" : "no");
	// CHECK-NEXT: both states seen: yes
	printf("both states seen: %s\n",
	       seen_count(seen_fd, 0) && seen_count(seen_fd, 1) ? "yes" : "no");
	// CHECK-NEXT: atomic: yes, the filter runs the current program: yes
	printf("atomic: %s, the filter runs the current program: %s\n",
	       bpfkeys_link_is_atomic(link) ? "yes" : "no",
	       filter_prog_id(ifindex, handle, priority) == prog_id(obj, "count_states_tc") ? "yes"
											    : "no");
	bpfkeys_close(obj);
	// CHECK-NEXT: libbpf: Kernel error message: Cannot find specified filter chain
	// CHECK-NEXT: after close, a filter there: no
	printf("after close, a filter there: %s\n",
	       filter_prog_id(ifindex, handle, priority) ? "yes" : "no");
	return 0;
}
