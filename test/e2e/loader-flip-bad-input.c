// SPDX-License-Identifier: GPL-2.0
// Flipping with bad input gets a clear error, never a crash: an unknown key
// (per object and per program), a key the program does not use, a program
// left out of the load, a file descriptor that is not a key (a program, a
// closed fd), a key whose program is gone.
//
// RUN: rm -rf %t && mkdir -p %t/files
// RUN: %bpf_cc %bpf_cflags -c %S/Inputs/e2e_progs.c -o %t/progs.o
// RUN: %bpf_cc %bpf_cflags -c %S/Inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: %bpfkeys resolve %t/linked.o -o %t/files/e2e.o
// RUN: env BPFSK_QEMU_FILES=%t/files %qemu-run %s | FileCheck %s
#include "e2e_loader.h"

int main(void)
{
	struct bpf_object *obj = e2e_open("/files/e2e.o");
	struct bpf_program *one, *two;
	int fd;

	one = e2e_prog(obj, "prog_one");
	two = e2e_prog(obj, "prog_two");
	bpf_program__set_autoload(two, false);

	// CHECK-LABEL: before load
	// CHECK-NEXT: libbpf: object 'e2e': no static key 'no_such_key'
	// CHECK-NEXT: object, unknown key: ENOENT
	// CHECK-NEXT: libbpf: prog 'prog_one': no static key 'no_such_key' in this program
	// CHECK-NEXT: program, unknown key: ENOENT
	// CHECK-NEXT: instance fd before load: EINVAL
	printf("before load\n");
	expect_err("object, unknown key", bpf_object__set_static_key(obj, "no_such_key", true),
		   -ENOENT);
	expect_err("program, unknown key", bpf_program__set_static_key(one, "no_such_key", true),
		   -ENOENT);
	expect_err("instance fd before load", bpf_program__static_key_fd(one, "key_a"), -EINVAL);

	e2e_load(obj);
	// CHECK-LABEL: prog_two not loaded
	// CHECK-NEXT: libbpf: prog 'prog_two': static key 'key_a': program is not loaded
	// CHECK-NEXT: program not loaded: EINVAL
	// CHECK-NEXT: instance fd of a program not loaded: EINVAL
	// CHECK-NEXT: object-wide flip skips it: OK
	// CHECK-NEXT: prog_one = 7
	printf("prog_two not loaded\n");
	expect_err("program not loaded", bpf_program__set_static_key(two, "key_a", true), -EINVAL);
	expect_err("instance fd of a program not loaded", bpf_program__static_key_fd(two, "key_a"),
		   -EINVAL);
	expect_err("object-wide flip skips it", bpf_object__set_static_key(obj, "key_a", true), 0);
	e2e_expect_run(one, 7);

	// CHECK-LABEL: wrong fds
	// CHECK-NEXT: program fd as a key: EINVAL
	// CHECK-NEXT: closed fd: EBADF
	// CHECK-NEXT: on = 2: EINVAL
	printf("wrong fds\n");
	expect_err("program fd as a key", bpf_static_key_update(bpf_program__fd(one), true, NULL),
		   -EINVAL);
	expect_err("closed fd", bpf_static_key_update(1000, true, NULL), -EBADF);
	{
		union bpf_attr attr;

		memset(&attr, 0, sizeof(attr));
		attr.static_key.map_fd = bpf_program__static_key_fd(one, "key_a");
		attr.static_key.on = 2;
		expect_err("on = 2", sys_bpf(BPF_STATIC_KEY_UPDATE, &attr) ? -errno : 0, -EINVAL);
	}

	// CHECK-LABEL: program gone
	// CHECK-NEXT: key of a closed program: EINVAL
	printf("program gone\n");
	fd = dup(bpf_program__static_key_fd(one, "key_a"));
	bpf_object__close(obj);
	{
		/* the program is freed after an RCU grace period */
		int i, err = 0;

		for (i = 0; i < 200 && !err; i++) {
			err = bpf_static_key_update(fd, false, NULL);
			if (!err)
				usleep(10000);
		}
		expect_err("key of a closed program", err, -EINVAL);
	}
	close(fd);

	// CHECK: PASSED
	return finish();
}
