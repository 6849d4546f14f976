// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A pinned flip that cannot record its states (meta frozen: no writes from
// user space) fails with nothing changed, as the header promises: both XDP
// links and progs/ pins still run the old states, no journal or :new pin
// is left, two programs use the object's maps, the states read back off.
// Before, the links had moved when the write failed.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/flip_pair.c -o %t/pair.o
// RUN: %bpfld -o %t/linked.o %t/pair.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
//
// CHECK: libbpfkeys: /sys/fs/bpf/bpfkeys-meta-frozen-{{[0-9]+}}: error: /sys/fs/bpf/bpfkeys-meta-frozen-{{[0-9]+}}/meta: Operation not permitted
// CHECK-NEXT: flip: Operation not permitted
// CHECK-NEXT: after the failed flip: consistent, states key_a off, key_b off
#include "kill_check.h"

int main(int argc, char **argv)
{
	struct bpfkeys_setting on[] = { { "key_a", true }, { "key_b", true } };
	struct bpfkeys_object *obj;
	char why[512];
	int meta, err;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	kill_setup(argv[1], "bpfkeys-meta-frozen");
	meta = pinned_fd(kill_pin_dir, "meta");
	if (bpf_map_freeze(meta))
		fail("freeze meta: %s", strerror(errno));
	close(meta);

	obj = bpfkeys_open_pinned(kill_pin_dir, NULL);
	if (!obj)
		fail("open pinned: %s", strerror(errno));
	err = bpfkeys_flip(obj, on, 2);
	printf("flip: %s\n", err < 0 ? strerror(-err) : "done");
	bpfkeys_close(obj);
	if (kill_check(kill_pin_dir, kill_map_id(kill_pin_dir), why, sizeof(why)))
		fail("after the failed flip: %s", why);
	obj = bpfkeys_open_pinned(kill_pin_dir, NULL);
	if (!obj)
		fail("open pinned: %s", strerror(errno));
	printf("after the failed flip: consistent, states key_a %s, key_b %s\n",
	       bpfkeys_key_state(obj, "key_a") ? "on" : "off",
	       bpfkeys_key_state(obj, "key_b") ? "on" : "off");
	bpfkeys_close(obj);
	return 0;
}
