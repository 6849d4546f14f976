// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// An sk_lookup program on a netns link (BPF_LINK_TYPE_NETNS, which
// BPF_LINK_UPDATE swaps atomically), run by the kernel's socket lookup of
// each UDP datagram sent to a socket on 127.0.0.1 in a network namespace of
// this process, while another thread flips mode_a and mode_b together 1,000
// times: no run saw a mix, the runs counted equal the datagrams sent, and
// the link runs the program of the last flip.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/sk_lookup_counter.c -o %t/counter.o
// RUN: %bpfld -o %t/linked.o %t/counter.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 1000 | FileCheck %s
#include <fcntl.h>
#include <netinet/in.h>

#include "veth_traffic.h" /* struct flipper, flip_both, seen_count, wait_for_runs */

#define TEST_PORT 40123

static int udp_socket(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);

	if (fd < 0)
		fail("UDP socket: %s", strerror(errno));
	return fd;
}

/* datagrams in batches, each waited for (counted) before the next, while f flips */
static uint64_t datagrams_while_flipping(struct flipper *f, int seen_fd, int batch)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(TEST_PORT),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int rx = udp_socket(), tx = udp_socket();
	uint64_t sent = 0;
	bool last_batch = false;
	pthread_t thread;
	char buf[16];

	if (bind(rx, (struct sockaddr *)&to, sizeof(to)))
		fail("bind 127.0.0.1:%d: %s", TEST_PORT, strerror(errno));
	if (pthread_create(&thread, NULL, flip_both, f))
		fail("pthread_create");
	while (!last_batch) {
		/* one more batch after the last flip: runs of the final program */
		last_batch = atomic_load(&f->finished);
		for (int i = 0; i < batch; i++)
			if (sendto(tx, "x", 1, 0, (struct sockaddr *)&to, sizeof(to)) != 1)
				fail("sendto: %s", strerror(errno));
		sent += (uint64_t)batch;
		wait_for_runs(seen_fd, sent);
		while (recv(rx, buf, sizeof(buf), 0) > 0)
			; /* drained, so that no datagram is dropped for a full queue */
	}
	pthread_join(thread, NULL);
	close(rx);
	close(tx);
	if (f->error[0])
		fail("%s", f->error);
	return sent;
}

int main(int argc, char **argv)
{
	struct flipper flipper = { 0 };
	struct bpfkeys_object *obj;
	struct bpfkeys_link *link;
	uint64_t sent;
	int netns_fd, seen_fd;

	if (argc != 3)
		fail("usage: %s LINKED.o FLIPS", argv[0]);
	if (unshare(CLONE_NEWNET))
		fail("unshare(CLONE_NEWNET): %s", strerror(errno));
	if (run_cmd("ip link set lo up"))
		fail("cannot bring lo up");
	netns_fd = open("/proc/self/ns/net", O_RDONLY);
	if (netns_fd < 0)
		fail("/proc/self/ns/net: %s", strerror(errno));
	obj = stock_open_and_load(argv[1]);
	link = bpfkeys_attach_netns(obj, "count_lookups", netns_fd);
	if (!link)
		fail("attach: %s", bpfkeys_errmsg(obj));
	seen_fd = bpfkeys_map_fd(obj, "seen");
	flipper.obj = obj;
	flipper.flips = atoi(argv[2]);
	sent = datagrams_while_flipping(&flipper, seen_fd, 16);

	// CHECK: flips done: 1000
	printf("flips done: %d\n", atomic_load(&flipper.done));
	// CHECK-NEXT: runs that saw a mix: 0
	printf("runs that saw a mix: %llu\n", (unsigned long long)seen_count(seen_fd, 2));
	// CHECK-NEXT: runs counted == datagrams sent: yes
	printf("runs counted == datagrams sent: %s\n",
	       runs_counted(seen_fd, STATE_COUNTER_SLOTS) == sent ? "yes" : "no");
	// CHECK-NEXT: both states seen: yes
	printf("both states seen: %s\n",
	       seen_count(seen_fd, 0) && seen_count(seen_fd, 1) ? "yes" : "no");
	// CHECK-NEXT: link is atomic: yes, runs the current program: yes
	printf("link is atomic: %s, runs the current program: %s\n",
	       bpfkeys_link_is_atomic(link) ? "yes" : "no",
	       link_prog_id(bpfkeys_link_fd(link)) == prog_id(obj, "count_lookups") ? "yes" : "no");
	bpfkeys_close(obj);
	close(netns_fd);
	return 0;
}
