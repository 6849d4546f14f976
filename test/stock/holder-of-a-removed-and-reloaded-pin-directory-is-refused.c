// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// The lock of a pin directory is on the directory its holder opened: a
// holder whose directory was removed (rm -r) and pinned again by another
// load must not flip into the new one. Loader A pins flip_one on veth_rx
// and keeps the object; the directory is removed; loader B pins the same
// object with flip_two on veth_tx there. A's flip is refused (ESTALE),
// naming the directory, and B's pins are as B left them: its programs, its
// link's program and its states.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/flip_pair.c -o %t/pair.o
// RUN: %bpfld -o %t/linked.o %t/pair.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
//
// CHECK: libbpfkeys: {{.*}}linked.o: error: /sys/fs/bpf/bpfkeys-reloaded-{{[0-9]+}}: removed (and maybe pinned again) since it was opened: the lock is on the old directory; open it again
// CHECK-NEXT: A's flip: Stale file handle
// CHECK-NEXT: B's pins: progs/flip_one unchanged, progs/flip_two unchanged, link runs progs/flip_two: yes
// CHECK-NEXT: B's states: key_a off, key_b off
#include "kill_check.h"

static uint32_t pinned_prog_id(const char *name)
{
	int fd = pinned_fd(kill_pin_dir, name);
	uint32_t id = prog_id_of_fd(fd);

	close(fd);
	return id;
}

int main(int argc, char **argv)
{
	struct bpfkeys_setting on[] = { { "key_a", true }, { "key_b", true } };
	struct bpfkeys_object *a, *b;
	uint32_t one, two;
	int rx, tx, err, link;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	kill_mount_bpffs();
	snprintf(kill_pin_dir, sizeof(kill_pin_dir), "/sys/fs/bpf/bpfkeys-reloaded-%d", getpid());
	atexit(kill_remove_pins);
	rx = veth_pair_in_own_netns();
	tx = (int)if_nametoindex("veth_tx");

	a = stock_open(argv[1], NULL);
	if (bpfkeys_load(a) || !bpfkeys_attach_xdp(a, "flip_one", rx) ||
	    bpfkeys_pin(a, kill_pin_dir))
		fail("A: load, attach, pin: %s", bpfkeys_errmsg(a));
	kill_remove_pins();
	b = stock_open(argv[1], NULL);
	if (bpfkeys_load(b) || !bpfkeys_attach_xdp(b, "flip_two", tx) ||
	    bpfkeys_pin(b, kill_pin_dir))
		fail("B: load, attach, pin: %s", bpfkeys_errmsg(b));
	bpfkeys_close(b);
	one = pinned_prog_id("progs/flip_one");
	two = pinned_prog_id("progs/flip_two");

	err = bpfkeys_flip(a, on, 2);
	printf("A's flip: %s\n", err < 0 ? strerror(-err) : "done");
	link = pinned_fd(kill_pin_dir, "links/flip_two:0");
	printf("B's pins: progs/flip_one %s, progs/flip_two %s, link runs progs/flip_two: %s\n",
	       pinned_prog_id("progs/flip_one") == one ? "unchanged" : "changed",
	       pinned_prog_id("progs/flip_two") == two ? "unchanged" : "changed",
	       link_prog_id(link) == pinned_prog_id("progs/flip_two") ? "yes" : "no");
	close(link);
	bpfkeys_close(a);
	b = bpfkeys_open_pinned(kill_pin_dir, NULL);
	if (!b)
		fail("open B's pins: %s", strerror(errno));
	printf("B's states: key_a %s, key_b %s\n", bpfkeys_key_state(b, "key_a") ? "on" : "off",
	       bpfkeys_key_state(b, "key_b") ? "on" : "off");
	bpfkeys_close(b);
	return 0;
}
