// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// bpfkeys_prepare() loads the versions a flip needs before the flip: it
// returns the number of programs the flip replaces, and the flip with the
// same settings then uses them (the library says "2 prepared"): the versions
// it puts in place have ids the kernel gave during the prepare call, before
// the flip, and the programs run with the new states.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/two_keys_returns.c -o %t/two.o
// RUN: %bpfld -o %t/linked.o %t/two.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
#include "prepared_flips.h"

int main(int argc, char **argv)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = keep_flip_line);
	struct bpfkeys_setting a_on = { "key_a", true };
	struct bpfkeys_object *obj;
	uint32_t before, prepared;
	int n;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	obj = stock_open(argv[1], &opts);
	if (bpfkeys_load(obj))
		fail("load: %s", bpfkeys_errmsg(obj));
	before = highest_prog_id();
	n = bpfkeys_prepare(obj, &a_on, 1);
	prepared = highest_prog_id();
	// CHECK: prepare: 2, key_a still off
	printf("prepare: %d, key_a still %s\n", n, bpfkeys_key_state(obj, "key_a") ? "on" : "off");
	// CHECK-NEXT: before the flip: both 1, only_a 10, only_b 20
	print_results(obj, "before the flip");
	n = bpfkeys_flip(obj, &a_on, 1);
	// CHECK-NEXT: flip: 2, 2 program(s) replaced (2 prepared)
	printf("flip: %d, %s\n", n, last_flip);
	// CHECK-NEXT: new versions loaded by the prepare call: yes
	printf("new versions loaded by the prepare call: %s\n",
	       prog_id(obj, "both") > before && prog_id(obj, "both") <= prepared &&
			       prog_id(obj, "only_a") > before && prog_id(obj, "only_a") <= prepared
		       ? "yes"
		       : "no");
	// CHECK-NEXT: after the flip: both 3, only_a 11, only_b 20
	print_results(obj, "after the flip");
	bpfkeys_close(obj);
	return 0;
}
