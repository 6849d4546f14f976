// SPDX-License-Identifier: GPL-2.0
/*
 * A raw tracepoint program on sys_enter that counts the calls of one
 * syscall (calls[3]) by one process (calls[2]), both set by the test, by the
 * state of trace_key it saw: calls[0] off, calls[1] on.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(trace_key);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} calls SEC(".maps");

SEC("raw_tp/sys_enter")
int count_syscall(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 pid_slot = 2, nr_slot = 3, slot = 0;
	__u64 *pid = bpf_map_lookup_elem(&calls, &pid_slot);
	__u64 *nr = bpf_map_lookup_elem(&calls, &nr_slot);
	__u64 *n;

	if (!pid || !nr || *pid != bpf_get_current_pid_tgid() >> 32 || *nr != ctx->args[1])
		return 0;
	if (bpf_static_branch_unlikely(&trace_key))
		slot = 1;
	n = bpf_map_lookup_elem(&calls, &slot);
	if (n)
		__sync_fetch_and_add(n, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
