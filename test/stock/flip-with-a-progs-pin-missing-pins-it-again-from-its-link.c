// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A pin directory whose progs/flip_one is gone (removed, or a loader
// killed while pinning) while links/flip_one:0 still runs it: the opener
// pins the program again from the link, says so, and a flip of both keys
// replaces both programs. Before, the flip skipped flip_one and exited 0,
// recording "on" while its link kept running "off".
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/flip_pair.c -o %t/pair.o
// RUN: %bpfld -o %t/linked.o %t/pair.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
//
// CHECK: libbpfkeys: /sys/fs/bpf/bpfkeys-progs-pin-lost-{{[0-9]+}}: warning: /sys/fs/bpf/bpfkeys-progs-pin-lost-{{[0-9]+}}/progs/flip_one was missing: pinned again from /sys/fs/bpf/bpfkeys-progs-pin-lost-{{[0-9]+}}/links/flip_one:0 (program id {{[0-9]+}})
// CHECK-NEXT: both keys on: replaced 2
// CHECK-NEXT: after the flip: consistent, states key_a on, key_b on
#include "kill_check.h"

int main(int argc, char **argv)
{
	struct bpfkeys_setting on[] = { { "key_a", true }, { "key_b", true } };
	struct bpfkeys_object *obj;
	char path[256], why[512];

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	kill_setup(argv[1], "bpfkeys-progs-pin-lost");
	snprintf(path, sizeof(path), "%s/progs/flip_one", kill_pin_dir);
	if (unlink(path))
		fail("unlink %s: %s", path, strerror(errno));

	obj = bpfkeys_open_pinned(kill_pin_dir, NULL);
	if (!obj)
		fail("open pinned: %s", strerror(errno));
	printf("both keys on: replaced %d\n", bpfkeys_flip(obj, on, 2));
	bpfkeys_close(obj);
	if (kill_check(kill_pin_dir, kill_map_id(kill_pin_dir), why, sizeof(why)))
		fail("after the flip: %s", why);
	obj = bpfkeys_open_pinned(kill_pin_dir, NULL);
	if (!obj)
		fail("open pinned: %s", strerror(errno));
	printf("after the flip: consistent, states key_a %s, key_b %s\n",
	       bpfkeys_key_state(obj, "key_a") ? "on" : "off",
	       bpfkeys_key_state(obj, "key_b") ? "on" : "off");
	bpfkeys_close(obj);
	return 0;
}
