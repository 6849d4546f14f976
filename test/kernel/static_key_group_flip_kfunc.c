// SPDX-License-Identifier: GPL-2.0
// Both kfuncs set the whole group of the key they are given. The flippers
// refer to the group's anchor (an ld_imm64 of its fd), which no program is
// bound to, and are loaded before the programs with the group's sites:
// bpf_static_key_set_sync() (a sleepable syscall program) returns once
// every member is set; bpf_static_key_set() (from a syscall program too,
// sleepable as they all are) only queues the flip, which
// BPF_OBJ_GET_INFO_BY_FD on any member applies before it reports. A group holds one queued request: of two
// flips queued through two members, the later one wins. A member that
// joins after the flips takes the group's state.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_group.h"

#define N 2
static int anchor, keys[N + 1], progs[N + 1] = { -1, -1, -1 };

static void show(const char *what, int nprogs)
{
	group_show(what, (int[]){ anchor, keys[0], keys[1] }, N + 1, progs, nprogs);
}

int main(void)
{
	int set_sync, set, sync_flipper, flipper, member_flipper, i;

	require_static_keys_kernel();
	set_sync = kfunc_id("bpf_static_key_set_sync");
	set = kfunc_id("bpf_static_key_set");

	anchor = group_anchor_create(false);
	sync_flipper = flipper_load(anchor, set_sync, BPF_F_SLEEPABLE);
	flipper = flipper_load(anchor, set, BPF_F_SLEEPABLE);
	if (sync_flipper < 0 || flipper < 0) {
		printf("FAIL: flipper load: %s\n%s", errname(sync_flipper < 0 ? sync_flipper : flipper),
		       verifier_log);
		return 1;
	}
	for (i = 0; i < N; i++) {
		keys[i] = group_member_create(anchor);
		progs[i] = group_prog_load(i, keys[i]);
	}
	member_flipper = flipper_load(keys[1], set, BPF_F_SLEEPABLE);
	if (member_flipper < 0) {
		printf("FAIL: member flipper load: %s\n%s", errname(member_flipper), verifier_log);
		return 1;
	}

	// CHECK: loaded: keys off off off, programs off off
	show("loaded", N);
	// CHECK-NEXT: sync on through the anchor: 0
	printf("sync on through the anchor: %d\n", group_flip_run(sync_flipper, 1));
	// CHECK-NEXT: after: keys on on on, programs on on
	show("after", N);
	// CHECK-NEXT: sync off through the anchor: 0
	printf("sync off through the anchor: %d\n", group_flip_run(sync_flipper, 0));
	// CHECK-NEXT: after: keys off off off, programs off off
	show("after", N);

	// CHECK-NEXT: queued on through the anchor: 0
	printf("queued on through the anchor: %d\n", group_flip_run(flipper, 1));
	/* the state read of member 0 applies the flip queued on the anchor */
	// CHECK-NEXT: member 0 reads on
	printf("member 0 reads %s\n", static_key_state(keys[0]) ? "on" : "off");
	// CHECK-NEXT: after: keys on on on, programs on on
	show("after", N);

	/* two requests, through two members: the last one wins */
	// CHECK-NEXT: queued off through the anchor: 0
	printf("queued off through the anchor: %d\n", group_flip_run(flipper, 0));
	// CHECK-NEXT: then queued on through member 1: 0
	printf("then queued on through member 1: %d\n", group_flip_run(member_flipper, 1));
	// CHECK-NEXT: after: keys on on on, programs on on
	show("after", N);
	// CHECK-NEXT: queued off through member 1: 0
	printf("queued off through member 1: %d\n", group_flip_run(member_flipper, 0));
	// CHECK-NEXT: after: keys off off off, programs off off
	show("after", N);

	/* a member created after the flips: the group's state */
	// CHECK-NEXT: sync on: 0
	printf("sync on: %d\n", group_flip_run(sync_flipper, 1));
	keys[N] = group_member_create(anchor);
	progs[N] = group_prog_load(N, keys[N]);
	// CHECK-NEXT: new member: keys on on on, programs on on on
	group_show("new member", (int[]){ anchor, keys[0], keys[1] }, N + 1, progs, N + 1);
	// CHECK-NEXT: queued off: 0
	printf("queued off: %d\n", group_flip_run(flipper, 0));
	// CHECK-NEXT: new member reads off
	printf("new member reads %s\n", static_key_state(keys[N]) ? "on" : "off");
	// CHECK-NEXT: after: keys off off off, programs off off off
	show("after", N + 1);
	// CHECK-NEXT: PASSED
	return finish();
}
