/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Traffic through a swapped attachment: a veth pair (veth_tx -> veth_rx) in
 * a network namespace of this process alone (unshare(CLONE_NEWNET): the
 * kernel removes it and the veths when the process exits, on failure too),
 * test frames (ethertype 0x88b5) sent from veth_tx through an AF_PACKET raw
 * socket, a program of Inputs/state_counter.c attached to veth_rx, and a
 * thread that flips mode_a and mode_b together meanwhile.
 */
#ifndef VETH_TRAFFIC_H
#define VETH_TRAFFIC_H

#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <time.h>

#include "stock_test.h"

#define TEST_PROTO 0x88b5

static inline int packet_socket(const char *ifname, struct sockaddr_ll *to)
{
	int fd = socket(AF_PACKET, SOCK_RAW, 0);

	if (fd < 0)
		fail("AF_PACKET socket: %s", strerror(errno));
	memset(to, 0, sizeof(*to));
	to->sll_family = AF_PACKET;
	to->sll_ifindex = (int)if_nametoindex(ifname);
	to->sll_halen = ETH_ALEN;
	memset(to->sll_addr, 0xff, ETH_ALEN);
	return fd;
}

static inline void send_frames(int fd, const struct sockaddr_ll *to, int count)
{
	unsigned char frame[60] = {0};
	struct ether_header *eth = (struct ether_header *)frame;

	memset(eth->ether_dhost, 0xff, ETH_ALEN);
	eth->ether_shost[0] = 0x02;
	eth->ether_type = htons(TEST_PROTO);
	for (int i = 0; i < count; i++)
		if (sendto(fd, frame, sizeof(frame), 0, (const struct sockaddr *)to, sizeof(*to)) !=
		    (ssize_t)sizeof(frame))
			fail("sendto: %s", strerror(errno));
}

/*
 * Until the kernel's link watch has seen veth_tx's carrier come on (an
 * asynchronous, rate-limited event after `ip link set up`), veth_tx has the
 * noop qdisc, which drops frames while sendto() reports success: a test
 * that counted those frames failed now and then. So wait until a frame
 * sent from veth_tx arrives at a packet socket on veth_rx (no program is
 * attached yet, so nothing counts it), then let stragglers settle and
 * drain them.
 */
static inline void wait_for_carrier(void)
{
	struct sockaddr_ll to, at = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(TEST_PROTO),
		.sll_ifindex = (int)if_nametoindex("veth_rx"),
	};
	struct timeval wait = {.tv_usec = 100000};
	unsigned char buf[128];
	int tx = packet_socket("veth_tx", &to);
	int rx = socket(AF_PACKET, SOCK_RAW, htons(TEST_PROTO));
	bool arrived = false;

	if (rx < 0 || bind(rx, (struct sockaddr *)&at, sizeof(at)) ||
	    setsockopt(rx, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof(wait)))
		fail("packet socket on veth_rx: %s", strerror(errno));
	for (int i = 0; i < 100 && !arrived; i++) {
		send_frames(tx, &to, 1);
		arrived = recv(rx, buf, sizeof(buf), 0) > 0;
	}
	if (!arrived)
		fail("veth_rx: no frame from veth_tx arrived in 10 s");
	while (recv(rx, buf, sizeof(buf), 0) > 0)
		;
	close(rx);
	close(tx);
}

/* a namespace of our own with veth_tx <-> veth_rx up and passing frames;
 * returns veth_rx's ifindex */
static inline int veth_pair_in_own_netns(void)
{
	int ifindex;

	if (unshare(CLONE_NEWNET))
		fail("unshare(CLONE_NEWNET): %s", strerror(errno));
	if (run_cmd("ip link add veth_tx type veth peer name veth_rx") ||
	    run_cmd("ip link set veth_tx up") || run_cmd("ip link set veth_rx up"))
		fail("cannot set up the veth pair");
	ifindex = (int)if_nametoindex("veth_rx");
	if (!ifindex)
		fail("veth_rx: %s", strerror(errno));
	wait_for_carrier();
	return ifindex;
}

/* seen[] of Inputs/state_counter.c and sk_lookup_counter.c: both keys off, both on, a mix */
#define STATE_COUNTER_SLOTS 3

/* wait (5 s at most) until the program has counted `total` runs */
static inline void wait_for_runs(int seen_fd, uint64_t total)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	while (runs_counted(seen_fd, STATE_COUNTER_SLOTS) < total) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec > 5)
			fail("%llu frames sent, %llu runs counted after 5 s", (unsigned long long)total,
			     (unsigned long long)runs_counted(seen_fd, STATE_COUNTER_SLOTS));
		sched_yield();
	}
}

struct flipper {
	struct bpfkeys_object *obj;
	int flips;        /* to do */
	atomic_int done;  /* flips done */
	atomic_bool finished;
	char error[512];
};

/* both keys to the same new state in one call, `flips` times */
static void *flip_both(void *arg)
{
	struct flipper *f = arg;

	for (int i = 0; i < f->flips; i++) {
		bool on = !(i & 1);
		struct bpfkeys_setting both[] = {{"mode_a", on}, {"mode_b", on}};
		int n = bpfkeys_flip(f->obj, both, 2);

		if (n != 1) {
			snprintf(f->error, sizeof(f->error), "flip %d: %d programs replaced (%s)", i, n,
				 bpfkeys_errmsg(f->obj));
			break;
		}
		atomic_fetch_add(&f->done, 1);
	}
	atomic_store(&f->finished, true);
	return NULL;
}

/*
 * Send frames in batches while the flipper runs, each batch waited for
 * (counted by the program) before the next, so that a lost frame shows as a
 * count that never arrives instead of a race with the queue. Returns the
 * number of frames sent.
 */
static inline uint64_t traffic_while_flipping(struct flipper *f, int seen_fd, int batch)
{
	struct sockaddr_ll to;
	int sock = packet_socket("veth_tx", &to);
	uint64_t sent = 0;
	pthread_t thread;
	bool last_batch = false;

	if (pthread_create(&thread, NULL, flip_both, f))
		fail("pthread_create");
	while (!last_batch) {
		/* one more batch after the last flip: runs of the final program */
		last_batch = atomic_load(&f->finished);
		send_frames(sock, &to, batch);
		sent += (uint64_t)batch;
		wait_for_runs(seen_fd, sent);
	}
	pthread_join(thread, NULL);
	close(sock);
	if (f->error[0])
		fail("%s", f->error);
	return sent;
}

#endif /* VETH_TRAFFIC_H */
