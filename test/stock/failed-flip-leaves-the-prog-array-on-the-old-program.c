// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A flip that fails after its variant loaded leaves a PROG_ARRAY entry on the
// old program: target is in slot 0 of jump_table and also on two XDP links;
// the second device is deleted (its link is defunct: BPF_LINK_UPDATE answers
// ENOLINK), so the flip of target_key moves the slot, updates the first link,
// fails on the second and undoes both. The slot holds the old target, caller
// still gets the old behaviour and the key stays off.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/tail_call_target.c -o %t/tail.o
// RUN: %bpfld -o %t/linked.o %t/tail.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
#include "veth_traffic.h"

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;
	struct bpfkeys_link *live, *doomed;
	uint32_t slot = 0, id, target_id;
	int ifindex, err;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	setvbuf(stderr, NULL, _IONBF, 0);
	ifindex = veth_pair_in_own_netns();
	if (run_cmd("ip link add doomed_a type veth peer name doomed_b"))
		fail("second veth pair");
	obj = stock_open_and_load(argv[1]);
	live = bpfkeys_attach_xdp(obj, "target", ifindex);
	doomed = bpfkeys_attach_xdp(obj, "target", (int)if_nametoindex("doomed_b"));
	if (!live || !doomed)
		fail("attach: %s", bpfkeys_errmsg(obj));
	target_id = prog_id(obj, "target");
	if (run_cmd("ip link del doomed_a"))
		fail("ip link del");

	// CHECK: libbpfkeys: {{.*}}linked.o: error: program 'target': link fd {{[0-9]+}} (xdp): BPF_LINK_UPDATE failed: Link has been severed; no link was changed
	// CHECK-NEXT: flip: Link has been severed
	err = bpfkeys_set(obj, "target_key", true);
	printf("flip: %s\n", strerror(-err));
	if (bpf_map_lookup_elem(bpfkeys_map_fd(obj, "jump_table"), &slot, &id))
		fail("jump_table[0]: %s", strerror(errno));
	// CHECK-NEXT: slot holds the old target: yes, live link too: yes
	printf("slot holds the old target: %s, live link too: %s\n", id == target_id ? "yes" : "no",
	       link_prog_id(bpfkeys_link_fd(live)) == target_id ? "yes" : "no");
	// CHECK-NEXT: caller returns 10, target_key off
	printf("caller returns %u, target_key %s\n", run_once(obj, "caller"),
	       bpfkeys_key_state(obj, "target_key") ? "on" : "off");
	bpfkeys_close(obj);
	return 0;
}
