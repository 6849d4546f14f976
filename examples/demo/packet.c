// SPDX-License-Identifier: GPL-2.0
/*
 * Demo, object 1 of 2: an XDP program whose debug path costs a nop until
 * debug_key is flipped, and a second program sharing the key.
 * demo_xdp returns XDP_PASS (2) on the fast path and XDP_DROP (1) while
 * debug_key is on; demo_xdp_fast returns XDP_PASS while fast_key is on and
 * debug_key off, XDP_DROP when both are on, XDP_TX (3) while fast_key is off.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(debug_key);
DEFINE_STATIC_KEY_TRUE(fast_key);

/* In classify.c: counts through its own static branch on debug_key. */
int classify(int len);

SEC("xdp")
int demo_xdp(struct xdp_md *ctx)
{
	int len = ctx->data_end - ctx->data;

	if (bpf_static_branch_unlikely(&debug_key))
		return XDP_DROP;
	return classify(len) ? XDP_PASS : XDP_ABORTED;
}

SEC("xdp")
int demo_xdp_fast(struct xdp_md *ctx)
{
	if (bpf_static_branch_likely(&fast_key))
		return classify(ctx->data_end - ctx->data) ? XDP_PASS : XDP_DROP;
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
