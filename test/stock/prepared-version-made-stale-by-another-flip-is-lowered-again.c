// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A flip in between invalidates exactly the prepared versions of the
// programs that reach its key: with key_a=on prepared (both, only_a), a flip
// of key_b (both, only_b) makes both's prepared version wrong (lowered with
// key_b off), not only_a's. The flip of key_a then uses only_a's prepared
// version and lowers both again, and every program runs with both keys'
// states.
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
	int n;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	obj = stock_open(argv[1], &opts);
	if (bpfkeys_load(obj))
		fail("load: %s", bpfkeys_errmsg(obj));
	// CHECK: prepare key_a on: 2
	printf("prepare key_a on: %d\n", bpfkeys_prepare(obj, &a_on, 1));
	n = bpfkeys_set(obj, "key_b", true);
	// CHECK-NEXT: key_b on: 2, 2 program(s) replaced (0 prepared)
	printf("key_b on: %d, %s\n", n, last_flip);
	// CHECK-NEXT: key_b on: both 5, only_a 10, only_b 21
	print_results(obj, "key_b on");
	n = bpfkeys_flip(obj, &a_on, 1);
	// CHECK-NEXT: key_a on: 2, 2 program(s) replaced (1 prepared)
	printf("key_a on: %d, %s\n", n, last_flip);
	// CHECK-NEXT: key_a on: both 7, only_a 11, only_b 21
	print_results(obj, "key_a on");
	bpfkeys_close(obj);
	return 0;
}
