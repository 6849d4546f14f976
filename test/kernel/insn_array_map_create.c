// SPDX-License-Identifier: GPL-2.0
// Creating and filling a BPF_MAP_TYPE_INSN_ARRAY map (upstream's rules,
// kernel-patches/0016): 4-byte keys, 16-byte struct bpf_insn_array_value,
// max_entries > 0, map_flags 0 with the kernel adding BPF_F_RDONLY_PROG,
// only orig_off written by user space, no deletes, read-only once frozen,
// no access from BPF programs through helpers.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"

static __u32 map_flags_of(int fd)
{
	struct bpf_map_info info;
	int err = map_info_of(fd, &info);

	if (err) {
		printf("FAIL: map info: %s\n", errname(err));
		exit(1);
	}
	return info.map_flags;
}

int main(void)
{
	const __u32 vsz = sizeof(struct bpf_insn_array_value);
	struct bpf_insn_array_value v;
	int fd, err;

	require_insn_array_kernel();

	// CHECK: BPF_MAP_TYPE_INSN_ARRAY = 34, value size 16
	printf("BPF_MAP_TYPE_INSN_ARRAY = %d, value size %u\n", (int)BPF_MAP_TYPE_INSN_ARRAY, vsz);
	if (BPF_MAP_TYPE_INSN_ARRAY != 34 || vsz != 16)
		failures++;

	// CHECK-NEXT: key_size 8: EINVAL
	expect_err("key_size 8", map_create(BPF_MAP_TYPE_INSN_ARRAY, 8, vsz, 1, 0, 0), -EINVAL);
	// CHECK-NEXT: value_size 4: EINVAL
	expect_err("value_size 4", map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, 4, 1, 0, 0), -EINVAL);
	// CHECK-NEXT: value_size 8: EINVAL
	expect_err("value_size 8", map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, 8, 1, 0, 0), -EINVAL);
	// CHECK-NEXT: max_entries 0: EINVAL
	expect_err("max_entries 0", map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, vsz, 0, 0, 0), -EINVAL);
	// CHECK-NEXT: map_flags BPF_F_RDONLY_PROG: EINVAL
	expect_err("map_flags BPF_F_RDONLY_PROG",
		   map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, vsz, 1, BPF_F_RDONLY_PROG, 0), -EINVAL);
	// CHECK-NEXT: map_flags BPF_F_RDONLY: EINVAL
	expect_err("map_flags BPF_F_RDONLY",
		   map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, vsz, 1, BPF_F_RDONLY, 0), -EINVAL);
	/* map_extra: 0, or the static-key flags (static_key_map_create.c) */

	fd = map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, vsz, 3, 0, 0);
	// CHECK-NEXT: create 3 entries: OK
	expect_err("create 3 entries", fd, 0);
	if (fd < 0)
		return finish();
	// CHECK-NEXT: map_flags after create: 0x80 (BPF_F_RDONLY_PROG 0x80)
	printf("map_flags after create: %#x (BPF_F_RDONLY_PROG %#x)\n", map_flags_of(fd),
	       BPF_F_RDONLY_PROG);
	if (map_flags_of(fd) != BPF_F_RDONLY_PROG)
		failures++;

	memset(&v, 0, sizeof(v));
	v.orig_off = 7;
	// CHECK-NEXT: update [0] orig_off 7: OK
	expect_err("update [0] orig_off 7", insn_array_update(fd, 0, &v, BPF_ANY), 0);
	// CHECK-NEXT: update [3] (out of range): E2BIG
	expect_err("update [3] (out of range)", insn_array_update(fd, 3, &v, BPF_ANY), -E2BIG);
	// CHECK-NEXT: update [1] BPF_NOEXIST: EEXIST
	expect_err("update [1] BPF_NOEXIST", insn_array_update(fd, 1, &v, BPF_NOEXIST), -EEXIST);
	v.xlated_off = 1;
	// CHECK-NEXT: update [1] with xlated_off set: EINVAL
	expect_err("update [1] with xlated_off set", insn_array_update(fd, 1, &v, BPF_ANY), -EINVAL);
	v.xlated_off = 0;
	v.jitted_off = 1;
	// CHECK-NEXT: update [1] with jitted_off set: EINVAL
	expect_err("update [1] with jitted_off set", insn_array_update(fd, 1, &v, BPF_ANY), -EINVAL);
	// CHECK-NEXT: delete [0]: EINVAL
	expect_err("delete [0]", map_delete(fd, 0), -EINVAL);
	err = insn_array_lookup(fd, 0, &v);
	// CHECK-NEXT: lookup [0]: OK, orig_off 7 xlated_off 0 jitted_off 0
	printf("lookup [0]: %s, orig_off %u xlated_off %u jitted_off %u\n", errname(err),
	       v.orig_off, v.xlated_off, v.jitted_off);
	if (err || v.orig_off != 7 || v.xlated_off || v.jitted_off)
		failures++;
	// CHECK-NEXT: lookup [3]: ENOENT
	expect_err("lookup [3]", insn_array_lookup(fd, 3, &v), -ENOENT);
	// CHECK-NEXT: freeze: OK
	expect_err("freeze", map_freeze(fd), 0);
	v.orig_off = 1;
	v.jitted_off = 0;
	// CHECK-NEXT: update after freeze: EPERM
	expect_err("update after freeze", insn_array_update(fd, 1, &v, BPF_ANY), -EPERM);

	/* r1 = map; r2 = &key; call bpf_map_lookup_elem: no helper takes it */
	{
		struct bpf_insn prog[] = {
			LD_MAP_FD(BPF_REG_1, fd),
			MOV64_REG(BPF_REG_2, BPF_REG_10),
			ADD64_IMM(BPF_REG_2, -4),
			INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, 0),
			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};
		int prog_fd = prog_load(prog, ARRAY_SIZE(prog), NULL, 0);

		// CHECK-NEXT: bpf_map_lookup_elem() on it from BPF: EINVAL
		expect_err("bpf_map_lookup_elem() on it from BPF", prog_fd, -EINVAL);
		if (prog_fd >= 0)
			close(prog_fd);
		else
			print_log_line();
	}
	close(fd);
	// CHECK: PASSED
	return finish();
}
