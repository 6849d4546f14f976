// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Host-kernel test runner: opens and loads a BPF object with the system's
 * libbpf, runs every program (or the named ones) once with
 * BPF_PROG_TEST_RUN on a 64-byte packet and prints "<program> = <retval>".
 * Any failure to open, load or run exits non-zero: a test that cannot load
 * fails, it never skips.
 */
#include <stdio.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static int run(struct bpf_program *prog)
{
	unsigned char packet[64] = {0};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = packet, .data_size_in = sizeof(packet),
		    .repeat = 1);
	int err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);

	if (err) {
		fprintf(stderr, "bpf_run: %s: test run failed: %s\n", bpf_program__name(prog), strerror(-err));
		return 1;
	}
	printf("%s = %u\n", bpf_program__name(prog), opts.retval);
	return 0;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	int err, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: bpf_run OBJ [PROGRAM...]\n");
		return 2;
	}
	libbpf_set_print(print_libbpf);
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "bpf_run: %s: open failed\n", argv[1]);
		return 1;
	}
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "bpf_run: %s: load failed: %s\n", argv[1], strerror(-err));
		bpf_object__close(obj);
		return 1;
	}
	if (argc == 2) {
		bpf_object__for_each_program(prog, obj)
			rc |= run(prog);
	} else {
		for (int i = 2; i < argc; i++) {
			prog = bpf_object__find_program_by_name(obj, argv[i]);
			if (!prog) {
				fprintf(stderr, "bpf_run: %s: no program '%s'\n", argv[1], argv[i]);
				rc = 1;
				continue;
			}
			rc |= run(prog);
		}
	}
	bpf_object__close(obj);
	return rc;
}
