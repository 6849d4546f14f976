// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Symbol resolution: appends one object's symbols to the output symbol table,
 * resolving globals, weaks and externs against what earlier objects defined.
 * Rules as in libbpf's linker: one strong definition per name, weak loses to
 * strong, externs bind to definitions of a matching BTF type, stricter
 * visibility wins, map definitions must agree exactly.
 */
#include <stdlib.h>
#include <string.h>
#include "bpfld.h"

int output_symbol_add(struct linker *linker, size_t *index)
{
	if (grow_array((void **)&linker->symbols, &linker->symbol_capacity,
		       linker->symbol_count + 1, sizeof(*linker->symbols)))
		return -1;
	*index = linker->symbol_count++;
	memset(&linker->symbols[*index], 0, sizeof(linker->symbols[*index]));
	return 0;
}

/*
 * The VAR/FUNC describing a global symbol and the DATASEC holding it: the
 * first DATASEC variable of its name (in type id order), else the last
 * VAR/FUNC of its name in no DATASEC (extern and global FUNCs, some VARs).
 * A VAR/FUNC of the name before that variable must be that variable's type.
 * Found for every name in one pass over the object's types, not one per symbol.
 */
struct global_btf {
	uint32_t loose_id; /* last non-static VAR/FUNC of the name so far */
	uint32_t datasec_id, btf_id; /* its first DATASEC variable */
	uint32_t ambiguous_id; /* that variable's type, when loose_id differs */
	bool in_datasec;
};

struct global_btf_table {
	struct name_index names; /* name -> entry */
	struct global_btf *entries;
	size_t count, capacity;
};

static struct global_btf *global_btf_entry(struct global_btf_table *table, const char *name)
{
	bool added;
	size_t *index = name_index_slot(&table->names, name, &added);

	if (!index)
		return NULL;
	if (added) {
		if (grow_array((void **)&table->entries, &table->capacity, table->count + 1,
			       sizeof(*table->entries)))
			return NULL;
		*index = table->count++;
	}
	return &table->entries[*index];
}

static int build_global_btf_table(struct input_object *obj, struct global_btf_table *table)
{
	uint32_t id, count = obj->btf ? btf__type_cnt(obj->btf) : 0;

	for (id = 1; id < count; id++) {
		const struct btf_type *t = btf__type_by_id(obj->btf, id);
		const struct btf_var_secinfo *var;
		struct global_btf *entry;
		int i, n;

		if (btf_is_non_static(t)) {
			entry = global_btf_entry(table, btf__name_by_offset(obj->btf, t->name_off));
			if (!entry)
				return -1;
			if (!entry->in_datasec)
				entry->loose_id = id;
			continue;
		}
		if (!btf_is_datasec(t))
			continue;
		var = btf_var_secinfos(t);
		for (i = 0, n = btf_vlen(t); i < n; i++, var++) {
			const struct btf_type *vt = btf__type_by_id(obj->btf, var->type);

			if (!btf_is_non_static(vt))
				continue;
			entry = global_btf_entry(table,
						 btf__name_by_offset(obj->btf, vt->name_off));
			if (!entry)
				return -1;
			if (entry->in_datasec)
				continue;
			entry->in_datasec = true;
			if (entry->loose_id && entry->loose_id != var->type) {
				entry->ambiguous_id = var->type;
				continue;
			}
			entry->datasec_id = id;
			entry->btf_id = var->type;
		}
	}
	return 0;
}

static void global_btf_table_free(struct global_btf_table *table)
{
	name_index_free(&table->names);
	free(table->entries);
}

static int find_global_symbol_btf(struct input_object *obj, const struct global_btf_table *table,
				  const char *sym_name, uint32_t *datasec_id, uint32_t *btf_id)
{
	const struct global_btf *entry;
	size_t index;

	*datasec_id = *btf_id = 0;
	if (!name_index_get(&table->names, sym_name, &index))
		return 0;
	entry = &table->entries[index];
	if (entry->ambiguous_id)
		return elfobj_error(obj->path, NULL,
				    "symbol '%s': BTF is ambiguous: type ids %u and %u match",
				    sym_name, entry->loose_id, entry->ambiguous_id);
	if (entry->in_datasec) {
		*datasec_id = entry->datasec_id;
		*btf_id = entry->btf_id;
	} else {
		*btf_id = entry->loose_id;
	}
	return 0;
}

