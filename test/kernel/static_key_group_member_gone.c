// SPDX-License-Identifier: GPL-2.0
// A member whose program is gone stays in its group: it carries the
// group's state (map_extra), it does not fail a flip of the group (a key
// in no group whose program is gone does: EINVAL), and a flip through it
// sets the other members. Its fdinfo says program 0 and the same group.
// The group lives while any member does: with the anchor closed, and the
// member the others joined through closed, the rest still flip together
// and a new key can join through any of them.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_group.h"

int main(void)
{
	int anchor, keys[3], progs[3], i, err;
	long group;

	require_static_keys_kernel();
	anchor = group_anchor_create(false);
	for (i = 0; i < 3; i++) {
		keys[i] = group_member_create(anchor);
		progs[i] = group_prog_load(i, keys[i]);
	}
	group = fdinfo_field(anchor, "static_key_group_id");

	/* program 1 goes; the kernel frees it after RCU and a work item */
	close(progs[1]);
	progs[1] = -1;
	for (i = 0; i < 200 && fdinfo_field(keys[1], "static_key_prog_id") != 0; i++)
		usleep(10 * 1000);
	// CHECK: member 1 unbound: prog 0, same group: yes
	printf("member 1 unbound: prog %ld, same group: %s\n",
	       fdinfo_field(keys[1], "static_key_prog_id"),
	       fdinfo_field(keys[1], "static_key_group_id") == group ? "yes" : "no");
	// CHECK-NEXT: member 0 on: OK
	expect_err("member 0 on", static_key_update(keys[0], 1), 0);
	// CHECK-NEXT: after: keys on on on on, programs on - on
	group_show("after", (int[]){ anchor, keys[0], keys[1], keys[2] }, 4, progs, 3);
	// CHECK-NEXT: through member 1 off: OK
	expect_err("through member 1 off", static_key_update(keys[1], 0), 0);
	// CHECK-NEXT: after: keys off off off off, programs off - off
	group_show("after", (int[]){ anchor, keys[0], keys[1], keys[2] }, 4, progs, 3);

	/* the contrast: a key in no group whose program is gone */
	close(batch_key_of_freed_program(3, &err));
	// CHECK-NEXT: key in no group, program gone: EINVAL
	expect_err("key in no group, program gone", err, -EINVAL);

	/* the group outlives the anchor and the member others joined through */
	close(anchor);
	close(keys[0]);
	close(progs[0]);
	// CHECK-NEXT: member 2 on: OK
	expect_err("member 2 on", static_key_update(keys[2], 1), 0);
	keys[0] = group_member_create(keys[1]);
	progs[0] = group_prog_load(0, keys[0]);
	// CHECK-NEXT: joined through the unbound member: keys on on on, programs on - on
	group_show("joined through the unbound member", (int[]){ keys[0], keys[1], keys[2] }, 3,
		   progs, 3);
	// CHECK-NEXT: same group: yes
	printf("same group: %s\n", fdinfo_field(keys[0], "static_key_group_id") == group ? "yes" : "no");
	// CHECK-NEXT: new member off: OK
	expect_err("new member off", static_key_update(keys[0], 0), 0);
	// CHECK-NEXT: after: keys off off off, programs off - off
	group_show("after", (int[]){ keys[0], keys[1], keys[2] }, 3, progs, 3);
	// CHECK-NEXT: PASSED
	return finish();
}
