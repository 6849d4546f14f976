// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A legacy tc filter is no BPF object: nothing holds it that bpffs could
// pin, so another process could not flip it. bpfkeys_pin() of an object
// with one fails with EOPNOTSUPP naming the program before it pins
// anything, and attaching one to an object already pinned fails the same
// way.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/state_counter.c -o %t/counter.o
// RUN: %bpfld -o %t/linked.o %t/counter.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o /sys/fs/bpf/tc-filter-cannot-be-pinned 2>&1 | FileCheck %s
#include "veth_traffic.h"

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj, *pinned;
	int ifindex, err;
	char dir[200], cmd[300];

	if (argc != 3)
		fail("usage: %s LINKED.o PINDIR_PREFIX", argv[0]);
	snprintf(dir, sizeof(dir), "%s-%d", argv[2], (int)getpid());
	ifindex = veth_pair_in_own_netns();
	obj = stock_open_and_load(argv[1]);
	if (!bpfkeys_attach_tc(obj, "count_states_tc", ifindex, false))
		fail("attach: %s", bpfkeys_errmsg(obj));
	// CHECK: libbpfkeys: {{.*}}linked.o: error: program 'count_states_tc': a legacy tc filter is no BPF object and cannot be pinned (another process could not flip it); use tcx (Linux 6.6+)
	// CHECK-NEXT: pin: Operation not supported
	err = bpfkeys_pin(obj, dir);
	printf("pin: %s\n", err ? strerror(-err) : "pinned");
	// CHECK-NEXT: nothing pinned: yes
	printf("nothing pinned: %s\n", access(dir, F_OK) ? "yes" : "no");
	bpfkeys_close(obj);

	pinned = stock_open_and_load(argv[1]);
	if (bpfkeys_pin(pinned, dir))
		fail("pin: %s", bpfkeys_errmsg(pinned));
	// CHECK-NEXT: libbpfkeys: {{.*}}linked.o: error: program 'count_states_tc': a legacy tc filter is no BPF object and cannot be pinned in /sys/fs/bpf/tc-filter-cannot-be-pinned-{{[0-9]+}} (another process could not flip it); use bpfkeys_attach_tcx (Linux 6.6+)
	// CHECK-NEXT: attach to a pinned object: Operation not supported
	printf("attach to a pinned object: %s\n",
	       bpfkeys_attach_tc(pinned, "count_states_tc", ifindex, false) ? "attached"
									    : strerror(errno));
	bpfkeys_close(pinned);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return run_cmd(cmd);
}
