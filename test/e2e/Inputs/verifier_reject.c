// SPDX-License-Identifier: GPL-2.0
/*
 * A program with a static key, in three builds for the verifier log test
 * (bpfkeyctl-verifier-log.c):
 *   default     the verifier rejects it: it reads the packet without
 *               checking its length ("invalid access to packet")
 *   -DCHECKED   the same with the check: it loads
 *   -DLIRC      a lirc_mode2 program, a type that the test kernel does not
 *               have (no CONFIG_BPF_LIRC_MODE2): refused before the
 *               verifier runs, so without a log
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(log_key);

#ifdef LIRC
SEC("lirc_mode2")
int no_such_type(unsigned int *sample)
{
	if (bpf_static_branch_unlikely(&log_key))
		return 1;
	return 0;
}
#else
SEC("xdp")
int unchecked_read(struct xdp_md *ctx)
{
	if (bpf_static_branch_unlikely(&log_key))
		return XDP_DROP;
#ifdef CHECKED
	if ((void *)(long)ctx->data + 4 > (void *)(long)ctx->data_end)
		return XDP_PASS;
#endif
	return *(__u32 *)(long)ctx->data;
}
#endif

char _license[] SEC("license") = "GPL";
