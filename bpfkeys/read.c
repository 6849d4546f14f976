// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Read phase: elfobj (shared with bpfld) reads and validates the object:
 * section bounds and overlaps, string tables, the symbol table, relocation
 * symbols, types and offsets. Here that view is copied into bpfkeys' own
 * model (relocations sorted by offset per section) and the sections bpfkeys
 * interprets are found. Later phases may then index without checks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfkeys.h"

const char *bk_section_name(const struct bk_object *obj, size_t index)
{
	if (index >= obj->section_count || !obj->sections[index].name)
		return "<none>";
	return obj->sections[index].name;
}

size_t bk_find_section(const struct bk_object *obj, const char *name)
{
	for (size_t i = 1; i < obj->section_count; i++)
		if (strcmp(obj->sections[i].name, name) == 0)
			return i;
	return 0;
}

/* The sections bpfkeys interprets must be unique. */
static int find_unique(struct bk_object *obj, const char *name, size_t *index)
{
	*index = 0;
	for (size_t i = 1; i < obj->section_count; i++) {
		if (strcmp(obj->sections[i].name, name) != 0)
			continue;
		if (*index) {
			bk_error(obj, "two sections named %s ([%zu] and [%zu])", name, *index, i);
			return -1;
		}
		*index = i;
	}
	return 0;
}

/* Relocations at `offset` in `sec`: pointer to the first, *count of them. */
const GElf_Rel *bk_find_rel(const struct bk_section *sec, uint64_t offset, size_t *count)
{
	size_t lo = 0, hi = sec->rel_count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sec->rels[mid].r_offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	*count = 0;
	while (lo + *count < sec->rel_count && sec->rels[lo + *count].r_offset == offset)
		(*count)++;
	return *count ? &sec->rels[lo] : NULL;
}

/* elfobj checked them: each section's relocations, sorted by offset. */
static void read_relocations(struct bk_object *obj)
{
	for (size_t i = 1; i < obj->section_count; i++) {
		struct bk_section *target = &obj->sections[i];

		target->rels = elfobj_sorted_relocations(&obj->file, i, &target->rel_count,
							 &target->rels_copy);
		if (!target->rels && target->rel_count)
			bk_out_of_memory();
	}
}

/* bpfkeys' view of what elfobj read (which it owns: see bk_object_free). */
static int adopt(struct bk_object *obj, int err)
{
	const struct elfobj *file = &obj->file;

	obj->path = file->path;
	if (err)
		return -1;
	obj->section_count = file->section_count;
	obj->sections = bk_xcalloc(obj->section_count, sizeof(*obj->sections));
	for (size_t i = 0; i < obj->section_count; i++) {
		struct bk_section *sec = &obj->sections[i];

		sec->name = file->sections[i].name;
		sec->shdr = file->sections[i].shdr;
		sec->data = (uint8_t *)file->sections[i].data;
		sec->exec =
			sec->shdr.sh_type == SHT_PROGBITS && (sec->shdr.sh_flags & SHF_EXECINSTR);
	}
	obj->symbol_count = file->symbol_count;
	obj->symbols = file->symbols;
	obj->symbol_names = file->symbol_names;
	read_relocations(obj);
	return 0;
}

/* The sections bpfkeys interprets, and the BTF. */
static int find_sections(struct bk_object *obj, int err)
{
	size_t text; /* only checked to be unique */

	if (err)
		return -1;
	if (find_unique(obj, ".text", &text) ||
	    find_unique(obj, ELFOBJ_STATIC_KEYS_SECTION, &obj->static_keys_section) ||
	    find_unique(obj, ELFOBJ_MAPS_SECTION, &obj->maps_section) ||
	    find_unique(obj, ".BTF", &obj->btf_section) ||
	    find_unique(obj, BPFKEYS_SECTION, &obj->instances_section))
		return -1;
	if (obj->static_keys_section) {
		const struct bk_section *sk = &obj->sections[obj->static_keys_section];

		if (sk->shdr.sh_type != SHT_PROGBITS) {
			bk_error(obj, "section '%s': not SHT_PROGBITS", ELFOBJ_STATIC_KEYS_SECTION);
			return -1;
		}
	}
	obj->btf = obj->file.btf; /* parsed and checked by elfobj */
	return 0;
}

/* On failure nothing is left to free, and obj->path still names the file;
 * -ENOMEM if the reader ran out of memory (said). */
static int read_done(struct bk_object *obj, const char *path, int err)
{
	if (err) {
		err = obj->file.out_of_memory ? -ENOMEM : err;
		bk_object_free(obj);
		obj->path = path;
	}
	return err;
}

int bk_object_read_memory(struct bk_object *obj, const char *path, const void *buf, size_t size)
{
	memset(obj, 0, sizeof(*obj));
	return read_done(
		obj, path,
		find_sections(obj, adopt(obj, elfobj_parse_memory(&obj->file, path, buf, size))));
}

int bk_object_read(struct bk_object *obj, const char *path)
{
	memset(obj, 0, sizeof(*obj));
	return read_done(obj, path, find_sections(obj, adopt(obj, elfobj_open(&obj->file, path))));
}

void bk_object_free(struct bk_object *obj)
{
	/* sections may be NULL with a count: an allocation bailed out of adopt() */
	for (size_t i = 0; obj->sections && i < obj->section_count; i++)
		free(obj->sections[i].rels_copy);
	free(obj->sections);
	free(obj->functions);
	free(obj->callees);
	free(obj->keys);
	free(obj->symbol_key);
	free(obj->sites);
	free(obj->instances);
	free(obj->instance_sites);
	free(obj->key_loads);
	free(obj->references);
	free(obj->reference_loads);
	elfobj_close(&obj->file);
	memset(obj, 0, sizeof(*obj));
}
