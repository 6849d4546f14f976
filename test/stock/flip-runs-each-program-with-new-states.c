// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// Every program of the end-to-end sources (two objects linked by bpfld, a key
// shared by two programs, a __noinline function and a bpf_loop callback with
// sites) returns, right after each flip of each key, what `bpfkeys lower
// --set` gives for the same states (test/e2e/lowered-sources-run-on-host-kernel.test):
// a flip replaces both programs, since both reach both keys, and a flip to
// the state a key already has replaces none.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %e2e_inputs/e2e_progs.c -o %t/progs.o
// RUN: %bpf_cc %bpf_cflags -c %e2e_inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o | FileCheck %s
#include "stock_test.h"

static void show(struct bpfkeys_object *obj, const char *what, int replaced)
{
	printf("%s: replaced %d, key_a %s, key_b %s: prog_one = %u, prog_two = %u\n", what,
	       replaced, bpfkeys_key_state(obj, "key_a") ? "on" : "off",
	       bpfkeys_key_state(obj, "key_b") ? "on" : "off", run_once(obj, "prog_one"),
	       run_once(obj, "prog_two"));
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	obj = stock_open_and_load(argv[1]);
	// CHECK: initial: replaced 0, key_a off, key_b on: prog_one = 2, prog_two = 32
	show(obj, "initial", 0);
	// CHECK-NEXT: key_a on: replaced 2, key_a on, key_b on: prog_one = 7, prog_two = 56
	show(obj, "key_a on", bpfkeys_set(obj, "key_a", true));
	// CHECK-NEXT: key_b off: replaced 2, key_a on, key_b off: prog_one = 5, prog_two = 24
	show(obj, "key_b off", bpfkeys_set(obj, "key_b", false));
	// CHECK-NEXT: key_a off: replaced 2, key_a off, key_b off: prog_one = 0, prog_two = 0
	show(obj, "key_a off", bpfkeys_set(obj, "key_a", false));
	// CHECK-NEXT: key_a off again: replaced 0, key_a off, key_b off: prog_one = 0, prog_two = 0
	show(obj, "key_a off again", bpfkeys_set(obj, "key_a", false));
	// CHECK-NEXT: key_b on: replaced 2, key_a off, key_b on: prog_one = 2, prog_two = 32
	show(obj, "key_b on", bpfkeys_set(obj, "key_b", true));
	// CHECK-NEXT: both flipped in one call: replaced 2, key_a on, key_b off: prog_one = 5, prog_two = 24
	show(obj, "both flipped in one call",
	     bpfkeys_flip(obj, (struct bpfkeys_setting[]){ { "key_a", true }, { "key_b", false } },
			  2));
	bpfkeys_close(obj);
	printf("done\n");
	// CHECK-NEXT: done
	return 0;
}
