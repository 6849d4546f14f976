// SPDX-License-Identifier: GPL-2.0
// The series' enum values agree with upstream Linux (docs/abi.md section
// 4.1): a static key is upstream's BPF_MAP_TYPE_INSN_ARRAY (34) with
// BPF_F_STATIC_KEY in map_extra; 35 (upstream's RHASH) is no static key; 36,
// the old ABI's BPF_MAP_TYPE_INSN_SET, is unused again; and
// BPF_STATIC_KEY_UPDATE is 1024, outside enum bpf_cmd, whose values
// upstream assigns densely from 0 (37 PROG_STREAM_READ_BY_FD, 38
// PROG_ASSOC_STRUCT_OPS, 39 its next one; a BPF token's 64-bit mask bounds
// them). The raw numbers are what a tool built against other headers
// sends: no other map type or command may reach a static key.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"

static int raw_cmd(int cmd, int map_fd, __u32 on)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.static_key.map_fd = map_fd;
	attr.static_key.on = on;
	return syscall(__NR_bpf, cmd, &attr, sizeof(attr)) < 0 ? -errno : 0;
}

int main(void)
{
	/* return key ? 2 : 1 */
	const struct bpf_insn prog[] = {
		MOV64_IMM(BPF_REG_0, 1), GOTOL_OR_NOP(1), EXIT(), MOV64_IMM(BPF_REG_0, 2), EXIT(),
	};
	const __u32 site = 1;
	int key, prog_fd, fd, err;

	require_static_keys_kernel();

	// CHECK: header: BPF_MAP_TYPE_INSN_ARRAY 34, BPF_STATIC_KEY_UPDATE 1024, __MAX_BPF_CMD 37
	printf("header: BPF_MAP_TYPE_INSN_ARRAY %d, BPF_STATIC_KEY_UPDATE %d, __MAX_BPF_CMD %d\n",
	       (int)BPF_MAP_TYPE_INSN_ARRAY, (int)BPF_STATIC_KEY_UPDATE, (int)__MAX_BPF_CMD);
	if (BPF_MAP_TYPE_INSN_ARRAY != 34 || BPF_STATIC_KEY_UPDATE != 1024 || __MAX_BPF_CMD != 37)
		failures++;

	// CHECK-NEXT: map type 35 as a static key: EINVAL
	fd = map_create(35, 4, 16, 1, 0, BPF_F_STATIC_KEY);
	expect_err("map type 35 as a static key", fd, -EINVAL);
	if (fd >= 0)
		close(fd);
	// CHECK-NEXT: map type 36 (the old INSN_SET) as a static key: EINVAL
	fd = map_create(36, 4, 4, 1, 0, BPF_F_STATIC_KEY);
	expect_err("map type 36 (the old INSN_SET) as a static key", fd, -EINVAL);
	if (fd >= 0)
		close(fd);
	// CHECK-NEXT: map type 36 (the old INSN_SET): EINVAL
	fd = map_create(36, 4, 4, 1, 0, 0);
	expect_err("map type 36 (the old INSN_SET)", fd, -EINVAL);
	if (fd >= 0)
		close(fd);
	// CHECK-NEXT: map type 37: EINVAL
	fd = map_create(37, 4, 4, 1, 0, 0);
	expect_err("map type 37", fd, -EINVAL);
	if (fd >= 0)
		close(fd);

	// CHECK-NEXT: map type 34 as a static key: OK
	key = map_create(34, 4, 16, 1, 0, BPF_F_STATIC_KEY);
	expect_err("map type 34 as a static key", key, 0);
	if (key < 0)
		return finish();
	if ((err = insn_array_update(key, 0, &(struct bpf_insn_array_value){ .orig_off = site },
				     BPF_ANY)) ||
	    (err = map_freeze(key))) {
		printf("FAIL: key setup: %s\n", errname(err));
		return 1;
	}
	prog_fd = prog_load(prog, ARRAY_SIZE(prog), &key, 1);
	if (prog_fd < 0) {
		printf("FAIL: load: %s\n", errname(prog_fd));
		print_log_line();
		return 1;
	}
	// CHECK-NEXT: loaded, key off: 1
	printf("loaded, key off: %u\n", prog_run(prog_fd));

	// CHECK-NEXT: command 37 on the key: EINVAL
	expect_err("command 37 on the key", raw_cmd(37, key, 1), -EINVAL);
	// CHECK-NEXT: after command 37: 1
	printf("after command 37: %u\n", prog_run(prog_fd));
	// CHECK-NEXT: command 38 on the key: EINVAL
	expect_err("command 38 on the key", raw_cmd(38, key, 1), -EINVAL);
	// CHECK-NEXT: after command 38: 1
	printf("after command 38: %u\n", prog_run(prog_fd));
	if (prog_run(prog_fd) != 1)
		failures++;
	// CHECK-NEXT: command 39 on the key: EINVAL
	expect_err("command 39 on the key", raw_cmd(39, key, 1), -EINVAL);
	// CHECK-NEXT: command 1023 on the key: EINVAL
	expect_err("command 1023 on the key", raw_cmd(1023, key, 1), -EINVAL);
	// CHECK-NEXT: after commands 39 and 1023: 1
	printf("after commands 39 and 1023: %u\n", prog_run(prog_fd));
	if (prog_run(prog_fd) != 1)
		failures++;
	// CHECK-NEXT: command 1024 on the key: OK
	expect_err("command 1024 on the key", raw_cmd(1024, key, 1), 0);
	// CHECK-NEXT: after command 1024: 2
	printf("after command 1024: %u\n", prog_run(prog_fd));
	if (prog_run(prog_fd) != 2)
		failures++;
	// CHECK-NEXT: command 1025: EINVAL
	expect_err("command 1025", raw_cmd(1025, key, 0), -EINVAL);

	close(prog_fd);
	close(key);
	// CHECK: PASSED
	return finish();
}
