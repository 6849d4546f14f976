// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// An XDP program with one static key, as a user writes it against the
// installed header: XDP_PASS while debug_key is off, XDP_TX once it is on.
#include <bpf/bpf_static_keys.h>

DEFINE_STATIC_KEY_FALSE(debug_key);

__u32 debug_hits;

SEC("xdp")
int count(struct xdp_md *ctx)
{
	(void)ctx;
	if (bpf_static_branch_unlikely(&debug_key)) {
		__sync_fetch_and_add(&debug_hits, 1);
		return XDP_TX;
	}
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
