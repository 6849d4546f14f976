// SPDX-License-Identifier: GPL-2.0
// Static keys in kprobe programs: Inputs/tracing_progs.c's kprobe on
// __x64_sys_getppid (perf kprobe PMU; a site in the program and one in a
// __noinline BPF-to-BPF function) and its kprobe.multi program (fprobe) on
// the same function (as __do_sys_getppid, its alias), both using kp_key
// (FALSE). Linked by bpfld, resolved by bpfkeys (one instance per program),
// loaded and attached by the patched libbpf, triggered by the getppid
// syscall. Every flip, of the key everywhere or of one program's instance,
// shows in the next call; once detached, neither program runs.
// A kernel without kprobes/BPF_EVENTS/FPROBE fails at load or attach.
// arm64 6.12 cannot have FPROBE (it needs DYNAMIC_FTRACE_WITH_REGS, which
// arm64 lacks; see kernel-patches/config-arm64.fragment): there the test
// checks that the kernel refuses the kprobe.multi link (EOPNOTSUPP) and
// runs the kprobe checks alone.
//
// RUN: rm -rf %t && mkdir -p %t/files
// RUN: %bpf_cc %bpf_cflags %bpf_target_arch -c %e2e_inputs/tracing_progs.c -o %t/progs.o
// RUN: %bpfld -o %t/linked.o %t/progs.o
// RUN: %bpfkeys resolve %t/linked.o -o %t/files/tracing.o
// RUN: env BPFSK_QEMU_FILES=%t/files %qemu-run %s | FileCheck %arch-check-prefixes %s
#include "e2e_tracing.h"
#include "Inputs/tracing_bss.h"

static struct tracing_bss *bss;
/* whether the kprobe.multi program is attached (not on arm64 6.12) */
static bool have_kpm;

static void expect(const char *what, int kp_want, int kpm_want)
{
	bss->kp_ret = bss->kpm_ret = 0;
	bss->kp_runs = bss->kpm_runs = 0;
	syscall(SYS_getppid);
	printf("%s: kprobe %d (%d run)", what, bss->kp_ret, bss->kp_runs);
	if (have_kpm)
		printf(", kprobe.multi %d (%d run)", bss->kpm_ret, bss->kpm_runs);
	printf("\n");
	if (!have_kpm) /* not attached: it must not run */
		kpm_want = 0;
	if (bss->kp_ret != kp_want || bss->kpm_ret != kpm_want ||
	    bss->kp_runs != 1 || bss->kpm_runs != have_kpm) {
		printf("FAIL: %s: expected kprobe %d, kprobe.multi %d, one run each\n",
		       what, kp_want, kpm_want);
		failures++;
	}
}

int main(void)
{
	struct bpf_object *obj = e2e_open("/files/tracing.o");
	struct bpf_program *kp, *kpm;
	struct bpf_link *l1, *l2;

	e2e_mount_tracefs();
	bpf_program__set_autoload(e2e_prog(obj, "tp_getppid"), false);
	e2e_load(obj);
	kp = e2e_prog(obj, "kprobe_getppid");
	kpm = e2e_prog(obj, "kprobe_multi_getppid");
	bss = e2e_global_data(obj, ".bss", sizeof(*bss));
	bss->target_tgid = getpid();
	// CHECK: kprobe_getppid: attached
	// X86-NEXT: kprobe_multi_getppid: attached
	// ARM64-NEXT: libbpf: prog 'kprobe_multi_getppid': failed to attach: Operation not supported
	// ARM64-NEXT: kprobe_multi_getppid: link refused: Operation not supported
	l1 = e2e_attach(kp);
#ifdef __aarch64__
	l2 = bpf_program__attach(kpm);
	if (l2) {
		printf("FAIL: kprobe_multi_getppid attached on arm64 6.12\n");
		failures++;
	} else {
		printf("kprobe_multi_getppid: link refused: %s\n", strerror(errno));
	}
	have_kpm = l2 != NULL;
#else
	l2 = e2e_attach(kpm);
	have_kpm = true;
#endif

	// CHECK-NEXT: loaded, kp_key off: kprobe 11 (1 run)
	// X86-SAME: , kprobe.multi 100 (1 run)
	expect("loaded, kp_key off", 11, 100);
	// CHECK-NEXT: kp_key on: kprobe 22 (1 run)
	// X86-SAME: , kprobe.multi 200 (1 run)
	e2e_ok("set kp_key on", bpf_object__set_static_key(obj, "kp_key", true));
	expect("kp_key on", 22, 200);
	// CHECK-NEXT: kp_key off in kprobe.multi only: kprobe 22 (1 run)
	// X86-SAME: , kprobe.multi 100 (1 run)
	e2e_ok("set kpm kp_key off", bpf_program__set_static_key(kpm, "kp_key", false));
	expect("kp_key off in kprobe.multi only", 22, 100);
	// CHECK-NEXT: kp_key off: kprobe 11 (1 run)
	// X86-SAME: , kprobe.multi 100 (1 run)
	e2e_ok("set kp_key off", bpf_object__set_static_key(obj, "kp_key", false));
	expect("kp_key off", 11, 100);
	// CHECK-NEXT: kp_key on in kprobe only: kprobe 22 (1 run)
	// X86-SAME: , kprobe.multi 100 (1 run)
	e2e_ok("set kp kp_key on", bpf_program__set_static_key(kp, "kp_key", true));
	expect("kp_key on in kprobe only", 22, 100);

	// detached: the programs no longer run
	bpf_link__destroy(l1);
	bpf_link__destroy(l2); /* NULL when refused */
	// CHECK-NEXT: detached: 0 kprobe run(s), 0 kprobe.multi run(s)
	bss->kp_runs = bss->kpm_runs = 0;
	syscall(SYS_getppid);
	printf("detached: %d kprobe run(s), %d kprobe.multi run(s)\n",
	       bss->kp_runs, bss->kpm_runs);
	if (bss->kp_runs || bss->kpm_runs) {
		printf("FAIL: a detached program ran\n");
		failures++;
	}
	bpf_object__close(obj);
	// CHECK-NOT: FAIL
	// CHECK: PASSED
	return finish();
}
