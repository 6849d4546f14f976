// SPDX-License-Identifier: GPL-2.0
/*
 * Three XDP programs whose return value says the states they were lowered
 * for: both reaches key_a and key_b (1 + 2 if key_a + 4 if key_b), only_a
 * key_a (10 + 1 if on), only_b key_b (20 + 1 if on).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(key_a);
DEFINE_STATIC_KEY_FALSE(key_b);

SEC("xdp")
int both(struct xdp_md *ctx)
{
	int r = 1;

	if (bpf_static_branch_unlikely(&key_a))
		r += 2;
	if (bpf_static_branch_unlikely(&key_b))
		r += 4;
	return r;
}

SEC("xdp")
int only_a(struct xdp_md *ctx)
{
	if (bpf_static_branch_unlikely(&key_a))
		return 11;
	return 10;
}

SEC("xdp")
int only_b(struct xdp_md *ctx)
{
	if (bpf_static_branch_unlikely(&key_b))
		return 21;
	return 20;
}

char LICENSE[] SEC("license") = "GPL";
