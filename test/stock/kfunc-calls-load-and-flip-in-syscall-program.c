// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A program that calls kfuncs (bpf_rcu_read_lock/unlock, extern __ksym) loads
// on the stock kernel through libbpfkeys, and so does the variant a flip
// loads: the calls and their relocations go through the in-memory lowering
// untouched, and libbpf resolves them against the kernel's BTF each time.
// The program is a syscall program, run by BPF_PROG_TEST_RUN without data.
// bpf_rcu_read_lock() is a kfunc from 6.2 on (6.1 has no such kfunc).
// REQUIRES: kfunc-bpf-rcu-read-lock
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c -DKFUNC_PROG_SEC='"syscall"' %S/../bpfkeys/Inputs/kfunc_call.c -o %t/in.o
// RUN: %bpfld -o %t/linked.o %t/in.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o | FileCheck %s
#include "stock_test.h"

static int run_syscall(struct bpfkeys_object *obj)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int err = bpf_prog_test_run_opts(bpfkeys_program_fd(obj, "read_under_rcu"), &opts);

	if (err)
		fail("test run of read_under_rcu: %s", strerror(-err));
	return (int)opts.retval;
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	obj = stock_open_and_load(argv[1]);
	// CHECK: verbose off: read_under_rcu = 3
	printf("verbose off: read_under_rcu = %d\n", run_syscall(obj));
	// CHECK-NEXT: verbose on: replaced 1: read_under_rcu = 22
	int replaced = bpfkeys_set(obj, "verbose", true);
	printf("verbose on: replaced %d: read_under_rcu = %d\n", replaced, run_syscall(obj));
	// CHECK-NEXT: verbose off: replaced 1: read_under_rcu = 3
	replaced = bpfkeys_set(obj, "verbose", false);
	printf("verbose off: replaced %d: read_under_rcu = %d\n", replaced, run_syscall(obj));
	bpfkeys_close(obj);
	printf("done\n");
	// CHECK-NEXT: done
	return 0;
}
