// SPDX-License-Identifier: GPL-2.0
// Creating a static key: a BPF_MAP_TYPE_INSN_ARRAY map (upstream's 4-byte
// key, 16-byte struct bpf_insn_array_value, map_flags 0) with
// BPF_F_STATIC_KEY [| BPF_F_STATIC_KEY_ON] in map_extra. A key has at most
// 4096 entries (E2BIG past it; a plain INSN_ARRAY keeps upstream's rule),
// map_extra takes no other bit and not ON without KEY, no other map type
// takes the flags, the initial state reads back from map_extra, and no
// program can load the address of a key's value; an ld_imm64 of a key's fd
// only refers to the key (for the static key kfuncs, static_key_kfunc_*.c)
// and does not bind it. What every INSN_ARRAY map shares
// (updates, freezing, lookups, deletes) is insn_array_map_create.c's.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"

#define VAL sizeof(struct bpf_insn_array_value)

static void created(const char *what, int fd, __u64 want_extra)
{
	struct bpf_map_info info;
	int err;

	expect_err(what, fd, 0);
	if (fd < 0)
		return;
	err = map_info_of(fd, &info);
	printf("  map_extra %#llx, map_flags %#x\n", (unsigned long long)info.map_extra,
	       info.map_flags);
	if (err || info.map_extra != want_extra)
		failures++;
	close(fd);
}

int main(void)
{
	require_static_keys_kernel();

	// CHECK: value_size 4 (the old INSN_SET's): EINVAL
	expect_err("value_size 4 (the old INSN_SET's)",
		   map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, 4, 1, 0, BPF_F_STATIC_KEY), -EINVAL);
	// CHECK-NEXT: max_entries 0: EINVAL
	expect_err("max_entries 0",
		   map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, VAL, 0, 0, BPF_F_STATIC_KEY), -EINVAL);
	// CHECK-NEXT: max_entries 4096: OK
	// CHECK-NEXT:   map_extra 0x1, map_flags 0x80
	created("max_entries 4096",
		map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, VAL, 4096, 0, BPF_F_STATIC_KEY),
		BPF_F_STATIC_KEY);
	// CHECK-NEXT: max_entries 4097: E2BIG
	expect_err("max_entries 4097",
		   map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, VAL, 4097, 0, BPF_F_STATIC_KEY), -E2BIG);
	// CHECK-NEXT: max_entries 0xffffffff: E2BIG
	expect_err("max_entries 0xffffffff",
		   map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, VAL, 0xffffffffu, 0, BPF_F_STATIC_KEY),
		   -E2BIG);
	// CHECK-NEXT: plain insn array, max_entries 4097: OK
	// CHECK-NEXT:   map_extra 0, map_flags 0x80
	created("plain insn array, max_entries 4097",
		map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, VAL, 4097, 0, 0), 0);
	// CHECK-NEXT: map_flags BPF_F_RDONLY_PROG: EINVAL
	expect_err("map_flags BPF_F_RDONLY_PROG",
		   map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, VAL, 1, BPF_F_RDONLY_PROG,
			      BPF_F_STATIC_KEY), -EINVAL);
	// CHECK-NEXT: map_extra 4: EINVAL
	expect_err("map_extra 4", map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, VAL, 1, 0, 4), -EINVAL);
	// CHECK-NEXT: map_extra BPF_F_STATIC_KEY | 4: EINVAL
	expect_err("map_extra BPF_F_STATIC_KEY | 4",
		   map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, VAL, 1, 0, BPF_F_STATIC_KEY | 4), -EINVAL);
	// CHECK-NEXT: map_extra BPF_F_STATIC_KEY_ON alone: EINVAL
	expect_err("map_extra BPF_F_STATIC_KEY_ON alone",
		   map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, VAL, 1, 0, BPF_F_STATIC_KEY_ON), -EINVAL);
	// CHECK-NEXT: map_extra on an array map: EINVAL
	expect_err("map_extra on an array map",
		   map_create(BPF_MAP_TYPE_ARRAY, 4, VAL, 1, 0, BPF_F_STATIC_KEY), -EINVAL);
	// CHECK-NEXT: static key, initially on: OK
	// CHECK-NEXT:   map_extra 0x3, map_flags 0x80
	created("static key, initially on",
		map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, VAL, 1, 0,
			   BPF_F_STATIC_KEY | BPF_F_STATIC_KEY_ON),
		BPF_F_STATIC_KEY | BPF_F_STATIC_KEY_ON);

	// A program cannot load the address of a key's value; an ld_imm64 of a
	// key's fd refers to the key without binding it.
	{
		/* the key's entry is a static branch: only the ld_imm64 differs */
		int kfd = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 2 }, 1, true);
		struct bpf_insn value[] = {
			INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_VALUE, 0, kfd),
			INSN(0, 0, 0, 0, 0),
			GOTO_OR_NOP(0),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};
		struct bpf_insn prog[] = {
			LD_MAP_FD(BPF_REG_1, kfd),
			GOTO_OR_NOP(0),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};
		int ref, bound;

		// CHECK-NEXT: ld_imm64 of a key's value: EINVAL
		// CHECK-NEXT: log: no direct value access support for this map type
		expect_err("ld_imm64 of a key's value", prog_load(value, ARRAY_SIZE(value), NULL, 0),
			   -EINVAL);
		print_log_line();
		ref = prog_load(prog, ARRAY_SIZE(prog), NULL, 0);
		// CHECK-NEXT: ld_imm64 of a key's fd, not in fd_array: OK
		expect_err("ld_imm64 of a key's fd, not in fd_array", ref, 0);
		bound = prog_load(prog, ARRAY_SIZE(prog), &kfd, 1);
		// CHECK-NEXT: the same program with the key in fd_array binds it: OK
		expect_err("the same program with the key in fd_array binds it", bound, 0);
		// CHECK-NEXT: update: OK
		expect_err("update", static_key_update(kfd, 1), 0);
		if (ref >= 0)
			close(ref);
		if (bound >= 0)
			close(bound);
		close(kfd);
	}
	// CHECK: PASSED
	return finish();
}
