// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// Stack buffers: memset/memcpy builtins, string helpers, bpf_printk formatting.
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct record {
	char name[32];
	__u64 values[6];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct record);
} last_record SEC(".maps");

SEC("kprobe/do_sys_openat2")
int snapshot(void *ctx)
{
	struct record r;
	__u32 zero = 0;
	char tmp[16];
	int i;

	__builtin_memset(&r, 0, sizeof(r));
	bpf_get_current_comm(tmp, sizeof(tmp));
	__builtin_memcpy(r.name, tmp, sizeof(tmp));
	for (i = 0; i < 6; i++)
		r.values[i] = bpf_ktime_get_ns() >> i;
	bpf_map_update_elem(&last_record, &zero, &r, BPF_ANY);
	bpf_printk("snapshot %s %llu", r.name, r.values[0]);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
