// SPDX-License-Identifier: GPL-2.0
/*
 * Static keys in kprobe, kprobe.multi (fprobe) and tracepoint programs,
 * all on the getppid syscall and counting only calls of the test's process
 * (res.target_tgid). Each program adds to its own field of res the value
 * of the path each of its sites took, so that one syscall shows the state
 * of every site:
 *   kprobe:       kp_key (FALSE) unlikely: +1 off / +2 on, and in
 *                 kp_helper (a __noinline BPF-to-BPF function) likely:
 *                 +10 off / +20 on
 *   kprobe.multi: kp_key likely: +100 off / +200 on
 *   tracepoint:   tp_key (TRUE) likely: +1000 off / +2000 on, unlikely:
 *                 +10000 off / +20000 on
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"
#include "tracing_bss.h"

/* the syscall wrappers' prefix, as the selftests' bpf_misc.h sets it */
#if defined(__TARGET_ARCH_arm64)
#define SYS_PREFIX "__arm64_"
#else
#define SYS_PREFIX "__x64_"
#endif

DEFINE_STATIC_KEY_FALSE(kp_key);
DEFINE_STATIC_KEY_TRUE(tp_key);

/* one global: .bss holds it alone, at offset 0 */
struct tracing_bss res;

static __always_inline int mine(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == res.target_tgid;
}

static __noinline int kp_helper(int x)
{
	if (bpf_static_branch_likely(&kp_key))
		return x + 20;
	return x + 10;
}

SEC("kprobe/" SYS_PREFIX "sys_getppid")
int kprobe_getppid(void *ctx)
{
	int r;

	if (!mine())
		return 0;
	if (bpf_static_branch_unlikely(&kp_key))
		r = 2;
	else
		r = 1;
	res.kp_ret += kp_helper(r);
	res.kp_runs++;
	return 0;
}

/*
 * kprobe.multi resolves its pattern through tracefs'
 * available_filter_functions, which names each address once: getppid takes
 * no argument, so on x86 __x64_sys_getppid is an alias of __do_sys_getppid
 * and only the latter is listed; arm64 lists __arm64_sys_getppid (its
 * __do_sys_getppid is inlined), where the kernel then refuses the link
 * (no fprobe on arm64 6.12, see test/e2e/tracing-kprobe-key.c).
 */
#if defined(__TARGET_ARCH_arm64)
SEC("kprobe.multi/__arm64_sys_getppid")
#else
SEC("kprobe.multi/__do_sys_getppid")
#endif
int kprobe_multi_getppid(void *ctx)
{
	if (!mine())
		return 0;
	if (bpf_static_branch_likely(&kp_key))
		res.kpm_ret += 200;
	else
		res.kpm_ret += 100;
	res.kpm_runs++;
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int tp_getppid(void *ctx)
{
	if (!mine())
		return 0;
	if (bpf_static_branch_likely(&tp_key))
		res.tp_ret += 2000;
	else
		res.tp_ret += 1000;
	if (bpf_static_branch_unlikely(&tp_key))
		res.tp_ret += 20000;
	else
		res.tp_ret += 10000;
	res.tp_runs++;
	return 0;
}

char _license[] SEC("license") = "GPL";
