// SPDX-License-Identifier: GPL-2.0
/*
 * A syscall program (sleepable, run by BPF_PROG_TEST_RUN without a packet)
 * with a static branch and two kfunc calls: clang emits each as a call
 * relocated against an extern __ksym, which libbpf resolves against the
 * kernel's BTF at every load, each variant after a flip included.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(verbose);
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;

SEC("syscall") int read_under_rcu(void *ctx)
{
	int r = 1;

	if (bpf_static_branch_unlikely(&verbose))
		r = 20;
	bpf_rcu_read_lock();
	r += 2;
	bpf_rcu_read_unlock();
	return r;
}

char LICENSE[] SEC("license") = "GPL";
