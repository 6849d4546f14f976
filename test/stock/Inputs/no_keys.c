// SPDX-License-Identifier: GPL-2.0
/* An XDP program without static keys: nothing for libbpfkeys to flip. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int plain(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
