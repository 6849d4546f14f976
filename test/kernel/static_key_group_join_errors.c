// SPDX-License-Identifier: GPL-2.0
// What BPF_MAP_CREATE refuses for key groups, creating nothing: the group
// flags without BPF_F_STATIC_KEY, both BPF_F_STATIC_KEY_GROUP and _JOIN,
// _JOIN with BPF_F_STATIC_KEY_ON (a member takes the group's state); and
// for _JOIN, an inner_map_fd that is not a map (a pipe: EINVAL, as for any
// map fd), is closed (EBADF), is a map but not a static key (an array, a
// plain INSN_ARRAY: EINVAL), is a key in no group (EINVAL: it keeps the
// rules of a key in no group), or is open read-only (EPERM: a member can
// set the whole group, as a flip through that fd could not). A group's
// members have at most 65536 entries in all, what one update may set:
// E2BIG past it. Bit 2 of map_extra stays undefined.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_group.h"

#define KEY	BPF_F_STATIC_KEY
#define GROUP	BPF_F_STATIC_KEY_GROUP
#define JOIN	BPF_F_STATIC_KEY_JOIN

static void refused(const char *what, __u64 extra, int inner_fd, __u32 n, int want)
{
	int fd = group_key_create_raw(extra, inner_fd, n);

	expect_err(what, fd, want);
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	static const __u32 offs[] = { 0 };
	int anchor, lone, plain, array, rdonly, pipefd[2], members[16], i, fd;

	require_static_keys_kernel();
	anchor = group_anchor_create(false);
	lone = static_key_create(KEY, offs, 1, true);
	plain = insn_array_create(offs, 1, true);
	array = map_create(BPF_MAP_TYPE_ARRAY, 4, 4, 1, 0, 0);
	rdonly = map_fd_reopen(anchor, BPF_F_RDONLY);
	if (array < 0 || rdonly < 0 || pipe(pipefd)) {
		printf("FAIL: setup\n");
		return 1;
	}

	// CHECK: GROUP without KEY: EINVAL
	refused("GROUP without KEY", GROUP, 0, 1, -EINVAL);
	// CHECK-NEXT: JOIN without KEY: EINVAL
	refused("JOIN without KEY", JOIN, anchor, 1, -EINVAL);
	// CHECK-NEXT: GROUP and JOIN: EINVAL
	refused("GROUP and JOIN", KEY | GROUP | JOIN, anchor, 1, -EINVAL);
	// CHECK-NEXT: JOIN with ON: EINVAL
	refused("JOIN with ON", KEY | JOIN | BPF_F_STATIC_KEY_ON, anchor, 1, -EINVAL);
	// CHECK-NEXT: bit 2 with GROUP: EINVAL
	refused("bit 2 with GROUP", KEY | GROUP | 4, 0, 1, -EINVAL);
	// CHECK-NEXT: JOIN a pipe: EINVAL
	refused("JOIN a pipe", KEY | JOIN, pipefd[0], 1, -EINVAL);
	// CHECK-NEXT: JOIN a closed fd: EBADF
	refused("JOIN a closed fd", KEY | JOIN, 1000, 1, -EBADF);
	// CHECK-NEXT: JOIN an array map: EINVAL
	refused("JOIN an array map", KEY | JOIN, array, 1, -EINVAL);
	// CHECK-NEXT: JOIN a plain INSN_ARRAY: EINVAL
	refused("JOIN a plain INSN_ARRAY", KEY | JOIN, plain, 1, -EINVAL);
	// CHECK-NEXT: JOIN a key in no group: EINVAL
	refused("JOIN a key in no group", KEY | JOIN, lone, 1, -EINVAL);
	// CHECK-NEXT: JOIN through a read-only fd: EPERM
	refused("JOIN through a read-only fd", KEY | JOIN, rdonly, 1, -EPERM);
	// CHECK-NEXT: JOIN through the read-write fd: OK
	refused("JOIN through the read-write fd", KEY | JOIN, anchor, 1, 0);

	/* the anchor has 1 entry: fifteen members of 4096, then 4095 more fit */
	for (i = 0; i < 15; i++) {
		members[i] = group_key_create_raw(KEY | JOIN, anchor, 4096);
		if (members[i] < 0) {
			printf("FAIL: member %d of 4096 entries: %s\n", i, errname(members[i]));
			return 1;
		}
	}
	// CHECK-NEXT: 65536 + 1 entries: E2BIG
	refused("65536 + 1 entries", KEY | JOIN, anchor, 4096, -E2BIG);
	fd = group_key_create_raw(KEY | JOIN, anchor, 4095);
	// CHECK-NEXT: 65536 entries: OK
	expect_err("65536 entries", fd, 0);
	// CHECK-NEXT: the full group on: OK
	expect_err("the full group on", static_key_update(anchor, 1), 0);
	close(fd);
	close(members[0]);
	/* a member's entries count until the map is freed (a work after close) */
	for (i = 0; i < 200; i++) {
		fd = group_key_create_raw(KEY | JOIN, anchor, 4096);
		if (fd >= 0)
			break;
		usleep(10 * 1000);
	}
	// CHECK-NEXT: room again once a member is freed: OK
	expect_err("room again once a member is freed", fd, 0);
	// CHECK-NEXT: it joins on: 1
	printf("it joins on: %d\n", fd >= 0 ? static_key_state(fd) : -1);
	// CHECK-NEXT: PASSED
	return finish();
}
