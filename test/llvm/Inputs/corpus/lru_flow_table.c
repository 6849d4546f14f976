// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// Flow table in an LRU hash keyed by a 5-tuple struct; update, lookup, delete.
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct flow_key {
	__u32 saddr;
	__u32 daddr;
	__u16 sport;
	__u16 dport;
	__u8 proto;
	__u8 pad[3];
};

struct flow_state {
	__u64 first_seen_ns;
	__u64 last_seen_ns;
	__u32 packets;
	__u32 flags;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, struct flow_key);
	__type(value, struct flow_state);
} flows SEC(".maps");

SEC("socket")
int track_flow(struct __sk_buff *skb)
{
	struct flow_key key = {};
	struct flow_state *st, init = {};
	__u64 now = bpf_ktime_get_ns();

	key.saddr = skb->remote_ip4;
	key.daddr = skb->local_ip4;
	key.sport = skb->remote_port >> 16;
	key.dport = skb->local_port;
	key.proto = skb->protocol & 0xff;

	st = bpf_map_lookup_elem(&flows, &key);
	if (!st) {
		init.first_seen_ns = now;
		init.last_seen_ns = now;
		init.packets = 1;
		bpf_map_update_elem(&flows, &key, &init, BPF_NOEXIST);
		return skb->len;
	}
	st->last_seen_ns = now;
	__sync_fetch_and_add(&st->packets, 1);
	if (st->flags & 1)
		bpf_map_delete_elem(&flows, &key);
	return skb->len;
}

char LICENSE[] SEC("license") = "GPL";
