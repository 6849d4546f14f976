// SPDX-License-Identifier: GPL-2.0
/*
 * Counts the syscalls of one process (target_pid, set by user space before
 * load) and, while the static key trace_events is on, sends each one as an
 * event through a ring buffer. Off, the branch and the event code cost
 * nothing: on a stock kernel they are not in the loaded program at all.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "bpf_static_keys.h"
#include "bootstrap.h"

DEFINE_STATIC_KEY_FALSE(trace_events);

const volatile __u32 target_pid = 0;
__u64 syscalls;
__u64 traced; /* syscalls seen with the key on: what the events say */
__u64 dropped;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

SEC("raw_tp/sys_enter")
int handle_sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	struct event *e;

	if (bpf_get_current_pid_tgid() >> 32 != target_pid)
		return 0;
	__sync_fetch_and_add(&syscalls, 1);
	if (!bpf_static_branch_unlikely(&trace_events))
		return 0;
	__sync_fetch_and_add(&traced, 1);
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&dropped, 1);
		return 0;
	}
	e->tid = (__u32)bpf_get_current_pid_tgid();
	e->pad = 0;
	e->syscall = ctx->args[1];
	bpf_ringbuf_submit(e, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
