// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Section merging: input sections are appended to the output section of the
 * same name at their alignment, and relocations follow them. A relocation
 * against a section symbol carries a section-relative in-place value (an
 * instruction imm, a .static_keys offset, a pointer in .data): it is rebased
 * by where the referenced input section landed in its output section.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include "bpfld.h"

struct output_section *output_section_by_name(struct linker *linker, const char *name)
{
	size_t id;

	return name_index_get(&linker->section_names, name, &id) ? &linker->sections[id] : NULL;
}

/* A new output section (the name is not one yet). */
struct output_section *output_section_add(struct linker *linker, const char *name)
{
	struct output_section *sec;
	char *copy = strdup(name);
	size_t *id;
	bool added;

	if (!copy) {
		elfobj_error(NULL, NULL, "out of memory");
		return NULL;
	}
	if (grow_array((void **)&linker->sections, &linker->section_capacity,
		       linker->section_count + 1, sizeof(*sec)) ||
	    !(id = name_index_slot(&linker->section_names, copy, &added))) {
		free(copy);
		return NULL;
	}
	sec = &linker->sections[linker->section_count];
	memset(sec, 0, sizeof(*sec));
	sec->name = copy;
	sec->id = linker->section_count++;
	*id = sec->id;
	return sec;
}

static void init_from_input(struct output_section *dst, const struct input_section *src)
{
	dst->ephemeral = src->ephemeral;
	if (src->ephemeral)
		return;
	dst->type = src->shdr->sh_type;
	dst->flags = src->shdr->sh_flags;
	dst->entsize = src->shdr->sh_entsize;
	dst->align = src->shdr->sh_addralign;
}

static int append_section(struct output_section *dst, struct input_section *src)
{
	uint64_t align, offset;

	if (src->ephemeral)
		return 0;
	/* .maps may start ephemeral (only extern maps) and gain definitions later */
	if (dst->ephemeral)
		init_from_input(dst, src);
	align = dst->align > src->shdr->sh_addralign ? dst->align : src->shdr->sh_addralign;
	if (!align)
		align = 1;
	offset = (dst->size + align - 1) / align * align;
	if (src->shdr->sh_type != SHT_NOBITS && src->shdr->sh_size) {
		if (grow_array((void **)&dst->data, &dst->capacity, offset + src->shdr->sh_size, 1))
			return -1;
		memset(dst->data + dst->size, 0, offset - dst->size);
		memcpy(dst->data + offset, src->data->d_buf, src->shdr->sh_size);
	}
	dst->size = offset + src->shdr->sh_size;
	dst->align = align;
	src->output_offset = offset;
	return 0;
}

static bool is_data_section(const struct input_section *sec)
{
	if (sec->skipped)
		return false;
	if (sec->ephemeral)
		return true;
	return sec->shdr->sh_type == SHT_PROGBITS || sec->shdr->sh_type == SHT_NOBITS;
}

int merge_section_data(struct linker *linker, struct input_object *obj)
{
	size_t i;

	for (i = 1; i < obj->section_count; i++) {
		struct input_section *src = &obj->sections[i];
		struct output_section *dst;

		if (!is_data_section(src))
			continue;
		dst = output_section_by_name(linker, src->name);
		if (!dst) {
			dst = output_section_add(linker, src->name);
			if (!dst)
				return -1;
			init_from_input(dst, src);
		} else if (!dst->ephemeral && !src->ephemeral) {
			if (dst->type != src->shdr->sh_type)
				return elfobj_error(
					obj->path, src->name,
					"section type %#x differs from earlier objects (%#x)",
					src->shdr->sh_type, dst->type);
			if (dst->flags != src->shdr->sh_flags)
				return elfobj_error(
					obj->path, src->name,
					"section flags %#llx differ from earlier objects (%#llx)",
					(unsigned long long)src->shdr->sh_flags,
					(unsigned long long)dst->flags);
			if (dst->entsize != src->shdr->sh_entsize)
				return elfobj_error(
					obj->path, src->name,
					"section entry size differs from earlier objects");
			/* license and version must agree and appear once */
			if (strcmp(src->name, "license") == 0 ||
			    strcmp(src->name, "version") == 0) {
				if (dst->size != src->shdr->sh_size ||
				    (dst->size && memcmp(dst->data, src->data->d_buf, dst->size)))
					return elfobj_error(obj->path, src->name,
							    "contents differ from earlier objects");
				src->skipped = true;
				src->output_id = dst->id;
				continue;
			}
		}
		src->output_id = dst->id;
		if (append_section(dst, src))
			return -1;
	}
	return 0;
}

