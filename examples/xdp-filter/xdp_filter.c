// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * xdp-filter: the user side of xdp_filter.bpf.c on libbpfkeys. Before
 * load it sets the port to drop (.rodata) and the size of the sources map,
 * as a libbpf program would on its bpf_object; then it loads, attaches, and
 * flips stats_key, which replaces the program (same maps, same link) by one
 * with or without the statistics branch.
 *
 *   xdp-filter [--port N] [--sources N] --dev IFNAME OBJ
 *	attach to IFNAME and read commands from stdin: `stats on`,
 *	`stats off`, `show`, `quit` (or end of input)
 *   xdp-filter [--port N] [--sources N] --demo OBJ
 *	in a network namespace of its own, a veth pair: attach to one end,
 *	send UDP frames from several sources through the other, flip
 *	stats_key on and off, and show what the program counted each time
 *
 * OBJ is the raw object linked by bpfld (xdp_filter.o).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpfkeys/libbpfkeys.h>

enum { STAT_DROPPED, STAT_PASSED, STAT_UNTRACKED, STAT_COUNT }; /* as xdp_filter.bpf.c */

#define DEMO_SOURCES 8 /* 10.0.0.1 .. 10.0.0.8 */
#define OTHER_PORT 4000

static int usage(void)
{
	fprintf(stderr, "usage: xdp-filter [--port N] [--sources N] --dev IFNAME OBJ\n"
			"       xdp-filter [--port N] [--sources N] --demo OBJ\n");
	return 2;
}

static unsigned long number(const char *option, const char *s, unsigned long max)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(s, &end, 0);
	if (errno || *end || end == s || s[0] == '-' || !n || n > max) {
		fprintf(stderr, "xdp-filter: error: %s %s: expected a number from 1 to %lu\n",
			option, s, max);
		exit(2);
	}
	return n;
}

static __u64 stat(struct bpfkeys_object *obj, __u32 which)
{
	__u64 n = 0;

	bpf_map_lookup_elem(bpfkeys_map_fd(obj, "stats"), &which, &n);
	return n;
}

static unsigned int sources_tracked(struct bpfkeys_object *obj)
{
	int fd = bpfkeys_map_fd(obj, "sources");
	__u32 key, next, *prev = NULL;
	unsigned int n = 0;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		n++;
	}
	return n;
}

static void show(struct bpfkeys_object *obj, const char *what)
{
	printf("%s: dropped %llu, passed %llu; sources tracked %u, untracked packets %llu\n", what,
	       (unsigned long long)stat(obj, STAT_DROPPED),
	       (unsigned long long)stat(obj, STAT_PASSED), sources_tracked(obj),
	       (unsigned long long)stat(obj, STAT_UNTRACKED));
}

/* the loaded size of the program's current version: the statistics
 * branch is there only while stats_key is on */
static unsigned int program_insns(struct bpfkeys_object *obj)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(bpfkeys_program_fd(obj, "xdp_filter"), &info, &len))
		return 0;
	return info.xlated_prog_len / 8;
}

static int set_stats(struct bpfkeys_object *obj, bool on)
{
	unsigned int before = program_insns(obj);
	int replaced = bpfkeys_set(obj, "stats_key", on);

	if (replaced < 0)
		return replaced; /* the library said why */
	printf("stats_key %s: %d program(s) replaced, xdp_filter %u insns (was %u)\n",
	       on ? "on" : "off", replaced, program_insns(obj), before);
	return 0;
}

/* --dev: commands from stdin until quit or end of input */
static int run_commands(struct bpfkeys_object *obj)
{
	char line[64];

	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, "stats on") || !strcmp(line, "stats off")) {
			if (set_stats(obj, !strcmp(line, "stats on")))
				return 1;
		} else if (!strcmp(line, "show")) {
			show(obj, "counters");
		} else if (!strcmp(line, "quit")) {
			break;
		} else if (line[0]) {
			fprintf(stderr,
				"xdp-filter: unknown command '%s' (stats on|off, show, quit)\n",
				line);
		}
	}
	return 0;
}

