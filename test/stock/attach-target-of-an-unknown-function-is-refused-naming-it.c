// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// bpfkeys_set_attach_target() resolves a target in a BPF program when it is
// set (libbpf's bpf_program__set_attach_target): a function that the target
// program (filter, loaded by a first object) does not have is refused at
// once, naming the program and the function, as is a target with neither a
// program nor a function; a function it has is taken. (Loading the fentry program itself needs a kernel that lets root
// load tracing programs; this host refuses them with EPERM, for bpftool
// too, so the load is not part of this test.)
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/settings_filter.c -o %t/filter.o
// RUN: %bpfld -o %t/filter-linked.o %t/filter.o
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/fentry_counter.c -o %t/fentry.o
// RUN: %bpfld -o %t/fentry-linked.o %t/fentry.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/filter-linked.o %t/fentry-linked.o | FileCheck %s
#include "settings_test.h"

int main(int argc, char **argv)
{
	struct bpfkeys_object *target, *tracer;
	int target_fd, err;

	if (argc != 3)
		fail("usage: %s FILTER.o FENTRY.o", argv[0]);
	target = settings_open(argv[1]);
	settings_load(target);
	target_fd = bpfkeys_program_fd(target, "filter");
	tracer = settings_open(argv[2]);
	// CHECK: print: libbpfkeys: {{.*}}fentry-linked.o: error: program 'count_entry': attach target 'no_such_function': No such file or directory
	// CHECK-NEXT: in the program: No such file or directory
	err = bpfkeys_set_attach_target(tracer, "count_entry", target_fd, "no_such_function");
	printf("in the program: %s\n", strerror(-err));
	// CHECK-NEXT: print: libbpfkeys: {{.*}}fentry-linked.o: error: program 'count_entry': attach target (no function): Invalid argument
	// CHECK-NEXT: neither: Invalid argument
	err = bpfkeys_set_attach_target(tracer, "count_entry", 0, NULL);
	printf("neither: %s\n", strerror(-err));
	// CHECK-NEXT: filter: taken
	err = bpfkeys_set_attach_target(tracer, "count_entry", target_fd, "filter");
	printf("filter: %s\n", err ? bpfkeys_errmsg(tracer) : "taken");
	bpfkeys_close(tracer);
	bpfkeys_close(target);
	return 0;
}
