// SPDX-License-Identifier: GPL-2.0
// A key that joins a group (BPF_F_STATIC_KEY_JOIN, a member's fd in
// inner_map_fd) takes the group's state, whatever state the group was
// created with or set to since: its map_extra says it, and the program
// bound to it is jitted for it. map_extra of every member has
// BPF_F_STATIC_KEY_GROUP (and never BPF_F_STATIC_KEY_JOIN, an instruction
// to BPF_MAP_CREATE only).
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_group.h"

static void show_extra(const char *what, int fd)
{
	struct bpf_map_info info;

	if (map_info_of(fd, &info)) {
		printf("FAIL: map info\n");
		exit(1);
	}
	printf("%s: map_extra %#llx\n", what, (unsigned long long)info.map_extra);
}

int main(void)
{
	int anchor, keys[3], progs[3];

	require_static_keys_kernel();

	/* a group created on: a member joins on */
	anchor = group_anchor_create(true);
	keys[0] = group_member_create(anchor);
	// CHECK: anchor created on: map_extra 0xb
	show_extra("anchor created on", anchor);
	// CHECK-NEXT: member joins: map_extra 0xb
	show_extra("member joins", keys[0]);
	progs[0] = group_prog_load(0, keys[0]);
	// CHECK-NEXT: loaded: keys on on, programs on
	group_show("loaded", (int[]){ anchor, keys[0] }, 2, progs, 1);

	/* set off through the anchor: a member that joins now joins off */
	// CHECK-NEXT: anchor off: OK
	expect_err("anchor off", static_key_update(anchor, 0), 0);
	keys[1] = group_member_create(keys[0]);
	// CHECK-NEXT: member joins through a member: map_extra 0x9
	show_extra("member joins through a member", keys[1]);
	progs[1] = group_prog_load(1, keys[1]);
	// CHECK-NEXT: loaded: keys off off off, programs off off
	group_show("loaded", (int[]){ anchor, keys[0], keys[1] }, 3, progs, 2);

	/* and on again */
	// CHECK-NEXT: member 1 on: OK
	expect_err("member 1 on", static_key_update(keys[1], 1), 0);
	keys[2] = group_member_create(anchor);
	progs[2] = group_prog_load(2, keys[2]);
	// CHECK-NEXT: third member: keys on on on on, programs on on on
	group_show("third member", (int[]){ anchor, keys[0], keys[1], keys[2] }, 4, progs, 3);

	/* a group created off */
	close(anchor);
	anchor = group_anchor_create(false);
	// CHECK-NEXT: anchor created off: map_extra 0x9
	show_extra("anchor created off", anchor);
	keys[0] = group_member_create(anchor);
	progs[0] = group_prog_load(0, keys[0]);
	// CHECK-NEXT: second group: keys off off, programs off
	group_show("second group", (int[]){ anchor, keys[0] }, 2, progs, 1);
	// CHECK-NEXT: PASSED
	return finish();
}
