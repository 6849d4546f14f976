// SPDX-License-Identifier: GPL-2.0
// A program that flips a key from BPF (bpf_static_key_set(&key, on)): it
// cannot run on a stock kernel, which has no static key kfuncs.
#include <linux/bpf.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(debug_key);

SEC("xdp") int user(struct xdp_md *ctx)
{
	if (bpf_static_branch_unlikely(&debug_key))
		return XDP_DROP;
	return XDP_PASS;
}

SEC("xdp") int turn_debug_on(struct xdp_md *ctx)
{
	return bpf_static_key_set(&debug_key, 1) ? XDP_ABORTED : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
