// SPDX-License-Identifier: GPL-2.0
/*
 * A tail call into a program a pinned flip replaces, for the kill tests:
 * caller, on a packet whose first byte is 0xee (BPF_PROG_TEST_RUN), writes
 * the state of caller_key it was lowered for over that byte and tail-calls
 * slot 0 of jump_table, initialised in the object to target; target counts
 * its run in target_runs and returns 10 with target_key off, 20 with it on.
 * A run whose tail call does not happen returns 1; other frames pass.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(caller_key);
DEFINE_STATIC_KEY_FALSE(target_key);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} target_runs SEC(".maps");

int target(struct xdp_md *ctx);

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__uint(key_size, sizeof(__u32));
	__array(values, int(struct xdp_md *));
} jump_table SEC(".maps") = {
	.values = { [0] = (void *)&target },
};

SEC("xdp")
int target(struct xdp_md *ctx)
{
	__u32 slot = 0;
	__u64 *n = bpf_map_lookup_elem(&target_runs, &slot);

	if (n)
		__sync_fetch_and_add(n, 1);
	if (bpf_static_branch_unlikely(&target_key))
		return 20;
	return 10;
}

SEC("xdp")
int caller(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;

	if (data + 1 > end || data[0] != 0xee)
		return XDP_PASS;
	data[0] = 0;
	if (bpf_static_branch_unlikely(&caller_key))
		data[0] = 1;
	bpf_tail_call(ctx, &jump_table, 0);
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
