// SPDX-License-Identifier: GPL-2.0
/*
 * The skeleton test's object: global data in .bss, .data and .rodata, a
 * key, an XDP program (BPF_PROG_TEST_RUN) and a raw tracepoint (__attach)
 * that count only while the key is on, and only this process's syscalls
 * (my_pid, set through the skeleton before load).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(verbose_key);

const volatile __u32 my_pid = 0;
const volatile __u32 multiplier = 1;
__u32 offset = 7;
__u64 runs;
__u64 syscalls;

SEC("xdp")
int count_runs(struct xdp_md *ctx)
{
	runs++;
	if (bpf_static_branch_unlikely(&verbose_key))
		return multiplier * 10 + offset;
	return XDP_PASS;
}

SEC("raw_tp/sys_enter")
int count_syscalls(void *ctx)
{
	if (bpf_get_current_pid_tgid() >> 32 != my_pid)
		return 0;
	if (bpf_static_branch_unlikely(&verbose_key))
		__sync_fetch_and_add(&syscalls, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
