// SPDX-License-Identifier: GPL-2.0
/*
 * Settings a program takes from user space before load, each visible in
 * what filter returns: filter_value in .rodata (the verifier sees the
 * frozen value), data_add in .data, bss_start in .bss, and slots[0] of a
 * hash map sized from user space, which the tests fill; tag, a char array
 * in a section of its own (.data.tag), adds 2000 when it starts with 'x'.
 * debug_key adds 1000.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(debug_key);

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} slots SEC(".maps");

const volatile __u32 filter_value = 1;
__u32 data_add = 10;
__u64 bss_start;
char tag[16] SEC(".data.tag") = "none";

SEC("xdp")
int filter(struct xdp_md *ctx)
{
	__u32 ret = filter_value + data_add + (__u32)bss_start, zero = 0;
	__u64 *slot = bpf_map_lookup_elem(&slots, &zero);

	(void)ctx;
	if (slot)
		ret += (__u32)*slot;
	if (tag[0] == 'x')
		ret += 2000;
	if (bpf_static_branch_unlikely(&debug_key))
		ret += 1000;
	return ret;
}

char LICENSE[] SEC("license") = "GPL";
