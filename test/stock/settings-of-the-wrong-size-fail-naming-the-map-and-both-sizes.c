// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// A value of the wrong size is refused with EINVAL, the message naming the
// map or variable and both sizes, through the print callback and in
// bpfkeys_errmsg(); an initial value for a map that is not global data is
// refused too. Nothing is changed: the object loads with its own values
// (filter = filter_value 1 + data_add 10), before and after a flip.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/settings_filter.c -o %t/filter.o
// RUN: %bpfld -o %t/linked.o %t/filter.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o | FileCheck %s
#include "settings_test.h"

static void show(struct bpfkeys_object *obj, const char *call, int err)
{
	printf("%s: %s; errmsg: %s\n", call, strerror(-err), bpfkeys_errmsg(obj));
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;
	__u64 eight = 8;
	__u16 two = 2;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	obj = settings_open(argv[1]);
	// CHECK: print: libbpfkeys: {{.*}}linked.o: error: map '.rodata': initial value of 8 bytes, the map's value is 4 bytes
	// CHECK-NEXT: set_initial_value: Invalid argument; errmsg: map '.rodata': initial value of 8 bytes, the map's value is 4 bytes
	show(obj, "set_initial_value",
	     bpfkeys_set_initial_value(obj, ".rodata", &eight, sizeof(eight)));
	// CHECK-NEXT: print: libbpfkeys: {{.*}}: error: global variable 'data_add': value of 2 bytes, the variable has 4 bytes
	// CHECK-NEXT: set_global: Invalid argument; errmsg: global variable 'data_add': value of 2 bytes, the variable has 4 bytes
	show(obj, "set_global", bpfkeys_set_global(obj, "data_add", &two, sizeof(two)));
	// CHECK-NEXT: print: libbpfkeys: {{.*}}: error: map 'slots': not global data (.data, .rodata, .bss): no initial value to set
	show(obj, "set_initial_value", bpfkeys_set_initial_value(obj, "slots", &eight, 8));
	settings_load(obj);
	// CHECK: loaded: debug_key off, filter = 11
	show_filter(obj, "loaded");
	flip_or_fail(obj, "debug_key", true, 1);
	// CHECK-NEXT: flipped: debug_key on, filter = 1011
	show_filter(obj, "flipped");
	bpfkeys_close(obj);
	return 0;
}
