// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// tcx (Linux 6.6+) through a link that libbpf 1.1 cannot make (libbpfkeys
// calls BPF_LINK_CREATE itself): the tc program on veth_rx's ingress,
// driven by frames from its peer while another thread flips mode_a and
// mode_b together: no run saw a mix, the runs counted equal the frames
// sent, and the link runs the program of the last flip.
// The kernel has no tcx before 6.6 (6.1 has only legacy tc).
// REQUIRES: tcx
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/state_counter.c -o %t/counter.o
// RUN: %bpfld -o %t/linked.o %t/counter.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 300 | FileCheck %s
#include "veth_traffic.h"

int main(int argc, char **argv)
{
	struct flipper flipper = { 0 };
	struct bpfkeys_object *obj;
	struct bpfkeys_link *link;
	uint64_t sent;
	int ifindex, seen_fd;

	if (argc != 3)
		fail("usage: %s LINKED.o FLIPS", argv[0]);
	ifindex = veth_pair_in_own_netns();
	obj = stock_open(argv[1], NULL);
	if (bpfkeys_set_autoload(obj, "count_states", false) || bpfkeys_load(obj))
		fail("load: %s", bpfkeys_errmsg(obj));
	link = bpfkeys_attach_tcx(obj, "count_states_tc", ifindex, false);
	if (!link)
		fail("attach: %s", bpfkeys_errmsg(obj));
	seen_fd = bpfkeys_map_fd(obj, "seen");
	flipper.obj = obj;
	flipper.flips = atoi(argv[2]);
	sent = traffic_while_flipping(&flipper, seen_fd, 16);

	// CHECK: flips done: 300
	printf("flips done: %d\n", atomic_load(&flipper.done));
	// CHECK-NEXT: runs that saw a mix: 0
	printf("runs that saw a mix: %llu\n", (unsigned long long)seen_count(seen_fd, 2));
	// CHECK-NEXT: runs counted == frames sent: yes
	printf("runs counted == frames sent: %s\n",
	       runs_counted(seen_fd, STATE_COUNTER_SLOTS) == sent ? "yes" : "no");
	// CHECK-NEXT: both states seen: yes
	printf("both states seen: %s\n",
	       seen_count(seen_fd, 0) && seen_count(seen_fd, 1) ? "yes" : "no");
	// CHECK-NEXT: link is atomic: yes, runs the current program: yes
	printf("link is atomic: %s, runs the current program: %s\n",
	       bpfkeys_link_is_atomic(link) ? "yes" : "no",
	       link_prog_id(bpfkeys_link_fd(link)) == prog_id(obj, "count_states_tc") ? "yes"
										      : "no");
	bpfkeys_close(obj);
	return 0;
}
