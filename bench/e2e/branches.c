// SPDX-License-Identifier: GPL-2.0
/*
 * Per-run cost benchmark (bench/e2e/run.sh): five XDP programs with the same
 * work and one different way of testing a flag that is false:
 *   bench_no_branch      no test at all (the peer of the ratios)
 *   bench_static_off     a static branch, key off: a 5-byte nop
 *   bench_static_on      the same code with its key instance on: a jump
 *   bench_const_volatile a `const volatile` global (a reload to change)
 *   bench_map_lookup     an ARRAY map lookup on every run
 * The slow path is out of line and never changes the result in the
 * benchmark (it only increments a global), so all return XDP_PASS; with
 * bench_static_on the branch is taken and that increment runs.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(bench_key);

const volatile int rodata_flag = 0;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} flag_map SEC(".maps");

__u64 slow_count;

#define WORK(ctx) ((ctx)->data_end - (ctx)->data > 0 ? XDP_PASS : XDP_DROP)

SEC("xdp")
int bench_no_branch(struct xdp_md *ctx)
{
	return WORK(ctx);
}

SEC("xdp")
int bench_static_off(struct xdp_md *ctx)
{
	if (bpf_static_branch_unlikely(&bench_key))
		slow_count++;
	return WORK(ctx);
}

/* same code as bench_static_off; the benchmark turns its instance on */
SEC("xdp")
int bench_static_on(struct xdp_md *ctx)
{
	if (bpf_static_branch_unlikely(&bench_key))
		slow_count++;
	return WORK(ctx);
}

SEC("xdp")
int bench_const_volatile(struct xdp_md *ctx)
{
	if (rodata_flag)
		slow_count++;
	return WORK(ctx);
}

SEC("xdp")
int bench_map_lookup(struct xdp_md *ctx)
{
	__u32 zero = 0, *flag = bpf_map_lookup_elem(&flag_map, &zero);

	if (flag && *flag)
		slow_count++;
	return WORK(ctx);
}

char LICENSE[] SEC("license") = "GPL";
