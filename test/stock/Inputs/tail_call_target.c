// SPDX-License-Identifier: GPL-2.0
/*
 * Tail calls into a program a flip replaces: caller tail-calls slot 0 of
 * jump_table, initialised in the object to target (`.values = { &target }`),
 * and returns 1 if the tail call does not happen. target returns 10 with
 * target_key off, 20 with it on. unrelated reaches other_key only (3 off, 4
 * on): its flips replace neither caller nor target.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(target_key);
DEFINE_STATIC_KEY_FALSE(other_key);

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
	if (bpf_static_branch_unlikely(&target_key))
		return 20;
	return 10;
}

SEC("xdp")
int caller(struct xdp_md *ctx)
{
	bpf_tail_call(ctx, &jump_table, 0);
	return 1;
}

SEC("xdp")
int unrelated(struct xdp_md *ctx)
{
	if (bpf_static_branch_unlikely(&other_key))
		return 4;
	return 3;
}

char LICENSE[] SEC("license") = "GPL";
