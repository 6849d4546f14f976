// SPDX-License-Identifier: GPL-2.0
/*
 * An fentry program (called through a BPF trampoline) on __x64_sys_getpgid
 * or __arm64_sys_getpgid (not a syscall without arguments, such as getppid:
 * their wrapper is an alias without BTF) for the flip-while-firing test:
 * key_a (FALSE) has one site, key_b (FALSE) two, one in the program and one
 * in a __noinline BPF-to-BPF function. Each call of the test's process (target_tgid) counts the
 * combination of paths it took in counts[r]:
 *   r = 1 (key_a's site jumped) + 2 (key_b's site in the program)
 *     + 4 (key_b's site in b_helper)
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

#if defined(__TARGET_ARCH_arm64)
#define SYS_PREFIX "__arm64_"
#else
#define SYS_PREFIX "__x64_"
#endif

DEFINE_STATIC_KEY_FALSE(key_a);
DEFINE_STATIC_KEY_FALSE(key_b);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

__u32 target_tgid;

static __noinline int b_helper(int r)
{
	if (bpf_static_branch_unlikely(&key_b))
		return r | 4;
	return r;
}

SEC("fentry/" SYS_PREFIX "sys_getpgid")
int fentry_getpgid(void *ctx)
{
	__u32 r = 0;
	__u64 *c;

	if ((bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return 0;
	if (bpf_static_branch_unlikely(&key_a))
		r |= 1;
	if (bpf_static_branch_unlikely(&key_b))
		r |= 2;
	r = b_helper(r);
	c = bpf_map_lookup_elem(&counts, &r);
	if (c)
		__sync_fetch_and_add(c, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
