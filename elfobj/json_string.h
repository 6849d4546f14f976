/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A C string as a JSON string on stdout, for the tools' --json output: '"'
 * and '\\' escaped, control characters and every byte outside printable
 * ASCII as \u00XX. Header-only because bpfkeyctl is one file built against
 * the series' libbpf, without elfobj; bpfkeys and bpfkeyctl-stock use it too.
 */
#ifndef ELFOBJ_JSON_STRING_H
#define ELFOBJ_JSON_STRING_H

#include <stdio.h>

static inline void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

#endif /* ELFOBJ_JSON_STRING_H */
