// SPDX-License-Identifier: GPL-2.0
/*
 * Counts, for each test frame (ethertype 0x88b5), which states of mode_a and
 * mode_b the run saw: seen[0] both off, seen[1] both on, seen[2] a mix. The
 * tests flip both keys together, so a mix would be a run that met one key
 * before a flip and the other after it. mode_b's site is in a subprogram.
 * The same logic as XDP (count_states) and tc/tcx (count_states_tc); runs
 * (.bss) counts every counted run; test_proto lives in .rodata.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(mode_a);
DEFINE_STATIC_KEY_FALSE(mode_b);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 3);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps");

__u64 runs;
const volatile __u16 test_proto = 0x88b5;

static __noinline int mode_b_on(void)
{
	if (bpf_static_branch_unlikely(&mode_b))
		return 1;
	return 0;
}

static __always_inline int count(void *data, void *end)
{
	struct ethhdr *eth = data;
	__u32 slot;
	__u64 *n;
	int a = 0, b;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(test_proto))
		return 0;
	if (bpf_static_branch_unlikely(&mode_a))
		a = 1;
	b = mode_b_on();
	slot = a == b ? (__u32)a : 2;
	n = bpf_map_lookup_elem(&seen, &slot);
	if (n)
		__sync_fetch_and_add(n, 1);
	__sync_fetch_and_add(&runs, 1);
	return 1;
}

SEC("xdp")
int count_states(struct xdp_md *ctx)
{
	return count((void *)(long)ctx->data, (void *)(long)ctx->data_end) ? XDP_DROP : XDP_PASS;
}

SEC("tc")
int count_states_tc(struct __sk_buff *skb)
{
	return count((void *)(long)skb->data, (void *)(long)skb->data_end) ? TC_ACT_SHOT : TC_ACT_OK;
}

char LICENSE[] SEC("license") = "GPL";
