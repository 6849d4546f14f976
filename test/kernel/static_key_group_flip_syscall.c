// SPDX-License-Identifier: GPL-2.0
// BPF_STATIC_KEY_UPDATE on any member of a key group sets every member:
// the programs bound to the members, in one batch, and the anchor (a
// member no program is bound to), which carries the state. Through one fd
// (map_fd) or several (map_fds): two members of one group in one call set
// the group once; the same map twice is still EINVAL. A key of another
// group, or in no group, is not touched unless it is passed too.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_group.h"

#define N 3
static int anchor, keys[N + 1], progs[N + 2];

static void show(const char *what)
{
	group_show(what, (int[]){ anchor, keys[0], keys[1], keys[2], keys[3] }, N + 2, progs,
		   N + 2);
}

int main(void)
{
	int i, plain, other_anchor;

	require_static_keys_kernel();
	anchor = group_anchor_create(false);
	for (i = 0; i < N; i++) {
		keys[i] = group_member_create(i ? keys[i - 1] : anchor);
		progs[i] = group_prog_load(i, keys[i]);
	}
	/* program 3: a key of another group; program 4: a key in no group */
	other_anchor = group_anchor_create(false);
	keys[N] = group_member_create(other_anchor);
	progs[N] = group_prog_load(N, keys[N]);
	batch_load(N + 1, &plain, &progs[N + 1]);

	// CHECK: loaded: keys off off off off off, programs off off off off off
	show("loaded");
	// CHECK-NEXT: member 1 on: OK
	expect_err("member 1 on", static_key_update(keys[1], 1), 0);
	// CHECK-NEXT: after: keys on on on on off, programs on on on off off
	show("after");
	// CHECK-NEXT: anchor off: OK
	expect_err("anchor off", static_key_update(anchor, 0), 0);
	// CHECK-NEXT: after: keys off off off off off, programs off off off off off
	show("after");
	// CHECK-NEXT: members 0 and 2 on, one call: OK
	expect_err("members 0 and 2 on, one call",
		   keys_update((int[]){ keys[0], keys[2] }, 2, 1, 0), 0);
	// CHECK-NEXT: after: keys on on on on off, programs on on on off off
	show("after");
	// CHECK-NEXT: member 0 twice: EINVAL
	expect_err("member 0 twice", keys_update((int[]){ keys[0], keys[0] }, 2, 0, 0), -EINVAL);
	// CHECK-NEXT: after: keys on on on on off, programs on on on off off
	show("after");
	// CHECK-NEXT: member 2, the other group and the plain key off: OK
	expect_err("member 2, the other group and the plain key off",
		   keys_update((int[]){ keys[2], keys[N], plain }, 3, 0, 0), 0);
	// CHECK-NEXT: after: keys off off off off off, programs off off off off off
	show("after");
	// CHECK-NEXT: the other group on: OK
	expect_err("the other group on", static_key_update(other_anchor, 1), 0);
	// CHECK-NEXT: after: keys off off off off on, programs off off off on off
	show("after");
	// CHECK-NEXT: PASSED
	return finish();
}
