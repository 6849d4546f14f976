// SPDX-License-Identifier: GPL-2.0
// The anchor: the first member of a group, which no program is bound to.
// It carries the group's state: BPF_STATIC_KEY_UPDATE on it succeeds (on a
// key in no group with no program it is EINVAL), and so do both kfuncs,
// before any program with the group's sites exists; the members created
// later take that state and their programs run with it. The anchor never
// binds: its fdinfo says program 0 throughout.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_group.h"

int main(void)
{
	static const __u32 offs[] = { 0 };
	int anchor, lone, sync_flipper, key, prog;

	require_static_keys_kernel();
	anchor = group_anchor_create(false);
	lone = static_key_create(BPF_F_STATIC_KEY, offs, 1, true);

	// CHECK: key in no group, no program, on: EINVAL
	expect_err("key in no group, no program, on", static_key_update(lone, 1), -EINVAL);
	// CHECK-NEXT: anchor on: OK
	expect_err("anchor on", static_key_update(anchor, 1), 0);
	// CHECK-NEXT: anchor reads on
	printf("anchor reads %s\n", static_key_state(anchor) ? "on" : "off");
	sync_flipper = flipper_load(anchor, kfunc_id("bpf_static_key_set_sync"), BPF_F_SLEEPABLE);
	if (sync_flipper < 0) {
		printf("FAIL: flipper load: %s\n%s", errname(sync_flipper), verifier_log);
		return 1;
	}
	// CHECK-NEXT: sync off through the anchor alone: 0
	printf("sync off through the anchor alone: %d\n", group_flip_run(sync_flipper, 0));
	// CHECK-NEXT: sync on through the anchor alone: 0
	printf("sync on through the anchor alone: %d\n", group_flip_run(sync_flipper, 1));
	// CHECK-NEXT: sync 2: -22
	printf("sync 2: %d\n", group_flip_run(sync_flipper, 2));

	key = group_member_create(anchor);
	prog = group_prog_load(0, key);
	// CHECK-NEXT: first program: keys on on, programs on
	group_show("first program", (int[]){ anchor, key }, 2, &prog, 1);
	// CHECK-NEXT: anchor fdinfo: prog 0
	printf("anchor fdinfo: prog %ld\n", fdinfo_field(anchor, "static_key_prog_id"));
	// CHECK-NEXT: member fdinfo names its program: yes
	printf("member fdinfo names its program: %s\n",
	       fdinfo_field(key, "static_key_prog_id") == (long)prog_id_of(prog) ? "yes" : "no");
	// CHECK-NEXT: PASSED
	return finish();
}
