// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// XDP: parse Ethernet/IPv4, count packets and bytes per protocol in a per-CPU array.
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

struct proto_stats {
	__u64 packets;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, struct proto_stats);
} stats SEC(".maps");

SEC("xdp")
int xdp_count(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	struct proto_stats *st;
	__u32 key;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > data_end)
		return XDP_DROP;
	key = ip->protocol;
	st = bpf_map_lookup_elem(&stats, &key);
	if (!st)
		return XDP_ABORTED;
	st->packets++;
	st->bytes += data_end - data;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
