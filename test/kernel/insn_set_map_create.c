// Creating and filling a BPF_MAP_TYPE_INSN_SET map: 4-byte keys and values,
// bounded max_entries, map_extra only with static-key flags, writes only
// before the map is frozen, no deletes, and no access from BPF programs.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"

int main(void)
{
	__u32 v = 0;
	int fd, err;

	require_static_keys_kernel();

	// CHECK: key_size 8: EINVAL
	expect_err("key_size 8", map_create(BPF_MAP_TYPE_INSN_SET, 8, 4, 1, 0, 0), -EINVAL);
	// CHECK: value_size 8: EINVAL
	expect_err("value_size 8", map_create(BPF_MAP_TYPE_INSN_SET, 4, 8, 1, 0, 0), -EINVAL);
	// CHECK: max_entries 0: EINVAL
	expect_err("max_entries 0", map_create(BPF_MAP_TYPE_INSN_SET, 4, 4, 0, 0, 0), -EINVAL);
	// CHECK: max_entries 4096: OK
	fd = map_create(BPF_MAP_TYPE_INSN_SET, 4, 4, 4096, 0, 0);
	expect_err("max_entries 4096", fd, 0);
	close(fd);
	// CHECK: max_entries 4097: E2BIG
	expect_err("max_entries 4097", map_create(BPF_MAP_TYPE_INSN_SET, 4, 4, 4097, 0, 0), -E2BIG);
	// CHECK: max_entries 0xffffffff: E2BIG
	expect_err("max_entries 0xffffffff",
		   map_create(BPF_MAP_TYPE_INSN_SET, 4, 4, 0xffffffffu, 0, 0), -E2BIG);
	// CHECK: map_flags BPF_F_RDONLY_PROG: EINVAL
	expect_err("map_flags BPF_F_RDONLY_PROG",
		   map_create(BPF_MAP_TYPE_INSN_SET, 4, 4, 1, BPF_F_RDONLY_PROG, 0), -EINVAL);
	// CHECK: map_extra 4: EINVAL
	expect_err("map_extra 4", map_create(BPF_MAP_TYPE_INSN_SET, 4, 4, 1, 0, 4), -EINVAL);
	// CHECK: map_extra BPF_F_STATIC_KEY_ON alone: EINVAL
	expect_err("map_extra BPF_F_STATIC_KEY_ON alone",
		   map_create(BPF_MAP_TYPE_INSN_SET, 4, 4, 1, 0, BPF_F_STATIC_KEY_ON), -EINVAL);
	// CHECK: map_extra on an array map: EINVAL
	expect_err("map_extra on an array map",
		   map_create(BPF_MAP_TYPE_ARRAY, 4, 4, 1, 0, BPF_F_STATIC_KEY), -EINVAL);
	// CHECK: static key, initially on: OK
	fd = map_create(BPF_MAP_TYPE_INSN_SET, 4, 4, 1, 0, BPF_F_STATIC_KEY | BPF_F_STATIC_KEY_ON);
	expect_err("static key, initially on", fd, 0);
	close(fd);

	fd = map_create(BPF_MAP_TYPE_INSN_SET, 4, 4, 3, 0, 0);
	// CHECK: update [0] = 7: OK
	expect_err("update [0] = 7", map_update(fd, 0, 7, BPF_ANY), 0);
	// CHECK: update [3] (out of range): E2BIG
	expect_err("update [3] (out of range)", map_update(fd, 3, 7, BPF_ANY), -E2BIG);
	// CHECK: update [1] BPF_NOEXIST: EEXIST
	expect_err("update [1] BPF_NOEXIST", map_update(fd, 1, 7, BPF_NOEXIST), -EEXIST);
	// CHECK: delete [0]: EINVAL
	expect_err("delete [0]", map_delete(fd, 0), -EINVAL);
	err = map_lookup(fd, 0, &v);
	// CHECK: lookup [0]: OK, 7
	printf("lookup [0]: %s, %u\n", errname(err), v);
	if (err || v != 7)
		failures++;
	// CHECK: freeze: OK
	expect_err("freeze", map_freeze(fd), 0);
	// CHECK: update after freeze: EPERM
	expect_err("update after freeze", map_update(fd, 1, 8, BPF_ANY), -EPERM);

	// A program cannot load the map's address.
	{
		int kfd = insn_set_create(0, (__u32[]){ 0 }, 1, true);
		struct bpf_insn prog[] = {
			LD_MAP_FD(BPF_REG_1, kfd),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};

		// CHECK: ld_imm64 of the map: EINVAL
		// CHECK: insn_set map cannot be accessed from a program
		expect_err("ld_imm64 of the map", prog_load(prog, ARRAY_SIZE(prog), NULL, 0), -EINVAL);
		printf("%s", verifier_log);
	}
	close(fd);
	// CHECK: PASSED
	return finish();
}
