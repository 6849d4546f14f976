// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// An object without static keys is one more object libbpfkeys loads, so a
// user needs no second code path: it opens (compiled, linked by bpfld, or
// resolved), has no keys, loads and runs as is; a flip of no key replaces
// nothing, and setting a key it does not have is ENOENT.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/no_keys.c -o %t/no_keys.o
// RUN: %bpfld -o %t/linked.o %t/no_keys.o
// RUN: %bpfkeys resolve %t/linked.o -o %t/resolved.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/no_keys.o | FileCheck %s
// RUN: %run %t/test %t/linked.o | FileCheck %s
// RUN: %run %t/test %t/resolved.o | FileCheck %s
// CHECK: keys 0, programs 1: plain
// CHECK-NEXT: plain returns 2
// CHECK-NEXT: flip of no key: replaced 0
// CHECK-NEXT: set of an unknown key: No such file or directory
// CHECK-NEXT: plain returns 2
#include "stock_test.h"

static int quiet(enum libbpfkeys_print_level level, const char *fmt, va_list ap, void *ctx)
{
	(void)level;
	(void)fmt;
	(void)ap;
	(void)ctx;
	return 0;
}

int main(int argc, char **argv)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = quiet);
	struct bpfkeys_object *obj;
	int err;

	if (argc != 2)
		fail("usage: %s OBJECT.o", argv[0]);
	obj = stock_open(argv[1], &opts);
	err = bpfkeys_load(obj);
	if (err)
		fail("load: %s", bpfkeys_errmsg(obj));
	printf("keys %zu, programs %zu: %s\n", bpfkeys_key_count(obj), bpfkeys_program_count(obj),
	       bpfkeys_program_name(obj, 0));
	printf("plain returns %u\n", run_once(obj, "plain"));
	printf("flip of no key: replaced %d\n", bpfkeys_flip(obj, NULL, 0));
	err = bpfkeys_set(obj, "no_such_key", true);
	printf("set of an unknown key: %s\n", strerror(-err));
	printf("plain returns %u\n", run_once(obj, "plain"));
	bpfkeys_close(obj);
	return 0;
}
