// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A pinned sk_lookup netns link, flipped by another process, is updated in
// place like the XDP link of pinned-keys-flipped-by-another-process.c: the
// loader attaches count_lookups to this process's network namespace, pins
// the object and closes it; a child process opens the pins and turns both
// keys on. The pinned link is the same link (same id: an attach-then-detach
// link would be a new one), runs the new program, and the next datagram's
// lookup counts as "on".
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/sk_lookup_counter.c -o %t/counter.o
// RUN: %bpfld -o %t/linked.o %t/counter.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
#include <fcntl.h>
#include <netinet/in.h>

#include "veth_traffic.h" /* seen_count, wait_for_runs */

#define TEST_PORT 40123

static char pin_dir[128];

static void remove_pins(void)
{
	run_cmd("rm -rf %s", pin_dir);
}

/* the pinned object's ID (a link's own id, or the id of the program it runs) */
static uint32_t pinned_link(const char *name, bool prog)
{
	struct bpf_link_info info;
	uint32_t len = sizeof(info);
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "links/%s", name);
	fd = pinned_fd(pin_dir, path);
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		fail("%s/%s: %s", pin_dir, path, strerror(errno));
	close(fd);
	return prog ? info.prog_id : info.id;
}

static uint32_t pinned_prog(const char *name)
{
	char path[256];
	uint32_t id;
	int fd;

	snprintf(path, sizeof(path), "progs/%s", name);
	fd = pinned_fd(pin_dir, path);
	id = prog_id_of_fd(fd);
	close(fd);
	return id;
}

static void one_datagram(const char *when, int seen_fd, uint64_t total)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(TEST_PORT),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int rx = socket(AF_INET, SOCK_DGRAM, 0), tx = socket(AF_INET, SOCK_DGRAM, 0);

	if (rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)&to, sizeof(to)) ||
	    sendto(tx, "x", 1, 0, (struct sockaddr *)&to, sizeof(to)) != 1)
		fail("UDP to 127.0.0.1:%d: %s", TEST_PORT, strerror(errno));
	wait_for_runs(seen_fd, total);
	close(rx);
	close(tx);
	printf("%s: lookups off %llu, on %llu, mixed %llu\n", when,
	       (unsigned long long)seen_count(seen_fd, 0),
	       (unsigned long long)seen_count(seen_fd, 1),
	       (unsigned long long)seen_count(seen_fd, 2));
}

/* what the child, another process than the loader, does with the pins */
static int both_keys_on(struct bpfkeys_object *pinned)
{
	struct bpfkeys_setting on[] = { { "mode_a", true }, { "mode_b", true } };
	int n = bpfkeys_flip(pinned, on, 2);

	printf("child, both keys on: replaced %d\n", n);
	return n == 1 ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;
	uint32_t link_id, first_prog;
	int netns_fd, seen_fd;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	setvbuf(stderr, NULL, _IONBF, 0);
	snprintf(pin_dir, sizeof(pin_dir), "/sys/fs/bpf/bpfkeys-netns-test-%d", getpid());
	atexit(remove_pins);
	if (unshare(CLONE_NEWNET) || run_cmd("ip link set lo up"))
		fail("a network namespace of our own: %s", strerror(errno));
	netns_fd = open("/proc/self/ns/net", O_RDONLY);
	if (netns_fd < 0)
		fail("/proc/self/ns/net: %s", strerror(errno));

	obj = stock_open_and_load(argv[1]);
	if (!bpfkeys_attach_netns(obj, "count_lookups", netns_fd) || bpfkeys_pin(obj, pin_dir))
		fail("attach, pin: %s", bpfkeys_errmsg(obj));
	bpfkeys_close(obj);
	close(netns_fd);
	link_id = pinned_link("count_lookups:0", false);
	first_prog = pinned_prog("count_lookups");
	seen_fd = pinned_fd(pin_dir, "maps/seen");
	// CHECK: loader gone: lookups off 1, on 0, mixed 0
	one_datagram("loader gone", seen_fd, 1);

	// CHECK-NEXT: child, both keys on: replaced 1
	flip_from_pins_in_child(pin_dir, both_keys_on);
	// CHECK-NEXT: after the child: the same link: yes, runs the pinned program: yes, a new one: yes
	printf("after the child: the same link: %s, runs the pinned program: %s, a new one: %s\n",
	       pinned_link("count_lookups:0", false) == link_id ? "yes" : "no",
	       pinned_link("count_lookups:0", true) == pinned_prog("count_lookups") ? "yes" : "no",
	       pinned_prog("count_lookups") != first_prog ? "yes" : "no");
	// CHECK-NEXT: after the child: lookups off 1, on 1, mixed 0
	one_datagram("after the child", seen_fd, 2);
	close(seen_fd);
	return 0;
}
