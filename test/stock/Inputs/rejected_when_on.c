// SPDX-License-Identifier: GPL-2.0
/*
 * Two XDP programs: steady reaches good_key only; breaks_when_on reaches
 * good_key and bad_key, whose on-branch reads the packet without a bounds
 * check, which the verifier rejects. With bad_key off, lowering removes that
 * branch and both programs load; a flip of bad_key to on has a variant that
 * does not verify.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(good_key);
DEFINE_STATIC_KEY_FALSE(bad_key);

SEC("xdp")
int steady(struct xdp_md *ctx)
{
	if (bpf_static_branch_unlikely(&good_key))
		return XDP_DROP;
	return XDP_PASS;
}

SEC("xdp")
int breaks_when_on(struct xdp_md *ctx)
{
	if (bpf_static_branch_unlikely(&bad_key))
		return *(volatile __u8 *)(long)ctx->data; /* no bounds check */
	if (bpf_static_branch_unlikely(&good_key))
		return XDP_TX;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
