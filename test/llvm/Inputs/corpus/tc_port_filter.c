// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// tc classifier: drop TCP/UDP traffic to ports listed in a hash map.
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <linux/in.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u16);
	__type(value, __u8);
} blocked_ports SEC(".maps");

static __always_inline int port_blocked(__u16 port)
{
	return bpf_map_lookup_elem(&blocked_ports, &port) != 0;
}

SEC("tc")
int tc_filter(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = data + sizeof(*eth);
	__u16 dport;

	if ((void *)(ip + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	if (ip->ihl != 5)
		return TC_ACT_OK;
	if (ip->protocol == IPPROTO_TCP) {
		struct tcphdr *tcp = (void *)(ip + 1);
		if ((void *)(tcp + 1) > data_end)
			return TC_ACT_SHOT;
		dport = bpf_ntohs(tcp->dest);
	} else if (ip->protocol == IPPROTO_UDP) {
		struct udphdr *udp = (void *)(ip + 1);
		if ((void *)(udp + 1) > data_end)
			return TC_ACT_SHOT;
		dport = bpf_ntohs(udp->dest);
	} else {
		return TC_ACT_OK;
	}
	return port_blocked(dport) ? TC_ACT_SHOT : TC_ACT_OK;
}

char LICENSE[] SEC("license") = "GPL";
