// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// The user program of the install tests: opens the object bpfld linked,
// loads it with libbpfkeys (the installed library and header), runs the XDP
// program once per key state with BPF_PROG_TEST_RUN and flips debug_key by
// program replacement. Prints what each step returned.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpfkeys/libbpfkeys.h>

static unsigned int run_once(struct bpfkeys_object *obj)
{
	unsigned char packet[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = packet, .data_size_in = sizeof(packet),
		    .repeat = 1);
	int fd = bpfkeys_program_fd(obj, "count");

	if (fd < 0 || bpf_prog_test_run_opts(fd, &opts)) {
		fprintf(stderr, "flip: error: test run of 'count' failed: %s\n", strerror(errno));
		exit(1);
	}
	return opts.retval;
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;
	int replaced;

	if (argc != 2) {
		fprintf(stderr, "usage: flip LINKED.o\n");
		return 2;
	}
	obj = bpfkeys_open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "flip: error: %s: cannot open: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (bpfkeys_load(obj)) {
		fprintf(stderr, "flip: error: %s: %s\n", argv[1], bpfkeys_errmsg(obj));
		return 1;
	}
	printf("keys %zu: %s %s\n", bpfkeys_key_count(obj), bpfkeys_key_name(obj, 0),
	       bpfkeys_key_state(obj, "debug_key") ? "on" : "off");
	printf("off: retval %u\n", run_once(obj));
	replaced = bpfkeys_set(obj, "debug_key", true);
	printf("on: replaced %d, retval %u\n", replaced, run_once(obj));
	replaced = bpfkeys_set(obj, "debug_key", false);
	printf("off again: replaced %d, retval %u\n", replaced, run_once(obj));
	bpfkeys_close(obj);
	return 0;
}
