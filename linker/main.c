// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* bpfld command line: bpfld -o OUT.o IN1.o IN2.o ... */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bpfld.h"

static void usage(FILE *out)
{
	fputs("Usage: bpfld [options] -o OUTPUT INPUT.o...\n"
	      "Statically link BPF ELF relocatable objects into one object, like\n"
	      "`bpftool gen object`, with .static_keys and .jumptables rebased.\n"
	      "An INPUT of - is standard input.\n"
	      "\n"
	      "Options:\n"
	      "  -o, --output FILE   write the linked object to FILE (atomically;\n"
	      "                      - for standard output)\n"
	      "  -v, --verbose       explain type mismatches in more detail\n"
	      "  -h, --help          show this help and exit\n"
	      "  -V, --version       show the version and exit\n"
	      "\n"
	      "Exit status is 0 on success, 1 on a link error (nothing is written), 2 on\n"
	      "a usage error.\n",
	      out);
}

static int silent_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN && bpfld_verbose)
		return vfprintf(stderr, fmt, ap);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	struct final_btf btf = { 0 };
	struct linker linker;
	int opt, i, err = 0;

	elfobj_progname = "bpfld";

	opterr = 0; /* its errors are reported in the tools' form */
	while ((opt = getopt_long(argc, argv, ":o:vhV", options, NULL)) != -1) {
		switch (opt) {
		case 'o':
			output = optarg;
			break;
		case 'v':
			bpfld_verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("bpfld %s (libbpf %s)\n", BPFLD_VERSION, libbpf_version_string());
			return 0;
		default:
			elfobj_option_error(opt, argv, optind, optopt, options);
			usage(stderr);
			return 2;
		}
	}
	if (!output || optind >= argc) {
		fprintf(stderr, "bpfld: error: %s\n",
			!output ? "no output file (-o) given" : "no input files");
		usage(stderr);
		return 2;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		fprintf(stderr, "bpfld: error: libelf is out of date\n");
		return 1;
	}
	libbpf_set_print(silent_libbpf_print);
	if (linker_init(&linker)) {
		linker_free(&linker);
		return 1;
	}
	/* Each phase is one call here; none calls the next. */
	for (i = optind; i < argc && !err; i++)
		err = link_input_object(&linker, argv[i]);
	err = err ? err : check_link_complete(&linker);
	err = err ? err : finalize_btf(&linker, output, &btf);
	err = err ? err : write_output(&linker, output, &btf);
	final_btf_free(&btf);
	linker_free(&linker);
	return err ? 1 : 0;
}
