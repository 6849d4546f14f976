// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* One message format for both tools: "tool: file: error: [section 'S': ]message". */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "elfobj.h"

const char *elfobj_progname = "elfobj";
bool elfobj_quiet;
_Thread_local const struct elfobj_reporter *elfobj_reporter;

void elfobj_vreport(const char *file, const char *section, const char *kind, const char *fmt,
		    va_list ap)
{
	if (elfobj_reporter) {
		elfobj_reporter->report(elfobj_reporter->ctx, file, section, kind, fmt, ap);
		return;
	}
	if (elfobj_quiet)
		return;
	fprintf(stderr, "%s: ", elfobj_progname);
	if (file)
		fprintf(stderr, "%s: ", file);
	fprintf(stderr, "%s: ", kind);
	if (section)
		fprintf(stderr, "section '%s': ", section);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int elfobj_error(const char *file, const char *section, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	elfobj_vreport(file, section, "error", fmt, ap);
	va_end(ap);
	return -1;
}

void elfobj_warning(const char *file, const char *section, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	elfobj_vreport(file, section, "warning", fmt, ap);
	va_end(ap);
}

void elfobj_note(const char *file, const char *section, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	elfobj_vreport(file, section, "note", fmt, ap);
	va_end(ap);
}

/* Whether arg is "--NAME=..." for a long option NAME that takes no argument and returns val. */
static bool long_option_given_a_value(const char *arg, const struct option *options, int val)
{
	size_t len = strcspn(arg, "=");

	if (strncmp(arg, "--", 2) != 0 || !arg[len])
		return false;
	for (; options && options->name; options++)
		if (options->has_arg == no_argument && options->val == val &&
		    strlen(options->name) == len - 2 &&
		    strncmp(options->name, arg + 2, len - 2) == 0)
			return true;
	return false;
}

void elfobj_option_error(int opt, char *const argv[], int optind, int optopt,
			 const struct option *options)
{
	/* the element getopt_long() was at; within a cluster of short options
	 * (-xv) it may be the one before, so short errors name optopt */
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	int name_len = (int)strcspn(arg, "=");

	if (opt == ':' && strncmp(arg, "--", 2) == 0)
		fprintf(stderr, "%s: error: missing argument for option '%s'\n", elfobj_progname,
			arg);
	else if (opt == ':')
		fprintf(stderr, "%s: error: missing argument for option '-%c'\n", elfobj_progname,
			optopt);
	else if (!optopt)
		fprintf(stderr, "%s: error: unknown or ambiguous option '%.*s'\n", elfobj_progname,
			name_len, arg);
	else if (long_option_given_a_value(arg, options, optopt))
		fprintf(stderr, "%s: error: option '%.*s' takes no argument\n", elfobj_progname,
			name_len, arg);
	else
		fprintf(stderr, "%s: error: unknown option '-%c'\n", elfobj_progname, optopt);
}
