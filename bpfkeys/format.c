// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The .bpfkeys section (abi.md section 5, bpfkeys_format.h): built from a
 * resolved model, and parsed back with every offset and index checked.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bpfkeys.h"
#include "format.h"

/* elfobj_strtab_add(), bailing out on its error (reported): out of memory or 4 GiB of names */
static uint32_t strtab_add(struct elfobj_strtab *st, const char *s)
{
	int64_t offset = elfobj_strtab_add(st, s);

	if (offset < 0)
		bk_bail(-E2BIG);
	return (uint32_t)offset;
}

/*
 * The strings of .bpfkeys are written into the tail of the section itself
 * (elfobj_strtab_init_in()), sized up front: every function, key and section
 * name at most. The size counts function names in function order, where they
 * are read in the order of the string table.
 */
static int string_bytes(const struct bk_object *obj, size_t *bytes)
{
	*bytes = 1; /* "" at offset 0 */
	for (size_t f = 0; f < obj->function_count; f++) {
		size_t len = strlen(obj->functions[f].name);

		if (len >= UINT32_MAX) {
			bk_error(obj, "function name of %zu bytes", len);
			return -1;
		}
		*bytes += len + 1;
	}
	for (size_t i = 0; i < obj->key_count; i++)
		*bytes += strlen(obj->keys[i].name) + 1;
	for (size_t i = 0; i < obj->section_count; i++)
		*bytes += obj->sections[i].name ? strlen(obj->sections[i].name) + 1 : 0;
	return 0;
}

/*
 * Where the names an entry gives go: name_offset[f] of function f (0 until
 * added: a function's name is never empty) and section_name[s] of section s.
 * One 4-byte slot per function, not a copy of what obj->functions holds: each
 * new page of memory is a page fault, and at a million functions there were
 * 32 MB of such copies.
 */
struct names {
	struct elfobj_strtab st;
	uint32_t *name_offset; /* [function_count] */
	uint32_t *section_name; /* [section_count] */
	bool unique; /* obj->function_names_unique: no lookup, no hashing */
};

/* Adds f's name and its section's, each once. */
static void add_function_names(struct names *names, const struct bk_object *obj, uint32_t f)
{
	const struct bk_function *fn = &obj->functions[f];
	int64_t offset;

	if (names->name_offset[f])
		return;
	offset = names->unique ? elfobj_strtab_append_unique(&names->st, fn->name, strlen(fn->name))
			       : elfobj_strtab_add(&names->st, fn->name);
	if (offset < 0)
		bk_bail(-E2BIG);
	names->name_offset[f] = (uint32_t)offset;
	if (!names->section_name[fn->section])
		names->section_name[fn->section] =
			strtab_add(&names->st, obj->sections[fn->section].name);
}

/*
 * Instances come by key, then program name, and their sites by key too: the
 * functions, names and sites they lead to are spread over memory, a cache
 * miss each when one program or site has many. So the loops ask for them
 * ahead, in the order they will need them: the site (for a site entry) and
 * the function with its name slot PREFETCH_AHEAD entries before they are
 * read, then (2/3 of the way, once the function is in the cache) the
 * function of the site, and (1/3) the function's name, so that the misses of
 * many entries overlap.
 */
#define PREFETCH_AHEAD 96

static void prefetch_function(const struct bk_object *obj, const struct names *names, uint32_t f)
{
	__builtin_prefetch(&obj->functions[f]);
	__builtin_prefetch(&names->name_offset[f]);
}

static void prefetch_name(const struct bk_object *obj, const struct names *names, uint32_t f)
{
	if (!names->name_offset[f])
		__builtin_prefetch(obj->functions[f].name);
}

