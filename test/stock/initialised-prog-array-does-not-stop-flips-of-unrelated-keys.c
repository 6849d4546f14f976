// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A prog array initialised in the object (`.values = { &target }`) does not
// get in the way of a flip whose programs do not include target: other_key
// flips (unrelated is replaced, and runs its new version), the slot keeps
// target, and caller still tail-calls into it.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/tail_call_target.c -o %t/tail.o
// RUN: %bpfld -o %t/linked.o %t/tail.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
#include "stock_test.h"

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;
	uint32_t slot = 0, id, target_id;
	int n;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	obj = stock_open_and_load(argv[1]);
	target_id = prog_id(obj, "target");
	n = bpfkeys_set(obj, "other_key", true);
	// CHECK: other_key on: replaced 1 (unrelated returns 4)
	printf("other_key on: replaced %d (unrelated returns %u)\n", n, run_once(obj, "unrelated"));
	if (bpf_map_lookup_elem(bpfkeys_map_fd(obj, "jump_table"), &slot, &id))
		fail("jump_table[0]: %s", strerror(errno));
	// CHECK-NEXT: slot holds target: yes, caller returns 10
	printf("slot holds target: %s, caller returns %u\n", id == target_id ? "yes" : "no",
	       run_once(obj, "caller"));
	bpfkeys_close(obj);
	return 0;
}
