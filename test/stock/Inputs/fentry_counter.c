// SPDX-License-Identifier: GPL-2.0
/*
 * An fentry program whose target user space sets before load (a function of
 * another BPF program): counts each entry by the state of trace_key it saw,
 * entries[0] off, entries[1] on. The section names no real function.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(trace_key);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} entries SEC(".maps");

SEC("fentry/set_by_user_space")
int count_entry(__u64 *ctx)
{
	__u32 slot = 0;
	__u64 *n;

	(void)ctx;
	if (bpf_static_branch_unlikely(&trace_key))
		slot = 1;
	n = bpf_map_lookup_elem(&entries, &slot);
	if (n)
		__sync_fetch_and_add(n, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
