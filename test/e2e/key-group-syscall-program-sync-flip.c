// SPDX-License-Identifier: GPL-2.0
// bpf_static_key_set_sync(&debug_key, 0) from a BPF_PROG_TYPE_SYSCALL
// program in BPF C (Inputs/key_group_progs.c, syscall_quiet, no site of the
// key) sets every instance of the key before it returns (docs/abi.md 6.1):
// once BPF_PROG_TEST_RUN of syscall_quiet returns, xdp_debug and tc_debug
// run their off path at once, with no state read and no wait, and then the
// kernel reports the key off in both instances and in the group's anchor.
// The key is turned on first with bpf_program__set_static_key() on
// tc_debug's instance alone: for a key in a group that sets the whole key
// (xdp_debug follows), as the kernel sets a group as a whole.
//
// RUN: rm -rf %t && mkdir -p %t/files
// RUN: %bpf_cc %bpf_cflags %bpf_target_arch -c %e2e_inputs/key_group_progs.c -o %t/progs.o
// RUN: %bpfld -o %t/linked.o %t/progs.o
// RUN: %bpfkeys resolve %t/linked.o -o %t/files/key_group.o
// RUN: env BPFSK_QEMU_FILES=%t/files %qemu-run %s | FileCheck %s
#include "e2e_key_group.h"

int main(void)
{
	struct bpf_object *obj = e2e_open("/files/key_group.o");
	struct key_group_bss *bss;
	int anchor;

	e2e_load(obj);
	bss = e2e_global_data(obj, ".bss", sizeof(*bss));
	anchor = bpf_map__fd(bpf_object__find_map_by_name(obj, "debug_key"));
	// CHECK-NOT: libbpf:
	// CHECK: bpf_program__set_static_key(tc_debug, debug_key, on) = 0
	// CHECK-NEXT:   xdp_debug = 2
	// CHECK-NEXT:   tc_debug = 20
	printf("bpf_program__set_static_key(tc_debug, debug_key, on) = %d\n",
	       bpf_program__set_static_key(e2e_prog(obj, "tc_debug"), "debug_key", true));
	key_group_expect(obj, true);

	// CHECK-NEXT: syscall_quiet: bpf_static_key_set_sync() = 0, 1 run(s)
	// CHECK-NEXT:   xdp_debug = 1
	// CHECK-NEXT:   tc_debug = 10
	key_group_run_syscall(e2e_prog(obj, "syscall_quiet"));
	printf("syscall_quiet: bpf_static_key_set_sync() = %d, %d run(s)\n", bss->set_sync_ret,
	       bss->quiets);
	if (bss->set_sync_ret || bss->quiets != 1) {
		printf("FAIL: expected 0 and 1 run\n");
		failures++;
	}
	key_group_expect(obj, false);

	// CHECK-NEXT: state: xdp_debug off, tc_debug off, anchor off
	printf("state: xdp_debug %s, tc_debug %s, anchor %s\n",
	       bpf_program__static_key_state(e2e_prog(obj, "xdp_debug"), "debug_key") ? "on" : "off",
	       bpf_program__static_key_state(e2e_prog(obj, "tc_debug"), "debug_key") ? "on" : "off",
	       static_key_state(anchor) ? "on" : "off");
	bpf_object__close(obj);
	// CHECK-NOT: FAIL
	// CHECK: PASSED
	return finish();
}
