// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A program with a static branch that also calls kfuncs. clang emits a
 * kfunc call as `call -1` with src_reg 1 (as for a BPF-to-BPF call),
 * relocated by R_BPF_64_32 against an undefined symbol whose BTF sits in
 * the .ksyms DATASEC (__ksym); libbpf resolves it against the kernel's BTF
 * at load. bpf_rcu_read_lock/unlock are kfuncs every program type may call
 * (kernel 6.2 and later). An XDP program; test/stock builds the same source
 * as a syscall program (-DKFUNC_PROG_SEC='"syscall"'), which
 * BPF_PROG_TEST_RUN runs without a packet.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(verbose);
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;

#ifndef KFUNC_PROG_SEC
#define KFUNC_PROG_SEC "xdp"
#endif

SEC(KFUNC_PROG_SEC) int read_under_rcu(void *ctx)
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
