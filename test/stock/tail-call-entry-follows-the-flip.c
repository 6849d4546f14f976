// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A PROG_ARRAY entry that holds a program a flip replaces moves with it, in
// the same flip: caller tail-calls slot 0 of jump_table (initialised in the
// object to target); after target_key flips, the slot holds target's new
// version and a run of caller (BPF_PROG_TEST_RUN) gets the new version's
// result. Flipping back moves it back.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/tail_call_target.c -o %t/tail.o
// RUN: %bpfld -o %t/linked.o %t/tail.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
#include "stock_test.h"

static uint32_t slot_id(struct bpfkeys_object *obj)
{
	uint32_t slot = 0, id;

	if (bpf_map_lookup_elem(bpfkeys_map_fd(obj, "jump_table"), &slot, &id))
		fail("jump_table[0]: %s", strerror(errno));
	return id;
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;
	uint32_t old_id;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	obj = stock_open_and_load(argv[1]);
	old_id = prog_id(obj, "target");
	// CHECK: loaded: caller returns 10, slot holds target: yes
	printf("loaded: caller returns %u, slot holds target: %s\n", run_once(obj, "caller"),
	       slot_id(obj) == old_id ? "yes" : "no");
	flip_or_fail(obj, "target_key", 1, 1);
	// CHECK-NEXT: target_key on: caller returns 20, slot holds the new target: yes
	printf("target_key on: caller returns %u, slot holds the new target: %s\n",
	       run_once(obj, "caller"),
	       slot_id(obj) == prog_id(obj, "target") && slot_id(obj) != old_id ? "yes" : "no");
	flip_or_fail(obj, "target_key", 0, 1);
	// CHECK-NEXT: target_key off: caller returns 10, slot holds the current target: yes
	printf("target_key off: caller returns %u, slot holds the current target: %s\n",
	       run_once(obj, "caller"), slot_id(obj) == prog_id(obj, "target") ? "yes" : "no");
	bpfkeys_close(obj);
	return 0;
}
