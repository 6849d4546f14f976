// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// bpfkeys_set_max_entries() before load makes the map that size (slots: 4
// in the source, 64 here): it takes 64 keys, not a 65th (E2BIG), and after
// a flip the variant runs on the same map, still of 64 entries, with what
// was written before the flip (filter adds slots[0] = 5000).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/settings_filter.c -o %t/filter.o
// RUN: %bpfld -o %t/linked.o %t/filter.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o | FileCheck %s
#include "settings_test.h"

/* how many keys slots takes from key 0 on, trying one past limit */
static unsigned int fill(int fd, unsigned int limit)
{
	unsigned int n = 0;

	for (__u32 key = 0; key <= limit; key++) {
		__u64 value = key ? key : 5000;

		if (bpf_map_update_elem(fd, &key, &value, BPF_ANY)) {
			printf("key %u refused: %s\n", key, strerror(errno));
			break;
		}
		n++;
	}
	return n;
}

static void show_map(struct bpfkeys_object *obj, const char *when)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	int fd = bpfkeys_map_fd(obj, "slots");

	memset(&info, 0, sizeof(info));
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		fail("slots: %s", strerror(fd < 0 ? -fd : errno));
	printf("%s: slots has max_entries %u (bpfkeys_max_entries %u)\n", when, info.max_entries,
	       bpfkeys_max_entries(obj, "slots"));
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;
	int err;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	obj = settings_open(argv[1]);
	// CHECK: before: slots of 4 entries
	printf("before: slots of %u entries\n", bpfkeys_max_entries(obj, "slots"));
	err = bpfkeys_set_max_entries(obj, "slots", 64);
	if (err)
		fail("set_max_entries: %s", strerror(-err));
	// CHECK-NEXT: set: slots of 64 entries
	printf("set: slots of %u entries\n", bpfkeys_max_entries(obj, "slots"));
	settings_load(obj);
	// CHECK-NEXT: loaded: slots has max_entries 64 (bpfkeys_max_entries 64)
	show_map(obj, "loaded");
	// CHECK-NEXT: key 64 refused: Argument list too long
	// CHECK-NEXT: filled: 64 keys
	printf("filled: %u keys\n", fill(bpfkeys_map_fd(obj, "slots"), 64));
	// CHECK-NEXT: filled: debug_key off, filter = 5011
	show_filter(obj, "filled");
	flip_or_fail(obj, "debug_key", true, 1);
	// CHECK-NEXT: flipped: debug_key on, filter = 6011
	show_filter(obj, "flipped");
	// CHECK-NEXT: flipped: slots has max_entries 64 (bpfkeys_max_entries 64)
	show_map(obj, "flipped");
	// CHECK-NEXT: key 64 refused: Argument list too long
	// CHECK-NEXT: filled again: 64 keys
	printf("filled again: %u keys\n", fill(bpfkeys_map_fd(obj, "slots"), 64));
	bpfkeys_close(obj);
	// CHECK-NOT: print:
	return 0;
}
