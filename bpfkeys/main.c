// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* bpfkeys: command line. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfkeys.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: bpfkeys resolve IN.o -o OUT.o\n"
		"       bpfkeys lower [--set KEY=on|off]... IN.o -o OUT.o\n"
		"       bpfkeys list [--json] IN.o\n"
		"       bpfkeys --help | --version\n"
		"\n"
		"Post-processor for BPF static keys (docs/abi.md).\n"
		"\n"
		"  resolve  validate the .static_keys entries and write an object whose\n"
		"           .bpfkeys section lists one key instance per (key, program)\n"
		"           that reaches a site of the key, with its sites as (function,\n"
		"           instruction index within the function). Instructions are\n"
		"           not changed; .static_keys and .rel.static_keys are dropped.\n"
		"  lower    rewrite every static branch into a compare of r10 with itself\n"
		"           fixed at the key's initial state (or --set), and remove the\n"
		"           static-key sections and key maps, so that the object loads on a\n"
		"           stock kernel with a stock libbpf.\n"
		"  list     print keys, initial states, instances and sites of a raw or\n"
		"           resolved object (--json for JSON).\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE   output object (written atomically)\n"
		"  --set KEY=on|off    lower: fix KEY's state (default: its initial state)\n"
		"  --json              list: JSON output\n"
		"  -h, --help          this help\n"
		"  -V, --version       version\n");
}

enum { OPT_SET = 256, OPT_JSON };

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{"output", required_argument, NULL, 'o'},
		{"set", required_argument, NULL, OPT_SET},
		{"json", no_argument, NULL, OPT_JSON},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{0},
	};
	struct bk_setting *settings = bk_xcalloc((size_t)argc, sizeof(*settings));
	size_t setting_count = 0;
	const char *command = NULL, *input = NULL, *output = NULL;
	bool json = false;
	struct bk_object obj;
	int opt, rc = 1;

	while ((opt = getopt_long(argc, argv, "+o:hV", options, NULL)) != -1 || optind < argc) {
		if (opt == -1) { /* a positional argument: command, then input */
			const char *arg = argv[optind++];

			if (!command)
				command = arg;
			else if (!input)
				input = arg;
			else {
				fprintf(stderr, "bpfkeys: error: unexpected argument '%s'\n", arg);
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

			if (!eq || eq == optarg || (strcmp(eq + 1, "on") && strcmp(eq + 1, "off"))) {
				fprintf(stderr, "bpfkeys: error: --set '%s': expected KEY=on or KEY=off\n", optarg);
				goto out;
			}
			*eq = '\0';
			settings[setting_count].key = optarg;
			settings[setting_count++].on = strcmp(eq + 1, "on") == 0;
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
			printf("bpfkeys %s (.bpfkeys format version %d)\n", BPFKEYS_VERSION_STRING,
			       BPFKEYS_FORMAT_VERSION);
			rc = 0;
			goto out;
		default:
			usage(stderr);
			goto out;
		}
	}
	if (!command) {
		usage(stderr);
		goto out;
	}
	if (strcmp(command, "resolve") && strcmp(command, "lower") && strcmp(command, "list")) {
		fprintf(stderr, "bpfkeys: error: unknown command '%s' (try --help)\n", command);
		goto out;
	}
	if (!input) {
		fprintf(stderr, "bpfkeys: error: %s: no input object\n", command);
		goto out;
	}
	if (strcmp(command, "list") == 0 ? output != NULL : output == NULL) {
		fprintf(stderr, "bpfkeys: error: %s: %s\n", command,
			output ? "-o is not used by list" : "no output object (-o)");
		goto out;
	}
	if (setting_count && strcmp(command, "lower")) {
		fprintf(stderr, "bpfkeys: error: --set is only for lower\n");
		goto out;
	}
	if (json && strcmp(command, "list")) {
		fprintf(stderr, "bpfkeys: error: --json is only for list\n");
		goto out;
	}

	if (bk_object_read(&obj, input)) {
		bk_object_free(&obj);
		goto out;
	}
	if (strcmp(command, "list") == 0) {
		rc = bk_list(&obj, json) ? 1 : 0;
	} else if (obj.instances_section && !obj.static_keys_section) {
		bk_error(&obj, "already resolved (has %s): %s takes the object before `bpfkeys resolve`",
			 BK_INSTANCES_SEC, command);
	} else if (strcmp(command, "resolve") == 0) {
		rc = !bk_analyze(&obj) && !bk_write_resolved(&obj, output, -1) ? 0 : 1;
	} else {
		rc = !bk_analyze(&obj) && !bk_lower(&obj, settings, setting_count, output, -1) ? 0 : 1;
	}
	bk_object_free(&obj);
out:
	free(settings);
	return rc;
}
