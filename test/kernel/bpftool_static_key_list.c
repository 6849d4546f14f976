// SPDX-License-Identifier: GPL-2.0
// `bpftool static-key list` lists every static key instance in the system,
// one line per map: id, name, state, sites and the program it is bound to
// ("not bound" for a key no program uses); `-j` gives the same as an array
// of objects. Maps that are not static keys (a plain insn_array, an array)
// are not listed. `static-key show NAME` lists the instances of one key.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpftool_test.h"

int main(void)
{
	struct bpf_insn prog[] = {
		MOV64_IMM(BPF_REG_0, 1), GOTOL_OR_NOP(1), EXIT(), MOV64_IMM(BPF_REG_0, 2), EXIT(),
	};
	int a_key, b_key, spare, plain, array, a, b;

	require_static_keys_kernel();
	a_key = named_static_key("shared_key", BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1);
	b_key = named_static_key("shared_key", BPF_F_STATIC_KEY | BPF_F_STATIC_KEY_ON,
				 (__u32[]){ 1 }, 1);
	spare = named_static_key("spare_key", BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1);
	plain = insn_array_create((__u32[]){ 0 }, 1, true);
	array = map_create(BPF_MAP_TYPE_ARRAY, 4, 4, 1, 0, 0);
	a = named_prog("prog_a", prog, ARRAY_SIZE(prog), &a_key, 1);
	b = named_prog("prog_b", prog, ARRAY_SIZE(prog), (int[]){ b_key, plain }, 2);
	// CHECK: a [[A:[0-9]+]] key [[AK:[0-9]+]] b [[B:[0-9]+]] key [[BK:[0-9]+]] spare [[SPARE:[0-9]+]] plain [[PLAIN:[0-9]+]] array [[ARRAY:[0-9]+]]
	printf("a %u key %u b %u key %u spare %u plain %u array %u\n", prog_id_of(a),
	       map_id_of(a_key), prog_id_of(b), map_id_of(b_key), map_id_of(spare),
	       map_id_of(plain), map_id_of(array));

	// CHECK: $ bpftool static-key list
	// CHECK-NEXT: {{^}}[[AK]]: name shared_key  off  sites 1  prog_id [[A]]  prog_name prog_a{{$}}
	// CHECK-NEXT: {{^}}[[BK]]: name shared_key  on  sites 1  prog_id [[B]]  prog_name prog_b{{$}}
	// CHECK-NEXT: {{^}}[[SPARE]]: name spare_key  off  sites 1  not bound{{$}}
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 0
	bpftool_ok("static-key", "list");

	// CHECK: $ bpftool -j static-key list
	// CHECK-NEXT: {{^}}[{"id":[[AK]],"name":"shared_key","state":"off","sites":1,"dead_sites":0,"prog_id":[[A]],"prog_name":"prog_a"},{"id":[[BK]],"name":"shared_key","state":"on","sites":1,"dead_sites":0,"prog_id":[[B]],"prog_name":"prog_b"},{"id":[[SPARE]],"name":"spare_key","state":"off","sites":1,"dead_sites":0}]{{$}}
	// CHECK: exit 0
	bpftool_ok("-j", "static-key", "list");

	// CHECK: $ bpftool static-key show shared_key
	// CHECK-NEXT: {{^}}[[AK]]: name shared_key  off
	// CHECK-NEXT: {{^}}[[BK]]: name shared_key  on
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 0
	bpftool_ok("static-key", "show", "shared_key");
	// CHECK: PASSED
	return finish();
}
