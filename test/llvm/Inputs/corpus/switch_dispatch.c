// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// Dense and sparse switch statements (jump tables on -mcpu=v4).
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u32);
} verdicts SEC(".maps");

static __always_inline int weight(__u32 op)
{
	switch (op) {
	case 0: return 3;
	case 1: return 17;
	case 2: return 5;
	case 3: return 42;
	case 4: return 8;
	case 5: return 91;
	case 6: return 13;
	case 7: return 2;
	default: return -1;
	}
}

SEC("xdp")
int dispatch(struct xdp_md *ctx)
{
	__u32 op = ctx->rx_queue_index;
	__u32 *v;
	int w = weight(op & 7);

	switch (ctx->ingress_ifindex) {
	case 1:
		w += 1;
		break;
	case 10:
		w *= 2;
		break;
	case 100:
	case 101:
		w -= 4;
		break;
	case 1000:
		return XDP_DROP;
	default:
		break;
	}
	v = bpf_map_lookup_elem(&verdicts, &op);
	if (v)
		*v = w;
	return w > 20 ? XDP_TX : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
