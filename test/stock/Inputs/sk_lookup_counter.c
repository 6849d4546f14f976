// SPDX-License-Identifier: GPL-2.0
/*
 * An sk_lookup program that counts, for each lookup of a UDP datagram to
 * test_port, which states of mode_a and mode_b the run saw: seen[0] both
 * off, seen[1] both on, seen[2] a mix (as Inputs/state_counter.c: mode_b's
 * site is in a subprogram). It selects no socket: the datagram goes to
 * whichever socket the kernel's own lookup finds.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

#define IPPROTO_UDP 17	/* <netinet/in.h> is libc's, not for --target=bpf */

DEFINE_STATIC_KEY_FALSE(mode_a);
DEFINE_STATIC_KEY_FALSE(mode_b);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 3);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps");

const volatile __u32 test_port = 40123;

static __noinline int mode_b_on(void)
{
	if (bpf_static_branch_unlikely(&mode_b))
		return 1;
	return 0;
}

SEC("sk_lookup")
int count_lookups(struct bpf_sk_lookup *ctx)
{
	__u32 slot;
	__u64 *n;
	int a = 0, b;

	if (ctx->protocol != IPPROTO_UDP || ctx->local_port != test_port)
		return SK_PASS;
	if (bpf_static_branch_unlikely(&mode_a))
		a = 1;
	b = mode_b_on();
	slot = a == b ? (__u32)a : 2;
	n = bpf_map_lookup_elem(&seen, &slot);
	if (n)
		__sync_fetch_and_add(n, 1);
	return SK_PASS;
}

char LICENSE[] SEC("license") = "GPL";
