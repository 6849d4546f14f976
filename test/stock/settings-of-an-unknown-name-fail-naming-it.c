// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// Each setting of a map, variable or program the object does not have is
// refused with ENOENT, the message naming it (through the print callback),
// and the getters say ENOENT too. The object then loads and flips as if
// nothing had been asked (filter = 11, 1011 with debug_key on).
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
	__u32 four = 4;
	size_t size;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	obj = settings_open(argv[1]);
	// CHECK: print: libbpfkeys: {{.*}}linked.o: error: no map named '.rodata.missing'
	// CHECK-NEXT: set_initial_value: No such file or directory
	show("set_initial_value", bpfkeys_set_initial_value(obj, ".rodata.missing", &four, 4));
	// CHECK-NEXT: print: libbpfkeys: {{.*}}: error: no global variable named 'missing_var' (in the object's BTF)
	// CHECK-NEXT: set_global: No such file or directory
	show("set_global", bpfkeys_set_global(obj, "missing_var", &four, 4));
	// CHECK-NEXT: print: libbpfkeys: {{.*}}: error: no map named 'missing_map'
	// CHECK-NEXT: set_max_entries: No such file or directory
	show("set_max_entries", bpfkeys_set_max_entries(obj, "missing_map", 8));
	// CHECK-NEXT: print: libbpfkeys: {{.*}}: error: no map named 'missing_map'
	// CHECK-NEXT: reuse_map_fd: No such file or directory
	show("reuse_map_fd", bpfkeys_reuse_map_fd(obj, "missing_map", 0));
	// CHECK-NEXT: print: libbpfkeys: {{.*}}: error: no map named 'missing_map'
	// CHECK-NEXT: set_map_pin_path: No such file or directory
	show("set_map_pin_path", bpfkeys_set_map_pin_path(obj, "missing_map", "/sys/fs/bpf/x"));
	// CHECK-NEXT: print: libbpfkeys: {{.*}}: error: no program named 'missing_prog'
	// CHECK-NEXT: set_attach_target: No such file or directory
	show("set_attach_target", bpfkeys_set_attach_target(obj, "missing_prog", 0, "f"));
	// CHECK-NEXT: print: libbpfkeys: {{.*}}: error: no map named 'missing_map'
	// CHECK-NEXT: initial_value: NULL, No such file or directory
	printf("initial_value: %s, %s\n",
	       bpfkeys_initial_value(obj, "missing_map", &size) ? "?" : "NULL", strerror(errno));
	settings_load(obj);
	// CHECK-NEXT: loaded: debug_key off, filter = 11
	show_filter(obj, "loaded");
	flip_or_fail(obj, "debug_key", true, 1);
	// CHECK-NEXT: flipped: debug_key on, filter = 1011
	show_filter(obj, "flipped");
	bpfkeys_close(obj);
	return 0;
}
