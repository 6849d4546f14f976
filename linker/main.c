// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* bpfld command line: bpfld -o OUT.o IN1.o IN2.o ... */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bpfld.h"
#include "bpfsk_version.h"

static void usage(FILE *out)
{
	fputs("Usage: bpfld [options] -o OUTPUT INPUT.o...\n"
	      "Statically link BPF ELF relocatable objects into one object, like\n"
	      "`bpftool gen object`, with .static_keys and .jumptables rebased.\n"
	      "An INPUT of - is standard input; @FILE reads more arguments from FILE\n"
	      "(separated by white space, quoted with '...' or \"...\", nested @FILE).\n"
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

/* argv as expanded from response files: a growing array of owned strings */
struct args {
	char **v;
	int count, cap;
};

static int add_arg(struct args *args, char *arg)
{
	if (!arg)
		return -1;
	if (args->count + 1 >= args->cap) {
		int cap = args->cap ? 2 * args->cap : 64;
		char **v = realloc(args->v, (size_t)cap * sizeof(*v));

		if (!v) {
			free(arg);
			return -1;
		}
		args->v = v;
		args->cap = cap;
	}
	args->v[args->count++] = arg;
	args->v[args->count] = NULL;
	return 0;
}

static int expand(struct args *args, const char *arg, int depth);

/*
 * @FILE: the arguments in FILE, as GCC and ld read them: separated by white
 * space, '...' and "..." quote (a backslash escapes inside "..." and outside
 * quotes), and an @FILE inside is expanded in turn (to a depth of 16).
 */
static int read_response_file(struct args *args, const char *path, int depth)
{
	FILE *f = fopen(path, "r");
	char *word = NULL;
	size_t len = 0, cap = 0;
	bool in_word = false;
	int c, quote = 0, err = 0;

	if (!f) {
		fprintf(stderr, "bpfld: error: response file '%s': %s\n", path, strerror(errno));
		return -1;
	}
	while (!err) {
		c = fgetc(f);
		if (c != EOF && !quote &&
		    (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')) {
			if (!in_word)
				continue;
			c = 0; /* the end of a word */
		} else if (c == EOF) {
			if (quote) {
				fprintf(stderr,
					"bpfld: error: response file '%s': unterminated %c\n", path,
					quote);
				err = -1;
				break;
			}
			if (!in_word)
				break;
			c = 0;
		} else if (!quote && (c == '\'' || c == '"')) {
			quote = c;
			in_word = true;
			continue;
		} else if (quote && c == quote) {
			quote = 0;
			continue;
		} else if (c == '\\' && quote != '\'') {
			int next = fgetc(f);

			if (next != EOF)
				c = next;
		}
		if (len + 1 >= cap) {
			char *grown = realloc(word, cap = cap ? 2 * cap : 256);

			if (!grown) {
				err = -1;
				break;
			}
			word = grown;
		}
		word[len++] = (char)c;
		in_word = true;
		if (c == 0) {
			err = expand(args, word, depth + 1);
			len = 0;
			in_word = false;
			if (c == 0 && feof(f))
				break;
		}
	}
	if (ferror(f)) {
		fprintf(stderr, "bpfld: error: response file '%s': %s\n", path, strerror(errno));
		err = -1;
	}
	free(word);
	fclose(f);
	return err;
}

/* One argument: itself, or what its response file holds. */
static int expand(struct args *args, const char *arg, int depth)
{
	if (arg[0] != '@' || !arg[1])
		return add_arg(args, strdup(arg));
	if (depth > 16) {
		fprintf(stderr, "bpfld: error: response file '%s': nested too deeply\n", arg + 1);
		return -1;
	}
	return read_response_file(args, arg + 1, depth);
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
	/* @FILE arguments first: options and inputs may come from them */
	for (i = 1; i < argc; i++)
		if (argv[i][0] == '@')
			break;
	if (i < argc) {
		static struct args args; /* lives as long as argv */

		for (i = 0; i < argc; i++)
			if (i == 0 ? add_arg(&args, strdup(argv[0])) : expand(&args, argv[i], 0)) {
				if (errno == ENOMEM)
					fprintf(stderr, "bpfld: error: out of memory\n");
				return 1;
			}
		argc = args.count;
		argv = args.v;
	}

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
			printf("bpfld %s (libbpf %s)\n", BPFSK_VERSION, libbpf_version_string());
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
