// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* One message format for both tools: "tool: file: error: [section 'S': ]message". */
#include <stdio.h>

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
