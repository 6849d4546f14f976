// SPDX-License-Identifier: GPL-2.0
// bpfkeyctl shows why a program with static keys does not load: the
// verifier log of a program the verifier rejects (libbpf asks for it when
// the first attempt fails), a note when the kernel refused the program
// before the verifier ran (no log: here a program type the kernel lacks,
// as a tracing program on a kernel without CONFIG_BPF_EVENTS), and, with
// --log-level, the log of a program that loads.
// Inputs/verifier-log-session.sh is the session; this program mounts bpffs
// and runs it with busybox.
//
// RUN: rm -rf %t && mkdir -p %t/files
// RUN: %bpf_cc %bpf_cflags -c %e2e_inputs/verifier_reject.c -o %t/reject.o
// RUN: %bpf_cc %bpf_cflags -DCHECKED -c %e2e_inputs/verifier_reject.c -o %t/checked.o
// RUN: %bpf_cc %bpf_cflags -DLIRC -c %e2e_inputs/verifier_reject.c -o %t/lirc.o
// RUN: %bpfld -o %t/reject-linked.o %t/reject.o
// RUN: %bpfld -o %t/checked-linked.o %t/checked.o
// RUN: %bpfld -o %t/lirc-linked.o %t/lirc.o
// RUN: %bpfkeys resolve %t/reject-linked.o -o %t/files/reject.o
// RUN: %bpfkeys resolve %t/checked-linked.o -o %t/files/checked.o
// RUN: %bpfkeys resolve %t/lirc-linked.o -o %t/files/lirc.o
// RUN: %build-bpfkeyctl && cp %guest-bpfkeyctl %guest-busybox %e2e_inputs/verifier-log-session.sh %t/files/
// RUN: env BPFSK_QEMU_FILES=%t/files %qemu-run %s | FileCheck %s
#include "e2e_loader.h"

int main(void)
{
	int status = e2e_shell_session("/files/verifier-log-session.sh");

	// CHECK-LABEL: $ ./bpfkeyctl load reject.o /sys/fs/bpf/reject
	// CHECK-NEXT: libbpf: prog 'unchecked_read': BPF program load failed: Permission denied
	// CHECK-NEXT: libbpf: prog 'unchecked_read': -- BEGIN PROG LOAD LOG --
	// CHECK: gotol_or_nop pc+
	// CHECK: invalid access to packet, off=0 size=4, R1(id=0,off=0,r=0)
	// CHECK-NEXT: R1 offset is outside of the packet
	// CHECK: -- END PROG LOAD LOG --
	// CHECK: bpfkeyctl: error: reject.o: cannot load: Permission denied
	// CHECK-NEXT: bpfkeyctl: reject.o: prog 'unchecked_read' rejected by the verifier (log above)
	// CHECK-NEXT: [exit 1]
	// CHECK-LABEL: $ ./bpfkeyctl load lirc.o /sys/fs/bpf/lirc
	// CHECK-NEXT: libbpf: prog 'no_such_type': BPF program load failed: Invalid argument
	// CHECK-NOT: BEGIN PROG LOAD LOG
	// CHECK: bpfkeyctl: error: lirc.o: cannot load: Invalid argument
	// CHECK-NEXT: bpfkeyctl: lirc.o: prog 'no_such_type' (SEC("lirc_mode2")): the kernel gave no verifier log: it refused the program before verification (Invalid argument); is the program type or attach target supported by this kernel? (kprobe, tracepoint and tracing programs need CONFIG_BPF_EVENTS; fentry/fexit also CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS)
	// CHECK-NEXT: [exit 1]
	// CHECK-LABEL: $ ./bpfkeyctl load --log-level 2 checked.o /sys/fs/bpf/checked
	// CHECK-NEXT: libbpf: prog 'unchecked_read': -- BEGIN PROG LOAD LOG --
	// CHECK: gotol_or_nop pc+
	// CHECK: processed {{[0-9]+}} insns
	// CHECK-NEXT: -- END PROG LOAD LOG --
	// CHECK-NEXT: program unchecked_read: /sys/fs/bpf/checked/progs/unchecked_read
	// CHECK-NEXT: key log_key: off, 1 instance(s)
	// CHECK-NEXT: [exit 0]
	// CHECK-LABEL: $ ./bpfkeyctl load --log-level 0 checked.o /sys/fs/bpf/checked
	// CHECK-NEXT: bpfkeyctl: error: --log-level 0: expected 1 to 7
	// CHECK-NEXT: [exit 2]
	printf("session exit status %d\n", status);
	return 0;
}
