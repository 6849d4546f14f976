// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The .bpfkeys section (abi.md section 5, bpfkeys_format.h): built from a
 * resolved model, and parsed back with every offset and index checked.
 */
#include <stdlib.h>
#include <string.h>

#include "bpfkeys.h"
#include "format.h"

/* elfobj_strtab_add(), exiting on its error (reported): out of memory or 4 GiB of names */
static uint32_t strtab_add(struct elfobj_strtab *st, const char *s)
{
	int64_t offset = elfobj_strtab_add(st, s);

	if (offset < 0)
		exit(1);
	return (uint32_t)offset;
}

/*
 * What the entries need of function f: its name (with its length and hash)
 * and section, and the string offsets of both once added (name 0 until then).
 * One compact array, filled in function order: instances and sites name
 * functions in no useful order, and reading obj->functions there was a cache
 * miss each. The names are hashed here, where they are read in the order of
 * the symbols, instead of at each first use, a cache miss into the input's
 * string table each.
 */
struct function_strings {
	const char *name;
	uint64_t hash;
	uint32_t length;
	uint32_t section;
	uint32_t name_offset;
	uint32_t section_offset;
};

/*
 * NULL (reported) if a name is too long for the format's 32-bit offsets. Names
 * known to be unique are not looked up, so not hashed.
 */
static struct function_strings *function_strings_new(const struct bk_object *obj, size_t *bytes)
{
	struct function_strings *strings = bk_xcalloc(obj->function_count + 1, sizeof(*strings));
	bool hash = !obj->function_names_unique;

	*bytes = 0;
	for (size_t f = 0; f < obj->function_count; f++) {
		const char *name = obj->functions[f].name;
		size_t len;
		uint64_t h = 0;

		if (hash)
			h = elfobj_hash_name_length(name, &len);
		else
			len = strlen(name);

		if (len >= UINT32_MAX) {
			bk_error(obj, "function name of %zu bytes", len);
			free(strings);
			return NULL;
		}
		strings[f].name = name;
		strings[f].hash = h;
		strings[f].length = (uint32_t)len;
		strings[f].section = (uint32_t)obj->functions[f].section;
		*bytes += len + 1;
	}
	return strings;
}

/* Adds f's name and its section's, each once. */
static void add_function_names(struct elfobj_strtab *st, const struct bk_object *obj,
			       struct function_strings *fn, uint32_t *section_name)
{
	int64_t offset;

	if (fn->name_offset)
		return;
	offset = obj->function_names_unique
			 ? elfobj_strtab_append_unique(st, fn->name, fn->length)
			 : elfobj_strtab_add_hashed(st, fn->name, fn->length, fn->hash);
	if (offset < 0)
		exit(1);
	fn->name_offset = (uint32_t)offset;
	if (!section_name[fn->section])
		section_name[fn->section] = strtab_add(st, obj->sections[fn->section].name);
	fn->section_offset = section_name[fn->section];
}

/*
 * What a site's entry takes from the model, gathered in site order (the order
 * of the sites and of their functions). The instances list their sites key by
 * key, and reading a site and its function there for each entry was a cache
 * miss per site, most of the build at 1,000 sites per function.
 */
struct site_summary {
	uint32_t function;
	uint32_t function_start;
	uint32_t insn; /* within the function */
	uint32_t flags;
};

static struct site_summary *summarize_sites(const struct bk_object *obj)
{
	struct site_summary *summary = bk_xcalloc(obj->site_count, sizeof(*summary));

	for (size_t s = 0; s < obj->site_count; s++) {
		const struct bk_site *site = &obj->sites[s];
		const struct bk_function *fn = &obj->functions[site->function];

		summary[s].function = site->function;
		summary[s].function_start = (uint32_t)fn->start;
		summary[s].insn = (uint32_t)(site->insn - fn->start);
		summary[s].flags = (site->jump_when_off ? BPFKEYS_SITE_JUMP_WHEN_OFF : 0) |
				   (site->wide ? BPFKEYS_SITE_WIDE : 0);
	}
	return summary;
}

/*
 * Instances come by key, then program name, and their sites by key too: the
 * functions, names and string-table slots they lead to are spread over
 * memory, a cache miss each when one program or site has many. So the loop
 * asks for them ahead, in the order it will need them: the function's
 * strings PREFETCH_AHEAD instances or sites before it reads them, then (2/3
 * of the way) its name, then (1/3) the name's string-table slot, so that the
 * misses of many entries overlap.
 */
