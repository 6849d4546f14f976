/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A C string as a JSON string on stdout, for the tools' --json output: '"'
 * and '\\' escaped, control characters and DEL as \u00XX, well-formed UTF-8
 * copied as it is (JSON text is UTF-8), and each byte that is not part of a
 * well-formed UTF-8 sequence as U+FFFD, so the output always parses. Names
 * come from ELF and BTF strings, which are bytes: a name that is not UTF-8
 * cannot be given exactly in JSON. Header-only because bpfkeyctl is one file
 * built against the series' libbpf, without elfobj; bpfkeys and
 * bpfkeyctl-stock use it too.
 */
#ifndef ELFOBJ_JSON_STRING_H
#define ELFOBJ_JSON_STRING_H

#include <stdio.h>

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF), or 0. */
static inline size_t json_utf8_sequence(const unsigned char *s)
{
	size_t len;
	unsigned char min = 0x80, max = 0xbf;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		min = 0xa0;
	else if (s[0] == 0xed)
		max = 0x9f;
	else if (s[0] == 0xf0)
		min = 0x90;
	else if (s[0] == 0xf4)
		max = 0x8f;
	if (s[1] < min || s[1] > max)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static inline void json_string(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putchar('"');
	while (*p) {
		unsigned char c = *p;
		size_t len;

		if (c == '"' || c == '\\') {
			printf("\\%c", c);
			p++;
		} else if (c < 0x20 || c == 0x7f) {
			printf("\\u%04x", c);
			p++;
		} else if (c < 0x80) {
			putchar(c);
			p++;
		} else if ((len = json_utf8_sequence(p)) != 0) {
			fwrite(p, 1, len, stdout);
			p += len;
		} else {
			fputs("\\ufffd", stdout);
			p++;
		}
	}
	putchar('"');
}

#endif /* ELFOBJ_JSON_STRING_H */
