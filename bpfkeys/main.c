// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* bpfkeys: command line. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfkeys.h"
#include "bpfsk_version.h"

#define SHORT_USAGE                                                  \
	"Usage: bpfkeys resolve IN.o -o OUT.o\n"                     \
	"       bpfkeys lower [--set KEY=on|off]... IN.o -o OUT.o\n" \
	"       bpfkeys list [--json] IN.o\n"                        \
	"       bpfkeys gen skeleton IN.o [NAME]\n"                  \
	"       bpfkeys --help | --version\n"

/* Exit status of a command-line error; a rejected object or an I/O error is 1. */
#define EXIT_USAGE 2

static void short_usage(void)
{
	fputs(SHORT_USAGE "Try 'bpfkeys --help' for more information.\n", stderr);
}

/* A command-line error: "bpfkeys: error: ..." on stderr; returns exit status 2. */
__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("bpfkeys: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

static void usage(FILE *f)
{
	fprintf(f, SHORT_USAGE
		"\n"
		"Post-processor for BPF static keys (docs/abi.md).\n"
		"\n"
		"  resolve  validate the .static_keys entries and write an object whose\n"
		"           .bpfkeys section lists one key instance per (key, program)\n"
		"           that reaches a site of the key, with its sites as (function,\n"
		"           instruction index within the function). Instructions are\n"
		"           not changed; .static_keys and .rel.static_keys are dropped.\n"
		"           `&key` passed to bpf_static_key_set() or _set_sync() is\n"
		"           recorded as a reference of each program reaching it (format\n"
		"           version 3); any other use of a key as a value is an error.\n"
		"  lower    fix every static branch at its key's initial state (or --set):\n"
		"           not taken, it is deleted; taken, it becomes one ja (or nothing);\n"
		"           the code no path reaches any more is deleted and everything\n"
		"           that names instruction positions follows (DWARF is dropped\n"
		"           when code was deleted; BTF line info stays). The static-key\n"
		"           sections and key maps go, so the object loads on a stock\n"
		"           kernel with a stock libbpf. An object whose programs flip a\n"
		"           key from BPF is refused: stock kernels have no such kfuncs.\n"
		"  list     print keys, initial states, instances, sites and the programs\n"
		"           that flip each key, of a raw or resolved object (--json for JSON).\n"
		"  gen skeleton  print a C header for IN.o (raw or resolved) in the shape of\n"
		"           bpftool's skeleton, on libbpfkeys: the object embedded, struct\n"
		"           NAME (progs, maps, links, bss/data/rodata), NAME__open(),\n"
		"           __load(), __attach(), __destroy() and\n"
		"           NAME__static_keys__set_KEY(skel, on). NAME: the file name up\n"
		"           to its first dot.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE   output object (written atomically; - for standard\n"
		"                      output). An IN.o of - is standard input.\n"
		"  --set KEY=on|off    lower: fix KEY's state (default: its initial state);\n"
		"                      each KEY at most once (a repeat is an error)\n"
		"  --json              list: JSON output\n"
		"  -h, --help          this help\n"
		"  -V, --version       version\n"
		"\n"
		"Exit status: 0 on success, 1 when the object is rejected or cannot be\n"
		"read or written, 2 on a command-line (usage) error.\n");
}

enum { OPT_SET = 256, OPT_JSON };

/* libbpf's own warnings (BTF it parses) would repeat what bpfkeys says */
static int silent_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* The core's allocation failed (bk_bail): a tool ends there. */
static void __attribute__((noreturn)) bail_exit(int err)
{
	if (err == -ENOMEM)
		fprintf(stderr, "bpfkeys: error: out of memory\n");
	exit(1); /* 2 is a usage error */
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "set", required_argument, NULL, OPT_SET },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	struct bk_setting *settings = bk_xcalloc((size_t)argc, sizeof(*settings));
	size_t setting_count = 0;
	const char *command = NULL, *input = NULL, *output = NULL;
	bool json = false;
	struct bk_object obj;
	int opt, rc = 1;

	elfobj_progname = "bpfkeys";
	bk_bail_exit = bail_exit;
	libbpf_set_print(silent_libbpf_print);
	if (argc >= 2 && !strcmp(argv[1], "gen")) {
		free(settings);
		if (argc < 3 || strcmp(argv[2], "skeleton")) {
			usage_error("gen: expected 'skeleton'");
			short_usage();
			return EXIT_USAGE;
		}
		if (argc < 4 || argc > 5) {
			usage_error("gen skeleton: expected IN.o [NAME]");
			short_usage();
			return EXIT_USAGE;
		}
		return bk_gen_skeleton(argv[3], argc == 5 ? argv[4] : NULL);
	}

	opterr = 0; /* its errors are reported in the tools' form */
	while ((opt = getopt_long(argc, argv, "+:o:hV", options, NULL)) != -1 || optind < argc) {
		if (opt == -1) { /* a positional argument: command, then input */
			const char *arg = argv[optind++];

			if (!command)
				command = arg;
			else if (!input)
				input = arg;
			else {
				rc = usage_error("unexpected argument '%s'", arg);
				goto out;
			}
			continue;
		}
		switch (opt) {
		case 'o':
			output = optarg;
			break;
		case OPT_SET: {
			char *eq = strchr(optarg, '=');
			bool on;

			if (!eq || eq == optarg ||
			    (strcmp(eq + 1, "on") && strcmp(eq + 1, "off"))) {
				rc = usage_error("--set '%s': expected KEY=on or KEY=off", optarg);
				goto out;
			}
			*eq = '\0';
			on = strcmp(eq + 1, "on") == 0;
			/* A key given twice is a mistake whichever value wins, so
			 * any repeat is rejected, not only a conflicting one. */
			for (size_t s = 0; s < setting_count; s++) {
				if (strcmp(settings[s].key, optarg) == 0) {
					rc = usage_error("--set: key '%s' set twice (%s, then %s)",
							 optarg, settings[s].on ? "on" : "off",
							 on ? "on" : "off");
					goto out;
				}
			}
			settings[setting_count].key = optarg;
			settings[setting_count++].on = on;
			break;
		}
		case OPT_JSON:
			json = true;
			break;
		case 'h':
			usage(stdout);
			rc = 0;
			goto out;
		case 'V':
			printf("bpfkeys %s (.bpfkeys format version %d, %d with references)\n",
			       BPFSK_VERSION, BPFKEYS_FORMAT_VERSION,
			       BPFKEYS_FORMAT_VERSION_REFERENCES);
			rc = 0;
			goto out;
		default: /* '?' or ':' */
			elfobj_option_error(opt, argv, optind, optopt, options);
			short_usage();
			rc = EXIT_USAGE;
			goto out;
		}
	}
	if (!command) {
		rc = usage_error("missing command");
		short_usage();
		goto out;
	}
	if (strcmp(command, "resolve") && strcmp(command, "lower") && strcmp(command, "list")) {
		rc = usage_error("unknown command '%s' (try --help)", command);
		goto out;
	}
	if (!input) {
		rc = usage_error("%s: no input object", command);
		goto out;
	}
	if (strcmp(command, "list") == 0 ? output != NULL : output == NULL) {
		rc = usage_error("%s: %s", command,
				 output ? "-o is not used by list" : "no output object (-o)");
		goto out;
	}
	if (setting_count && strcmp(command, "lower")) {
		rc = usage_error("--set is only for lower");
		goto out;
	}
	if (json && strcmp(command, "list")) {
		rc = usage_error("--json is only for list");
		goto out;
	}

	if (bk_object_read(&obj, input)) {
		bk_object_free(&obj);
		goto out;
	}
	if (strcmp(command, "list") == 0) {
		rc = bk_list(&obj, json) ? 1 : 0;
	} else if (obj.instances_section && !obj.static_keys_section &&
		   strcmp(command, "resolve") == 0) {
		bk_error(&obj,
			 "already resolved (has %s): %s takes the object before `bpfkeys resolve`",
			 BPFKEYS_SECTION, command);
	} else if (strcmp(command, "resolve") == 0) {
		rc = !bk_analyze(&obj) && !bk_write_resolved(&obj, output, -1) ? 0 : 1;
	} else if (obj.instances_section && !obj.static_keys_section) {
		/* one artifact: a resolved object lowers as the raw one it came from */
		rc = !bk_analyze_resolved(&obj) &&
				     !bk_lower(&obj, settings, setting_count, output, -1)
			     ? 0
			     : 1;
	} else {
		rc = !bk_analyze(&obj) && !bk_lower(&obj, settings, setting_count, output, -1) ? 0
											       : 1;
	}
	bk_object_free(&obj);
out:
	free(settings);
	return rc;
}
