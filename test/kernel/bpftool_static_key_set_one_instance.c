// SPDX-License-Identifier: GPL-2.0
// `bpftool static-key set id ID` and `set pinned PATH` set one instance of
// a key, the map named: the other instance of the same key keeps its state
// and its program its branch.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpftool_test.h"

int main(void)
{
	struct bpf_insn prog[] = {
		MOV64_IMM(BPF_REG_0, 1), GOTOL_OR_NOP(1), EXIT(), MOV64_IMM(BPF_REG_0, 2), EXIT(),
	};
	int a_key, b_key, a, b;

	require_static_keys_kernel();
	a_key = named_static_key("shared_key", BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1);
	b_key = named_static_key("shared_key", BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1);
	a = named_prog("prog_a", prog, ARRAY_SIZE(prog), &a_key, 1);
	b = named_prog("prog_b", prog, ARRAY_SIZE(prog), &b_key, 1);
	if (mount("bpf", "/sys/fs/bpf", "bpf", 0, NULL) ||
	    bpf_obj_pin_path(b_key, "/sys/fs/bpf/b_key")) {
		printf("FAIL: pin: %s\n", strerror(errno));
		return 1;
	}
	// CHECK: a [[A:[0-9]+]] key [[AK:[0-9]+]]
	printf("a %u key %u\n", prog_id_of(a), map_id_of(a_key));

	// CHECK: $ bpftool static-key set id [[AK]] on
	// CHECK-NEXT: {{^}}[[AK]]: name shared_key  on  sites 1  prog_id [[A]]  prog_name prog_a{{$}}
	// CHECK-NEXT: {{^}}shared_key: on (text poke, 1 site(s) in 1 program(s), one batch){{$}}
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 0
	bpftool_ok("static-key", "set", "id", u32str(map_id_of(a_key)), "on");
	// CHECK-NEXT: by id: results 2 1, states 1 0
	printf("by id: results %u %u, states %d %d\n", prog_run(a), prog_run(b),
	       static_key_state(a_key), static_key_state(b_key));

	// CHECK: $ bpftool static-key set pinned /sys/fs/bpf/b_key on
	// CHECK-NEXT: name shared_key  on  sites 1  prog_id {{[0-9]+}}  prog_name prog_b{{$}}
	// CHECK: exit 0
	bpftool_ok("static-key", "set", "pinned", "/sys/fs/bpf/b_key", "on");
	// CHECK: $ bpftool static-key set id [[AK]] off
	// CHECK: exit 0
	bpftool_ok("static-key", "set", "id", u32str(map_id_of(a_key)), "off");
	// CHECK-NEXT: by path, then id: results 1 2, states 0 1
	printf("by path, then id: results %u %u, states %d %d\n", prog_run(a), prog_run(b),
	       static_key_state(a_key), static_key_state(b_key));
	// CHECK: PASSED
	return finish();
}
