// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A link that cannot be updated makes the flip fail and undoes it: the same
// XDP program is attached to two devices, the second device is deleted (its
// link is left defunct: BPF_LINK_UPDATE answers ENOLINK), and a flip swaps
// the first link, fails on the second and swaps the first one back. The
// error names the program and the link; the key keeps its state, the first
// link its program, and frames on it still count as "off". Once the
// defunct link is destroyed, the same flip works.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/state_counter.c -o %t/counter.o
// RUN: %bpfld -o %t/linked.o %t/counter.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
#include "veth_traffic.h"

int main(int argc, char **argv)
{
	struct bpfkeys_setting both_on[] = { { "mode_a", true }, { "mode_b", true } };
	struct bpfkeys_object *obj;
	struct bpfkeys_link *live, *doomed;
	struct sockaddr_ll to;
	uint32_t id;
	int ifindex, seen_fd, sock, err;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	setvbuf(stderr, NULL, _IONBF, 0);
	ifindex = veth_pair_in_own_netns();
	if (run_cmd("ip link add doomed_a type veth peer name doomed_b") ||
	    run_cmd("ip link set doomed_b up"))
		fail("second veth pair");
	obj = stock_open(argv[1], NULL);
	if (bpfkeys_set_autoload(obj, "count_states_tc", false) || bpfkeys_load(obj))
		fail("load: %s", bpfkeys_errmsg(obj));
	live = bpfkeys_attach_xdp(obj, "count_states", ifindex);
	doomed = bpfkeys_attach_xdp(obj, "count_states", (int)if_nametoindex("doomed_b"));
	if (!live || !doomed)
		fail("attach: %s", bpfkeys_errmsg(obj));
	id = prog_id(obj, "count_states");
	if (run_cmd("ip link del doomed_a"))
		fail("ip link del");

	// CHECK: libbpfkeys: {{.*}}linked.o: error: program 'count_states': link fd {{[0-9]+}} (xdp): BPF_LINK_UPDATE failed: Link has been severed; no link was changed
	// CHECK-NEXT: flip: Link has been severed
	err = bpfkeys_flip(obj, both_on, 2);
	printf("flip: %s\n", strerror(-err));
	// CHECK-NEXT: keys: mode_a off, mode_b off
	printf("keys: mode_a %s, mode_b %s\n", bpfkeys_key_state(obj, "mode_a") ? "on" : "off",
	       bpfkeys_key_state(obj, "mode_b") ? "on" : "off");
	// CHECK-NEXT: program: the same, live link runs it: yes
	printf("program: %s, live link runs it: %s\n",
	       prog_id(obj, "count_states") == id ? "the same" : "OTHER",
	       link_prog_id(bpfkeys_link_fd(live)) == id ? "yes" : "no");
	seen_fd = bpfkeys_map_fd(obj, "seen");
	sock = packet_socket("veth_tx", &to);
	send_frames(sock, &to, 10);
	wait_for_runs(seen_fd, 10);
	// CHECK-NEXT: frames seen off 10, on 0, mixed 0
	printf("frames seen off %llu, on %llu, mixed %llu\n",
	       (unsigned long long)seen_count(seen_fd, 0),
	       (unsigned long long)seen_count(seen_fd, 1),
	       (unsigned long long)seen_count(seen_fd, 2));

	bpfkeys_link_destroy(doomed);
	// CHECK-NEXT: without the defunct link: replaced 1, live link runs the new program: yes
	err = bpfkeys_flip(obj, both_on, 2);
	printf("without the defunct link: replaced %d, live link runs the new program: %s\n", err,
	       link_prog_id(bpfkeys_link_fd(live)) == prog_id(obj, "count_states") &&
			       prog_id(obj, "count_states") != id
		       ? "yes"
		       : "no");
	send_frames(sock, &to, 10);
	wait_for_runs(seen_fd, 20);
	// CHECK-NEXT: frames seen off 10, on 10, mixed 0
	printf("frames seen off %llu, on %llu, mixed %llu\n",
	       (unsigned long long)seen_count(seen_fd, 0),
	       (unsigned long long)seen_count(seen_fd, 1),
	       (unsigned long long)seen_count(seen_fd, 2));
	close(sock);
	bpfkeys_close(obj);
	return 0;
}