#define PREFETCH_AHEAD 96

static void prefetch_name(const struct function_strings *fn)
{
	if (!fn->name_offset)
		__builtin_prefetch(fn->name);
}

static void prefetch_name_slot(const struct elfobj_strtab *st, const struct function_strings *fn,
			       bool unique)
{
	if (!fn->name_offset && !unique)
		elfobj_strtab_prefetch_hashed(st, fn->hash);
}

int bk_format_build(const struct bk_object *obj, uint8_t **out, size_t *out_size)
{
	struct elfobj_strtab st;
	struct bpfkeys_header hdr = { 0 };
	struct bpfkeys_key *keys = NULL;
	struct bpfkeys_instance *insts = NULL;
	struct bpfkeys_site *sites = NULL;
	size_t key_count = 0, *key_index = bk_xcalloc(obj->key_count, sizeof(size_t));
	/* an instance and a site name both, and hashing them again each time was
	 * most of the build */
	struct function_strings *strings = NULL;
	uint32_t *section_name = bk_xcalloc(obj->section_count, sizeof(uint32_t));
	struct site_summary *summary = NULL;
	uint8_t *buf = NULL;
	size_t name_bytes;
	uint64_t total;
	int err = -1;

	if (elfobj_strtab_init(&st))
		exit(1);
	/* only static keys: other maps in .maps are ordinary maps */
	for (size_t i = 0; i < obj->key_count; i++)
		if (obj->keys[i].is_static_key)
			key_index[i] = key_count++;
	if (key_count > UINT32_MAX || obj->instance_count > UINT32_MAX ||
	    obj->instance_site_count > UINT32_MAX / sizeof(struct bpfkeys_site)) {
		bk_error(obj, "too many keys, instances or sites for format version %d",
			 BPFKEYS_FORMAT_VERSION);
		goto out;
	}
	keys = bk_xcalloc(key_count, sizeof(*keys));
	/* The instance and site tables are written where they go in the section,
	 * which grows by the strings at the end, not built apart and copied (a
	 * second pass over 44 bytes per site at one site per function). Entry
	 * sizes, and so the offsets, are multiples of 4, the entries' alignment. */
	buf = bk_xcalloc(sizeof(hdr) + key_count * sizeof(*keys) +
				 obj->instance_count * sizeof(*insts) +
				 obj->instance_site_count * sizeof(*sites),
			 1);
	insts = (struct bpfkeys_instance *)(buf + sizeof(hdr) + key_count * sizeof(*keys));
	sites = (struct bpfkeys_site *)(insts + obj->instance_count);
	summary = summarize_sites(obj);
	strings = function_strings_new(obj, &name_bytes);
	if (!strings)
		goto out;
	/* at most every function, key and section name: the table never grows */
	for (size_t i = 0; i < obj->key_count; i++)
		name_bytes += strlen(obj->keys[i].name) + 1;
	for (size_t i = 0; i < obj->section_count; i++)
		name_bytes += obj->sections[i].name ? strlen(obj->sections[i].name) + 1 : 0;
	if (elfobj_strtab_reserve(&st,
				  (obj->function_names_unique ? 0 : obj->function_count) +
					  obj->key_count + obj->section_count,
				  name_bytes))
		exit(1);
	for (size_t i = 0; i < obj->key_count; i++) {
		const struct bk_key *key = &obj->keys[i];
		struct bpfkeys_key *out_key;

		if (!key->is_static_key)
			continue;
		out_key = &keys[key_index[i]];
		out_key->name = strtab_add(&st, key->name);
		out_key->flags = key->map_extra & BPF_F_STATIC_KEY_ON ? BPFKEYS_KEY_ON : 0;
		out_key->first_instance = 0;
		out_key->instance_count = 0;
	}
	for (size_t i = 0; i < obj->instance_count; i++) {
		const struct bk_instance *inst = &obj->instances[i];
		struct bpfkeys_key *out_key = &keys[key_index[inst->key]];
		struct function_strings *program;

		if (i + PREFETCH_AHEAD < obj->instance_count)
			__builtin_prefetch(&strings[obj->instances[i + PREFETCH_AHEAD].program]);
		if (i + PREFETCH_AHEAD * 2 / 3 < obj->instance_count)
			prefetch_name(&strings[obj->instances[i + PREFETCH_AHEAD * 2 / 3].program]);
		if (i + PREFETCH_AHEAD / 3 < obj->instance_count)
			prefetch_name_slot(&st,
					   &strings[obj->instances[i + PREFETCH_AHEAD / 3].program],
					   obj->function_names_unique);
		if (!out_key->instance_count)
			out_key->first_instance = (uint32_t)i;
		out_key->instance_count++;
		insts[i].key = (uint32_t)key_index[inst->key];
		program = &strings[inst->program];
		add_function_names(&st, obj, program, section_name);
		insts[i].program = program->name_offset;
		insts[i].program_section = program->section_offset;
		insts[i].flags = out_key->flags;
		insts[i].first_site = (uint32_t)inst->first_site;
		insts[i].site_count = (uint32_t)inst->site_count;
		for (size_t s = inst->first_site; s < inst->first_site + inst->site_count; s++) {
			const struct site_summary *site = &summary[obj->instance_sites[s]];
			struct function_strings *fn = &strings[site->function];

			if (s + PREFETCH_AHEAD < obj->instance_site_count)
				__builtin_prefetch(
					&summary[obj->instance_sites[s + PREFETCH_AHEAD]]);
			if (s + PREFETCH_AHEAD / 2 < obj->instance_site_count)
				__builtin_prefetch(
					&strings[summary[obj->instance_sites[s +
									     PREFETCH_AHEAD / 2]]
							 .function]);
			add_function_names(&st, obj, fn, section_name);
			sites[s].function = fn->name_offset;
			sites[s].section = fn->section_offset;
			sites[s].function_start = site->function_start;
			sites[s].insn = site->insn;
			sites[s].flags = site->flags;
		}
	}

	hdr.magic = BPFKEYS_MAGIC;
	hdr.version = BPFKEYS_FORMAT_VERSION;
	hdr.header_size = sizeof(hdr);
	hdr.key_size = sizeof(*keys);
	hdr.instance_size = sizeof(*insts);
	hdr.site_size = sizeof(*sites);
	hdr.key_count = (uint32_t)key_count;
	hdr.instance_count = (uint32_t)obj->instance_count;
	hdr.site_count = (uint32_t)obj->instance_site_count;
	hdr.key_offset = sizeof(hdr);
	total = hdr.key_offset + (uint64_t)key_count * sizeof(*keys);
	hdr.instance_offset = (uint32_t)total;
	total += (uint64_t)obj->instance_count * sizeof(*insts);
	hdr.site_offset = (uint32_t)total;
	total += (uint64_t)obj->instance_site_count * sizeof(*sites);
	hdr.string_offset = (uint32_t)total;
	hdr.string_size = (uint32_t)st.size;
	total += st.size;
	if (total > UINT32_MAX) {
		bk_error(obj, "section '%s' would exceed 4 GiB", BPFKEYS_SECTION);
		goto out;
	}
	buf = bk_xrealloc(buf, total, 1);
	memcpy(buf, &hdr, sizeof(hdr));
	memcpy(buf + hdr.key_offset, keys, key_count * sizeof(*keys));
	memcpy(buf + hdr.string_offset, st.data, st.size);
	*out = buf;
	*out_size = total;
	err = 0;
out:
	if (err)
		free(buf);
	free(keys);
	elfobj_strtab_free(&st);
	free(summary);
	free(strings);
	free(section_name);
	free(key_index);
	return err;
}

static bool table_ok(uint64_t size, uint32_t offset, uint32_t count, uint16_t entry, uint16_t min)
{
	return entry >= min && offset <= size && (uint64_t)count * entry <= size - offset;
}

/* Copies the known prefix of each entry; strings are checked to be in the table. */
int bk_format_parse(const struct bk_object *obj, const uint8_t *data, size_t size,
		    struct bk_format_view *view)
{
	struct bpfkeys_header hdr;
	const char *what = NULL;

	memset(view, 0, sizeof(*view));
	if (size < sizeof(hdr)) {
		bk_error(obj, "section '%s': truncated header", BPFKEYS_SECTION);
		return -1;
	}
	memcpy(&hdr, data, sizeof(hdr));
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
	if (hdr.version != BPFKEYS_FORMAT_VERSION) {
		bk_error(obj, "section '%s': format version %u, this bpfkeys reads version %d",
			 BPFKEYS_SECTION, hdr.version, BPFKEYS_FORMAT_VERSION);
		return -1;
	}
	if (hdr.header_size < sizeof(hdr) || hdr.header_size > size)
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
	memset(view, 0, sizeof(*view));
}
