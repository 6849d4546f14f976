// SPDX-License-Identifier: GPL-2.0
// `bpftool prog show` lists the static keys among a program's maps: for
// each key instance its name, map id, current state (map_extra's
// BPF_F_STATIC_KEY_ON) and number of sites; `-j` gives the same as a
// "static_keys" array. A plain map of the program is not listed as a key.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpftool_test.h"

int main(void)
{
	struct bpf_insn prog[] = {
		MOV64_IMM(BPF_REG_0, 0),
		GOTOL_OR_NOP(1),		/* 1: debug_key */
		JA(1),
		ADD64_IMM(BPF_REG_0, 1),
		GOTOL_OR_NOP(1),		/* 4: debug_key */
		JA(1),
		ADD64_IMM(BPF_REG_0, 2),
		NOP_OR_GOTOL(1),		/* 7: trace_on */
		ADD64_IMM(BPF_REG_0, 4),
		EXIT(),
	};
	int fds[3], prog_fd;

	require_static_keys_kernel();
	fds[0] = named_static_key("debug_key", BPF_F_STATIC_KEY, (__u32[]){ 1, 4 }, 2);
	fds[1] = named_static_key("trace_on", BPF_F_STATIC_KEY | BPF_F_STATIC_KEY_ON,
				  (__u32[]){ 7 }, 1);
	fds[2] = insn_array_create((__u32[]){ 0 }, 1, true);	/* not a key */
	prog_fd = named_prog("show_keys", prog, ARRAY_SIZE(prog), fds, 3);
	// CHECK: prog [[PROG:[0-9]+]] debug_key [[DBG:[0-9]+]] trace_on [[TRC:[0-9]+]] plain [[PLAIN:[0-9]+]] result 4
	printf("prog %u debug_key %u trace_on %u plain %u result %u\n", prog_id_of(prog_fd),
	       map_id_of(fds[0]), map_id_of(fds[1]), map_id_of(fds[2]), prog_run(prog_fd));

	// CHECK: $ bpftool prog show id [[PROG]]
	// CHECK-NEXT: [[PROG]]: socket_filter  name show_keys  tag
	// CHECK: map_ids [[DBG]],[[TRC]],[[PLAIN]]
	// CHECK-NEXT: {{^}}	static_key debug_key  map_id [[DBG]]  off  sites 2{{$}}
	// CHECK-NEXT: {{^}}	static_key trace_on  map_id [[TRC]]  on  sites 1{{$}}
	// CHECK-NOT: static_key
	// CHECK: exit 0
	bpftool_ok("prog", "show", "id", u32str(prog_id_of(prog_fd)));

	// CHECK: $ bpftool -j prog show id [[PROG]]
	// CHECK-NEXT: {"id":[[PROG]],"type":"socket_filter","name":"show_keys",{{.*}}"map_ids":{{\[}}[[DBG]],[[TRC]],[[PLAIN]]],"static_keys":[{"name":"debug_key","map_id":[[DBG]],"state":"off","sites":2,"dead_sites":0},{"name":"trace_on","map_id":[[TRC]],"state":"on","sites":1,"dead_sites":0}]
	// CHECK: exit 0
	bpftool_ok("-j", "prog", "show", "id", u32str(prog_id_of(prog_fd)));

	// after a flip, the state shown is the key's new one
	static_key_update(fds[0], 1);
	// CHECK: $ bpftool prog show id [[PROG]]
	// CHECK: {{^}}	static_key debug_key  map_id [[DBG]]  on  sites 2{{$}}
	// CHECK: exit 0
	bpftool_ok("prog", "show", "id", u32str(prog_id_of(prog_fd)));
	// CHECK: PASSED
	return finish();
}