int bk_format_build(const struct bk_object *obj, uint8_t **out, size_t *out_size)
{
	struct names names = { .unique = obj->function_names_unique };
	struct bpfkeys_header hdr = { 0 };
	struct bpfkeys_key *keys = NULL;
	struct bpfkeys_instance *insts = NULL;
	struct bpfkeys_site *sites = NULL;
	struct bpfkeys_reference *refs = NULL;
	struct bpfkeys_reference_insn *ref_insns = NULL;
	/* version 3 only when a program refers to a key: else byte for byte version 2 */
	bool v3 = obj->reference_count > 0;
	size_t key_count = 0, *key_index = bk_xcalloc(obj->key_count, sizeof(size_t));
	const uint32_t *inst_sites = obj->instance_sites;
	const struct bk_site *obj_sites = obj->sites;
	uint8_t *buf = NULL;
	size_t name_bytes;
	uint64_t total;
	int err = -1;

	names.st.fixed = true; /* nothing to free until initialized */
	/* only static keys: other maps in .maps are ordinary maps */
	for (size_t i = 0; i < obj->key_count; i++)
		if (obj->keys[i].is_static_key)
			key_index[i] = key_count++;
	if (key_count > UINT32_MAX || obj->instance_count > UINT32_MAX ||
	    obj->instance_site_count > UINT32_MAX / sizeof(struct bpfkeys_site) ||
	    obj->reference_load_count > UINT32_MAX / sizeof(struct bpfkeys_reference_insn)) {
		bk_error(obj, "too many keys, instances, sites or references for format version %d",
			 v3 ? BPFKEYS_FORMAT_VERSION_REFERENCES : BPFKEYS_FORMAT_VERSION);
		goto out;
	}
	if (string_bytes(obj, &name_bytes))
		goto out;
	/*
	 * The section's layout, all but the strings' size known now. Entry sizes,
	 * and so the offsets, are multiples of 4, the entries' alignment. Each
	 * table is written where it goes, not built apart and copied.
	 */
	hdr.magic = BPFKEYS_MAGIC;
	hdr.version = v3 ? BPFKEYS_FORMAT_VERSION_REFERENCES : BPFKEYS_FORMAT_VERSION;
	hdr.header_size = v3 ? BPFKEYS_HEADER_SIZE_V3 : BPFKEYS_HEADER_SIZE_V2;
	hdr.key_size = sizeof(*keys);
	hdr.instance_size = sizeof(*insts);
	hdr.site_size = sizeof(*sites);
	hdr.key_count = (uint32_t)key_count;
	hdr.instance_count = (uint32_t)obj->instance_count;
	hdr.site_count = (uint32_t)obj->instance_site_count;
	hdr.key_offset = hdr.header_size;
	total = hdr.key_offset + (uint64_t)key_count * sizeof(*keys);
	hdr.instance_offset = (uint32_t)total;
	total += (uint64_t)obj->instance_count * sizeof(*insts);
	hdr.site_offset = (uint32_t)total;
	total += (uint64_t)obj->instance_site_count * sizeof(*sites);
	if (v3) {
		hdr.reference_size = sizeof(*refs);
		hdr.reference_insn_size = sizeof(*ref_insns);
		hdr.reference_count = (uint32_t)obj->reference_count;
		hdr.reference_insn_count = (uint32_t)obj->reference_load_count;
		hdr.reference_offset = (uint32_t)total;
		total += (uint64_t)obj->reference_count * sizeof(*refs);
		hdr.reference_insn_offset = (uint32_t)total;
		total += (uint64_t)obj->reference_load_count * sizeof(*ref_insns);
	}
	hdr.string_offset = (uint32_t)total;
	if (total > UINT32_MAX) { /* the tables alone */
		bk_error(obj, "section '%s' would exceed 4 GiB", BPFKEYS_SECTION);
		goto out;
	}
	/* every byte up to the strings' end is written */
	buf = bk_populated(bk_xmalloc(total + name_bytes, 1), total + name_bytes, 1);
	keys = (struct bpfkeys_key *)(buf + hdr.key_offset);
	insts = (struct bpfkeys_instance *)(buf + hdr.instance_offset);
	sites = (struct bpfkeys_site *)(buf + hdr.site_offset);
	refs = (struct bpfkeys_reference *)(buf + hdr.reference_offset);
	ref_insns = (struct bpfkeys_reference_insn *)(buf + hdr.reference_insn_offset);
	if (elfobj_strtab_init_in(&names.st, (char *)buf + total, name_bytes))
		bk_bail(-E2BIG);
	names.name_offset = bk_populated(bk_xcalloc(obj->function_count + 1, sizeof(uint32_t)),
					 obj->function_count, sizeof(uint32_t));
	names.section_name = bk_xcalloc(obj->section_count, sizeof(uint32_t));
	/* slots for the names that are looked up: the table never rehashes */
	if (elfobj_strtab_reserve(&names.st,
				  (names.unique ? 0 : obj->function_count) + obj->key_count +
					  obj->section_count,
				  0))
		bk_bail(-E2BIG);
	for (size_t i = 0; i < obj->key_count; i++) {
		const struct bk_key *key = &obj->keys[i];
		struct bpfkeys_key *out_key;

		if (!key->is_static_key)
			continue;
		out_key = &keys[key_index[i]];
		out_key->name = strtab_add(&names.st, key->name);
		out_key->flags = (key->map_extra & BPF_F_STATIC_KEY_ON ? BPFKEYS_KEY_ON : 0) |
				 (key->reference_count ? BPFKEYS_KEY_REFERRED : 0);
		out_key->first_instance = 0;
		out_key->instance_count = 0;
	}
	for (size_t i = 0; i < obj->instance_count; i++) {
		const struct bk_key_program *inst = &obj->instances[i];
		struct bpfkeys_key *out_key = &keys[key_index[inst->key]];

		if (i + PREFETCH_AHEAD < obj->instance_count)
			prefetch_function(obj, &names, obj->instances[i + PREFETCH_AHEAD].program);
		if (i + PREFETCH_AHEAD / 3 < obj->instance_count)
			prefetch_name(obj, &names, obj->instances[i + PREFETCH_AHEAD / 3].program);
		if (!out_key->instance_count)
			out_key->first_instance = (uint32_t)i;
		out_key->instance_count++;
		insts[i].key = (uint32_t)key_index[inst->key];
		add_function_names(&names, obj, inst->program);
		insts[i].program = names.name_offset[inst->program];
		insts[i].program_section =
			names.section_name[obj->functions[inst->program].section];
		insts[i].flags = out_key->flags & BPFKEYS_KEY_ON;
		insts[i].first_site = inst->first;
		insts[i].site_count = inst->count;
		for (size_t s = inst->first; s < inst->first + inst->count; s++) {
			const struct bk_site *site = &obj_sites[inst_sites[s]];
			const struct bk_function *fn = &obj->functions[site->function];

			if (s + PREFETCH_AHEAD < obj->instance_site_count)
				__builtin_prefetch(&obj_sites[inst_sites[s + PREFETCH_AHEAD]]);
			if (s + PREFETCH_AHEAD * 2 / 3 < obj->instance_site_count)
				prefetch_function(
					obj, &names,
					obj_sites[inst_sites[s + PREFETCH_AHEAD * 2 / 3]].function);
			if (s + PREFETCH_AHEAD / 3 < obj->instance_site_count)
				prefetch_name(
					obj, &names,
					obj_sites[inst_sites[s + PREFETCH_AHEAD / 3]].function);
			add_function_names(&names, obj, site->function);
			sites[s].function = names.name_offset[site->function];
			sites[s].section = names.section_name[fn->section];
			sites[s].function_start = (uint32_t)fn->start;
			sites[s].insn = (uint32_t)(site->insn - fn->start);
			sites[s].flags = (site->jump_when_off ? BPFKEYS_SITE_JUMP_WHEN_OFF : 0) |
					 (site->wide ? BPFKEYS_SITE_WIDE : 0);
		}
	}

	for (size_t i = 0; i < obj->reference_count; i++) {
		const struct bk_key_program *ref = &obj->references[i];

		refs[i].key = (uint32_t)key_index[ref->key];
		add_function_names(&names, obj, ref->program);
		refs[i].program = names.name_offset[ref->program];
		refs[i].program_section = names.section_name[obj->functions[ref->program].section];
		refs[i].first_insn = ref->first;
		refs[i].insn_count = ref->count;
		for (size_t l = ref->first; l < ref->first + ref->count; l++) {
			const struct bk_key_load *load = &obj->key_loads[obj->reference_loads[l]];
			const struct bk_function *fn = &obj->functions[load->function];

			add_function_names(&names, obj, load->function);
			ref_insns[l].function = names.name_offset[load->function];
			ref_insns[l].section = names.section_name[fn->section];
			ref_insns[l].function_start = (uint32_t)fn->start;
			ref_insns[l].insn = (uint32_t)(load->insn - fn->start);
		}
	}

	hdr.string_size = (uint32_t)names.st.size;
	total += names.st.size;
	if (total > UINT32_MAX) {
		bk_error(obj, "section '%s' would exceed 4 GiB", BPFKEYS_SECTION);
		goto out;
	}
	memcpy(buf, &hdr, hdr.header_size);
	*out = bk_xrealloc(buf, total, 1); /* less than reserved, unless names repeat */
	*out_size = total;
	buf = NULL;
	err = 0;
out:
	free(buf);
	elfobj_strtab_free(&names.st);
	free(names.name_offset);
	free(names.section_name);
	free(key_index);
	return err;
}

