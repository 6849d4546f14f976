// SPDX-License-Identifier: GPL-2.0
/*
 * syscount: the system calls of one process, counted on the raw tracepoint
 * sys_enter. Always the total; with the static key per_syscall on, also one
 * count per syscall number (a hash map update per call: the costly branch,
 * which costs nothing while the key is off, as it is not in the program).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(per_syscall);

/* the process to follow: set by syscount before load (.rodata, the same in
 * every version a flip loads) */
const volatile __u32 target_tgid = 0;

/* one struct, so that user space knows the layout of .bss */
struct syscount_state {
	__u64 total;
} state;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 512); /* syscount sizes it before load */
	__type(key, __u32); /* syscall number */
	__type(value, __u64);
} counts SEC(".maps");

SEC("raw_tp/sys_enter")
int count_syscalls(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 nr = (__u32)ctx->args[1];
	__u64 one = 1, *n;

	if (bpf_get_current_pid_tgid() >> 32 != target_tgid)
		return 0;
	__sync_fetch_and_add(&state.total, 1);
	if (bpf_static_branch_unlikely(&per_syscall)) {
		n = bpf_map_lookup_elem(&counts, &nr);
		if (n)
			__sync_fetch_and_add(n, 1);
		else
			bpf_map_update_elem(&counts, &nr, &one, BPF_NOEXIST);
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
