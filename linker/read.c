// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Reading one input object. elfobj (shared with bpfkeys) validates the ELF
 * structure: indices in range, sizes consistent, symbols and relocations
 * inside their sections, .BTF and .BTF.ext. Here the linker's view is built
 * on it: which sections are copied, ephemeral BTF-only sections.
 */
#include <stdlib.h>
#include <string.h>
#include "bpfld.h"

static bool is_dwarf_section_name(const char *name)
{
	return strncmp(name, ".debug_", sizeof(".debug_") - 1) == 0;
}

/* Sections that are not copied to the output, as in libbpf. */
static bool is_ignored_section(const struct input_section *sec)
{
	const char *name = sec->name;

	if (sec->shdr->sh_type == SHT_STRTAB || sec->shdr->sh_type == ELFOBJ_SHT_LLVM_ADDRSIG)
		return true;
	/* a file without subprograms has an empty .text */
	if (sec->shdr->sh_type == SHT_PROGBITS && sec->shdr->sh_size == 0 &&
	    strcmp(name, ".text") == 0)
		return true;
	if (is_dwarf_section_name(name))
		return true;
	if (strncmp(name, ".rel", 4) == 0) {
		name += 4;
		if (is_dwarf_section_name(name) || strcmp(name, BTF_SECTION) == 0 ||
		    strcmp(name, BTF_EXT_SECTION) == 0)
			return true;
	}
	return false;
}

const char *input_symbol_name(const struct input_object *obj, const Elf64_Sym *sym)
{
	/* elfobj checked st_name and that the string table ends with a NUL */
	return (const char *)obj->file.sections[obj->file.strtab].data + sym->st_name;
}

struct input_section *input_section_by_name(struct input_object *obj, const char *name)
{
	size_t index;

	return name_index_get(&obj->section_names, name, &index) ? &obj->sections[index] : NULL;
}

/* The first section of a name is the one input_section_by_name() finds. */
static int index_section_name(struct input_object *obj, size_t index)
{
	bool added;
	size_t *slot = name_index_slot(&obj->section_names, obj->sections[index].name, &added);

	if (!slot)
		return -1;
	if (added)
		*slot = index;
	return 0;
}

static int add_input_section(struct input_object *obj, size_t *capacity, const char *name)
{
	if (grow_array((void **)&obj->sections, capacity, obj->section_count + 1,
		       sizeof(*obj->sections)))
		return -1;
	obj->sections[obj->section_count].name = name;
	return index_section_name(obj, obj->section_count++);
}

/*
 * DATASECs such as .kconfig and .ksyms exist only in BTF: give them an
 * ephemeral input section so that their externs have a section to live in.
 * .extern (unannotated externs) deliberately gets none, as in libbpf.
 */
static int add_ephemeral_sections(struct input_object *obj, size_t *capacity)
{
	uint32_t id, count;

	if (!obj->btf)
		return 0;
	count = btf__type_cnt(obj->btf);
	for (id = 1; id < count; id++) {
		const struct btf_type *t = btf__type_by_id(obj->btf, id);
		struct input_section *sec;
		const char *name;

		if (!btf_is_datasec(t))
			continue;
		name = btf__name_by_offset(obj->btf, t->name_off);
		sec = input_section_by_name(obj, name);
		if (!sec) {
			if (strcmp(name, BTF_EXTERN_DATASEC) == 0)
				continue;
			if (add_input_section(obj, capacity, name))
				return -1;
			sec = &obj->sections[obj->section_count - 1];
			sec->ephemeral = true;
		}
		sec->datasec_type_id = id;
	}
	return 0;
}

/* The linker's view of the sections elfobj checked, .BTF and .BTF.ext parsed. */
static int read_sections(struct input_object *obj)
{
	size_t shnum = obj->file.section_count, capacity = 0, i;

	if (grow_array((void **)&obj->sections, &capacity, shnum, sizeof(*obj->sections)))
		return -1;
	obj->section_count = shnum;
	for (i = 1; i < shnum; i++) {
		struct input_section *sec = &obj->sections[i];
		Elf_Scn *scn = elf_getscn(obj->file.elf, i);

		sec->elf_index = i;
		sec->name = obj->file.sections[i].name;
		if (index_section_name(obj, i))
			return -1;
		sec->shdr = scn ? elf64_getshdr(scn) : NULL;
		sec->data = sec->shdr ? elf_getdata(scn, NULL) : NULL;
		if (!sec->data)
			return elfobj_error(obj->path, sec->name, "cannot read data: %s",
					    elf_errmsg(-1));
		if (sec->shdr->sh_size != sec->data->d_size)
			return elfobj_error(obj->path, sec->name, "inconsistent section size");
		sec->skipped = is_ignored_section(sec);
		/* 8-byte aligned tables: elfobj copies misaligned ones */
		sec->table = sec->shdr->sh_type == SHT_SYMTAB ? (void *)obj->file.symbols
							      : (void *)obj->file.sections[i].data;
	}

	for (i = 1; i < shnum; i++) {
		struct input_section *sec = &obj->sections[i];

		if (sec->shdr->sh_type != SHT_PROGBITS)
			continue;
		if (strcmp(sec->name, BPFKEYS_SECTION) == 0)
			return elfobj_error(obj->path, sec->name,
					    "this object was already resolved by bpfkeys (its site "
					    "indices would not match the merged code): link the "
					    "raw objects, then run bpfkeys resolve on the result");
		/* elfobj parsed and checked them */
		if (strcmp(sec->name, BTF_SECTION) == 0 || strcmp(sec->name, BTF_EXT_SECTION) == 0)
			sec->skipped = true;
	}
	if (elfobj_read_static_keys(&obj->file, &obj->static_branches, &obj->static_branch_count))
		return -1;
	obj->btf = obj->file.btf;
	obj->has_btf_ext = obj->file.has_btf_ext;
	memcpy(obj->btf_ext, obj->file.btf_ext, sizeof(obj->btf_ext));
	obj->symbols = obj->file.symbols;
	obj->symbol_count = obj->file.symbol_count;
	return add_ephemeral_sections(obj, &capacity);
}

/* The linker's view of what elfobj read (err: elfobj's result). */
static int adopt(struct input_object *obj, int err)
{
	if (err)
		return -1;
	return read_sections(obj);
}

static void start(struct input_object *obj, const char *path)
{
	memset(obj, 0, sizeof(*obj));
	obj->path = path;
}

/* Takes ownership of `image`. */
int input_object_parse(struct input_object *obj, const char *path, char *image, size_t size)
{
	start(obj, path);
	return adopt(obj, elfobj_parse(&obj->file, path, (uint8_t *)image, size));
}

int input_object_open(struct input_object *obj, const char *path)
{
	int err;

	start(obj, path);
	err = elfobj_open(&obj->file, path);
	obj->path = obj->file.path ? obj->file.path : path; /* "-" is "<stdin>" */
	return adopt(obj, err);
}

void input_object_close(struct input_object *obj)
{
	free(obj->sections);
	name_index_free(&obj->section_names);
	name_index_free(&obj->object_symbols);
	free(obj->next_object_symbol);
	free(obj->static_branches);
	free(obj->symbol_map);
	free(obj->btf_type_map);
	elfobj_close(&obj->file);
	memset(obj, 0, sizeof(*obj));
}
