// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// A setting before load that runs out of memory (its first call lowers and
// opens the template, in bpfkeys' core and the library) returns -ENOMEM and
// leaves the object as it was: the same settings made again then hold, at
// load and after a flip (filter = filter_value 7 + data_add 10, + 1000 with
// debug_key on). The test refuses the 1st, then the 2nd, ... allocation of
// libbpfkeys.a during bpfkeys_set_global() and bpfkeys_set_max_entries()
// (ld --wrap), until they get through; LeakSanitizer (sanitized build)
// checks at exit that nothing leaked.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/settings_filter.c -o %t/filter.o
// RUN: %bpfld -o %t/linked.o %t/filter.o
// RUN: %stock_cc %s -Wl,--wrap=calloc,--wrap=malloc,--wrap=realloc %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
#include "stock_test.h"
#include "refuse_nth_allocation.h"

static int set_both(struct bpfkeys_object *obj)
{
	__u32 filter_value = 7;
	int err = bpfkeys_set_global(obj, "filter_value", &filter_value, sizeof(filter_value));

	return err ? err : bpfkeys_set_max_entries(obj, "slots", 64);
}

int main(int argc, char **argv)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = quiet);
	struct bpfkeys_object *obj;
	size_t failed = 0;
	int err;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	setvbuf(stdout, NULL, _IONBF, 0);
	for (size_t n = 1;; n++) {
		obj = stock_open(argv[1], &opts);
		counted = 0;
		refuse_at = n;
		err = set_both(obj);
		refuse_at = 0;
		if (!err) {
			bpfkeys_close(obj);
			break;
		}
		if (err != -ENOMEM)
			fail("allocation %zu refused: %s, not ENOMEM", n, strerror(-err));
		failed++;
		err = set_both(obj);
		if (err)
			fail("allocation %zu refused, then the settings again: %s", n,
			     bpfkeys_errmsg(obj));
		if (bpfkeys_load(obj))
			fail("allocation %zu refused, then load: %s", n, bpfkeys_errmsg(obj));
		if (run_once(obj, "filter") != 17 || bpfkeys_max_entries(obj, "slots") != 64)
			fail("allocation %zu refused: filter = %u, slots of %u", n,
			     run_once(obj, "filter"), bpfkeys_max_entries(obj, "slots"));
		flip_or_fail(obj, "debug_key", true, 1);
		if (run_once(obj, "filter") != 1017)
			fail("allocation %zu refused, then a flip: filter = %u", n,
			     run_once(obj, "filter"));
		bpfkeys_close(obj);
	}
	// CHECK: {{[1-9][0-9]*}} settings with one allocation refused: each ENOMEM, then made again, loaded and flipped
	printf("%zu settings with one allocation refused: each ENOMEM, then made again, loaded and "
	       "flipped\n",
	       failed);
	return 0;
}
