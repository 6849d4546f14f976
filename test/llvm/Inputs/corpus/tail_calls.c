// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// Program array and tail calls, plus an array of maps (map-in-map).
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} jump_table SEC(".maps");

struct inner {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} inner0 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, struct inner);
} outer SEC(".maps") = {
	.values = { &inner0 },
};

SEC("xdp")
int stage1(struct xdp_md *ctx)
{
	__u32 zero = 0;
	void *m = bpf_map_lookup_elem(&outer, &zero);
	__u64 *v;

	if (m) {
		v = bpf_map_lookup_elem(m, &zero);
		if (v)
			(*v)++;
	}
	bpf_tail_call(ctx, &jump_table, ctx->rx_queue_index & 3);
	return XDP_PASS;
}

SEC("xdp")
int stage2(struct xdp_md *ctx)
{
	return ctx->ingress_ifindex == 1 ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
