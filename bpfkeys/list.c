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
#include "json_string.h"

static const char *site_mnemonic(uint32_t flags)
{
	if (flags & BPFKEYS_SITE_WIDE)
		return flags & BPFKEYS_SITE_JUMP_WHEN_OFF ? "nop_or_gotol" : "gotol_or_nop";
	return flags & BPFKEYS_SITE_JUMP_WHEN_OFF ? "nop_or_goto" : "goto_or_nop";
}

/*
 * The references of each key: by_key[first[k] .. first[k + 1]) are indices
 * into v->references, in table order (a counting sort: a reader does not
 * rely on the writer's order).
 */
struct references_by_key {
	uint32_t *first; /* [key_count + 1] */
	uint32_t *by_key; /* [reference_count] */
};

static void references_by_key(const struct bk_format_view *v, struct references_by_key *rk)
{
	uint32_t *next = bk_xcalloc((size_t)v->key_count + 1, sizeof(*next));

	rk->first = bk_xcalloc((size_t)v->key_count + 2, sizeof(*rk->first));
	rk->by_key = bk_xcalloc((size_t)v->reference_count + 1, sizeof(*rk->by_key));
	for (uint32_t r = 0; r < v->reference_count; r++)
		rk->first[v->references[r].key + 1]++;
	for (uint32_t k = 0; k < v->key_count; k++)
		rk->first[k + 1] += rk->first[k];
	for (uint32_t r = 0; r < v->reference_count; r++) {
		uint32_t k = v->references[r].key;

		rk->by_key[rk->first[k] + next[k]++] = r;
	}
	free(next);
}

static void print_text(const struct bk_format_view *v, const struct references_by_key *rk,
		       bool resolved)
{
	printf("%s object: %u key(s), %u instance(s), %u site(s) in instances",
	       resolved ? "resolved" : "raw", v->key_count, v->instance_count, v->site_count);
	if (v->reference_count)
		printf(", %u reference(s) from programs", v->reference_count);
	putchar('\n');
	for (uint32_t k = 0; k < v->key_count; k++) {
		const struct bpfkeys_key *key = &v->keys[k];
		uint32_t flippers = rk->first[k + 1] - rk->first[k];

		printf("key %s: initial %s, %u instance(s)%s", v->strings + key->name,
		       key->flags & BPFKEYS_KEY_ON ? "on" : "off", key->instance_count,
		       key->instance_count ? "" : " (unused)");
		if (flippers)
			printf(", flipped by %u program(s)", flippers);
		putchar('\n');
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
		for (uint32_t i = rk->first[k]; i < rk->first[k + 1]; i++) {
			const struct bpfkeys_reference *ref = &v->references[rk->by_key[i]];

			printf("  flipped by program %s (section %s), %u reference(s)\n",
			       v->strings + ref->program, v->strings + ref->program_section,
			       ref->insn_count);
			for (uint32_t r = ref->first_insn; r < ref->first_insn + ref->insn_count;
			     r++)
				printf("    reference %s+%u (section %s): ld_imm64\n",
				       v->strings + v->reference_insns[r].function,
				       v->reference_insns[r].insn,
				       v->strings + v->reference_insns[r].section);
		}
	}
}

/* "function", "section", "function_start" and "insn" of a site or reference */
static void json_place(const struct bk_format_view *v, uint32_t function, uint32_t section,
		       uint32_t function_start, uint32_t insn)
{
	printf("\"function\":");
	json_string(v->strings + function);
	printf(",\"section\":");
	json_string(v->strings + section);
	printf(",\"function_start\":%u,\"insn\":%u", function_start, insn);
}

static void json_flippers(const struct bk_format_view *v, const struct references_by_key *rk,
			  uint32_t k)
{
	printf(",\"flipped_by\":[");
	for (uint32_t i = rk->first[k]; i < rk->first[k + 1]; i++) {
		const struct bpfkeys_reference *ref = &v->references[rk->by_key[i]];

		printf("%s{\"program\":", i > rk->first[k] ? "," : "");
		json_string(v->strings + ref->program);
		printf(",\"section\":");
		json_string(v->strings + ref->program_section);
		printf(",\"references\":[");
		for (uint32_t r = ref->first_insn; r < ref->first_insn + ref->insn_count; r++) {
			const struct bpfkeys_reference_insn *ri = &v->reference_insns[r];

			printf("%s{", r > ref->first_insn ? "," : "");
			json_place(v, ri->function, ri->section, ri->function_start, ri->insn);
			printf("}");
		}
		printf("]}");
	}
	printf("]");
}

static void print_json(const struct bk_format_view *v, const struct references_by_key *rk,
		       bool resolved)
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

				printf("%s{", s > in->first_site ? "," : "");
				json_place(v, site->function, site->section, site->function_start,
					   site->insn);
				printf(",\"kind\":\"%s\",\"jumps_when\":\"%s\"}",
				       site_mnemonic(site->flags),
				       site->flags & BPFKEYS_SITE_JUMP_WHEN_OFF ? "off" : "on");
			}
			printf("]}");
		}
		printf("]");
		json_flippers(v, rk, k);
		printf("}");
	}
	printf("]}\n");
}

/* The .bpfkeys view of an object: parsed if resolved, built in memory if raw. */
int bk_list(struct bk_object *obj, bool json)
{
	struct bk_format_view view;
	struct references_by_key rk;
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
	references_by_key(&view, &rk);
	if (json)
		print_json(&view, &rk, resolved);
	else
		print_text(&view, &rk, resolved);
	free(rk.first);
	free(rk.by_key);
	bk_format_view_free(&view);
	free(built);
	return 0;
}
