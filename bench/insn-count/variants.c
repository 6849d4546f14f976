// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bench/insn-count: the same small tc program with its one condition
 * written each way a BPF developer can write it. Every program returns
 * TC_ACT_OK while its condition is false and TC_ACT_SHOT while it is true, so
 * a run tells which path it took. The bench counts the guest instructions
 * one run of each retires (run.sh, insn_count_guest.c). A tc program, not
 * XDP: BPF_PROG_TEST_RUN of XDP installs the program in the XDP dispatcher
 * and waits for RCU grace periods on each call, which the whole-call
 * reading would include; that of tc allocates an skb and nothing more.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DEFINE_STATIC_KEY_FALSE(bench_key);

/* today's practice: a flag fixed at load time ... */
const volatile __u32 rodata_flag = 0;
/* ... a global that user space may write at run time (mmap of .bss) ... */
__u32 bss_flag = 0;
/* ... or a flag in an array map */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} flag_map SEC(".maps");

/* what every condition guards: count the run, drop the packet (run.sh
 * checks the count: it tells that the guarded path ran, or did not) */
__u64 guarded_runs SEC(".data.runs") = 0;
#define GUARDED_PATH()					\
	do {						\
		__sync_fetch_and_add(&guarded_runs, 1);	\
		return TC_ACT_SHOT;			\
	} while (0)

/* ... or in a hash map */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} flag_hash SEC(".maps");

/* (a) the program without any condition: the baseline */
SEC("tc") int no_branch(struct __sk_buff *skb)
{
	return TC_ACT_OK;
}

/* the baseline plus CALIBRATION_ADDS instructions, each one x86-64 and one
 * arm64 instruction: what a known number of instructions reads as */
#define CALIBRATION_ADDS 100
#define ADD1 asm volatile("%0 += 1" : "+r"(acc));
#define ADD10 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1
SEC("tc") int calibration(struct __sk_buff *skb)
{
	__u64 acc = 0;

	ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10
	asm volatile("" : : "r"(acc));
	return TC_ACT_OK;
}

/* the guarded path with no condition: what (c) runs, but inline */
SEC("tc") int always(struct __sk_buff *skb)
{
	GUARDED_PATH();
}

/* (b), (c) a static branch, run with bench_key off and on */
SEC("tc") int static_branch(struct __sk_buff *skb)
{
	if (bpf_static_branch_unlikely(&bench_key))
		GUARDED_PATH();
	return TC_ACT_OK;
}

/* (d) a const volatile global */
SEC("tc") int rodata_global(struct __sk_buff *skb)
{
	if (rodata_flag)
		GUARDED_PATH();
	return TC_ACT_OK;
}

/* (d') a writable global */
SEC("tc") int bss_global(struct __sk_buff *skb)
{
	if (bss_flag)
		GUARDED_PATH();
	return TC_ACT_OK;
}

/* (e) a flag looked up in an array map (the verifier inlines the lookup) */
SEC("tc") int map_lookup(struct __sk_buff *skb)
{
	__u32 zero = 0, *flag = bpf_map_lookup_elem(&flag_map, &zero);

	if (flag && *flag)
		GUARDED_PATH();
	return TC_ACT_OK;
}


/* (e2) a flag looked up in a hash map (a call into the hash table's lookup) */
SEC("tc") int hash_lookup(struct __sk_buff *skb)
{
	__u32 zero = 0, *flag = bpf_map_lookup_elem(&flag_hash, &zero);

	if (flag && *flag)
		GUARDED_PATH();
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "GPL";
