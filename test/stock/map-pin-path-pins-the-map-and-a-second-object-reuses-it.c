// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// bpfkeys_set_map_pin_path() before load: the load pins the map there
// (libbpf's pin path), a second object with the same pin path loads against
// the pinned map (same id), and a flip of either keeps it: a value written
// through one is what the other's program sees. bpfkeys_close() leaves the
// pin (the test removes it).
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
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		fail("map info: %s", strerror(fd < 0 ? -fd : errno));
	return info.id;
}

static struct bpfkeys_object *load_pinned_slots(const char *path, const char *pin)
{
	struct bpfkeys_object *obj = settings_open(path);

	if (bpfkeys_set_map_pin_path(obj, "slots", pin))
		fail("set_map_pin_path: %s", bpfkeys_errmsg(obj));
	settings_load(obj);
	return obj;
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *first, *second;
	char pin[128];
	__u32 zero = 0;
	__u64 value = 5000;
	int pinned;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	snprintf(pin, sizeof(pin), "/sys/fs/bpf/bpfkeys-settings-test-%d", (int)getpid());
	first = load_pinned_slots(argv[1], pin);
	pinned = bpf_obj_get(pin);
	// CHECK: the pin is the first object's map: yes
	printf("the pin is the first object's map: %s\n",
	       map_id(pinned) == map_id(bpfkeys_map_fd(first, "slots")) ? "yes" : "no");
	flip_or_fail(first, "debug_key", true, 1);
	second = load_pinned_slots(argv[1], pin);
	// CHECK-NEXT: the second object reuses it: yes
	printf("the second object reuses it: %s\n",
	       map_id(pinned) == map_id(bpfkeys_map_fd(second, "slots")) ? "yes" : "no");
	if (bpf_map_update_elem(pinned, &zero, &value, BPF_ANY))
		fail("slots[0]: %s", strerror(errno));
	// CHECK-NEXT: first: debug_key on, filter = 6011
	show_filter(first, "first");
	// CHECK-NEXT: second: debug_key off, filter = 5011
	show_filter(second, "second");
	bpfkeys_close(second);
	bpfkeys_close(first);
	close(pinned);
	// CHECK-NEXT: pin left after close: yes
	printf("pin left after close: %s\n", access(pin, F_OK) == 0 ? "yes" : "no");
	if (unlink(pin))
		fail("unlink %s: %s", pin, strerror(errno));
	// CHECK-NOT: print:
	return 0;
}
