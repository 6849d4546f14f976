// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// Tracepoint-style program that reports events through a ring buffer.
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define TASK_COMM_LEN 16

struct event {
	__u32 pid;
	__u32 tgid;
	__u64 ts_ns;
	char comm[TASK_COMM_LEN];
	int ret;
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} dropped SEC(".maps");

SEC("raw_tracepoint/sched_process_exec")
int on_exec(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct event *e;
	__u32 zero = 0;
	__u64 *cnt;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		cnt = bpf_map_lookup_elem(&dropped, &zero);
		if (cnt)
			__sync_fetch_and_add(cnt, 1);
		return 0;
	}
	e->pid = id;
	e->tgid = id >> 32;
	e->ts_ns = bpf_ktime_get_ns();
	e->ret = (int)ctx->args[0];
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
