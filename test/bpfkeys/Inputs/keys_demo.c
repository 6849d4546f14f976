// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The shapes the host-kernel tests check, each returning a distinct value
 * per key setting: a site in the program, a key shared by two programs, a
 * __noinline function with a site called from two programs, a bpf_loop
 * callback with a site, likely and unlikely, FALSE and TRUE keys, and an
 * ordinary map next to the keys in .maps.
 */
#include <linux/bpf.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(feature);	/* off at load */
DEFINE_STATIC_KEY_TRUE(fast_path);	/* on at load */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} counters SEC(".maps");

/* one site, in a subprogram both prog_shared_a and prog_shared_b call */
static __noinline int shared_helper(int x)
{
	if (bpf_static_branch_unlikely(&feature))
		return x + 100;
	return x;
}

/* one site in a bpf_loop callback: likely, so it jumps while fast_path is off */
static int loop_cb(__u32 idx, void *ctx)
{
	if (bpf_static_branch_likely(&fast_path))
		*(int *)ctx += 1;
	else
		*(int *)ctx += 10;
	return 0;
}

/* 1 while feature is off, 2 while on */
SEC("xdp") int prog_direct(struct xdp_md *ctx)
{
	if (bpf_static_branch_unlikely(&feature))
		return 2;
	return 1;
}

/* 3 / 103 */
SEC("xdp") int prog_shared_a(struct xdp_md *ctx)
{
	return shared_helper(3);
}

/* 5 / 105, plus 1000 while fast_path is off */
SEC("xdp") int prog_shared_b(struct xdp_md *ctx)
{
	int r = shared_helper(5);

	if (!bpf_static_branch_likely(&fast_path))
		r += 1000;
	return r;
}

/* 3 iterations: 3 while fast_path is on, 30 while off */
SEC("xdp") int prog_loop(struct xdp_md *ctx)
{
	int n = 0;
	__u32 zero = 0, *count = bpf_map_lookup_elem(&counters, &zero);

	if (count)
		(*count)++;
	bpf_loop(3, loop_cb, &n, 0);
	return n;
}

char LICENSE[] SEC("license") = "GPL";