static bool global_symbols_match(struct linker *linker, struct global_symbol *glob,
				 struct input_object *obj, const char *sym_name, uint32_t btf_id,
				 bool is_extern)
{
	const struct btf_type *t;

	/* Objects without any BTF (hand-written assembly) link untyped */
	if (!glob->btf_id && !btf_id && !obj->btf)
		return true;
	if (!glob->btf_id || !btf_id) {
		elfobj_error(obj->path, NULL,
			     "symbol '%s': BTF info is missing for a global symbol (compile every "
			     "object with -g)",
			     sym_name);
		return false;
	}
	t = btf__type_by_id(obj->btf, btf_id);
	if (!btf_is_var(t) && !btf_is_func(t)) {
		elfobj_error(obj->path, NULL,
			     "symbol '%s': only extern variables and functions are supported",
			     sym_name);
		return false;
	}
	if (glob->section_id &&
	    strcmp(linker->sections[glob->section_id].name, ELFOBJ_MAPS_SECTION) == 0) {
		char why[128];
		int earlier = static_key_polarity(linker->btf, glob->btf_id);
		int current = static_key_polarity(obj->btf, btf_id);

		/* the one difference a key's two declarations can have: its initial state */
		if (earlier >= 0 && current >= 0 && earlier != current) {
			elfobj_error(
				obj->path, ELFOBJ_MAPS_SECTION,
				"static key '%s': %s_STATIC_KEY_%s in %s vs %s_STATIC_KEY_%s in %s",
				sym_name, glob->is_extern ? "DECLARE" : "DEFINE",
				earlier ? "TRUE" : "FALSE", glob->path,
				is_extern ? "DECLARE" : "DEFINE", current ? "TRUE" : "FALSE",
				obj->path);
			return false;
		}
		if (map_definitions_match(sym_name, linker->btf, glob->btf_id, obj->btf, btf_id,
					  why, sizeof(why)))
			return true;
		elfobj_error(obj->path, ELFOBJ_MAPS_SECTION,
			     "symbol '%s': map definition differs from the one in %s", sym_name,
			     glob->path);
		elfobj_note(obj->path, ELFOBJ_MAPS_SECTION, "%s", why);
		return false;
	}
	if (!btf_type_matches(sym_name, true, linker->btf, glob->btf_id, obj->btf, btf_id)) {
		elfobj_error(obj->path, NULL,
			     "symbol '%s': type differs from the one linked before", sym_name);
		return false;
	}
	return true;
}

static void set_bind(Elf64_Sym *sym, int bind)
{
	sym->st_info = ELF64_ST_INFO(bind, ELF64_ST_TYPE(sym->st_info));
}

