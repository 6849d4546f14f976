// SPDX-License-Identifier: GPL-2.0
/*
 * Two XDP programs, both with a site of key_a and one of key_b, for the
 * kill tests of pinned flips: a run on a packet whose first byte is 0xee
 * (BPF_PROG_TEST_RUN) returns 16 + the states it was lowered for (bit 0
 * key_a, bit 1 key_b); any other frame is counted in seen[states] and
 * passed.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(key_a);
DEFINE_STATIC_KEY_FALSE(key_b);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps");

static __always_inline int run(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u32 states = 0;
	__u64 *n;

	if (bpf_static_branch_unlikely(&key_a))
		states |= 1;
	if (bpf_static_branch_unlikely(&key_b))
		states |= 2;
	if (data + 1 <= end && data[0] == 0xee)
		return 16 + states;
	n = bpf_map_lookup_elem(&seen, &states);
	if (n)
		__sync_fetch_and_add(n, 1);
	return XDP_PASS;
}

SEC("xdp")
int flip_one(struct xdp_md *ctx)
{
	return run(ctx);
}

SEC("xdp")
int flip_two(struct xdp_md *ctx)
{
	return run(ctx);
}

char LICENSE[] SEC("license") = "GPL";
