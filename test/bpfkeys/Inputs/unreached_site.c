// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A site in a function no program calls: resolve warns and records no
 * instance for it, so the resolved object's .bpfkeys does not name it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(unreached_key);
DEFINE_STATIC_KEY_FALSE(used_key);

__attribute__((noinline)) int nobody_calls_me(int x)
{
	if (bpf_static_branch_unlikely(&unreached_key))
		return x + 1;
	return x;
}

SEC("xdp")
int prog(struct xdp_md *ctx)
{
	if (bpf_static_branch_unlikely(&used_key))
		return XDP_DROP;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