/* ---- relocations ---- */

static uint32_t read_u32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}
static uint64_t read_u64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}
static void write_u32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}
static void write_u64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* Adds `delta` bytes to the in-place value of a relocation against a section symbol. */
static int rebase_in_place_value(struct input_object *obj, const char *rel_name,
				 struct output_section *dst, uint64_t offset, uint32_t type,
				 uint64_t delta)
{
	uint8_t *p = dst->data + offset;
	int64_t imm;

	if (!delta)
		return 0;
	switch (type) {
	case ELFOBJ_R_BPF_64_64:
	case ELFOBJ_R_BPF_64_32: {
		struct bpf_insn insn;

		memcpy(&insn, p, sizeof(insn));
		/* calls count instructions, everything else counts bytes */
		if (type == ELFOBJ_R_BPF_64_32 && insn.code == (BPF_JMP | BPF_CALL))
			imm = (int64_t)insn.imm + (int64_t)(delta / ELFOBJ_INSN_SIZE);
		else
			imm = (int64_t)insn.imm + (int64_t)delta;
		if (imm > INT32_MAX || imm < INT32_MIN)
			return elfobj_error(
				obj->path, rel_name,
				"rebased instruction immediate at %#llx overflows 32 bits",
				(unsigned long long)offset);
		insn.imm = (int32_t)imm;
		memcpy(p, &insn, sizeof(insn));
		return 0;
	}
	case ELFOBJ_R_BPF_64_ABS64:
		write_u64(p, read_u64(p) + delta);
		return 0;
	case ELFOBJ_R_BPF_64_ABS32:
	case ELFOBJ_R_BPF_64_NODYLD32:
		if (read_u32(p) + delta > UINT32_MAX)
			return elfobj_error(obj->path, rel_name,
					    "rebased 32-bit value at %#llx overflows",
					    (unsigned long long)offset);
		write_u32(p, read_u32(p) + (uint32_t)delta);
		return 0;
	}
	return elfobj_error(obj->path, rel_name, "unexpected relocation type %u", type);
}

bool is_jump_table_symbol(const struct input_object *obj, const Elf64_Sym *sym)
{
	const char *name;

	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= obj->section_count ||
	    ELF64_ST_TYPE(sym->st_info) == STT_SECTION)
		return false;
	if (strcmp(obj->sections[sym->st_shndx].name, JUMP_TABLES_SECTION))
		return false;
	name = input_symbol_name(obj, sym);
	return strncmp(name, JUMP_TABLE_SYMBOL_PREFIX, sizeof(JUMP_TABLE_SYMBOL_PREFIX) - 1) == 0;
}

/*
 * .static_keys (docs/abi.md section 2): elfobj has checked every entry
 * against the code; here each key must be a map in .maps, or declared here
 * and defined by a later input (checked once all inputs are read).
 */
static int check_static_keys(struct linker *linker, struct input_object *obj,
			     const struct input_section *keys)
{
	size_t i;

	for (i = 0; i < obj->static_branch_count; i++) {
		const struct elfobj_static_branch *branch = &obj->static_branches[i];
		size_t out_index = obj->symbol_map[branch->key_symbol];
		int section_id = out_index ? linker->symbols[out_index].section_id : 0;
		struct global_symbol *glob = global_symbol_by_index(linker, out_index);

		/* a declared key may be defined by a later input: checked at the end */
		if (glob && glob->is_extern) {
			if (!glob->static_key_user)
				glob->static_key_user = obj->path;
			continue;
		}
		if (!section_id || strcmp(linker->sections[section_id].name, ELFOBJ_MAPS_SECTION))
			return elfobj_error(
				obj->path, keys->name,
				"entry %zu (offset 0x%zx): key '%s' is not a map in .maps",
				(size_t)branch->entry,
				(size_t)branch->entry * ELFOBJ_STATIC_KEY_ENTRY_SIZE,
				obj->file.symbol_names[branch->key_symbol]);
	}
	return 0;
}

/*
 * .jumptables (clang-22 with gotox): each BPF.JT.* table holds 8-byte byte
 * offsets into the code section whose ld_imm64 loads the table, with no
 * relocations of their own. Rebase them by where that code section landed.
 */
