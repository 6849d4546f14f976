// SPDX-License-Identifier: GPL-2.0
/*
 * End-to-end object 1 of 2: two XDP programs sharing key_a (FALSE) and
 * key_b (TRUE), a bpf_loop callback with a site on key_a, and calls into
 * shared_fn (e2e_shared.c, __noinline, a site on key_a). Each program
 * returns a bit mask of which paths ran, so one retval shows the state of
 * every site it contains:
 *   prog_one = 1 (own key_a) + 2 (own key_b, likely) + 4 (shared_fn key_a)
 *   prog_two = 8 (shared_fn key_a) + 16 (loop callback key_a)
 *            + 32 (own key_b, unlikely)
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(key_a);
DEFINE_STATIC_KEY_TRUE(key_b);

int shared_fn(int x);

static int loop_cb(__u32 index, void *ctx)
{
	int *acc = ctx;

	if (bpf_static_branch_unlikely(&key_a))
		*acc += 100;
	else
		*acc += 1;
	return 0;
}

SEC("xdp")
int prog_one(struct xdp_md *ctx)
{
	int r = 0;

	if (bpf_static_branch_unlikely(&key_a))
		r |= 1;
	if (bpf_static_branch_likely(&key_b))
		r |= 2;
	if (shared_fn(ctx->data_end - ctx->data))
		r |= 4;
	return r;
}

SEC("xdp")
int prog_two(struct xdp_md *ctx)
{
	int acc = 0, r = 0;

	if (shared_fn(ctx->data_end - ctx->data))
		r |= 8;
	bpf_loop(2, loop_cb, &acc, 0);
	if (acc == 200)
		r |= 16;
	if (bpf_static_branch_unlikely(&key_b))
		r |= 32;
	return r;
}

char LICENSE[] SEC("license") = "GPL";
