// SPDX-License-Identifier: GPL-2.0
// Static keys in a tracepoint program: Inputs/tracing_progs.c's program on
// syscalls/sys_enter_getppid (libbpf reads the event id from tracefs and
// attaches through perf_event_open), two sites of tp_key (TRUE), one of
// each polarity. Linked by bpfld, resolved by bpfkeys, loaded by the
// patched libbpf, triggered by the getppid syscall: the initial state (and
// one set before load), then every flip shows in the next call.
// A kernel without tracepoint events (EVENT_TRACING, FTRACE_SYSCALLS,
// BPF_EVENTS) fails at load or attach.
//
// RUN: rm -rf %t && mkdir -p %t/files
// RUN: %bpf_cc %bpf_cflags %bpf_target_arch -c %e2e_inputs/tracing_progs.c -o %t/progs.o
// RUN: %bpfld -o %t/linked.o %t/progs.o
// RUN: %bpfkeys resolve %t/linked.o -o %t/files/tracing.o
// RUN: env BPFSK_QEMU_FILES=%t/files %qemu-run %s | FileCheck %s
#include "e2e_tracing.h"
#include "Inputs/tracing_bss.h"

static struct tracing_bss *bss;

static void expect(const char *what, int want)
{
	bss->tp_ret = bss->tp_runs = 0;
	syscall(SYS_getppid);
	printf("%s: tp_ret %d (%d run)\n", what, bss->tp_ret, bss->tp_runs);
	if (bss->tp_ret != want || bss->tp_runs != 1) {
		printf("FAIL: %s: expected %d, one run\n", what, want);
		failures++;
	}
}

static struct bpf_object *open_tp_only(void)
{
	struct bpf_object *obj = e2e_open("/files/tracing.o");

	bpf_program__set_autoload(e2e_prog(obj, "kprobe_getppid"), false);
	bpf_program__set_autoload(e2e_prog(obj, "kprobe_multi_getppid"), false);
	return obj;
}

int main(void)
{
	struct bpf_object *obj = open_tp_only();
	struct bpf_program *tp;
	struct bpf_link *link;

	e2e_mount_tracefs();
	e2e_load(obj);
	tp = e2e_prog(obj, "tp_getppid");
	bss = e2e_global_data(obj, ".bss", sizeof(*bss));
	bss->target_tgid = getpid();
	// CHECK: tp_getppid: attached
	link = e2e_attach(tp);
	// CHECK-NEXT: loaded, tp_key on: tp_ret 22000 (1 run)
	expect("loaded, tp_key on", 22000);
	// CHECK-NEXT: tp_key off: tp_ret 11000 (1 run)
	e2e_ok("set tp_key off", bpf_object__set_static_key(obj, "tp_key", false));
	expect("tp_key off", 11000);
	// CHECK-NEXT: tp_key on: tp_ret 22000 (1 run)
	e2e_ok("set tp_key on", bpf_program__set_static_key(tp, "tp_key", true));
	expect("tp_key on", 22000);
	// CHECK-NEXT: tp_key off again: tp_ret 11000 (1 run)
	e2e_ok("set tp_key off", bpf_program__set_static_key(tp, "tp_key", false));
	expect("tp_key off again", 11000);
	bpf_link__destroy(link);
	bpf_object__close(obj);

	/* the initial state chosen before load */
	obj = open_tp_only();
	e2e_ok("set tp_key off before load", bpf_object__set_static_key(obj, "tp_key", false));
	e2e_load(obj);
	tp = e2e_prog(obj, "tp_getppid");
	bss = e2e_global_data(obj, ".bss", sizeof(*bss));
	bss->target_tgid = getpid();
	// CHECK-NEXT: tp_getppid: attached
	link = e2e_attach(tp);
	// CHECK-NEXT: loaded with tp_key off: tp_ret 11000 (1 run)
	expect("loaded with tp_key off", 11000);
	// CHECK-NEXT: tp_key on: tp_ret 22000 (1 run)
	e2e_ok("set tp_key on", bpf_object__set_static_key(obj, "tp_key", true));
	expect("tp_key on", 22000);
	bpf_link__destroy(link);
	bpf_object__close(obj);
	// CHECK-NOT: FAIL
	// CHECK: PASSED
	return finish();
}
