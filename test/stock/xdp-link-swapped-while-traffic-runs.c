// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// XDP through a bpf_link on veth_rx, driven by frames sent from its peer,
// while another thread flips mode_a and mode_b together 1,000 times: every
// run saw both keys off or both on (none a mix), each state was seen, the
// runs counted (in a map both versions share) equal the frames sent, .bss
// survived every flip, and the link runs the program of the last flip.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/state_counter.c -o %t/counter.o
// RUN: %bpfld -o %t/linked.o %t/counter.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 1000 | FileCheck %s
#include "veth_traffic.h"

int main(int argc, char **argv)
{
	struct flipper flipper = { 0 };
	struct bpfkeys_object *obj;
	struct bpfkeys_link *link;
	uint64_t sent, bss_runs;
	int ifindex, seen_fd;

	if (argc != 3)
		fail("usage: %s LINKED.o FLIPS", argv[0]);
	ifindex = veth_pair_in_own_netns();
	obj = stock_open(argv[1], NULL);
	if (bpfkeys_set_autoload(obj, "count_states_tc", false) || bpfkeys_load(obj))
		fail("load: %s", bpfkeys_errmsg(obj));
	link = bpfkeys_attach_xdp(obj, "count_states", ifindex);
	if (!link)
		fail("attach: %s", bpfkeys_errmsg(obj));
	seen_fd = bpfkeys_map_fd(obj, "seen");

	flipper.obj = obj;
	flipper.flips = atoi(argv[2]);
	sent = traffic_while_flipping(&flipper, seen_fd, 16);

	if (bpf_map_lookup_elem(bpfkeys_map_fd(obj, ".bss"), &(uint32_t){ 0 }, &bss_runs))
		fail(".bss: %s", strerror(errno));
	// CHECK: flips done: 1000
	printf("flips done: %d\n", atomic_load(&flipper.done));
	// CHECK-NEXT: runs that saw a mix: 0
	printf("runs that saw a mix: %llu\n", (unsigned long long)seen_count(seen_fd, 2));
	// CHECK-NEXT: runs counted == frames sent: yes
	printf("runs counted == frames sent: %s\n",
	       runs_counted(seen_fd, STATE_COUNTER_SLOTS) == sent ? "yes" : "no");
	// CHECK-NEXT: .bss runs == frames sent: yes
	printf(".bss runs == frames sent: %s\n", bss_runs == sent ? "yes" : "no");
	// CHECK-NEXT: both states seen: yes
	printf("both states seen: %s\n",
	       seen_count(seen_fd, 0) && seen_count(seen_fd, 1) ? "yes" : "no");
	// CHECK-NEXT: link runs the current program: yes
	printf("link runs the current program: %s\n",
	       link_prog_id(bpfkeys_link_fd(link)) == prog_id(obj, "count_states") ? "yes" : "no");
	fprintf(stderr, "%llu frames, off %llu, on %llu\n", (unsigned long long)sent,
		(unsigned long long)seen_count(seen_fd, 0),
		(unsigned long long)seen_count(seen_fd, 1));
	bpfkeys_close(obj);
	return 0;
}
