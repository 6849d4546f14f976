// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// Keys pinned in bpffs are flipped by another process: a loader attaches
// count_states to veth_rx, pins the object (bpfkeys_pin) and closes it; the
// program stays attached. A child process opens the pins
// (bpfkeys_open_pinned) and flips mode_a and mode_b on: the pinned link now
// runs the new program, its pin in progs/ follows, frames count as "on",
// and the states read back from the pins in a third opening, which flips
// back. While one process holds the pins, another is refused.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/state_counter.c -o %t/counter.o
// RUN: %bpfld -o %t/linked.o %t/counter.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
#include <sys/mount.h>
#include <sys/vfs.h>

#include "veth_traffic.h"

static char pin_dir[128];

static void remove_pins(void)
{
	run_cmd("rm -rf %s", pin_dir);
}

/* bpffs on /sys/fs/bpf, mounted if it is not (idempotent) */
static void mount_bpffs(void)
{
	struct statfs st;

	if (statfs("/sys/fs/bpf", &st) == 0 && st.f_type == 0xcafe4a11)
		return;
	if (mount("bpf", "/sys/fs/bpf", "bpf", 0, NULL))
		fail("mount bpffs: %s", strerror(errno));
}

/* the id of the program pinned as NAME (progs/...), or run by the link NAME (links/...) */
static uint32_t pinned_id(const char *name, bool link)
{
	int fd = pinned_fd(pin_dir, name);
	uint32_t id = link ? link_prog_id(fd) : prog_id_of_fd(fd);

	close(fd);
	return id;
}

static void show_frames(const char *when, int seen_fd, uint64_t total)
{
	struct sockaddr_ll to;
	int sock = packet_socket("veth_tx", &to);

	send_frames(sock, &to, 10);
	wait_for_runs(seen_fd, total);
	close(sock);
	printf("%s: frames off %llu, on %llu, mixed %llu\n", when,
	       (unsigned long long)seen_count(seen_fd, 0),
	       (unsigned long long)seen_count(seen_fd, 1),
	       (unsigned long long)seen_count(seen_fd, 2));
}

/* what the child, another process than the loader, does with the pins */
static int unknown_key_then_both_on(struct bpfkeys_object *pinned)
{
	struct bpfkeys_setting on[] = { { "mode_a", true }, { "mode_b", true } };
	int n;

	printf("child, unknown key: %s\n", strerror(-bpfkeys_set(pinned, "no_such_key", true)));
	n = bpfkeys_flip(pinned, on, 2);
	printf("child, both keys on: replaced %d\n", n);
	return n == 1 ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct bpfkeys_setting off[] = { { "mode_a", false }, { "mode_b", false } };
	struct bpfkeys_object *obj, *other;
	uint32_t first_id;
	int ifindex, seen_fd;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	setvbuf(stderr, NULL, _IONBF, 0);
	mount_bpffs();
	snprintf(pin_dir, sizeof(pin_dir), "/sys/fs/bpf/bpfkeys-stock-test-%d", getpid());
	atexit(remove_pins);
	ifindex = veth_pair_in_own_netns();

	obj = stock_open(argv[1], NULL);
	if (bpfkeys_set_autoload(obj, "count_states_tc", false) || bpfkeys_load(obj) ||
	    !bpfkeys_attach_xdp(obj, "count_states", ifindex) || bpfkeys_pin(obj, pin_dir))
		fail("load, attach, pin: %s", bpfkeys_errmsg(obj));
	first_id = prog_id(obj, "count_states");
	// CHECK: libbpfkeys: /sys/fs/bpf/bpfkeys-stock-test-{{[0-9]+}}: error: /sys/fs/bpf/bpfkeys-stock-test-{{[0-9]+}}: held by another process (one flipper at a time)
	// CHECK-NEXT: second opening while the loader holds the pins: Resource temporarily unavailable
	other = bpfkeys_open_pinned(pin_dir, NULL);
	printf("second opening while the loader holds the pins: %s\n",
	       other ? "opened" : strerror(errno));
	bpfkeys_close(obj);
	seen_fd = pinned_fd(pin_dir, "maps/seen");
	// CHECK-NEXT: loader gone: frames off 10, on 0, mixed 0
	show_frames("loader gone", seen_fd, 10);

	// CHECK-NEXT: libbpfkeys: /sys/fs/bpf/bpfkeys-stock-test-{{[0-9]+}}: error: no static key named 'no_such_key'
	// CHECK-NEXT: child, unknown key: No such file or directory
	// CHECK-NEXT: child, both keys on: replaced 1
	flip_from_pins_in_child(pin_dir, unknown_key_then_both_on);
	// CHECK-NEXT: after the child: pinned link runs the pinned program: yes, a new one: yes
	printf("after the child: pinned link runs the pinned program: %s, a new one: %s\n",
	       pinned_id("links/count_states:0", true) == pinned_id("progs/count_states", false)
		       ? "yes"
		       : "no",
	       pinned_id("progs/count_states", false) != first_id ? "yes" : "no");
	// CHECK-NEXT: after the child: frames off 10, on 10, mixed 0
	show_frames("after the child", seen_fd, 20);

	obj = bpfkeys_open_pinned(pin_dir, NULL);
	if (!obj)
		fail("open pinned: %s", strerror(errno));
	// CHECK-NEXT: states read back: mode_a on, mode_b on
	printf("states read back: mode_a %s, mode_b %s\n",
	       bpfkeys_key_state(obj, "mode_a") ? "on" : "off",
	       bpfkeys_key_state(obj, "mode_b") ? "on" : "off");
	// CHECK-NEXT: both keys off: replaced 1
	printf("both keys off: replaced %d\n", bpfkeys_flip(obj, off, 2));
	bpfkeys_close(obj);
	// CHECK-NEXT: back off: frames off 20, on 10, mixed 0
	show_frames("back off", seen_fd, 30);
	close(seen_fd);
	return 0;
}
