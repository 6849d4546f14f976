// SPDX-License-Identifier: GPL-2.0
/* A kprobe program whose section names no function: libbpf cannot attach it
 * by its section, so it would run nowhere. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(trace_key);

SEC("kprobe")
int probe_nowhere(void *ctx)
{
	if (bpf_static_branch_unlikely(&trace_key))
		return 1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
