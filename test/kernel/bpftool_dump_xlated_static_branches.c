// SPDX-License-Identifier: GPL-2.0
// `bpftool prog dump xlated` marks each static branch that a key controls
// with a comment line naming the key, its map id, the key's current state
// and what the branch does in that state (a goto_or_nop/gotol_or_nop jumps
// while its key is on, a nop_or_goto/nop_or_gotol while it is off); the
// instruction itself is shown as loaded. `-j` gives the same as a
// "static_key" object in the instruction's entry. A static branch that no
// key controls gets no such line.
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
		NOP_OR_GOTOL(1),		/* 4: fast_path, jumps while off */
		ADD64_IMM(BPF_REG_0, 2),
		GOTO_OR_NOP(0),			/* 6: no key */
		EXIT(),
	};
	int fds[2], p;

	require_static_keys_kernel();
	fds[0] = named_static_key("debug_key", BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1);
	fds[1] = named_static_key("fast_path", BPF_F_STATIC_KEY, (__u32[]){ 4 }, 1);
	p = named_prog("dump_x", prog, ARRAY_SIZE(prog), fds, 2);
	// CHECK: prog [[P:[0-9]+]] debug_key [[DBG:[0-9]+]] fast_path [[FP:[0-9]+]] result 0
	printf("prog %u debug_key %u fast_path %u result %u\n", prog_id_of(p), map_id_of(fds[0]),
	       map_id_of(fds[1]), prog_run(p));

	// CHECK: $ bpftool prog dump xlated id [[P]]
	// CHECK-NEXT: 0: (b7) r0 = 0
	// CHECK-NEXT: {{^}}; static key debug_key (map_id [[DBG]]): off, nop{{$}}
	// CHECK-NEXT: 1: (06) gotol_or_nop pc+1
	// CHECK-NEXT: 2: (05) goto pc+1
	// CHECK-NEXT: 3: (07) r0 += 1
	// CHECK-NEXT: {{^}}; static key fast_path (map_id [[FP]]): off, jump{{$}}
	// CHECK-NEXT: 4: (06) nop_or_gotol pc+1
	// CHECK-NEXT: 5: (07) r0 += 2
	// CHECK-NEXT: 6: (05) goto_or_nop pc+0
	// CHECK-NEXT: 7: (95) exit
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 0
	bpftool_ok("prog", "dump", "xlated", "id", u32str(prog_id_of(p)));

	static_key_update(fds[0], 1);
	static_key_update(fds[1], 1);
	// CHECK-NEXT: both on: result 3
	printf("both on: result %u\n", prog_run(p));
	// CHECK: $ bpftool prog dump xlated id [[P]]
	// CHECK-NEXT: 0: (b7) r0 = 0
	// CHECK-NEXT: {{^}}; static key debug_key (map_id [[DBG]]): on, jump{{$}}
	// CHECK-NEXT: 1: (06) gotol_or_nop pc+1
	// CHECK: {{^}}; static key fast_path (map_id [[FP]]): on, nop{{$}}
	// CHECK-NEXT: 4: (06) nop_or_gotol pc+1
	// CHECK: exit 0
	bpftool_ok("prog", "dump", "xlated", "id", u32str(prog_id_of(p)));

	// CHECK: $ bpftool -j prog dump xlated id [[P]]
	// CHECK-NEXT: {{^}}[{"disasm":"(b7) r0 = 0"},{"static_key":{"name":"debug_key","map_id":[[DBG]],"state":"on","branch":"jump"},"disasm":"(06) gotol_or_nop pc+1"},{"disasm":"(05) goto pc+1"},{"disasm":"(07) r0 += 1"},{"static_key":{"name":"fast_path","map_id":[[FP]],"state":"on","branch":"nop"},"disasm":"(06) nop_or_gotol pc+1"},{"disasm":"(07) r0 += 2"},{"disasm":"(05) goto_or_nop pc+0"},{"disasm":"(95) exit"}]{{$}}
	// CHECK: exit 0
	bpftool_ok("-j", "prog", "dump", "xlated", "id", u32str(prog_id_of(p)));
	// CHECK: PASSED
	return finish();
}
