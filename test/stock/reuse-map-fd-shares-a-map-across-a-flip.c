// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// bpfkeys_reuse_map_fd() before load: the second object loads against the
// first one's slots map (same map id), and keeps it through a flip, so a
// value written through either object's fd is what both programs see
// (filter adds slots[0]). A map fd of another shape is refused, naming the
// map and both shapes.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/settings_filter.c -o %t/filter.o
// RUN: %bpfld -o %t/linked.o %t/filter.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o | FileCheck %s
#include "settings_test.h"

static __u32 map_id(int fd)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		fail("map info: %s", strerror(errno));
	return info.id;
}

static void write_slot(struct bpfkeys_object *obj, __u64 value)
{
	__u32 zero = 0;

	if (bpf_map_update_elem(bpfkeys_map_fd(obj, "slots"), &zero, &value, BPF_ANY))
		fail("slots[0]: %s", strerror(errno));
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *first, *second;
	int err;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	first = settings_open(argv[1]);
	settings_load(first);
	second = settings_open(argv[1]);
	// CHECK: print: libbpfkeys: {{.*}}linked.o: error: map 'slots': fd {{[0-9]+}} is a map of type 2, key 4 bytes, value 4 bytes; the object's has type 1, key 4, value 8
	// CHECK-NEXT: reuse of .data for slots: Invalid argument
	err = bpfkeys_reuse_map_fd(second, "slots", bpfkeys_map_fd(first, ".data"));
	printf("reuse of .data for slots: %s\n", strerror(-err));
	err = bpfkeys_reuse_map_fd(second, "slots", bpfkeys_map_fd(first, "slots"));
	if (err)
		fail("reuse_map_fd: %s", bpfkeys_errmsg(second));
	settings_load(second);
	// CHECK-NEXT: one map: yes
	printf("one map: %s\n",
	       map_id(bpfkeys_map_fd(first, "slots")) == map_id(bpfkeys_map_fd(second, "slots"))
		       ? "yes"
		       : "no");
	write_slot(first, 5000);
	// CHECK-NEXT: second, written by the first: debug_key off, filter = 5011
	show_filter(second, "second, written by the first");
	flip_or_fail(second, "debug_key", true, 1);
	// CHECK-NEXT: second, flipped: debug_key on, filter = 6011
	show_filter(second, "second, flipped");
	write_slot(second, 7000);
	// CHECK-NEXT: first, written by the flipped second: debug_key off, filter = 7011
	show_filter(first, "first, written by the flipped second");
	// CHECK-NEXT: still one map: yes
	printf("still one map: %s\n",
	       map_id(bpfkeys_map_fd(first, "slots")) == map_id(bpfkeys_map_fd(second, "slots"))
		       ? "yes"
		       : "no");
	bpfkeys_close(second);
	bpfkeys_close(first);
	return 0;
}
