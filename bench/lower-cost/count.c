// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * One branch around one block, compiled several ways for bench/lower-cost:
 *   -DNEVER          no branch, no block (the block's cost is zero)
 *   -DALWAYS         no branch, the block always runs
 *   -DKEYED          a static key, lowered off/on by `bpfkeys lower`
 *   -DRODATA=0|1     a `const volatile` flag in .rodata, as users write today
 */
#include <linux/bpf.h>
#include "bpf_static_keys.h"

#if defined(KEYED)
DEFINE_STATIC_KEY_FALSE(k);
#define COND bpf_static_branch_unlikely(&k)
#elif defined(RODATA)
const volatile int flag = RODATA;
#define COND flag
#elif defined(ALWAYS)
#define COND 1
#else
#define COND 0
#endif

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 2);
} stats SEC(".maps");

static __always_inline void count(__u32 i)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &i);

	if (v)
		__sync_fetch_and_add(v, 1);
}

SEC("xdp") int prog(struct xdp_md *ctx)
{
	if (COND)
		count(1);
	count(0);
	return XDP_PASS;
}
char LICENSE[] SEC("license") = "GPL";
