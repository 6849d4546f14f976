// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A struct_ops program (a TCP congestion control) reached by a key loads,
// but a flip of the key is refused with EOPNOTSUPP naming the program and
// its section: its new version would need its struct_ops map registered
// again (a struct_ops link updated with BPF_LINK_UPDATE), which libbpfkeys
// does not do, and replacing it silently would leave the old version
// running. The key state and the program stay as they were.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: bpftool btf dump file /sys/kernel/btf/vmlinux format c > %t/vmlinux.h
// RUN: %bpf_cc %bpf_cflags -D__TARGET_ARCH_x86 -I%t -c %stock_inputs/struct_ops_cc.c -o %t/cc.o
// RUN: %bpfld -o %t/linked.o %t/cc.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
#include "stock_test.h"

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;
	uint32_t id;
	int n;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	setvbuf(stderr, NULL, _IONBF, 0);
	obj = stock_open_and_load(argv[1]);
	id = prog_id(obj, "cc_ssthresh");
	// CHECK: libbpfkeys: {{.*}}linked.o: error: program 'cc_ssthresh' (section struct_ops/ssthresh) is a struct_ops program: a flip would need its struct_ops map registered again with the new version (a struct_ops link updated with BPF_LINK_UPDATE), which libbpfkeys does not do; set its keys before bpfkeys_load
	// CHECK-NEXT: flip: Operation not supported
	n = bpfkeys_set(obj, "halve_key", true);
	printf("flip: %s\n", n < 0 ? strerror(-n) : "done");
	// CHECK-NEXT: halve_key: off, the same program: yes
	printf("halve_key: %s, the same program: %s\n",
	       bpfkeys_key_state(obj, "halve_key") ? "on" : "off",
	       prog_id(obj, "cc_ssthresh") == id ? "yes" : "no");
	bpfkeys_close(obj);
	return 0;
}
