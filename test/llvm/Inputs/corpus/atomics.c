// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// Atomic operations on map values and globals (fetch-add, xchg, cmpxchg, or/and/xor).
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct stat_value {
	__u64 count;
	__u64 max;
	__u32 flags;
	__u32 owner;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 128);
	__type(key, __u32);
	__type(value, struct stat_value);
} stat_map SEC(".maps");

__u64 global_events;

SEC("cgroup_skb/ingress")
int count_ingress(struct __sk_buff *skb)
{
	__u32 key = skb->ifindex;
	struct stat_value *v = bpf_map_lookup_elem(&stat_map, &key);
	__u64 len = skb->len, old;

	__sync_fetch_and_add(&global_events, 1);
	if (!v)
		return 1;
	__sync_fetch_and_add(&v->count, 1);
	old = v->max;
	if (len > old)
		__sync_val_compare_and_swap(&v->max, old, len);
	__sync_fetch_and_or(&v->flags, 1u << (skb->protocol & 31));
	__sync_fetch_and_and(&v->flags, ~2u);
	__sync_fetch_and_xor(&v->flags, 4u);
	__atomic_exchange_n(&v->owner, key, __ATOMIC_SEQ_CST);
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
