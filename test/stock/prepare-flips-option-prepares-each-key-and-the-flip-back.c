// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// With the prepare_flips open option, the flip of each key on its own is
// prepared after load and again after each flip, and the versions a flip
// replaces are kept as the flip back: every flip of one key uses prepared
// versions only (the library says so) and the programs run with the states
// set. A flip of both keys at once is not prepared (two keys away) and
// lowers as usual.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/two_keys_returns.c -o %t/two.o
// RUN: %bpfld -o %t/linked.o %t/two.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
#include "prepared_flips.h"

static void flip(struct bpfkeys_object *obj, const char *key, bool on)
{
	int n = bpfkeys_set(obj, key, on);
	char when[64];

	printf("%s %s: %d, %s\n", key, on ? "on" : "off", n, last_flip);
	snprintf(when, sizeof(when), "%s %s", key, on ? "on" : "off");
	print_results(obj, when);
}

int main(int argc, char **argv)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = keep_flip_line, .prepare_flips = true);
	struct bpfkeys_setting both_off[] = { { "key_a", false }, { "key_b", false } };
	struct bpfkeys_object *obj;
	int n;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	obj = stock_open(argv[1], &opts);
	if (bpfkeys_load(obj))
		fail("load: %s", bpfkeys_errmsg(obj));
	// CHECK: key_a on: 2, 2 program(s) replaced (2 prepared)
	// CHECK-NEXT: key_a on: both 3, only_a 11, only_b 20
	flip(obj, "key_a", true);
	// CHECK-NEXT: key_a off: 2, 2 program(s) replaced (2 prepared)
	// CHECK-NEXT: key_a off: both 1, only_a 10, only_b 20
	flip(obj, "key_a", false);
	// CHECK-NEXT: key_b on: 2, 2 program(s) replaced (2 prepared)
	// CHECK-NEXT: key_b on: both 5, only_a 10, only_b 21
	flip(obj, "key_b", true);
	// CHECK-NEXT: key_a on: 2, 2 program(s) replaced (2 prepared)
	// CHECK-NEXT: key_a on: both 7, only_a 11, only_b 21
	flip(obj, "key_a", true);
	n = bpfkeys_flip(obj, both_off, 2);
	// CHECK-NEXT: both off: 3, 3 program(s) replaced (2 prepared)
	printf("both off: %d, %s\n", n, last_flip);
	// CHECK-NEXT: both off: both 1, only_a 10, only_b 20
	print_results(obj, "both off");
	bpfkeys_close(obj);
	return 0;
}
