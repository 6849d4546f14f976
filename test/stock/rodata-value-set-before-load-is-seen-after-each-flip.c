// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// A .rodata value set before load (bpfkeys_set_initial_value, the whole
// map's value) is what the program sees at load and after each flip: every
// variant loads against the same frozen .rodata map. filter returns
// filter_value (1 in the source, 7 set here) + data_add (10) + 1000 with
// debug_key on. bpfkeys_initial_value() gives the object's value, then the
// one set; libbpf's full name of the map takes the value as well.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/settings_filter.c -o %t/filter.o
// RUN: %bpfld -o %t/linked.o %t/filter.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o | FileCheck %s
#include "settings_test.h"

static void show_initial_value(struct bpfkeys_object *obj, const char *map)
{
	size_t size = 0;
	const __u32 *value = bpfkeys_initial_value(obj, map, &size);

	if (!value)
		fail("initial value of %s: %s", map, strerror(errno));
	printf("%s: %zu bytes, filter_value %u\n", map, size, *value);
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;
	__u32 filter_value = 7, full_name_value = 8;
	int err;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	obj = settings_open(argv[1]);
	// CHECK: .rodata: 4 bytes, filter_value 1
	show_initial_value(obj, ".rodata");
	err = bpfkeys_set_initial_value(obj, "linked.rodata", &full_name_value,
					sizeof(full_name_value));
	// CHECK-NEXT: linked.rodata: 4 bytes, filter_value 8
	show_initial_value(obj, "linked.rodata");
	if (!err)
		err = bpfkeys_set_initial_value(obj, ".rodata", &filter_value,
						sizeof(filter_value));
	if (err)
		fail("set .rodata: %s", strerror(-err));
	// CHECK-NEXT: .rodata: 4 bytes, filter_value 7
	show_initial_value(obj, ".rodata");
	settings_load(obj);
	// CHECK-NEXT: loaded: debug_key off, filter = 17
	show_filter(obj, "loaded");
	flip_or_fail(obj, "debug_key", true, 1);
	// CHECK-NEXT: flipped on: debug_key on, filter = 1017
	show_filter(obj, "flipped on");
	flip_or_fail(obj, "debug_key", false, 1);
	// CHECK-NEXT: flipped off: debug_key off, filter = 17
	show_filter(obj, "flipped off");
	// CHECK-NEXT: .rodata: 4 bytes, filter_value 7
	show_initial_value(obj, ".rodata");
	bpfkeys_close(obj);
	// CHECK-NOT: print:
	return 0;
}
