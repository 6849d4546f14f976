// SPDX-License-Identifier: GPL-2.0
// `bpftool static-key set` refuses what it cannot set, with a message and
// a non-zero exit, and changes no key: a name no static key has, the id of
// a map that is not a static key (a plain insn_array), a state other than
// on or off, and a missing state.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpftool_test.h"

int main(void)
{
	struct bpf_insn prog[] = {
		MOV64_IMM(BPF_REG_0, 1), GOTOL_OR_NOP(1), EXIT(), MOV64_IMM(BPF_REG_0, 2), EXIT(),
	};
	int key, plain, p;

	require_static_keys_kernel();
	key = named_static_key("the_key", BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1);
	plain = insn_array_create((__u32[]){ 0 }, 1, true);
	p = named_prog("prog", prog, ARRAY_SIZE(prog), (int[]){ key, plain }, 2);
	// CHECK: plain [[PLAIN:[0-9]+]]
	printf("plain %u\n", map_id_of(plain));

	// CHECK: $ bpftool static-key set no_such_key on
	// CHECK-NEXT: Error: no static key named 'no_such_key' (bpftool static-key list)
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 255
	if (!bpftool("static-key", "set", "no_such_key", "on", NULL))
		failures++;
	// CHECK: $ bpftool static-key set id [[PLAIN]] on
	// CHECK-NEXT: Error: map [[PLAIN]] is not a static key (an insn_array map with BPF_F_STATIC_KEY in map_extra)
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 255
	if (!bpftool("static-key", "set", "id", u32str(map_id_of(plain)), "on", NULL))
		failures++;
	// CHECK: $ bpftool static-key set the_key maybe
	// CHECK-NEXT: Error: expected 'on' or 'off', got: 'maybe'
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 255
	if (!bpftool("static-key", "set", "the_key", "maybe", NULL))
		failures++;
	// CHECK: $ bpftool static-key set the_key
	// CHECK-NEXT: Error: 'set' needs at least 2 arguments, 1 found
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 255
	if (!bpftool("static-key", "set", "the_key", NULL))
		failures++;
	// CHECK: unchanged: result 1, state 0
	printf("unchanged: result %u, state %d\n", prog_run(p), static_key_state(key));
	if (static_key_state(key))
		failures++;
	// CHECK: PASSED
	return finish();
}
