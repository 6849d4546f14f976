// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Two sites whose targets are out of reach of a 16-bit offset: the
 * unlikely one jumps over 80,002 instructions, the likely one over 40,001
 * (more than 32,767). prog returns 1 with the keys' initial states and 2
 * when either key is flipped.
 */
#include <linux/bpf.h>
#include "bpf_static_keys.h"
DEFINE_STATIC_KEY_FALSE(far_key);
DEFINE_STATIC_KEY_TRUE(far_likely_key);
SEC("xdp") int prog(struct xdp_md *ctx)
{
	int v = 1;

	if (bpf_static_branch_unlikely(&far_key))
		goto far;
	asm volatile(".rept 40000\n\tr0 = 0\n\t.endr" ::: "r0");
	if (!bpf_static_branch_likely(&far_likely_key))
		goto far;
	asm volatile(".rept 40000\n\tr0 = 0\n\t.endr" ::: "r0");
	return v;
far:
	return 2;
}
char LICENSE[] SEC("license") = "GPL";