static int rebase_jump_tables(struct linker *linker, struct input_object *obj,
			      const size_t *jump_table_owner)
{
	size_t i;

	for (i = 1; i < obj->symbol_count; i++) {
		const Elf64_Sym *sym = &obj->symbols[i];
		const struct input_section *table_sec, *code;
		struct output_section *dst;
		uint64_t entry;
		const char *name;

		if (!is_jump_table_symbol(obj, sym))
			continue;
		name = input_symbol_name(obj, sym);
		table_sec = &obj->sections[sym->st_shndx];
		if (!jump_table_owner[i])
			return elfobj_error(obj->path, JUMP_TABLES_SECTION,
					    "jump table '%s' is not loaded by any instruction, so "
					    "its code section is unknown",
					    name);
		if (sym->st_size % 8 || sym->st_value % 8)
			return elfobj_error(obj->path, JUMP_TABLES_SECTION,
					    "jump table '%s' is not an array of 8-byte entries",
					    name);
		code = &obj->sections[jump_table_owner[i]];
		dst = &linker->sections[table_sec->output_id];
		for (entry = 0; entry < sym->st_size / 8; entry++) {
			uint8_t *p =
				dst->data + table_sec->output_offset + sym->st_value + entry * 8;
			uint64_t target = read_u64(p);

			if (target % ELFOBJ_INSN_SIZE || target >= code->shdr->sh_size)
				return elfobj_error(
					obj->path, JUMP_TABLES_SECTION,
					"jump table '%s' entry %llu (%#llx) is outside '%s'", name,
					(unsigned long long)entry, (unsigned long long)target,
					code->name);
			write_u64(p, target + code->output_offset);
		}
	}
	return 0;
}

int merge_relocations(struct linker *linker, struct input_object *obj)
{
	size_t *jump_table_owner = calloc(obj->symbol_count + 1, sizeof(*jump_table_owner));
	size_t i;
	int err = -1;

	if (!jump_table_owner)
		return elfobj_error(obj->path, NULL, "out of memory");
	for (i = 1; i < obj->section_count; i++) {
		struct input_section *rel_sec = &obj->sections[i], *target;
		struct output_section *dst;
		const Elf64_Rel *rel;
		size_t j, count;

		if (rel_sec->skipped || rel_sec->ephemeral || rel_sec->shdr->sh_type != SHT_REL)
			continue;
		target = &obj->sections[rel_sec->shdr->sh_info];
		if (target->skipped)
			continue;
		if (strcmp(target->name, ELFOBJ_STATIC_KEYS_SECTION) == 0 &&
		    check_static_keys(linker, obj, target))
			goto out;
		dst = &linker->sections[target->output_id];
		count = rel_sec->shdr->sh_size / sizeof(Elf64_Rel);
		if (grow_array((void **)&dst->relocations, &dst->relocation_capacity,
			       dst->relocation_count + count, sizeof(*dst->relocations)))
			goto out;
		rel = rel_sec->table;
		for (j = 0; j < count; j++, rel++) {
			size_t sym_index = ELF64_R_SYM(rel->r_info);
			uint32_t type = ELF64_R_TYPE(rel->r_info);
			const Elf64_Sym *sym = &obj->symbols[sym_index];
			size_t out_sym = obj->symbol_map[sym_index];
			uint64_t offset = rel->r_offset + target->output_offset;
			Elf64_Rel *out_rel;

			if (!out_sym) {
				const char *sec_name = sym->st_shndx < obj->section_count
							       ? obj->sections[sym->st_shndx].name
							       : "?";

				elfobj_error(obj->path, rel_sec->name,
					     "relocation #%zu refers to symbol '%s' in discarded "
					     "section '%s'",
					     j, input_symbol_name(obj, sym), sec_name);
				goto out;
			}
			if (ELF64_ST_TYPE(sym->st_info) == STT_SECTION) {
				const struct input_section *referenced =
					&obj->sections[sym->st_shndx];

				if (rebase_in_place_value(obj, rel_sec->name, dst, offset, type,
							  referenced->output_offset))
					goto out;
			}
			if (is_jump_table_symbol(obj, sym) &&
			    (target->shdr->sh_flags & SHF_EXECINSTR)) {
				if (jump_table_owner[sym_index] &&
				    jump_table_owner[sym_index] != target->elf_index) {
					elfobj_error(
						obj->path, rel_sec->name,
						"jump table '%s' is used from two code sections",
						input_symbol_name(obj, sym));
					goto out;
				}
				jump_table_owner[sym_index] = target->elf_index;
			}
			out_rel = &dst->relocations[dst->relocation_count++];
			out_rel->r_offset = offset;
			out_rel->r_info = ELF64_R_INFO(out_sym, type);
		}
	}
	err = rebase_jump_tables(linker, obj, jump_table_owner);
out:
	free(jump_table_owner);
	return err;
}