_Static_assert(sizeof(struct bpfkeys_header) == BPFKEYS_HEADER_SIZE_V3 &&
		       offsetof(struct bpfkeys_header, reference_size) == BPFKEYS_HEADER_SIZE_V2,
	       "a version-2 header is the first 48 bytes of a version-3 one");

static bool table_ok(uint64_t size, uint32_t offset, uint32_t count, uint16_t entry, uint16_t min)
{
	return entry >= min && offset <= size && (uint64_t)count * entry <= size - offset;
}

/* Copies the known prefix of each entry; strings are checked to be in the table. */
int bk_format_parse(const struct bk_object *obj, const uint8_t *data, size_t size,
		    struct bk_format_view *view)
{
	struct bpfkeys_header hdr = { 0 };
	const char *what = NULL;

	memset(view, 0, sizeof(*view));
	if (size < BPFKEYS_HEADER_SIZE_V2) {
		bk_error(obj, "section '%s': truncated header", BPFKEYS_SECTION);
		return -1;
	}
	memcpy(&hdr, data, size < sizeof(hdr) ? size : sizeof(hdr));
	if (hdr.magic != BPFKEYS_MAGIC) {
		bk_error(obj, "section '%s': bad magic 0x%08x", BPFKEYS_SECTION, hdr.magic);
		return -1;
	}
	if (hdr.version == BPFKEYS_FORMAT_VERSION_OLD_ABI) {
		bk_error(obj,
			 "section '%s': format version %u is the old static-key ABI "
			 "(BPF_MAP_TYPE_INSN_SET); resolve the object again with the current "
			 "bpfkeys",
			 BPFKEYS_SECTION, hdr.version);
		return -1;
	}
	if (hdr.version != BPFKEYS_FORMAT_VERSION &&
	    hdr.version != BPFKEYS_FORMAT_VERSION_REFERENCES) {
		bk_error(obj,
			 "section '%s': format version %u, this bpfkeys reads versions %d and %d",
			 BPFKEYS_SECTION, hdr.version, BPFKEYS_FORMAT_VERSION,
			 BPFKEYS_FORMAT_VERSION_REFERENCES);
		return -1;
	}
	if (hdr.header_size > size ||
	    hdr.header_size < (hdr.version == BPFKEYS_FORMAT_VERSION ? BPFKEYS_HEADER_SIZE_V2
								     : BPFKEYS_HEADER_SIZE_V3))
		what = "header size";
	else if (!table_ok(size, hdr.key_offset, hdr.key_count, hdr.key_size,
			   sizeof(struct bpfkeys_key)))
		what = "key table";
	else if (!table_ok(size, hdr.instance_offset, hdr.instance_count, hdr.instance_size,
			   sizeof(struct bpfkeys_instance)))
		what = "instance table";
	else if (!table_ok(size, hdr.site_offset, hdr.site_count, hdr.site_size,
			   sizeof(struct bpfkeys_site)))
		what = "site table";
	else if (hdr.version == BPFKEYS_FORMAT_VERSION_REFERENCES &&
		 (!table_ok(size, hdr.reference_offset, hdr.reference_count, hdr.reference_size,
			    sizeof(struct bpfkeys_reference)) ||
		  !table_ok(size, hdr.reference_insn_offset, hdr.reference_insn_count,
			    hdr.reference_insn_size, sizeof(struct bpfkeys_reference_insn))))
		what = "reference table";
	else if (!table_ok(size, hdr.string_offset, hdr.string_size, 1, 1) ||
		 hdr.string_size == 0 || data[hdr.string_offset + hdr.string_size - 1] != '\0')
		what = "string table";
	if (what) {
		bk_error(obj, "section '%s': bad %s", BPFKEYS_SECTION, what);
		return -1;
	}
	view->strings = (const char *)data + hdr.string_offset;
	view->string_size = hdr.string_size;
	view->key_count = hdr.key_count;
	view->instance_count = hdr.instance_count;
	view->site_count = hdr.site_count;
	view->version = hdr.version;
	if (hdr.version == BPFKEYS_FORMAT_VERSION) /* a version-2 header ends before them */
		hdr.reference_count = hdr.reference_insn_count = 0;
	view->reference_count = hdr.reference_count;
	view->reference_insn_count = hdr.reference_insn_count;
	view->references = bk_xcalloc(hdr.reference_count, sizeof(*view->references));
	view->reference_insns =
		bk_xcalloc(hdr.reference_insn_count, sizeof(*view->reference_insns));
	view->keys = bk_xcalloc(hdr.key_count, sizeof(*view->keys));
	view->instances = bk_xcalloc(hdr.instance_count, sizeof(*view->instances));
	view->sites = bk_xcalloc(hdr.site_count, sizeof(*view->sites));
	for (uint32_t i = 0; i < hdr.key_count; i++) {
		struct bpfkeys_key *k = &view->keys[i];

		memcpy(k, data + hdr.key_offset + (uint64_t)i * hdr.key_size, sizeof(*k));
		if (k->name >= hdr.string_size || k->first_instance > hdr.instance_count ||
		    k->instance_count > hdr.instance_count - k->first_instance) {
			what = "key entry";
			break;
		}
	}
	for (uint32_t i = 0; !what && i < hdr.instance_count; i++) {
		struct bpfkeys_instance *in = &view->instances[i];

		memcpy(in, data + hdr.instance_offset + (uint64_t)i * hdr.instance_size,
		       sizeof(*in));
		if (in->key >= hdr.key_count || in->program >= hdr.string_size ||
		    in->program_section >= hdr.string_size || in->first_site > hdr.site_count ||
		    in->site_count > hdr.site_count - in->first_site)
			what = "instance entry";
	}
	for (uint32_t i = 0; !what && i < hdr.site_count; i++) {
		struct bpfkeys_site *s = &view->sites[i];

		memcpy(s, data + hdr.site_offset + (uint64_t)i * hdr.site_size, sizeof(*s));
		if (s->function >= hdr.string_size || s->section >= hdr.string_size)
			what = "site entry";
	}
	for (uint32_t i = 0; !what && i < hdr.reference_count; i++) {
		struct bpfkeys_reference *r = &view->references[i];

		memcpy(r, data + hdr.reference_offset + (uint64_t)i * hdr.reference_size,
		       sizeof(*r));
		if (r->key >= hdr.key_count || r->program >= hdr.string_size ||
		    r->program_section >= hdr.string_size ||
		    r->first_insn > hdr.reference_insn_count ||
		    r->insn_count > hdr.reference_insn_count - r->first_insn)
			what = "reference entry";
	}
	for (uint32_t i = 0; !what && i < hdr.reference_insn_count; i++) {
		struct bpfkeys_reference_insn *ri = &view->reference_insns[i];

		memcpy(ri, data + hdr.reference_insn_offset + (uint64_t)i * hdr.reference_insn_size,
		       sizeof(*ri));
		if (ri->function >= hdr.string_size || ri->section >= hdr.string_size)
			what = "reference instruction entry";
	}
	if (what) {
		bk_error(obj, "section '%s': bad %s", BPFKEYS_SECTION, what);
		bk_format_view_free(view);
		return -1;
	}
	return 0;
}

void bk_format_view_free(struct bk_format_view *view)
{
	free(view->keys);
	free(view->instances);
	free(view->sites);
	free(view->references);
	free(view->reference_insns);
	memset(view, 0, sizeof(*view));
}
