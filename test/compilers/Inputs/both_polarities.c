// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Both polarities, in a program and in a subprogram: debug_key (off) guards
 * an unlikely branch (gotol_or_nop), fast_key (on) a likely one
 * (nop_or_gotol) in a __noinline function. prog returns 11 with the keys'
 * initial states and 1110 with both flipped.
 */
#include <linux/bpf.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(debug_key);
DEFINE_STATIC_KEY_TRUE(fast_key);

static __attribute__((noinline)) int add_path(int x)
{
	if (bpf_static_branch_likely(&fast_key))
		return x + 1;
	return x + 100;
}

SEC("xdp") int prog(struct xdp_md *ctx)
{
	int v = 10;

	if (bpf_static_branch_unlikely(&debug_key))
		v += 1000;
	return add_path(v);
}

char LICENSE[] SEC("license") = "GPL";
