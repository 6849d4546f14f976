// SPDX-License-Identifier: GPL-2.0
// `bpftool static-key set NAME` sets all instances of NAME in one
// BPF_STATIC_KEY_UPDATE: when one of them cannot be set (an instance of
// that name bound to no program), the command fails, says why, and no
// instance changes state, not even those bound to loaded programs.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpftool_test.h"

int main(void)
{
	struct bpf_insn prog[] = {
		MOV64_IMM(BPF_REG_0, 1), GOTOL_OR_NOP(1), EXIT(), MOV64_IMM(BPF_REG_0, 2), EXIT(),
	};
	int a_key, b_key, unbound, a, b;

	require_static_keys_kernel();
	a_key = named_static_key("shared_key", BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1);
	b_key = named_static_key("shared_key", BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1);
	unbound = named_static_key("shared_key", BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1);
	a = named_prog("prog_a", prog, ARRAY_SIZE(prog), &a_key, 1);
	b = named_prog("prog_b", prog, ARRAY_SIZE(prog), &b_key, 1);

	// CHECK: $ bpftool static-key set shared_key on
	// CHECK-NEXT: Error: cannot set static key shared_key on: Invalid argument (not all of them static keys bound to loaded programs)
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 255
	if (bpftool("static-key", "set", "shared_key", "on", NULL) == 0)
		failures++;
	// CHECK-NEXT: after: results 1 1, states 0 0 0
	printf("after: results %u %u, states %d %d %d\n", prog_run(a), prog_run(b),
	       static_key_state(a_key), static_key_state(b_key), static_key_state(unbound));
	if (static_key_state(a_key) || static_key_state(b_key))
		failures++;
	// CHECK: PASSED
	return finish();
}
