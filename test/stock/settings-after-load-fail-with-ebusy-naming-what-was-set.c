// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// After load every setting is refused with EBUSY, the message naming the
// map, variable or program: the loaded maps keep what they were loaded
// with (filter = 17 with filter_value set to 7 before load), after a flip
// as well.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/settings_filter.c -o %t/filter.o
// RUN: %bpfld -o %t/linked.o %t/filter.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o | FileCheck %s
#include "settings_test.h"

static void show(const char *call, int err)
{
	printf("%s: %s\n", call, strerror(-err));
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;
	__u32 seven = 7, nine = 9;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	obj = settings_open(argv[1]);
	if (bpfkeys_set_global(obj, "filter_value", &seven, sizeof(seven)))
		fail("set_global: %s", bpfkeys_errmsg(obj));
	settings_load(obj);
	// CHECK: loaded: debug_key off, filter = 17
	show_filter(obj, "loaded");
	// CHECK-NEXT: print: libbpfkeys: {{.*}}linked.o: error: global variable 'filter_value': its value is set before load (the object is loaded)
	// CHECK-NEXT: set_global: Device or resource busy
	show("set_global", bpfkeys_set_global(obj, "filter_value", &nine, sizeof(nine)));
	// CHECK-NEXT: print: libbpfkeys: {{.*}}: error: map '.rodata': its initial value is set before load (the object is loaded)
	// CHECK-NEXT: set_initial_value: Device or resource busy
	show("set_initial_value", bpfkeys_set_initial_value(obj, ".rodata", &nine, sizeof(nine)));
	// CHECK-NEXT: print: libbpfkeys: {{.*}}: error: map 'slots': max_entries is set before load (the object is loaded)
	// CHECK-NEXT: set_max_entries: Device or resource busy
	show("set_max_entries", bpfkeys_set_max_entries(obj, "slots", 8));
	// CHECK-NEXT: print: libbpfkeys: {{.*}}: error: map 'slots': a map fd to reuse is set before load (the object is loaded)
	// CHECK-NEXT: reuse_map_fd: Device or resource busy
	show("reuse_map_fd", bpfkeys_reuse_map_fd(obj, "slots", bpfkeys_map_fd(obj, "slots")));
	// CHECK-NEXT: print: libbpfkeys: {{.*}}: error: map 'slots': its pin path is set before load (the object is loaded)
	// CHECK-NEXT: set_map_pin_path: Device or resource busy
	show("set_map_pin_path", bpfkeys_set_map_pin_path(obj, "slots", "/sys/fs/bpf/x"));
	// CHECK-NEXT: print: libbpfkeys: {{.*}}: error: program 'filter': its attach target is set before load (the object is loaded)
	// CHECK-NEXT: set_attach_target: Device or resource busy
	show("set_attach_target", bpfkeys_set_attach_target(obj, "filter", 0, "f"));
	flip_or_fail(obj, "debug_key", true, 1);
	// CHECK-NEXT: flipped: debug_key on, filter = 1017
	show_filter(obj, "flipped");
	bpfkeys_close(obj);
	return 0;
}
