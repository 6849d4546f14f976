// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// Global variables in .data, .bss and .rodata, read-only config knobs.
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

const volatile __u32 sample_rate = 100;
const volatile __u8 verbose;
__u64 total_seen;
__u64 total_sampled = 0;
static __u32 seq = 7;
int thresholds[4] = { 10, 100, 1000, 10000 };
static const char prefix[] = "sample";

SEC("tracepoint/syscalls/sys_enter_write")
int sample_writes(void *ctx)
{
	__u32 bucket = 0;
	int i;

	total_seen++;
	if (++seq % sample_rate)
		return 0;
	for (i = 0; i < 4; i++)
		if (total_seen > thresholds[i])
			bucket = i;
	total_sampled += bucket + 1;
	if (verbose)
		bpf_printk("%s %u %llu", prefix, bucket, total_sampled);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
