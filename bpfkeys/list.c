// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * List: keys, initial states, instances per program and their sites. A raw
 * object is resolved in memory first, so both kinds print through the same
 * .bpfkeys view and the listing of a raw object shows what resolve writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfkeys.h"
#include "format.h"

static const char *site_mnemonic(uint32_t flags)
{
	if (flags & BPFKEYS_SITE_WIDE)
		return flags & BPFKEYS_SITE_JUMP_WHEN_OFF ? "nop_or_gotol" : "gotol_or_nop";
	return flags & BPFKEYS_SITE_JUMP_WHEN_OFF ? "nop_or_goto" : "goto_or_nop";
}

static void json_string(const char *s)
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

static void print_text(const struct bk_format_view *v, bool resolved)
{
	printf("%s object: %u key(s), %u instance(s), %u site(s) in instances\n",
	       resolved ? "resolved" : "raw", v->key_count, v->instance_count, v->site_count);
	for (uint32_t k = 0; k < v->key_count; k++) {
		const struct bpfkeys_key *key = &v->keys[k];

		printf("key %s: initial %s, %u instance(s)%s\n", v->strings + key->name,
		       key->flags & BPFKEYS_KEY_ON ? "on" : "off", key->instance_count,
		       key->instance_count ? "" : " (unused)");
		for (uint32_t i = key->first_instance;
		     i < key->first_instance + key->instance_count; i++) {
			const struct bpfkeys_instance *in = &v->instances[i];

			printf("  instance %s/%s: program %s (section %s), %u site(s)\n",
			       v->strings + key->name, v->strings + in->program,
			       v->strings + in->program, v->strings + in->program_section,
			       in->site_count);
			for (uint32_t s = in->first_site; s < in->first_site + in->site_count;
			     s++) {
				const struct bpfkeys_site *site = &v->sites[s];

				printf("    site %s+%u (section %s): %s\n",
				       v->strings + site->function, site->insn,
				       v->strings + site->section, site_mnemonic(site->flags));
			}
		}
	}
}

static void print_json(const struct bk_format_view *v, bool resolved)
{
	printf("{\"format\":\"%s\",\"keys\":[", resolved ? "resolved" : "raw");
	for (uint32_t k = 0; k < v->key_count; k++) {
		const struct bpfkeys_key *key = &v->keys[k];

		printf("%s{\"name\":", k ? "," : "");
		json_string(v->strings + key->name);
		printf(",\"initial\":\"%s\",\"instances\":[",
		       key->flags & BPFKEYS_KEY_ON ? "on" : "off");
		for (uint32_t i = key->first_instance;
		     i < key->first_instance + key->instance_count; i++) {
			const struct bpfkeys_instance *in = &v->instances[i];

			printf("%s{\"program\":", i > key->first_instance ? "," : "");
			json_string(v->strings + in->program);
			printf(",\"section\":");
			json_string(v->strings + in->program_section);
			printf(",\"sites\":[");
			for (uint32_t s = in->first_site; s < in->first_site + in->site_count;
			     s++) {
				const struct bpfkeys_site *site = &v->sites[s];

				printf("%s{\"function\":", s > in->first_site ? "," : "");
				json_string(v->strings + site->function);
				printf(",\"section\":");
				json_string(v->strings + site->section);
				printf(",\"function_start\":%u,\"insn\":%u,\"kind\":\"%s\",\"jumps_"
				       "when\":\"%s\"}",
				       site->function_start, site->insn, site_mnemonic(site->flags),
				       site->flags & BPFKEYS_SITE_JUMP_WHEN_OFF ? "off" : "on");
			}
			printf("]}");
		}
		printf("]}");
	}
	printf("]}\n");
}

/* The .bpfkeys view of an object: parsed if resolved, built in memory if raw. */
int bk_list(struct bk_object *obj, bool json)
{
	struct bk_format_view view;
	uint8_t *built = NULL;
	const uint8_t *data;
	size_t size;
	bool resolved = obj->instances_section && !obj->static_keys_section;

	if (resolved) {
		data = obj->sections[obj->instances_section].data;
		size = obj->sections[obj->instances_section].shdr.sh_size;
		if (!data) {
			bk_error(obj, "section '%s' has no data", BPFKEYS_SECTION);
			return -1;
		}
	} else {
		if (bk_analyze(obj) || bk_format_build(obj, &built, &size))
			return -1;
		data = built;
	}
	if (bk_format_parse(obj, data, size, &view)) {
		free(built);
		return -1;
	}
	if (json)
		print_json(&view, resolved);
	else
		print_text(&view, resolved);
	bk_format_view_free(&view);
	free(built);
	return 0;
}
