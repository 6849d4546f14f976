// SPDX-License-Identifier: GPL-2.0
/*
 * A static key flipped from BPF (key groups, docs/abi.md 6.1): debug_key
 * (FALSE) is tested by two programs and flipped by two others, which have
 * no site of it:
 *   xdp_debug   XDP, returns 1 while debug_key is off, 2 while it is on;
 *   tc_debug    tc (sched_cls), returns 10 off / 20 on;
 *   kprobe_anomaly  kprobe on getppid: a call from the test's process
 *               (res.target_tgid) is "the anomaly": it queues
 *               bpf_static_key_set(&debug_key, 1), from a __noinline
 *               function it calls (a reference in a subprogram);
 *   syscall_quiet   BPF_PROG_TYPE_SYSCALL (sleepable):
 *               bpf_static_key_set_sync(&debug_key, 0).
 * The kfuncs' return values and the kprobe's flips land in res (.bss).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"
#include "key_group_bss.h"

/* the syscall wrappers' prefix, as the selftests' bpf_misc.h sets it */
#if defined(__TARGET_ARCH_arm64)
#define SYS_PREFIX "__arm64_"
#else
#define SYS_PREFIX "__x64_"
#endif

DEFINE_STATIC_KEY_FALSE(debug_key);

/* one global: .bss holds it alone, at offset 0 */
struct key_group_bss res;

SEC("xdp")
int xdp_debug(struct xdp_md *ctx)
{
	if (bpf_static_branch_unlikely(&debug_key))
		return 2;
	return 1;
}

SEC("tc")
int tc_debug(struct __sk_buff *skb)
{
	if (bpf_static_branch_unlikely(&debug_key))
		return 20;
	return 10;
}

static __noinline int raise_debug(void)
{
	return bpf_static_key_set(&debug_key, 1);
}

SEC("kprobe/" SYS_PREFIX "sys_getppid")
int kprobe_anomaly(void *ctx)
{
	if ((bpf_get_current_pid_tgid() >> 32) != res.target_tgid)
		return 0;
	res.set_ret = raise_debug();
	res.anomalies++;
	return 0;
}

SEC("syscall")
int syscall_quiet(void *ctx)
{
	res.set_sync_ret = bpf_static_key_set_sync(&debug_key, 0);
	res.quiets++;
	return 0;
}

char _license[] SEC("license") = "GPL";
