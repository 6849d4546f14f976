// SPDX-License-Identifier: GPL-2.0
// What a key reports about its group. fdinfo: static_key_group_id, the
// same non-zero id for every member of a group, another one for another
// group, 0 for a key in no group; a plain INSN_ARRAY has no such line.
// map_extra: BPF_F_STATIC_KEY_GROUP (0x8) on every member, with the
// group's state in BPF_F_STATIC_KEY_ON; a key in no group reports what it
// did before the groups.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_group.h"

static unsigned long long extra_of(int fd)
{
	struct bpf_map_info info;

	if (map_info_of(fd, &info)) {
		printf("FAIL: map info\n");
		exit(1);
	}
	return info.map_extra;
}

int main(void)
{
	static const __u32 offs[] = { 0 };
	int a, a1, a2, b, b1, lone, plain;
	long ga, gb;

	require_static_keys_kernel();
	a = group_anchor_create(false);
	a1 = group_member_create(a);
	a2 = group_member_create(a1);
	b = group_anchor_create(true);
	b1 = group_member_create(b);
	lone = static_key_create(BPF_F_STATIC_KEY, offs, 1, true);
	plain = insn_array_create(offs, 1, true);
	ga = fdinfo_field(a, "static_key_group_id");
	gb = fdinfo_field(b, "static_key_group_id");

	// CHECK: group a: non-zero yes, members same yes
	printf("group a: non-zero %s, members same %s\n", ga > 0 ? "yes" : "no",
	       fdinfo_field(a1, "static_key_group_id") == ga &&
	       fdinfo_field(a2, "static_key_group_id") == ga ? "yes" : "no");
	// CHECK-NEXT: group b: non-zero yes, member same yes, differs from a yes
	printf("group b: non-zero %s, member same %s, differs from a %s\n", gb > 0 ? "yes" : "no",
	       fdinfo_field(b1, "static_key_group_id") == gb ? "yes" : "no",
	       gb != ga ? "yes" : "no");
	// CHECK-NEXT: key in no group: 0
	printf("key in no group: %ld\n", fdinfo_field(lone, "static_key_group_id"));
	// CHECK-NEXT: plain insn_array: -1
	printf("plain insn_array: %ld\n", fdinfo_field(plain, "static_key_group_id"));
	// CHECK-NEXT: map_extra: a 0x9 a1 0x9 a2 0x9 b 0xb b1 0xb lone 0x1
	printf("map_extra: a %#llx a1 %#llx a2 %#llx b %#llx b1 %#llx lone %#llx\n", extra_of(a),
	       extra_of(a1), extra_of(a2), extra_of(b), extra_of(b1), extra_of(lone));
	// CHECK-NEXT: a2 on: OK
	expect_err("a2 on", static_key_update(a2, 1), 0);
	/* a2 is bound to no program: the group's anchor and members carry it */
	// CHECK-NEXT: map_extra: a 0xb a1 0xb a2 0xb b 0xb b1 0xb
	printf("map_extra: a %#llx a1 %#llx a2 %#llx b %#llx b1 %#llx\n", extra_of(a),
	       extra_of(a1), extra_of(a2), extra_of(b), extra_of(b1));
	// CHECK-NEXT: PASSED
	return finish();
}
