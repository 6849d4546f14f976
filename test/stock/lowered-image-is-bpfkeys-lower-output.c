// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// What libbpfkeys loads for a set of key states is byte for byte what
// `bpfkeys lower --set` writes for the same states: at the initial states,
// after a flip (set before load and after load), and after two flips.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %e2e_inputs/e2e_progs.c -o %t/progs.o
// RUN: %bpf_cc %bpf_cflags -c %e2e_inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o %t
// RUN: %bpfkeys lower %t/linked.o -o %t/cli-initial.o
// RUN: cmp %t/cli-initial.o %t/lib-initial.o
// RUN: %bpfkeys lower --set key_a=on %t/linked.o -o %t/cli-a-on.o
// RUN: cmp %t/cli-a-on.o %t/lib-a-on-before-load.o
// RUN: cmp %t/cli-a-on.o %t/lib-a-on.o
// RUN: %bpfkeys lower --set key_b=off --set key_a=on %t/linked.o -o %t/cli-a-on-b-off.o
// RUN: cmp %t/cli-a-on-b-off.o %t/lib-a-on-b-off.o
// RUN: not cmp -s %t/cli-a-on.o %t/cli-initial.o
#include <fcntl.h>

#include "stock_test.h"

static void write_lowered(struct bpfkeys_object *obj, const char *dir, const char *name)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || bpfkeys_write_lowered(obj, fd) || close(fd))
		fail("%s: %s", path, bpfkeys_errmsg(obj));
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;

	if (argc != 3)
		fail("usage: %s LINKED.o DIR", argv[0]);
	obj = stock_open(argv[1], NULL);
	write_lowered(obj, argv[2], "lib-initial.o");
	bpfkeys_set(obj, "key_a", true);
	write_lowered(obj, argv[2], "lib-a-on-before-load.o");
	bpfkeys_set(obj, "key_a", false);
	if (bpfkeys_load(obj))
		fail("load: %s", bpfkeys_errmsg(obj));
	flip_or_fail(obj, "key_a", true, 2);
	write_lowered(obj, argv[2], "lib-a-on.o");
	flip_or_fail(obj, "key_b", false, 2);
	write_lowered(obj, argv[2], "lib-a-on-b-off.o");
	bpfkeys_close(obj);
	return 0;
}
