// SPDX-License-Identifier: GPL-2.0
// A program that only refers to a static key (an ld_imm64 of its fd, passed
// to bpf_static_key_set_sync() or bpf_static_key_set()) has the key in its
// map_ids, like the program the key is bound to (fd_array), but the key is
// not its own: bpftool takes the binding from the key's fdinfo
// (static_key_prog_id, kernel-patches/0015). `bpftool prog show` lists the
// key for its bound program only, `prog dump xlated` of a referring program
// marks none of its instructions as a static branch, and `static-key list`
// names the bound program, or "not bound" for a key that is only referred
// to. The referring programs do flip the key.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpftool_test.h"
#include "static_key_kfunc.h"

int main(void)
{
	static const struct bpf_insn owner_insns[] = {
		MOV64_IMM(BPF_REG_0, 1),
		MOV64_IMM(BPF_REG_0, 1),
		GOTOL_OR_NOP(1),		/* 2: the site of owned_key */
		EXIT(),
		MOV64_IMM(BPF_REG_0, 2),
		EXIT(),
	};
	int set, set_sync, key, lone, sync_flipper, owner, async_flipper;
	__u32 ctx[2] = { 1, 0 };
	int ret, state;

	require_static_keys_kernel();
	set = kfunc_id("bpf_static_key_set");
	set_sync = kfunc_id("bpf_static_key_set_sync");
	key = named_static_key("owned_key", BPF_F_STATIC_KEY, (__u32[]){ 2 }, 1);
	lone = named_static_key("lone_key", BPF_F_STATIC_KEY, (__u32[]){ 0 }, 1);

	/* refers to the key before its program is loaded: the lower id */
	{
		const struct bpf_insn insns[] = {
			LDX_W(BPF_REG_2, BPF_REG_1, 0),
			LD_MAP_FD(BPF_REG_1, key),
			KFUNC_CALL(set_sync),
			EXIT(),
		};

		sync_flipper = named_prog_as("sync_flipper", BPF_PROG_TYPE_SYSCALL,
					     BPF_F_SLEEPABLE, insns, ARRAY_SIZE(insns), NULL, 0);
	}
	owner = named_prog("key_owner", owner_insns, ARRAY_SIZE(owner_insns), &key, 1);
	/* refers to the key (its instruction 2 is where the owner's site is) and to lone_key */
	{
		const struct bpf_insn insns[] = {
			LD_MAP_FD(BPF_REG_1, key),
			MOV64_IMM(BPF_REG_2, 0),
			KFUNC_CALL(set),
			LD_MAP_FD(BPF_REG_1, lone),
			MOV64_IMM(BPF_REG_2, 0),
			KFUNC_CALL(set),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};

		async_flipper = named_prog_as("async_flipper", BPF_PROG_TYPE_SOCKET_FILTER, 0,
					      insns, ARRAY_SIZE(insns), NULL, 0);
	}
	// CHECK: sync_flipper [[SYNC:[0-9]+]] key_owner [[OWNER:[0-9]+]] async_flipper [[ASYNC:[0-9]+]] owned_key [[KEY:[0-9]+]] lone_key [[LONE:[0-9]+]]
	printf("sync_flipper %u key_owner %u async_flipper %u owned_key %u lone_key %u\n",
	       prog_id_of(sync_flipper), prog_id_of(owner), prog_id_of(async_flipper),
	       map_id_of(key), map_id_of(lone));

	/* the references work: each flipper sets the owner's key (a state read applies a queued flip) */
	ret = syscall_prog_run(sync_flipper, ctx);
	state = static_key_state(key);
	// CHECK-NEXT: sync_flipper sets on: returns 0, state 1, key_owner returns 2
	printf("sync_flipper sets on: returns %d, state %d, key_owner returns %u\n", ret, state,
	       prog_run(owner));
	ret = prog_run(async_flipper);
	state = static_key_state(key);
	// CHECK-NEXT: async_flipper sets off: returns 0, state 0, key_owner returns 1
	printf("async_flipper sets off: returns %d, state %d, key_owner returns %u\n", ret, state,
	       prog_run(owner));

	// CHECK: $ bpftool prog show id [[OWNER]]
	// CHECK-NEXT: [[OWNER]]: socket_filter  name key_owner  tag
	// CHECK: map_ids [[KEY]]
	// CHECK-NEXT: {{^}}	static_key owned_key  map_id [[KEY]]  off  sites 1{{$}}
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 0
	bpftool_ok("prog", "show", "id", u32str(prog_id_of(owner)));
	// CHECK: $ bpftool -j prog show id [[OWNER]]
	// CHECK-NEXT: {"id":[[OWNER]],{{.*}}"map_ids":{{\[}}[[KEY]]],"static_keys":[{"name":"owned_key","map_id":[[KEY]],"state":"off","sites":1,"dead_sites":0}]{{[,}]}}
	// CHECK: exit 0
	bpftool_ok("-j", "prog", "show", "id", u32str(prog_id_of(owner)));

	// CHECK: $ bpftool prog show id [[SYNC]]
	// CHECK-NEXT: [[SYNC]]: syscall  name sync_flipper  tag
	// CHECK: map_ids [[KEY]]{{$}}
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 0
	bpftool_ok("prog", "show", "id", u32str(prog_id_of(sync_flipper)));
	// CHECK: $ bpftool -j prog show id [[SYNC]]
	// CHECK-NEXT: {"id":[[SYNC]],{{.*}}"map_ids":{{\[}}[[KEY]]]{{(,"btf_id":[0-9]+)?}}}{{$}}
	// CHECK: exit 0
	bpftool_ok("-j", "prog", "show", "id", u32str(prog_id_of(sync_flipper)));

	// CHECK: $ bpftool prog show id [[ASYNC]]
	// CHECK-NEXT: [[ASYNC]]: socket_filter  name async_flipper  tag
	// CHECK: map_ids [[KEY]],[[LONE]]{{$}}
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 0
	bpftool_ok("prog", "show", "id", u32str(prog_id_of(async_flipper)));
	// CHECK: $ bpftool -j prog show id [[ASYNC]]
	// CHECK-NEXT: {"id":[[ASYNC]],{{.*}}"map_ids":{{\[}}[[KEY]],[[LONE]]]{{(,"btf_id":[0-9]+)?}}}{{$}}
	// CHECK: exit 0
	bpftool_ok("-j", "prog", "show", "id", u32str(prog_id_of(async_flipper)));

	// CHECK: $ bpftool prog dump xlated id [[ASYNC]]
	// CHECK-NEXT: 0: (18) r1 = map[id:[[KEY]]]
	// CHECK-NEXT: 2: (b7) r2 = 0
	// CHECK-NEXT: 3: (85) call bpf_static_key_set#{{[0-9]+}}
	// CHECK-NOT: static key
	// CHECK: exit 0
	bpftool_ok("prog", "dump", "xlated", "id", u32str(prog_id_of(async_flipper)));
	// CHECK: $ bpftool -j prog dump xlated id [[ASYNC]]
	// CHECK-NOT: "static_key"
	// CHECK: exit 0
	bpftool_ok("-j", "prog", "dump", "xlated", "id", u32str(prog_id_of(async_flipper)));
	// CHECK: $ bpftool prog dump xlated id [[OWNER]]
	// CHECK-NEXT: 0: (b7) r0 = 1
	// CHECK-NEXT: 1: (b7) r0 = 1
	// CHECK-NEXT: {{^}}; static key owned_key (map_id [[KEY]]): off, nop{{$}}
	// CHECK-NEXT: 2: (06) gotol_or_nop pc+1
	// CHECK: exit 0
	bpftool_ok("prog", "dump", "xlated", "id", u32str(prog_id_of(owner)));

	// CHECK: $ bpftool static-key list
	// CHECK-NEXT: {{^}}[[KEY]]: name owned_key  off  sites 1  prog_id [[OWNER]]  prog_name key_owner{{$}}
	// CHECK-NEXT: {{^}}[[LONE]]: name lone_key  off  sites 1  not bound{{$}}
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 0
	bpftool_ok("static-key", "list");
	// CHECK: $ bpftool -j static-key list
	// CHECK-NEXT: {{^}}[{"id":[[KEY]],"name":"owned_key","state":"off","sites":1,"dead_sites":0,"prog_id":[[OWNER]],"prog_name":"key_owner"},{"id":[[LONE]],"name":"lone_key","state":"off","sites":1,"dead_sites":0}]{{$}}
	// CHECK: exit 0
	bpftool_ok("-j", "static-key", "list");
	// CHECK: PASSED
	return finish();
}
