// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// BPF-to-BPF calls: static and global non-inlined functions, shared by two programs.
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

static __noinline __u64 mix(__u64 a, __u64 b)
{
	a ^= b >> 7;
	b *= 0x9e3779b97f4a7c15ULL;
	return a + (b << 3);
}

static __noinline int bump(__u32 idx, __u64 by)
{
	__u64 *v = bpf_map_lookup_elem(&counters, &idx);

	if (!v)
		return -1;
	*v = mix(*v, by);
	return 0;
}

__noinline int classify(__u32 len)
{
	if (len < 64)
		return 0;
	if (len < 512)
		return 1;
	if (len < 1500)
		return 2;
	return 3;
}

SEC("xdp")
int xdp_classify(struct xdp_md *ctx)
{
	__u32 len = ctx->data_end - ctx->data;

	return bump(classify(len), len) ? XDP_ABORTED : XDP_PASS;
}

SEC("tc")
int tc_classify(struct __sk_buff *skb)
{
	bump(classify(skb->len), skb->hash);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