/* --demo: the traffic, from veth-tx to veth-rx, through AF_PACKET */

static __u16 ip_checksum(const void *header, size_t len)
{
	const __u16 *word = header;
	__u32 sum = 0;

	for (size_t i = 0; i < len / 2; i++)
		sum += word[i];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

static void send_udp(int sock, const struct sockaddr_ll *to, unsigned int source, __u16 port)
{
	unsigned char frame[ETH_ZLEN] = { 0 };
	struct ether_header eth = { .ether_type = htons(ETHERTYPE_IP) };
	struct iphdr ip = { .version = 4, .ihl = 5, .ttl = 64, .protocol = IPPROTO_UDP };
	struct udphdr udp = { .source = htons(1234), .dest = htons(port) };

	/* built apart and copied in: the IP header is not aligned in the frame */
	memset(eth.ether_dhost, 0xff, ETH_ALEN);
	eth.ether_shost[0] = 0x02;
	ip.tot_len = htons(sizeof(frame) - sizeof(eth));
	ip.saddr = htonl(0x0a000000 | source);
	ip.daddr = htonl(0x0a0000fe);
	ip.check = ip_checksum(&ip, sizeof(ip));
	udp.len = htons(sizeof(frame) - sizeof(eth) - sizeof(ip));
	memcpy(frame, &eth, sizeof(eth));
	memcpy(frame + sizeof(eth), &ip, sizeof(ip));
	memcpy(frame + sizeof(eth) + sizeof(ip), &udp, sizeof(udp));
	if (sendto(sock, frame, sizeof(frame), 0, (const struct sockaddr *)to, sizeof(*to)) < 0)
		fprintf(stderr, "xdp-filter: sendto: %s\n", strerror(errno));
}

static int packet_socket(const char *ifname, struct sockaddr_ll *to)
{
	memset(to, 0, sizeof(*to));
	to->sll_family = AF_PACKET;
	to->sll_ifindex = (int)if_nametoindex(ifname);
	to->sll_halen = ETH_ALEN;
	memset(to->sll_addr, 0xff, ETH_ALEN);
	return socket(AF_PACKET, SOCK_RAW, 0);
}

/* Until the kernel's link watch sees veth-tx's carrier (some time after
 * `ip link set up`), frames sent there are dropped: wait until one arrives
 * on veth-rx, before anything is attached. */
static int wait_for_carrier(int tx, const struct sockaddr_ll *to)
{
	struct sockaddr_ll at = { .sll_family = AF_PACKET,
				  .sll_protocol = htons(ETH_P_ALL),
				  .sll_ifindex = (int)if_nametoindex("veth-rx") };
	struct timeval wait = { .tv_usec = 100000 };
	unsigned char buf[ETH_FRAME_LEN];
	int rx = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL)), arrived = 0;

	if (rx < 0 || bind(rx, (struct sockaddr *)&at, sizeof(at)) ||
	    setsockopt(rx, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof(wait)))
		return -1;
	for (int i = 0; i < 100 && !arrived; i++) {
		send_udp(tx, to, 100, OTHER_PORT);
		arrived = recv(rx, buf, sizeof(buf), 0) > 0;
	}
	close(rx);
	return arrived ? 0 : -1;
}

/* one frame from each source to the blocked port and one to another, then
 * wait until the program has seen them all */
static int send_round(struct bpfkeys_object *obj, int tx, const struct sockaddr_ll *to, __u16 port)
{
	__u64 before = stat(obj, STAT_DROPPED) + stat(obj, STAT_PASSED);
	struct timespec start, now;

	for (unsigned int s = 1; s <= DEMO_SOURCES; s++) {
		send_udp(tx, to, s, port);
		send_udp(tx, to, s, OTHER_PORT);
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (stat(obj, STAT_DROPPED) + stat(obj, STAT_PASSED) < before + 2 * DEMO_SOURCES) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec > 5) {
			fprintf(stderr, "xdp-filter: error: frames sent but not seen in 5 s\n");
			return -1;
		}
		sched_yield();
	}
	return 0;
}

