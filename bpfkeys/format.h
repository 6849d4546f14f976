/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* A parsed .bpfkeys section: entries copied out, strings point into the section. */
#ifndef BPFKEYS_FORMAT_VIEW_H
#define BPFKEYS_FORMAT_VIEW_H

#include "bpfkeys_format.h"

struct bk_object;

struct bk_format_view {
	const char *strings;
	uint32_t string_size;
	struct bpfkeys_key *keys;
	struct bpfkeys_instance *instances;
	struct bpfkeys_site *sites;
	uint32_t key_count, instance_count, site_count;
	uint16_t version;
	/* version 3: the programs that refer to keys (none in version 2) */
	struct bpfkeys_reference *references;
	struct bpfkeys_reference_insn *reference_insns;
	uint32_t reference_count, reference_insn_count;
};

int bk_format_parse(const struct bk_object *obj, const uint8_t *data, size_t size,
		    struct bk_format_view *view);
void bk_format_view_free(struct bk_format_view *view);

#endif
