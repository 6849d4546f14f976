// SPDX-License-Identifier: GPL-2.0
// One BPF_STATIC_KEY_UPDATE sets at most 65536 sites, counted over every
// member of the groups it sets (docs/abi.md section 6.1): an update of the
// anchors of two groups of 36,865 entries each (an anchor and nine
// members of 4,096) gets E2BIG, and neither group changes; each group alone
// flips. The count comes from the groups' totals, before the kernel lists
// or locks any member.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_group.h"

#define MEMBERS 9

static int group_create(int *members)
{
	int anchor = group_anchor_create(false), i;

	for (i = 0; i < MEMBERS; i++) {
		members[i] = group_key_create_raw(BPF_F_STATIC_KEY | BPF_F_STATIC_KEY_JOIN,
						  anchor, 4096);
		if (members[i] < 0) {
			printf("FAIL: member %d: %s\n", i, errname(members[i]));
			exit(1);
		}
	}
	return anchor;
}

/* how many of the group's anchor and members read @on */
static int group_reads(int anchor, const int *members, int on)
{
	int i, n = static_key_state(anchor) == on;

	for (i = 0; i < MEMBERS; i++)
		n += static_key_state(members[i]) == on;
	return n;
}

int main(void)
{
	int a[MEMBERS], b[MEMBERS], anchors[2], err;

	require_static_keys_kernel();
	anchors[0] = group_create(a);
	anchors[1] = group_create(b);

	err = keys_update(anchors, 2, 1, 0);
	// CHECK: both groups (73730 sites) on: E2BIG
	expect_err("both groups (73730 sites) on", err, -E2BIG);
	// CHECK-NEXT: keys still off: 10 + 10
	printf("keys still off: %d + %d\n", group_reads(anchors[0], a, 0),
	       group_reads(anchors[1], b, 0));

	err = keys_update(&anchors[0], 1, 1, 0);
	// CHECK-NEXT: first group on: OK, keys on: 10, second group's keys off: 10
	printf("first group on: %s, keys on: %d, second group's keys off: %d\n", errname(err),
	       group_reads(anchors[0], a, 1), group_reads(anchors[1], b, 0));
	failures += err != 0;
	err = keys_update(&anchors[1], 1, 1, 0);
	// CHECK-NEXT: second group on: OK, keys on: 10
	printf("second group on: %s, keys on: %d\n", errname(err), group_reads(anchors[1], b, 1));
	failures += err != 0;
	// CHECK-NEXT: PASSED
	return finish();
}
