// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// A global variable set by name before load (bpfkeys_set_global: data_add
// in .data, bss_start in .bss, found in the object's BTF) is what the
// program sees at load and after each flip, and what the loaded .data map
// holds: the variants share the maps. filter returns filter_value (1) +
// data_add (10 in the source, 20 set here) + bss_start (0, 300 set here) +
// 1000 with debug_key on. bpfkeys_global() reads a variable's bytes.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/settings_filter.c -o %t/filter.o
// RUN: %bpfld -o %t/linked.o %t/filter.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o | FileCheck %s
#include "settings_test.h"

static void show_data_map(struct bpfkeys_object *obj)
{
	__u32 zero = 0, value = 0;
	int fd = bpfkeys_map_fd(obj, ".data");

	if (fd < 0 || bpf_map_lookup_elem(fd, &zero, &value))
		fail(".data: %s", strerror(fd < 0 ? -fd : errno));
	printf("the .data map holds data_add = %u\n", value);
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;
	__u32 data_add = 20;
	__u64 bss_start = 300;
	const __u32 *read_back;
	size_t size = 0;
	int err;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	obj = settings_open(argv[1]);
	err = bpfkeys_set_global(obj, "data_add", &data_add, sizeof(data_add));
	if (!err)
		err = bpfkeys_set_global(obj, "bss_start", &bss_start, sizeof(bss_start));
	if (err)
		fail("set_global: %s", strerror(-err));
	read_back = bpfkeys_global(obj, "data_add", &size);
	if (!read_back)
		fail("bpfkeys_global: %s", strerror(errno));
	// CHECK: data_add: 4 bytes, 20
	printf("data_add: %zu bytes, %u\n", size, *read_back);
	settings_load(obj);
	// CHECK-NEXT: loaded: debug_key off, filter = 321
	show_filter(obj, "loaded");
	flip_or_fail(obj, "debug_key", true, 1);
	// CHECK-NEXT: flipped on: debug_key on, filter = 1321
	show_filter(obj, "flipped on");
	// CHECK-NEXT: the .data map holds data_add = 20
	show_data_map(obj);
	flip_or_fail(obj, "debug_key", false, 1);
	// CHECK-NEXT: flipped off: debug_key off, filter = 321
	show_filter(obj, "flipped off");
	bpfkeys_close(obj);
	// CHECK-NOT: print:
	return 0;
}
