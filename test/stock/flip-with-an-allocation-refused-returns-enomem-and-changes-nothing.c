// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// A flip that runs out of memory anywhere (in the library or inside bpfkeys'
// core, which bails out to the library's call) returns -ENOMEM and changes
// nothing. The test refuses the 1st, then the 2nd, ... allocation that
// libbpfkeys.a makes during bpfkeys_set(obj, "key_a", true) (ld --wrap: the
// library's own calloc/malloc/realloc, not libelf's or libbpf's), until the
// flip gets through: every refused flip returned -ENOMEM, key_a is still
// off, both programs are the same loaded programs and return what they did.
// LeakSanitizer (sanitized build) checks that nothing leaked.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang %bpf_cflags -c %e2e_inputs/e2e_progs.c -o %t/progs.o
// RUN: %clang %bpf_cflags -c %e2e_inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: %stock_cc %s -Wl,--wrap=calloc,--wrap=malloc,--wrap=realloc %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
#include "stock_test.h"
#include "refuse_nth_allocation.h"

int main(int argc, char **argv)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = quiet);
	struct bpfkeys_object *obj;
	unsigned int ret_one, ret_two;
	uint32_t one, two;
	size_t failed = 0;
	int err;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	obj = stock_open(argv[1], &opts);
	if (bpfkeys_load(obj))
		fail("load: %s", bpfkeys_errmsg(obj));
	one = prog_id(obj, "prog_one");
	two = prog_id(obj, "prog_two");
	ret_one = run_once(obj, "prog_one");
	ret_two = run_once(obj, "prog_two");
	for (size_t n = 1;; n++) {
		counted = 0;
		refuse_at = n;
		err = bpfkeys_set(obj, "key_a", true);
		refuse_at = 0;
		if (err >= 0)
			break;
		if (err != -ENOMEM)
			fail("allocation %zu refused: %s, not ENOMEM (%s)", n, strerror(-err),
			     bpfkeys_errmsg(obj));
		if (bpfkeys_key_state(obj, "key_a") != 0 || prog_id(obj, "prog_one") != one ||
		    prog_id(obj, "prog_two") != two || run_once(obj, "prog_one") != ret_one ||
		    run_once(obj, "prog_two") != ret_two)
			fail("allocation %zu refused: the flip changed something", n);
		failed++;
	}
	// CHECK: {{[1-9][0-9]*}} flips with one allocation refused: each ENOMEM, nothing changed
	// CHECK-NEXT: then: 2 program(s) replaced, key_a on, both programs new
	printf("%zu flips with one allocation refused: each ENOMEM, nothing changed\n", failed);
	printf("then: %d program(s) replaced, key_a %s, both programs %s\n", err,
	       bpfkeys_key_state(obj, "key_a") ? "on" : "off",
	       prog_id(obj, "prog_one") != one && prog_id(obj, "prog_two") != two ? "new" : "OLD");
	bpfkeys_close(obj);
	return 0;
}