static int append_symbol(struct linker *linker, struct input_object *obj,
			 const struct global_btf_table *global_btf, size_t index)
{
	Elf64_Sym sym = obj->symbols[index];
	const char *name = input_symbol_name(obj, &sym);
	int type = ELF64_ST_TYPE(sym.st_info), bind = ELF64_ST_BIND(sym.st_info);
	int visibility = ELF64_ST_VISIBILITY(sym.st_other);
	bool is_extern = sym.st_shndx == SHN_UNDEF;
	struct input_section *src_sec = NULL;
	struct output_section *dst_sec = NULL;
	struct global_symbol *glob;
	uint32_t datasec_id = 0, btf_id = 0;
	int64_t name_off;
	size_t dst_index;
	int glob_index;

	if (is_extern) {
		if (!obj->btf)
			return elfobj_error(obj->path, NULL,
					    "symbol '%s': externs need BTF (compile with -g)",
					    name);
	} else if (sym.st_shndx < SHN_LORESERVE) {
		src_sec = &obj->sections[sym.st_shndx];
		if (src_sec->skipped)
			return 0; /* e.g. the second "license" */
		dst_sec = &linker->sections[src_sec->output_id];
		/* one STT_SECTION symbol per output section */
		if (type == STT_SECTION && dst_sec->section_symbol) {
			obj->symbol_map[index] = dst_sec->section_symbol;
			return 0;
		}
	}

	/*
	 * Compiler-generated jump table symbols (BPF.JT.<func>.<n>) are
	 * global in clang-22 output, but every object numbers them from 0:
	 * they are object-private, so keep them local instead of reporting
	 * duplicate definitions.
	 */
	if (bind != STB_LOCAL && is_jump_table_symbol(obj, &sym)) {
		bind = STB_LOCAL;
		set_bind(&sym, STB_LOCAL);
	}
	if (bind == STB_LOCAL)
		goto add_symbol;

	if (find_global_symbol_btf(obj, global_btf, name, &datasec_id, &btf_id))
		return -1;
	if (obj->btf && !btf_id)
		return elfobj_error(obj->path, src_sec ? src_sec->name : NULL,
				    "symbol '%s': no BTF info for this global/extern symbol", name);
	if (is_extern && datasec_id) {
		const struct btf_type *t = btf__type_by_id(obj->btf, datasec_id);
		const char *sec_name = btf__name_by_offset(obj->btf, t->name_off);

		/* unannotated externs (.extern) have no section, like extern funcs */
		if (strcmp(sec_name, BTF_EXTERN_DATASEC) != 0) {
			src_sec = input_section_by_name(obj, sec_name);
			if (!src_sec || !src_sec->output_id)
				return elfobj_error(obj->path, sec_name,
						    "symbol '%s': no section for this extern",
						    name);
			dst_sec = &linker->sections[src_sec->output_id];
		}
	}

	glob_index = name_map_get(&linker->global_names, name);
	if (glob_index >= 0) {
		Elf64_Sym *dst_sym;

		glob = &linker->globals[glob_index];
		obj->symbol_map[index] = glob->symbol_index;
		if (!is_extern && !glob->is_extern && !glob->is_weak && bind != STB_WEAK)
			return elfobj_error(obj->path, src_sec ? src_sec->name : NULL,
					    "symbol '%s': duplicate definition: also defined "
					    "(strong) in %s",
					    name, glob->path);
		if (!global_symbols_match(linker, glob, obj, name, btf_id, is_extern))
			return -1;
		dst_sym = &linker->symbols[glob->symbol_index].sym;
		/* a strong occurrence anywhere makes the output symbol strong; only a
		 * strong definition makes a later strong one a duplicate */
		if (bind == STB_GLOBAL)
			set_bind(dst_sym, STB_GLOBAL);
		/* stricter visibility wins, even from an extern declaration */
		if (visibility > ELF64_ST_VISIBILITY(dst_sym->st_other))
			dst_sym->st_other = (dst_sym->st_other & ~3) | visibility;
		if (is_extern)
			return 0;
		/* an existing definition beats a weak one */
		if (!glob->is_extern && bind == STB_WEAK)
			return 0;
		/* this definition wins: point the symbol at it */
		dst_sym->st_info = ELF64_ST_INFO(ELF64_ST_BIND(dst_sym->st_info), type);
		linker->symbols[glob->symbol_index].section_id = dst_sec ? dst_sec->id : 0;
		dst_sym->st_shndx = dst_sec ? 0 : sym.st_shndx;
		dst_sym->st_value = (src_sec ? src_sec->output_offset : 0) + sym.st_value;
		dst_sym->st_size = sym.st_size;
		if (glob->section_id && dst_sec && glob->section_id != dst_sec->id)
			return elfobj_error(
				obj->path, dst_sec->name,
				"symbol '%s': defined in section '%s', but declared in '%s'", name,
				dst_sec->name, linker->sections[glob->section_id].name);
		glob->section_id = dst_sec ? dst_sec->id : 0;
		glob->is_extern = false;
		glob->is_weak = bind == STB_WEAK;
		glob->path = obj->path;
		if (glob->btf_id && btf_id &&
		    complete_extern_btf(linker->btf, glob->btf_id, obj->btf, btf_id))
			return -1;
		/* re-point the VAR/FUNC at this object's type when its BTF is merged */
		glob->underlying_btf_id = 0;
		return 0;
	}

add_symbol:
	name_off = elfobj_strtab_add(&linker->strtab, name);
	if (name_off < 0 || output_symbol_add(linker, &dst_index))
		return -1;
	{
		struct output_symbol *out = &linker->symbols[dst_index];

		out->sym = sym;
		out->sym.st_name = name_off;
		out->section_id = dst_sec ? dst_sec->id : 0;
		out->sym.st_shndx = dst_sec ? 0 : sym.st_shndx;
		out->sym.st_value = (src_sec ? src_sec->output_offset : 0) + sym.st_value;
		if (type == STT_SECTION && dst_sec) {
			dst_sec->section_symbol = dst_index;
			out->sym.st_value = 0;
		}
	}
	obj->symbol_map[index] = dst_index;
	if (bind == STB_LOCAL)
		return 0;

	if (grow_array((void **)&linker->globals, &linker->global_capacity,
		       linker->global_count + 1, sizeof(*linker->globals)))
		return -1;
	glob = &linker->globals[linker->global_count];
	memset(glob, 0, sizeof(*glob));
	glob->symbol_index = dst_index;
	glob->section_id = dst_sec ? dst_sec->id : 0;
	glob->name_off = name_off;
	glob->var_index = -1;
	glob->is_extern = is_extern;
	glob->is_weak = bind == STB_WEAK;
	glob->path = obj->path;
	if (name_map_put(&linker->global_names, name_off, linker->global_count))
		return -1;
	linker->global_count++;
	return 0;
}

