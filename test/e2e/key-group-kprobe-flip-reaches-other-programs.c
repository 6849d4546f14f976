// SPDX-License-Identifier: GPL-2.0
// A key flipped from BPF C reaches the programs that test it
// (docs/abi.md 6.1 "Key groups"), through the real toolchain: patched clang,
// bpfld, bpfkeys resolve (.bpfkeys version 3: kprobe_anomaly and
// syscall_quiet refer to debug_key), the patched libbpf in the guest.
// kprobe_anomaly, which has no site of debug_key, calls
// bpf_static_key_set(&debug_key, 1) when the test's process calls getppid;
// xdp_debug and tc_debug, which test the key, then see it on:
// - with no state read, by the workqueue alone ("soon"): polled, bounded
//   by 2 s, the time printed;
// - at once after a state read (bpf_program__static_key_state(), i.e.
//   BPF_OBJ_GET_INFO_BY_FD applies the queued flip before it returns).
// libbpf made the template the group's anchor (1 entry, no program,
// map_extra STATIC_KEY|GROUP = 0x9), the instances its members, and
// bpf_object__set_static_key() after load is one update of the anchor.
//
// RUN: rm -rf %t && mkdir -p %t/files
// RUN: %bpf_cc %bpf_cflags %bpf_target_arch -c %e2e_inputs/key_group_progs.c -o %t/progs.o
// RUN: %bpfld -o %t/linked.o %t/progs.o
// RUN: %bpfkeys resolve %t/linked.o -o %t/files/key_group.o
// RUN: %bpfkeys list %t/files/key_group.o | FileCheck --check-prefix=LIST %s
// RUN: env BPFSK_QEMU_FILES=%t/files %qemu-run %s | FileCheck %s
// LIST: key debug_key: initial off, 2 instance(s), flipped by 2 program(s)
// LIST: flipped by program kprobe_anomaly
// LIST-NEXT: reference raise_debug+0 (section .text): ld_imm64
#include "e2e_key_group.h"

static struct key_group_bss *bss;

static __u64 now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000ull + ts.tv_nsec / 1000;
}

/* The anomaly: getppid from this process, which the kprobe answers with a queued flip */
static void anomaly(int want_anomalies)
{
	syscall(SYS_getppid);
	printf("anomaly: bpf_static_key_set() = %d, %d anomaly(ies)\n", bss->set_ret,
	       bss->anomalies);
	if (bss->set_ret || bss->anomalies != want_anomalies) {
		printf("FAIL: expected 0 and %d\n", want_anomalies);
		failures++;
	}
}

int main(void)
{
	struct bpf_object *obj = e2e_open("/files/key_group.o");
	struct bpf_program *xdp;
	struct bpf_link *link;
	__u64 start, waited;
	int anchor, inst;

	e2e_mount_tracefs();
	e2e_load(obj);
	xdp = e2e_prog(obj, "xdp_debug");
	bss = e2e_global_data(obj, ".bss", sizeof(*bss));
	bss->target_tgid = getpid();

	// CHECK-NOT: libbpf:
	// CHECK: anchor: type 34, map_extra 0x9, max_entries 1, group of the anchor
	// CHECK-NEXT: xdp_debug's instance: type 34, map_extra 0x9, max_entries 1, group of the anchor
	// CHECK-NEXT: tc_debug's instance: type 34, map_extra 0x9, max_entries 1, group of the anchor
	anchor = bpf_map__fd(bpf_object__find_map_by_name(obj, "debug_key"));
	key_group_show_map("anchor", anchor, anchor);
	inst = bpf_program__static_key_fd(xdp, "debug_key");
	key_group_show_map("xdp_debug's instance", inst, anchor);
	inst = bpf_program__static_key_fd(e2e_prog(obj, "tc_debug"), "debug_key");
	key_group_show_map("tc_debug's instance", inst, anchor);

	// CHECK-NEXT: loaded, no anomaly yet
	// CHECK-NEXT:   xdp_debug = 1
	// CHECK-NEXT:   tc_debug = 10
	printf("loaded, no anomaly yet\n");
	key_group_expect(obj, false);
	// CHECK-NEXT: kprobe_anomaly: attached
	link = e2e_attach(e2e_prog(obj, "kprobe_anomaly"));

	// CHECK-NEXT: anomaly: bpf_static_key_set() = 0, 1 anomaly(ies)
	// CHECK-NEXT: no state read: both programs see debug_key on after {{[0-9]+}} us
	start = now_us();
	anomaly(1);
	while (!key_group_both_on(obj) && now_us() - start < 2000000)
		usleep(100);
	waited = now_us() - start;
	if (key_group_both_on(obj)) {
		printf("no state read: both programs see debug_key on after %llu us\n",
		       (unsigned long long)waited);
	} else {
		printf("FAIL: no state read: debug_key still off in a program after %llu us\n",
		       (unsigned long long)waited);
		failures++;
	}
	// CHECK-NEXT:   xdp_debug = 2
	// CHECK-NEXT:   tc_debug = 20
	key_group_expect(obj, true);

	// CHECK-NEXT: bpf_object__set_static_key(debug_key, off) = 0
	// CHECK-NEXT:   xdp_debug = 1
	// CHECK-NEXT:   tc_debug = 10
	printf("bpf_object__set_static_key(debug_key, off) = %d\n",
	       bpf_object__set_static_key(obj, "debug_key", false));
	key_group_expect(obj, false);

	// CHECK-NEXT: anomaly: bpf_static_key_set() = 0, 2 anomaly(ies)
	// CHECK-NEXT: state read right after: on
	// CHECK-NEXT:   xdp_debug = 2
	// CHECK-NEXT:   tc_debug = 20
	anomaly(2);
	printf("state read right after: %s\n",
	       bpf_program__static_key_state(xdp, "debug_key") == 1 ? "on" : "FAIL: not on");
	key_group_expect(obj, true);

	bpf_link__destroy(link);
	bpf_object__close(obj);
	// CHECK-NOT: FAIL
	// CHECK: PASSED
	return finish();
}
