// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_filter: drops UDP datagrams to one port, in the style of xdp-tools'
 * filters, with a statistics branch behind a static key.
 *
 * blocked_port lives in .rodata: user space sets it before load, and the
 * verifier sees its frozen value. stats_key is off by default: the
 * per-source accounting costs a nop until user space flips it on. sources,
 * a hash map of per-source packet counts, is sized by user space before
 * load; a source that finds it full is counted as untracked.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "bpf_static_keys.h"

/* the UDP destination port to drop, 0 for none: set before load */
const volatile __u16 blocked_port = 0;

DEFINE_STATIC_KEY_FALSE(stats_key);

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1); /* user space sizes it before load */
	__type(key, __u32); /* IPv4 source address, network order */
	__type(value, __u64); /* packets seen with stats_key on */
} sources SEC(".maps");

enum { STAT_DROPPED, STAT_PASSED, STAT_UNTRACKED, STAT_COUNT };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, STAT_COUNT);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

static __always_inline void count(__u32 stat)
{
	__u64 *n = bpf_map_lookup_elem(&stats, &stat);

	if (n)
		__sync_fetch_and_add(n, 1);
}

/* the statistics branch: only in the program while stats_key is on */
static __noinline void count_source(__u32 saddr)
{
	__u64 one = 1, *n = bpf_map_lookup_elem(&sources, &saddr);

	if (n)
		__sync_fetch_and_add(n, 1);
	else if (bpf_map_update_elem(&sources, &saddr, &one, BPF_NOEXIST))
		count(STAT_UNTRACKED);
}

SEC("xdp")
int xdp_filter(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *udp = (void *)(ip + 1);

	if ((void *)(udp + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP) || ip->ihl != 5 ||
	    ip->protocol != IPPROTO_UDP)
		return XDP_PASS;
	if (bpf_static_branch_unlikely(&stats_key))
		count_source(ip->saddr);
	if (blocked_port && udp->dest == bpf_htons(blocked_port)) {
		count(STAT_DROPPED);
		return XDP_DROP;
	}
	count(STAT_PASSED);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
