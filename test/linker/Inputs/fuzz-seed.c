// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A fuzzing seed exercising most of what bpfld reads: maps (defined and
 * extern), static key entries, globals, weak and extern symbols, .kconfig and
 * .ksyms externs, CO-RE relocations, static data pointers and a switch that
 * becomes a jump table with -mllvm -bpf-min-jump-table-entries=3. */
#include "bpf_static_keys.h"
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>

DEFINE_STATIC_KEY_FALSE(seed_key);
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} seed_map SEC(".maps");
extern struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 8);
} other_map SEC(".maps");

extern int LINUX_KERNEL_VERSION __kconfig;
extern const void bpf_link_fops __ksym __weak;
extern int helper_elsewhere(int x);
struct pkt { int len; int proto; } __attribute__((preserve_access_index));
static int table[4] = {1, 2, 3, 4};
int *table_ptr = &table[1];
__attribute__((weak)) int weak_value = 3;
const volatile int ro_value = 5;

__attribute__((noinline)) int pick(int x)
{
	switch (x) {
	case 0: return 10;
	case 1: return weak_value;
	case 2: return ro_value;
	case 3: return *table_ptr;
	case 4: return 17;
	default: return -1;
	}
}

SEC("xdp") int seed_prog(struct pkt *p)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&seed_map, &k);
	int r = pick(bpf_core_field_size(p->proto)) + LINUX_KERNEL_VERSION;

	if (bpf_static_branch_unlikely(&seed_key))
		r += helper_elsewhere(r);
	if (v)
		r += *v + (bpf_map_lookup_elem(&other_map, &k) != 0) + (&bpf_link_fops != 0);
	return r;
}
char LICENSE[] SEC("license") = "GPL";
