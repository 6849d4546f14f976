// SPDX-License-Identifier: GPL-2.0
// `bpftool static-key set NAME on|off` sets every instance of the key NAME
// (one per program using it) and no other key: the programs of both
// instances take the new branch, the state each map reports is the new one,
// and a key of another name keeps its state. `-j` prints the key, its
// state, the sites and each instance.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpftool_test.h"

int main(void)
{
	struct bpf_insn prog[] = {
		MOV64_IMM(BPF_REG_0, 1), GOTOL_OR_NOP(1), EXIT(), MOV64_IMM(BPF_REG_0, 2), EXIT(),
	};
	int a_key, b_key, other_key, a, b, c;

	require_static_keys_kernel();
	a_key = named_static_key("shared_key", BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1);
	b_key = named_static_key("shared_key", BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1);
	other_key = named_static_key("other_key", BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1);
	a = named_prog("prog_a", prog, ARRAY_SIZE(prog), &a_key, 1);
	b = named_prog("prog_b", prog, ARRAY_SIZE(prog), &b_key, 1);
	c = named_prog("prog_c", prog, ARRAY_SIZE(prog), &other_key, 1);
	// CHECK: a [[A:[0-9]+]] key [[AK:[0-9]+]] b [[B:[0-9]+]] key [[BK:[0-9]+]]
	printf("a %u key %u b %u key %u\n", prog_id_of(a), map_id_of(a_key), prog_id_of(b),
	       map_id_of(b_key));
	// CHECK-NEXT: before: results 1 1 1, states 0 0 0
	printf("before: results %u %u %u, states %d %d %d\n", prog_run(a), prog_run(b),
	       prog_run(c), static_key_state(a_key), static_key_state(b_key),
	       static_key_state(other_key));

	// CHECK: $ bpftool static-key set shared_key on
	// CHECK-NEXT: {{^}}[[AK]]: name shared_key  on  sites 1  prog_id [[A]]  prog_name prog_a{{$}}
	// CHECK-NEXT: {{^}}[[BK]]: name shared_key  on  sites 1  prog_id [[B]]  prog_name prog_b{{$}}
	// CHECK-NEXT: {{^}}shared_key: on (text poke, 2 site(s) in 2 program(s), one batch){{$}}
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 0
	bpftool_ok("static-key", "set", "shared_key", "on");
	// CHECK-NEXT: on: results 2 2 1, states 1 1 0
	printf("on: results %u %u %u, states %d %d %d\n", prog_run(a), prog_run(b),
	       prog_run(c), static_key_state(a_key), static_key_state(b_key),
	       static_key_state(other_key));

	// CHECK: $ bpftool -j static-key set shared_key off
	// CHECK-NEXT: {{^}}{"name":"shared_key","state":"off","sites":2,"instances":{{\[}}{"id":[[AK]],"name":"shared_key","state":"off","sites":1,"dead_sites":0,"prog_id":[[A]],"prog_name":"prog_a"},{"id":[[BK]],"name":"shared_key","state":"off","sites":1,"dead_sites":0,"prog_id":[[B]],"prog_name":"prog_b"}]}{{$}}
	// CHECK: exit 0
	bpftool_ok("-j", "static-key", "set", "shared_key", "off");
	// CHECK-NEXT: off: results 1 1 1, states 0 0 0
	printf("off: results %u %u %u, states %d %d %d\n", prog_run(a), prog_run(b),
	       prog_run(c), static_key_state(a_key), static_key_state(b_key),
	       static_key_state(other_key));
	// CHECK: PASSED
	return finish();
}