int resolve_symbols(struct linker *linker, struct input_object *obj)
{
	struct global_btf_table global_btf = { 0 };
	int err = 0;
	size_t i;

	obj->symbol_map = calloc(obj->symbol_count + 1, sizeof(*obj->symbol_map));
	if (!obj->symbol_map)
		return elfobj_error(obj->path, NULL, "out of memory");
	err = build_global_btf_table(obj, &global_btf);
	for (i = 1; !err && i < obj->symbol_count; i++)
		err = append_symbol(linker, obj, &global_btf, i);
	global_btf_table_free(&global_btf);
	return err ? -1 : 0;
}

struct global_symbol *global_symbol_by_index(struct linker *linker, size_t symbol_index)
{
	int index;

	if (!symbol_index || symbol_index >= linker->symbol_count)
		return NULL;
	index = name_map_get(&linker->global_names,
			     linker->strtab.data + linker->symbols[symbol_index].sym.st_name);
	if (index < 0 || linker->globals[index].symbol_index != symbol_index)
		return NULL;
	return &linker->globals[index];
}

int check_link_complete(struct linker *linker)
{
	bool output_has_btf = btf__type_cnt(linker->btf) > 1;
	size_t i;

	for (i = 0; i < linker->global_count; i++) {
		const struct global_symbol *glob = &linker->globals[i];
		const char *name = linker->strtab.data + glob->name_off;

		/*
		 * A global of an object without BTF (compiled without -g)
		 * links untyped only when no input has BTF: otherwise the
		 * output's BTF lacks its VAR/FUNC and the output cannot be
		 * linked again (by bpfld or libbpf). Objects sharing the
		 * symbol were compared in global_symbols_match().
		 */
		if (output_has_btf && !glob->btf_id)
			return elfobj_error(glob->path, NULL,
					    "symbol '%s': BTF info is missing for a global symbol "
					    "(compile every object with -g)",
					    name);
		if (!glob->static_key_user)
			continue;
		if (glob->is_extern)
			return elfobj_error(glob->static_key_user, ELFOBJ_STATIC_KEYS_SECTION,
					    "static key '%s' is declared but not defined in any "
					    "input (missing DEFINE_STATIC_KEY_*?)",
					    name);
		if (!glob->section_id ||
		    strcmp(linker->sections[glob->section_id].name, ELFOBJ_MAPS_SECTION) != 0)
			return elfobj_error(glob->static_key_user, ELFOBJ_STATIC_KEYS_SECTION,
					    "key '%s' is not a map in .maps (defined in %s)", name,
					    glob->path);
	}
	return 0;
}
