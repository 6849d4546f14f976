// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// Loops: an unrolled loop, a bounded loop the verifier walks, and bpf_loop().
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define NR_SLOTS 32

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NR_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} slots SEC(".maps");

struct loop_ctx {
	__u64 sum;
	__u32 limit;
};

static long add_slot(__u32 index, void *data)
{
	struct loop_ctx *lc = data;
	__u64 *v = bpf_map_lookup_elem(&slots, &index);

	if (!v)
		return 1;
	lc->sum += *v;
	return index >= lc->limit;
}

SEC("xdp")
int sum_slots(struct xdp_md *ctx)
{
	struct loop_ctx lc = { .limit = NR_SLOTS / 2 };
	__u64 hist[8] = {};
	__u32 i;

#pragma unroll
	for (i = 0; i < 8; i++)
		hist[i] = i * ctx->ingress_ifindex;

	for (i = 0; i < NR_SLOTS; i++) {
		__u32 k = i;
		__u64 *v = bpf_map_lookup_elem(&slots, &k);
		if (v && *v > hist[i & 7])
			lc.sum += *v - hist[i & 7];
	}
	bpf_loop(NR_SLOTS, add_slot, &lc, 0);
	return lc.sum > 1000 ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
