// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// Bad input gets a clear error naming what is wrong, and changes nothing:
// a missing file, an unknown
// key, a key set twice in one flip, an unknown program, autoload after load,
// an attachment the program type does not have, unknown attach flags.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %e2e_inputs/e2e_progs.c -o %t/progs.o
// RUN: %bpf_cc %bpf_cflags -c %e2e_inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
#include <net/if.h>

#include "stock_test.h"

static void expect(const char *what, int got, int want)
{
	printf("%s: %s\n", what, got == want ? strerror(-want) : "UNEXPECTED");
	if (got != want)
		fail("%s: got %d, expected %d", what, got, want);
}

int main(int argc, char **argv)
{
	struct bpfkeys_setting twice[] = { { "key_a", true }, { "key_a", false } };
	struct bpfkeys_object *obj;
	uint32_t one, two;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	setvbuf(stdout, NULL, _IONBF, 0);
	libbpf_set_print(stock_libbpf_print);

	// CHECK: libbpfkeys: no-such-file.o: error: cannot open: No such file or directory
	// CHECK-NEXT: missing file: No such file or directory
	obj = bpfkeys_open_file("no-such-file.o", NULL);
	expect("missing file", obj ? 0 : -errno, -ENOENT);

	obj = stock_open(argv[1], NULL);
	// CHECK: libbpfkeys: {{.*}}linked.o: error: no static key named 'no_such_key'
	// CHECK-NEXT: unknown key before load: No such file or directory
	expect("unknown key before load", bpfkeys_set(obj, "no_such_key", true), -ENOENT);
	// CHECK: error: no program named 'no_such_program'
	// CHECK-NEXT: autoload of an unknown program: No such file or directory
	expect("autoload of an unknown program",
	       bpfkeys_set_autoload(obj, "no_such_program", false), -ENOENT);
	// CHECK: error: program 'prog_one' is not loaded
	// CHECK-NEXT: attach before load: Invalid argument
	expect("attach before load", bpfkeys_attach_xdp(obj, "prog_one", 1) ? 0 : -errno, -EINVAL);
	if (bpfkeys_load(obj))
		fail("load: %s", bpfkeys_errmsg(obj));
	one = prog_id(obj, "prog_one");
	two = prog_id(obj, "prog_two");

	// CHECK: error: no static key named 'no_such_key'
	// CHECK-NEXT: unknown key: No such file or directory
	expect("unknown key", bpfkeys_set(obj, "no_such_key", true), -ENOENT);
	// CHECK: error: key 'key_a' set twice in one flip
	// CHECK-NEXT: key set twice: Invalid argument
	expect("key set twice", bpfkeys_flip(obj, twice, 2), -EINVAL);
	// CHECK: error: program 'prog_one': autoload is set before load
	// CHECK-NEXT: autoload after load: Device or resource busy
	expect("autoload after load", bpfkeys_set_autoload(obj, "prog_one", false), -EBUSY);
	// CHECK: error: no program named 'shared_fn'
	// CHECK-NEXT: attach a subprogram: No such file or directory
	expect("attach a subprogram", bpfkeys_attach_xdp(obj, "shared_fn", 1) ? 0 : -errno,
	       -ENOENT);
	// CHECK: error: program 'prog_one': cgroup attach to cgroup fd 0: {{.*}}
	// CHECK: XDP program on a cgroup: {{.*}}
	errno = 0;
	if (bpfkeys_attach_cgroup(obj, "prog_one", 0))
		fail("an XDP program attached to a cgroup");
	printf("XDP program on a cgroup: %s\n", strerror(errno));
	// CHECK: error: program 'prog_one': unknown attach flags 0x4
	// CHECK-NEXT: unknown attach flags: Invalid argument
	expect("unknown attach flags", bpfkeys_attach(obj, "prog_one", 4) ? 0 : -errno, -EINVAL);

	// CHECK-NEXT: after the errors: key_a off, key_b on, same programs, prog_one = 2, prog_two = 32
	printf("after the errors: key_a %s, key_b %s, %s programs, prog_one = %u, prog_two = %u\n",
	       bpfkeys_key_state(obj, "key_a") ? "on" : "off",
	       bpfkeys_key_state(obj, "key_b") ? "on" : "off",
	       prog_id(obj, "prog_one") == one && prog_id(obj, "prog_two") == two ? "same"
										  : "OTHER",
	       run_once(obj, "prog_one"), run_once(obj, "prog_two"));
	bpfkeys_close(obj);
	return 0;
}