static int run_demo(struct bpfkeys_object *obj, __u16 port)
{
	struct sockaddr_ll to;
	int tx, rc = 1;

	if (unshare(CLONE_NEWNET)) {
		fprintf(stderr, "xdp-filter: error: unshare(CLONE_NEWNET): %s (run as root)\n",
			strerror(errno));
		return 1;
	}
	if (system("ip link add veth-tx type veth peer name veth-rx && ip link set veth-tx up && "
		   "ip link set veth-rx up")) {
		fprintf(stderr, "xdp-filter: error: cannot set up the veth pair\n");
		return 1;
	}
	tx = packet_socket("veth-tx", &to);
	if (tx < 0 || wait_for_carrier(tx, &to)) {
		fprintf(stderr, "xdp-filter: error: no frame from veth-tx arrived on veth-rx\n");
		goto out;
	}
	if (!bpfkeys_attach_xdp(obj, "xdp_filter", (int)if_nametoindex("veth-rx")))
		goto out;
	printf("attached to veth-rx (XDP link, a network namespace of its own)\n");
	printf("each round: %d sources, one UDP frame each to port %u and to port %u\n",
	       DEMO_SOURCES, port, OTHER_PORT);
	if (send_round(obj, tx, &to, port))
		goto out;
	show(obj, "stats_key off");
	if (set_stats(obj, true) || send_round(obj, tx, &to, port))
		goto out;
	show(obj, "stats_key on");
	if (set_stats(obj, false) || send_round(obj, tx, &to, port))
		goto out;
	show(obj, "stats_key off");
	rc = 0;
out:
	if (tx >= 0)
		close(tx);
	return rc; /* the namespace and its veths go with the process */
}

int main(int argc, char **argv)
{
	const char *dev = NULL, *path;
	unsigned long port = 53, sources = 4;
	bool demo = false;
	struct bpfkeys_object *obj;
	int i, rc = 1;
	__u16 blocked;

	for (i = 1; i < argc - 1 && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--demo"))
			demo = true;
		else if (!strcmp(argv[i], "--port") && i + 2 < argc)
			port = number("--port", argv[++i], 65535);
		else if (!strcmp(argv[i], "--sources") && i + 2 < argc)
			sources = number("--sources", argv[++i], 1u << 20);
		else if (!strcmp(argv[i], "--dev") && i + 2 < argc)
			dev = argv[++i];
		else
			return usage();
	}
	if (i != argc - 1 || demo == !!dev)
		return usage();
	path = argv[i];
	if (dev && !if_nametoindex(dev)) {
		fprintf(stderr, "xdp-filter: error: --dev %s: no such device\n", dev);
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	obj = bpfkeys_open_file(path, NULL); /* errors go to stderr */
	if (!obj)
		return 1;
	/* before load, as on a bpf_object: every flip keeps both */
	blocked = (__u16)port;
	if (bpfkeys_set_global(obj, "blocked_port", &blocked, sizeof(blocked)) ||
	    bpfkeys_set_max_entries(obj, "sources", (__u32)sources) || bpfkeys_load(obj))
		goto out;
	printf("loaded %s: blocked UDP port %u (.rodata), sources map of %u entries\n", path,
	       blocked, bpfkeys_max_entries(obj, "sources"));
	if (demo) {
		rc = run_demo(obj, blocked);
	} else if (!bpfkeys_attach_xdp(obj, "xdp_filter", (int)if_nametoindex(dev))) {
		fprintf(stderr, "xdp-filter: error: cannot attach to %s\n", dev);
	} else {
		printf("attached to %s; commands: stats on|off, show, quit\n", dev);
		rc = run_commands(obj);
	}
out:
	bpfkeys_close(obj); /* detaches */
	return rc;
}
