// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// bpfkeys_prepare() of a flip whose variant does not verify (bad_key's
// on-branch reads the packet unchecked) fails as the flip would, naming the
// program, and keeps nothing: the key stays off, the programs keep their ids,
// and the flip of good_key after it is lowered then (nothing prepared). A
// prepare before load is refused.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/rejected_when_on.c -o %t/rejected.o
// RUN: %bpfld -o %t/linked.o %t/rejected.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
#include "prepared_flips.h"

int main(int argc, char **argv)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = keep_flip_line);
	struct bpfkeys_setting bad_on = { "bad_key", true };
	struct bpfkeys_object *obj;
	uint32_t steady, breaks;
	int err;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	obj = stock_open(argv[1], &opts);
	// CHECK: libbpfkeys: {{.*}}linked.o: error: a flip is prepared after load
	// CHECK-NEXT: before load: Invalid argument
	printf("before load: %s\n", strerror(-bpfkeys_prepare(obj, &bad_on, 1)));
	if (bpfkeys_load(obj))
		fail("load: %s", bpfkeys_errmsg(obj));
	steady = prog_id(obj, "steady");
	breaks = prog_id(obj, "breaks_when_on");
	err = bpfkeys_prepare(obj, &bad_on, 1);
	// CHECK: libbpfkeys: {{.*}}linked.o: error: program 'breaks_when_on' does not load: Permission denied
	// CHECK-NEXT: prepare: Permission denied, bad_key off, ids unchanged
	printf("prepare: %s, bad_key %s, ids %s\n", strerror(-err),
	       bpfkeys_key_state(obj, "bad_key") ? "on" : "off",
	       prog_id(obj, "steady") == steady && prog_id(obj, "breaks_when_on") == breaks
		       ? "unchanged"
		       : "CHANGED");
	err = bpfkeys_set(obj, "good_key", true);
	// CHECK-NEXT: good_key on: 2, 2 program(s) replaced (0 prepared)
	printf("good_key on: %d, %s\n", err, last_flip);
	bpfkeys_close(obj);
	return 0;
}
