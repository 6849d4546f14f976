// SPDX-License-Identifier: GPL-2.0
/*
 * One counter per tracepoint kind that libbpf attaches by section name,
 * each counting the calls of getppid(2) by one process (calls[PID_SLOT],
 * set by the test) by the state of trace_key it saw: calls[2 * N] off,
 * calls[2 * N + 1] on, N the program's number below. A test loads the one
 * it needs (bpfkeys_set_autoload). SYS_GETPPID is x86_64's number.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(trace_key);

#define PID_SLOT 15
#define SYS_GETPPID 110 /* x86_64 */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} calls SEC(".maps");

static __always_inline void count(__u32 program)
{
	__u32 pid_slot = PID_SLOT, slot = 2 * program;
	__u64 *pid = bpf_map_lookup_elem(&calls, &pid_slot), *n;

	if (!pid || *pid != bpf_get_current_pid_tgid() >> 32)
		return;
	if (bpf_static_branch_unlikely(&trace_key))
		slot++;
	n = bpf_map_lookup_elem(&calls, &slot);
	if (n)
		__sync_fetch_and_add(n, 1);
}

SEC("tp/syscalls/sys_enter_getppid")
int count_tracepoint(void *ctx)
{
	count(0);
	return 0;
}

SEC("tp_btf/sys_enter")
int count_tp_btf(__u64 *ctx)
{
	if (ctx[1] == SYS_GETPPID)
		count(1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
