// SPDX-License-Identifier: GPL-2.0
/*
 * A TCP congestion control in BPF (struct_ops tcp_congestion_ops) whose
 * ssthresh depends on a static key. Compiled against a vmlinux.h that the
 * test dumps from the host kernel's BTF.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(halve_key);

SEC("struct_ops/ssthresh")
__u32 BPF_PROG(cc_ssthresh, struct sock *sk)
{
	if (bpf_static_branch_unlikely(&halve_key))
		return 4;
	return 2;
}

SEC("struct_ops/undo_cwnd")
__u32 BPF_PROG(cc_undo_cwnd, struct sock *sk)
{
	return 2;
}

SEC("struct_ops/cong_avoid")
void BPF_PROG(cc_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
}

SEC(".struct_ops")
struct tcp_congestion_ops bpfkeys_cc = {
	.ssthresh = (void *)cc_ssthresh,
	.undo_cwnd = (void *)cc_undo_cwnd,
	.cong_avoid = (void *)cc_cong_avoid,
	.name = "bpfkeys_cc",
};

char LICENSE[] SEC("license") = "GPL";
