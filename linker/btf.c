// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * BTF and .BTF.ext (read and checked by elfobj): type comparison for symbol
 * resolution, appending each object's types with id remapping, DATASEC
 * consolidation, and the final btf__dedup(). Types are copied with libbpf's
 * btf__add_type(); only the id remapping walk is ours, because libbpf 1.1
 * does not export its field iterator.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include "bpfld.h"

/*
 * Debian's libbpf 1.1.2 headers declare btf_ext__raw_data(), but the shared
 * library only exports its older name (same behaviour).
 */
const void *btf_ext__get_raw_data(const struct btf_ext *btf_ext, __u32 *size);

/* ---- type comparison for globals and externs (as libbpf's linker) ---- */

static bool names_equal(const struct btf *btf1, uint32_t off1, const struct btf *btf2,
			uint32_t off2)
{
	return strcmp(btf__str_by_offset(btf1, off1), btf__str_by_offset(btf2, off2)) == 0;
}

static bool fwd_matches(const struct btf_type *fwd, const struct btf_type *t)
{
	return btf_kflag(fwd) ? btf_is_union(t) : btf_is_struct(t);
}

/* Returns 1 if compatible; prints why not otherwise. */
int btf_type_matches(const char *sym_name, bool exact, const struct btf *btf1, uint32_t id1,
		     const struct btf *btf2, uint32_t id2)
{
	const struct btf_type *t1, *t2;
	int i, n;

	for (;;) {
		t1 = elfobj_btf_skip_mods(btf1, id1, &id1);
		t2 = elfobj_btf_skip_mods(btf2, id2, &id2);
		if (!t1 || !t2)
			goto mismatch;
		if (!exact && btf_is_fwd(t1) != btf_is_fwd(t2)) {
			if (!names_equal(btf1, t1->name_off, btf2, t2->name_off))
				goto mismatch;
			return btf_is_fwd(t1) ? fwd_matches(t1, t2) : fwd_matches(t2, t1);
		}
		if (btf_kind(t1) != btf_kind(t2))
			goto mismatch;
		switch (btf_kind(t1)) {
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_FWD:
		case BTF_KIND_FUNC:
		case BTF_KIND_VAR:
			if (!names_equal(btf1, t1->name_off, btf2, t2->name_off))
				goto mismatch;
			break;
		}
		switch (btf_kind(t1)) {
		case BTF_KIND_UNKN:
		case BTF_KIND_FWD:
			return 1;
		case BTF_KIND_INT:
		case BTF_KIND_FLOAT:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			if (t1->size != t2->size)
				goto mismatch;
			return 1;
		case BTF_KIND_PTR:
			/* only the shape of pointees: fwd vs struct is fine */
			exact = false;
			id1 = t1->type;
			id2 = t2->type;
			continue;
		case BTF_KIND_ARRAY:
			id1 = btf_array(t1)->type;
			id2 = btf_array(t2)->type;
			continue;
		case BTF_KIND_FUNC:
			if ((btf_vlen(t1) == BTF_FUNC_STATIC) != (btf_vlen(t2) == BTF_FUNC_STATIC))
				goto mismatch;
			id1 = t1->type;
			id2 = t2->type;
			continue;
		case BTF_KIND_VAR:
			if ((btf_var(t1)->linkage == BTF_VAR_STATIC) !=
			    (btf_var(t2)->linkage == BTF_VAR_STATIC))
				goto mismatch;
			id1 = t1->type;
			id2 = t2->type;
			continue;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION: {
			const struct btf_member *m1 = btf_members(t1), *m2 = btf_members(t2);

			if (!exact)
				return 1;
			if (btf_vlen(t1) != btf_vlen(t2))
				goto mismatch;
			for (i = 0, n = btf_vlen(t1); i < n; i++, m1++, m2++) {
				if (!names_equal(btf1, m1->name_off, btf2, m2->name_off) ||
				    m1->offset != m2->offset ||
				    !btf_type_matches(sym_name, exact, btf1, m1->type, btf2,
						      m2->type))
					goto mismatch;
			}
			return 1;
		}
		case BTF_KIND_FUNC_PROTO: {
			const struct btf_param *p1 = btf_params(t1), *p2 = btf_params(t2);

			if (btf_vlen(t1) != btf_vlen(t2))
				goto mismatch;
			for (i = 0, n = btf_vlen(t1); i < n; i++, p1++, p2++)
				if (!btf_type_matches(sym_name, exact, btf1, p1->type, btf2,
						      p2->type))
					goto mismatch;
			id1 = t1->type;
			id2 = t2->type;
			continue;
		}
		default:
			goto mismatch;
		}
	}
mismatch:
	if (bpfld_verbose)
		elfobj_note(NULL, NULL, "symbol '%s': BTF type ids %u and %u differ", sym_name, id1,
			    id2);
	return 0;
}

/* ---- BTF-defined map definitions ---- */

/* the number of map_definition.values, in map_int_fields' order */
enum { MAP_FIELD_COUNT = 8 };

struct map_definition {
	uint32_t values[MAP_FIELD_COUNT]; /* type, key_size, value_size, max_entries,
					   map_flags, numa_node, pinning, map_extra (lower 32 bits) */
	uint32_t key_type, value_type;
	bool has_inner;
	uint32_t inner_struct;
};

static const char *const map_int_fields[MAP_FIELD_COUNT] = {
	"type",	     "key_size",  "value_size", "max_entries",
	"map_flags", "numa_node", "pinning",	"map_extra",
};

static int parse_map_definition(const struct btf *btf, uint32_t struct_id,
				struct map_definition *def)
{
	const struct btf_type *t = elfobj_btf_skip_mods(btf, struct_id, NULL);
	const struct btf_member *m;
	int i, f, n;

	memset(def, 0, sizeof(*def));
	if (!btf_is_struct(t))
		return -1;
	for (i = 0, n = btf_vlen(t), m = btf_members(t); i < n; i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);
		const struct btf_type *mt;
		bool known = false;

		for (f = 0; f < MAP_FIELD_COUNT; f++) {
			if (strcmp(name, map_int_fields[f]) == 0) {
				if (!elfobj_btf_map_uint(btf, m->type, &def->values[f]))
					return -1;
				known = true;
			}
		}
		if (known)
			continue;
		mt = btf__type_by_id(btf, m->type);
		if (strcmp(name, "key") == 0 || strcmp(name, "value") == 0) {
			long long size;

			if (!btf_is_ptr(mt))
				return -1;
			size = btf__resolve_size(btf, mt->type);
			if (size < 0)
				return -1;
			if (name[0] == 'k') {
				def->key_type = mt->type;
				def->values[1] = size;
			} else {
				def->value_type = mt->type;
				def->values[2] = size;
			}
		} else if (strcmp(name, "values") == 0) {
			/* __array(values, struct inner): `struct inner *values[]` */
			if (!btf_is_array(mt))
				return -1;
			mt = btf__type_by_id(btf, btf_array(mt)->type);
			if (!btf_is_ptr(mt))
				return -1;
			def->has_inner = true;
			def->inner_struct = mt->type;
		} else {
			return -1;
		}
	}
	return 0;
}

static int map_struct_definitions_match(const char *sym_name, const struct btf *btf1, uint32_t id1,
					const struct btf *btf2, uint32_t id2, int depth, char *why,
					size_t why_size)
{
	struct map_definition d1, d2;
	int f;

	if (parse_map_definition(btf1, id1, &d1) || parse_map_definition(btf2, id2, &d2)) {
		snprintf(why, why_size, "invalid BTF map definition");
		return 0;
	}
	for (f = 0; f < MAP_FIELD_COUNT; f++) {
		if (d1.values[f] != d2.values[f]) {
			snprintf(why, why_size, "map %s differs: %u vs %u", map_int_fields[f],
				 d1.values[f], d2.values[f]);
			return 0;
		}
	}
	if (!!d1.key_type != !!d2.key_type || !!d1.value_type != !!d2.value_type ||
	    (d1.key_type &&
	     !btf_type_matches(sym_name, true, btf1, d1.key_type, btf2, d2.key_type)) ||
	    (d1.value_type &&
	     !btf_type_matches(sym_name, true, btf1, d1.value_type, btf2, d2.value_type))) {
		snprintf(why, why_size, "map key or value type differs");
		return 0;
	}
	if (d1.has_inner != d2.has_inner) {
		snprintf(why, why_size, "only one definition has an inner map");
		return 0;
	}
	if (d1.has_inner && depth == 0)
		return map_struct_definitions_match(sym_name, btf1, d1.inner_struct, btf2,
						    d2.inner_struct, 1, why, why_size);
	return 1;
}

int map_definitions_match(const char *sym_name, const struct btf *btf1, uint32_t var_id1,
			  const struct btf *btf2, uint32_t var_id2, char *why, size_t why_size)
{
	const struct btf_type *v1 = btf__type_by_id(btf1, var_id1),
			      *v2 = btf__type_by_id(btf2, var_id2);

	snprintf(why, why_size, "not a variable");
	if (!btf_is_var(v1) || !btf_is_var(v2))
		return 0;
	return map_struct_definitions_match(sym_name, btf1, v1->type, btf2, v2->type, 0, why,
					    why_size);
}

int static_key_polarity(const struct btf *btf, uint32_t var_id)
{
	const struct btf_type *v = btf__type_by_id(btf, var_id);
	struct elfobj_map_kind kind;

	if (!v || !btf_is_var(v) || !elfobj_map_kind(btf, v->type, &kind) ||
	    !elfobj_map_is_static_key(&kind))
		return -1;
	return (kind.map_extra & BPF_F_STATIC_KEY_ON) ? 1 : 0;
}

/* An extern VAR/FUNC got its definition: make its BTF say so (libbpf does the same). */
int complete_extern_btf(struct btf *dst, uint32_t dst_id, const struct btf *src, uint32_t src_id)
{
	struct btf_type *dst_t = btf_type_mut(dst, dst_id);
	const struct btf_type *src_t = btf__type_by_id(src, src_id);
	struct btf_param *dst_p;
	const struct btf_param *src_p;
	int i, n;

	if (btf_is_var(dst_t)) {
		btf_var(dst_t)->linkage = BTF_VAR_GLOBAL_ALLOCATED;
		return 0;
	}
	dst_t->info = (BTF_KIND_FUNC << 24) | BTF_FUNC_GLOBAL;
	/* extern FUNC_PROTOs lack argument names, which would defeat dedup */
	src_t = btf__type_by_id(src, src_t->type);
	dst_t = btf_type_mut(dst, dst_t->type);
	for (i = 0, n = btf_vlen(dst_t); i < n && i < btf_vlen(src_t); i++) {
		int off;

		src_p = btf_params(src_t) + i;
		if (!src_p->name_off)
			continue;
		off = btf__add_str(dst, btf__str_by_offset(src, src_p->name_off));
		if (off < 0)
			return elfobj_error(NULL, NULL, "cannot add BTF string");
		/* btf__add_str may move type data: look the type up again */
		dst_t = btf_type_mut(dst, btf__type_by_id(dst, dst_id)->type);
		dst_p = btf_params(dst_t) + i;
		dst_p->name_off = off;
	}
	return 0;
}

/* ---- appending an object's BTF ---- */

bool btf_is_non_static(const struct btf_type *t)
{
	return (btf_is_var(t) && btf_var(t)->linkage != BTF_VAR_STATIC) ||
	       (btf_is_func(t) && btf_vlen(t) != BTF_FUNC_STATIC);
}

struct remap_ctx {
	const uint32_t *map;
	uint32_t count;
};

static int remap_type_id(uint32_t *id, void *ctx)
{
	struct remap_ctx *remap = ctx;

	if (*id == 0)
		return 0;
	if (*id >= remap->count || !remap->map[*id])
		return -1;
	*id = remap->map[*id];
	return 0;
}

static struct global_symbol *find_global(struct linker *linker, const char *name)
{
	int index = name_map_get(&linker->global_names, name);

	return index < 0 ? NULL : &linker->globals[index];
}

/* obj->object_symbols: pushed in reverse, so that each name's chain is in symbol order. */
static int index_object_symbols(struct input_object *obj)
{
	size_t i;

	obj->next_object_symbol = calloc(obj->symbol_count + 1, sizeof(*obj->next_object_symbol));
	if (!obj->next_object_symbol)
		return elfobj_error(obj->path, NULL, "out of memory");
	for (i = obj->symbol_count; i-- > 1;) {
		const Elf64_Sym *sym = &obj->symbols[i];
		size_t *first;
		bool added;

		if (ELF64_ST_TYPE(sym->st_info) != STT_OBJECT)
			continue;
		first = name_index_slot(&obj->object_symbols, input_symbol_name(obj, sym), &added);
		if (!first)
			return -1;
		obj->next_object_symbol[i] = added ? 0 : *first;
		*first = i;
	}
	return 0;
}

/* Value of a global variable's symbol (the first of its name in the section): its offset there. */
static int find_variable_offset(struct input_object *obj, size_t elf_index, const char *name,
				uint32_t *offset, bool *found)
{
	size_t i;

	*found = false;
	if (!obj->next_object_symbol && index_object_symbols(obj))
		return -1;
	if (!name_index_get(&obj->object_symbols, name, &i))
		return 0;
	for (; i; i = obj->next_object_symbol[i])
		if (obj->symbols[i].st_shndx == elf_index) {
			*offset = obj->symbols[i].st_value;
			*found = true;
			return 0;
		}
	return 0;
}

static int add_datasec_var(struct output_section *dst, uint32_t type, uint32_t offset,
			   uint32_t size)
{
	struct btf_var_secinfo *var;

	if (grow_array((void **)&dst->vars, &dst->var_capacity, dst->var_count + 1, sizeof(*var)))
		return -1;
	var = &dst->vars[dst->var_count++];
	var->type = type;
	var->offset = offset;
	var->size = size;
	return 0;
}

static int merge_datasecs(struct linker *linker, struct input_object *obj)
{
	size_t i;

	for (i = 1; i < obj->section_count; i++) {
		struct input_section *src = &obj->sections[i];
		struct output_section *dst;
		const struct btf_type *datasec;
		const struct btf_var_secinfo *var;
		int j, n;

		if (!src->datasec_type_id || src->skipped || !src->output_id)
			continue;
		dst = &linker->sections[src->output_id];
		/* even an empty DATASEC is kept, with the right size */
		dst->has_btf = true;
		datasec = btf__type_by_id(obj->btf, src->datasec_type_id);
		var = btf_var_secinfos(datasec);
		for (j = 0, n = btf_vlen(datasec); j < n; j++, var++) {
			uint32_t new_id = obj->btf_type_map[var->type], offset = var->offset;
			const struct btf_type *t = btf__type_by_id(linker->btf, new_id);
			struct global_symbol *glob = NULL;
			const char *name = btf__name_by_offset(linker->btf, t->name_off);

			if (!new_id)
				continue;
			if (btf_is_non_static(t)) {
				glob = find_global(linker, name);
				if (!glob)
					continue;
				if (glob->section_id != dst->id)
					return elfobj_error(
						obj->path, src->name,
						"symbol '%s': BTF places it in section '%s'", name,
						dst->name);
			}
			/*
			 * An extern already described by an earlier object: refresh
			 * the size. A FUNC (a kfunc in .ksyms) has none: entry kept.
			 */
			if (glob && glob->var_index >= 0) {
				long long size;

				if (btf_is_func(t))
					continue;
				size = btf__resolve_size(linker->btf, glob->underlying_btf_id);
				if (size < 0)
					return elfobj_error(obj->path, src->name,
							    "symbol '%s': cannot resolve type size",
							    name);
				dst->vars[glob->var_index].size = size;
				continue;
			}
			if (btf_is_var(t) && btf_var(t)->linkage == BTF_VAR_GLOBAL_ALLOCATED &&
			    !src->ephemeral) {
				const struct btf_type *src_t = btf__type_by_id(obj->btf, var->type);
				bool found;

				if (find_variable_offset(
					    obj, src->elf_index,
					    btf__name_by_offset(obj->btf, src_t->name_off), &offset,
					    &found))
					return -1;
				if (!found)
					return elfobj_error(obj->path, src->name,
							    "variable '%s' has BTF but no symbol",
							    name);
			}
			if (add_datasec_var(dst, new_id, src->output_offset + offset, var->size))
				return -1;
			if (glob)
				glob->var_index = dst->var_count - 1;
		}
	}
	return 0;
}

/*
 * The output symbols that a non-local symbol of the object resolved to, sorted
 * for owns_global(): as many as the object has globals, not as the output has
 * symbols, so that merging each object's BTF does not grow with the output.
 */
struct own_globals {
	size_t *symbols;
	size_t count;
};

static int compare_symbol_indices(const void *a, const void *b)
{
	const size_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static int own_global_symbols(const struct input_object *obj, struct own_globals *own)
{
	size_t i;

	own->count = 0;
	own->symbols = calloc(obj->symbol_count + 1, sizeof(*own->symbols));
	if (!own->symbols)
		return -1;
	for (i = 1; i < obj->symbol_count; i++)
		if (ELF64_ST_BIND(obj->symbols[i].st_info) != STB_LOCAL && obj->symbol_map[i])
			own->symbols[own->count++] = obj->symbol_map[i];
	elfobj_sort(own->symbols, own->count, sizeof(*own->symbols), compare_symbol_indices);
	return 0;
}

static bool owns_global(const struct own_globals *own, size_t symbol_index)
{
	return bsearch(&symbol_index, own->symbols, own->count, sizeof(*own->symbols),
		       compare_symbol_indices) != NULL;
}

static bool object_has_local_function(const struct input_object *obj, const char *name)
{
	size_t i;

	for (i = 1; i < obj->symbol_count; i++) {
		const Elf64_Sym *sym = &obj->symbols[i];

		if (ELF64_ST_BIND(sym->st_info) == STB_LOCAL &&
		    ELF64_ST_TYPE(sym->st_info) == STT_FUNC && sym->st_shndx != SHN_UNDEF &&
		    strcmp(input_symbol_name(obj, sym), name) == 0)
			return true;
	}
	return false;
}

static int remember_pending(struct linker *linker, const struct global_symbol *glob)
{
	if (grow_array((void **)&linker->pending_types, &linker->pending_capacity,
		       linker->pending_count + 1, sizeof(*linker->pending_types)))
		return -1;
	linker->pending_types[linker->pending_count++] = glob - linker->globals;
	return 0;
}

/* Appends the object's types but DATASECs, sharing the VAR/FUNC of globals linked before. */
static int append_object_types(struct linker *linker, struct input_object *obj,
			       const struct own_globals *own_globals)
{
	uint32_t id, count = btf__type_cnt(obj->btf);

	for (id = 1; id < count; id++) {
		const struct btf_type *t = btf__type_by_id(obj->btf, id);
		struct global_symbol *glob = NULL;
		int new_id;

		/* DATASECs are rebuilt per output section at the end */
		if (btf_is_datasec(t))
			continue;
		if (btf_is_non_static(t)) {
			const char *name = btf__name_by_offset(obj->btf, t->name_off);

			glob = find_global(linker, name);
			/* a global of other inputs, not this one's local of that name */
			if (glob && !owns_global(own_globals, glob->symbol_index))
				glob = NULL;
			/*
			 * A global-linkage FUNC whose ELF symbol is local (a
			 * localized global, crafted BTF): the function is this
			 * object's private one, so its FUNC is too. Made static,
			 * it is appended like any static function's, and
			 * func_info keeps pointing at it, here and on relink.
			 */
			if (!glob && btf_is_func(t) && object_has_local_function(obj, name)) {
				struct btf_type *copy;

				new_id = btf__add_type(linker->btf, obj->btf, t);
				if (new_id < 0)
					return elfobj_error(obj->path, BTF_SECTION,
							    "cannot append type id %u", id);
				copy = btf_type_mut(linker->btf, new_id);
				copy->info = (BTF_KIND_FUNC << 24) | BTF_FUNC_STATIC;
				obj->btf_type_map[id] = new_id;
				continue;
			}
			/* VARs of deduplicated sections (license, version) have no symbol */
			if (!glob)
				continue;
			if (glob->underlying_btf_id == 0) {
				glob->underlying_btf_id = -(int64_t)t->type;
				if (remember_pending(linker, glob))
					return -1;
			}
			/* an earlier object already described this global */
			if (glob->btf_id) {
				obj->btf_type_map[id] = glob->btf_id;
				continue;
			}
		}
		new_id = btf__add_type(linker->btf, obj->btf, t);
		if (new_id < 0)
			return elfobj_error(obj->path, BTF_SECTION, "cannot append type id %u", id);
		obj->btf_type_map[id] = new_id;
		if (glob) {
			glob->btf_id = new_id;
			glob->underlying_btf_id = -(int64_t)t->type;
			if (remember_pending(linker, glob))
				return -1;
		}
	}

	return 0;
}

int merge_btf(struct linker *linker, struct input_object *obj)
{
	uint32_t id, count, start_id, out_count;
	struct remap_ctx remap;
	struct own_globals own_globals;
	size_t g;
	int err;

	linker->pending_count = 0;
	if (!obj->btf)
		return 0;
	start_id = btf__type_cnt(linker->btf);
	count = btf__type_cnt(obj->btf);
	obj->btf_type_map = calloc(count + 1, sizeof(*obj->btf_type_map));
	if (!obj->btf_type_map || own_global_symbols(obj, &own_globals))
		return elfobj_error(obj->path, NULL, "out of memory");
	err = append_object_types(linker, obj, &own_globals);
	free(own_globals.symbols);
	if (err)
		return err;

	remap.map = obj->btf_type_map;
	remap.count = count;
	out_count = btf__type_cnt(linker->btf);
	for (id = start_id; id < out_count; id++)
		if (elfobj_btf_visit_type_ids(btf_type_mut(linker->btf, id), remap_type_id, &remap))
			return elfobj_error(obj->path, BTF_SECTION,
					    "type id %u refers to a type that was not linked", id);

	/* a resolved extern now points at its definition's type */
	for (g = 0; g < linker->pending_count; g++) {
		struct global_symbol *glob = &linker->globals[linker->pending_types[g]];
		uint32_t input_id;

		if (glob->underlying_btf_id >= 0)
			continue;
		input_id = -glob->underlying_btf_id;
		if (input_id >= count || (input_id && !obj->btf_type_map[input_id]))
			return elfobj_error(obj->path, BTF_SECTION, "cannot remap type id %u",
					    input_id);
		glob->underlying_btf_id = input_id ? obj->btf_type_map[input_id] : 0;
		btf_type_mut(linker->btf, glob->btf_id)->type = glob->underlying_btf_id;
	}
	linker->pending_count = 0;
	return merge_datasecs(linker, obj);
}

/* ---- .BTF.ext ---- */

static int append_btf_ext_record(struct input_object *obj, int block, const char *sec_name,
				 const uint8_t *record, void *ctx)
{
	struct linker *linker = ctx;
	struct input_section *src = input_section_by_name(obj, sec_name);
	struct output_section *dst;
	struct record_array *records;
	uint32_t fields[4];
	int i;

	if (!src || src->ephemeral || !(src->shdr->sh_flags & SHF_EXECINSTR) || !src->output_id)
		return elfobj_error(
			obj->path, BTF_EXT_SECTION,
			"records refer to section '%s', which is not a code section of this object",
			sec_name);
	dst = &linker->sections[src->output_id];
	records = &dst->btf_ext[block];
	if (!records->record_size)
		records->record_size = obj->btf_ext[block].record_size;
	if (records->record_size != obj->btf_ext[block].record_size)
		return elfobj_error(obj->path, BTF_EXT_SECTION,
				    "record size %u for '%s' differs from earlier objects (%u)",
				    obj->btf_ext[block].record_size, sec_name,
				    records->record_size);
	if (grow_array((void **)&records->records, &records->capacity,
		       (records->count + 1) * records->record_size, 1))
		return -1;
	{
		uint8_t *out = records->records + records->count * records->record_size;

		memcpy(out, record, records->record_size);
		memcpy(fields, out, block == BTF_EXT_FUNC_INFO ? 8 : 16);
		fields[0] += src->output_offset; /* insn_off, in bytes */
		switch (block) {
		case BTF_EXT_FUNC_INFO:
			fields[1] = obj->btf_type_map[fields[1]];
			break;
		case BTF_EXT_LINE_INFO:
			for (i = 1; i <= 2; i++) {
				int off = btf__add_str(linker->btf,
						       btf__str_by_offset(obj->btf, fields[i]));

				if (off < 0)
					return elfobj_error(obj->path, BTF_EXT_SECTION,
							    "cannot add string");
				fields[i] = off;
			}
			break;
		case BTF_EXT_CORE_RELO: {
			int off =
				btf__add_str(linker->btf, btf__str_by_offset(obj->btf, fields[2]));

			if (off < 0)
				return elfobj_error(obj->path, BTF_EXT_SECTION,
						    "cannot add string");
			fields[1] = obj->btf_type_map[fields[1]];
			fields[2] = off;
			break;
		}
		}
		memcpy(out, fields, block == BTF_EXT_FUNC_INFO ? 8 : 16);
	}
	records->count++;
	return 0;
}

struct btf_ext_merge {
	struct linker *linker;
	struct input_object *obj;
};

static int merge_record(int block, const char *sec_name, const uint8_t *record, void *ctx)
{
	struct btf_ext_merge *merge = ctx;

	return append_btf_ext_record(merge->obj, block, sec_name, record, merge->linker);
}

int merge_btf_ext(struct linker *linker, struct input_object *obj)
{
	struct btf_ext_merge merge = { linker, obj };
	int block;

	if (!obj->has_btf_ext)
		return 0;
	for (block = 0; block < BTF_EXT_BLOCK_COUNT; block++)
		if (elfobj_btf_ext_for_each(&obj->file, block, merge_record, &merge))
			return -1;
	return 0;
}

/* Serializes the merged .BTF.ext: header, then per block the record size and per-section runs. */
static int build_btf_ext(struct linker *linker, uint8_t **out, uint32_t *out_size)
{
	struct elfobj_btf_ext_header hdr = { .magic = 0xeB9F,
					     .version = 1,
					     .hdr_len = sizeof(hdr) };
	uint32_t lengths[BTF_EXT_BLOCK_COUNT] = { 0 };
	size_t total, pos, i;
	uint8_t *data;
	int block;

	*out = NULL;
	*out_size = 0;
	for (block = 0; block < BTF_EXT_BLOCK_COUNT; block++) {
		uint32_t record_size = 0;

		for (i = 1; i < linker->section_count; i++) {
			struct record_array *r = &linker->sections[i].btf_ext[block];

			if (!r->count)
				continue;
			if (record_size && record_size != r->record_size)
				return elfobj_error(NULL, BTF_EXT_SECTION,
						    "record sizes differ between sections");
			record_size = r->record_size;
			lengths[block] += 8 + r->count * r->record_size;
		}
		if (lengths[block])
			lengths[block] += 4;
	}
	if (!lengths[0] && !lengths[1] && !lengths[2])
		return 0;
	hdr.func_info_off = 0;
	hdr.func_info_len = lengths[0];
	hdr.line_info_off = lengths[0];
	hdr.line_info_len = lengths[1];
	hdr.core_relo_off = lengths[0] + lengths[1];
	hdr.core_relo_len = lengths[2];
	total = sizeof(hdr) + lengths[0] + lengths[1] + lengths[2];
	data = calloc(1, total);
	if (!data)
		return elfobj_error(NULL, NULL, "out of memory");
	memcpy(data, &hdr, sizeof(hdr));
	pos = sizeof(hdr);
	for (block = 0; block < BTF_EXT_BLOCK_COUNT; block++) {
		bool size_written = false;

		if (!lengths[block])
			continue;
		for (i = 1; i < linker->section_count; i++) {
			struct output_section *sec = &linker->sections[i];
			struct record_array *r = &sec->btf_ext[block];
			uint32_t name_off, count = r->count;
			int off;

			if (!r->count)
				continue;
			if (!size_written) {
				memcpy(data + pos, &r->record_size, 4);
				pos += 4;
				size_written = true;
			}
			off = btf__add_str(linker->btf, sec->name);
			if (off < 0) {
				free(data);
				return elfobj_error(NULL, NULL, "cannot add BTF string");
			}
			name_off = off;
			memcpy(data + pos, &name_off, 4);
			memcpy(data + pos + 4, &count, 4);
			pos += 8;
			memcpy(data + pos, r->records, (size_t)count * r->record_size);
			pos += (size_t)count * r->record_size;
		}
	}
	*out = data;
	*out_size = total;
	return 0;
}

void final_btf_free(struct final_btf *btf)
{
	free(btf->btf_raw);
	free(btf->ext_raw);
	memset(btf, 0, sizeof(*btf));
}

int finalize_btf(struct linker *linker, const char *output_path, struct final_btf *out)
{
	void **btf_raw = &out->btf_raw, **ext_raw = &out->ext_raw;
	uint32_t *btf_size = &out->btf_size, *ext_size = &out->ext_size;
	LIBBPF_OPTS(btf_dedup_opts, opts);
	struct btf_ext *btf_ext = NULL;
	uint8_t *ext_data = NULL;
	uint32_t ext_data_size = 0;
	const void *raw;
	size_t i, j;
	int err;

	*btf_raw = *ext_raw = NULL;
	*btf_size = *ext_size = 0;
	if (btf__type_cnt(linker->btf) == 1)
		return 0;
	/*
	 * A DATASEC member is created by the first object that mentions a
	 * global, possibly as an extern or a weak definition that later lost;
	 * its offset must be where the winning definition landed. (libbpf
	 * 1.1's linker keeps the first offset, so e.g. the kernel's
	 * linked_maps selftest objects do not open after `bpftool gen object`.)
	 */
	for (i = 0; i < linker->global_count; i++) {
		const struct global_symbol *glob = &linker->globals[i];
		struct output_section *sec = &linker->sections[glob->section_id];

		if (glob->var_index < 0 || !glob->section_id || sec->ephemeral || glob->is_extern)
			continue;
		sec->vars[glob->var_index].offset =
			linker->symbols[glob->symbol_index].sym.st_value;
	}
	for (i = 1; i < linker->section_count; i++) {
		struct output_section *sec = &linker->sections[i];
		int id;

		if (!sec->has_btf)
			continue;
		id = btf__add_datasec(linker->btf, sec->name, sec->ephemeral ? 0 : sec->size);
		if (id < 0)
			return elfobj_error(output_path, sec->name, "cannot add DATASEC");
		for (j = 0; j < sec->var_count; j++) {
			struct btf_var_secinfo *v = &sec->vars[j];

			if (btf__add_datasec_var_info(linker->btf, v->type, v->offset, v->size))
				return elfobj_error(output_path, sec->name,
						    "cannot add DATASEC member");
		}
	}
	{
		uint32_t id, count = btf__type_cnt(linker->btf);

		for (id = 1; id < count; id++)
			if (elfobj_btf_visit_type_ids(btf_type_mut(linker->btf, id),
						      elfobj_btf_check_type_id, &count))
				return elfobj_error(output_path, BTF_SECTION,
						    "internal error: merged type id %u refers to a "
						    "missing type",
						    id);
	}
	if (build_btf_ext(linker, &ext_data, &ext_data_size))
		return -1;
	if (ext_data) {
		btf_ext = btf_ext__new(ext_data, ext_data_size);
		free(ext_data);
		err = libbpf_get_error(btf_ext);
		if (err)
			return elfobj_error(output_path, BTF_EXT_SECTION,
					    "merged .BTF.ext is invalid: %s", strerror(-err));
	}
	opts.btf_ext = btf_ext;
	err = btf__dedup(linker->btf, &opts);
	if (err) {
		btf_ext__free(btf_ext);
		return elfobj_error(output_path, BTF_SECTION, "BTF dedup failed: %s",
				    strerror(-err));
	}
	raw = btf__raw_data(linker->btf, btf_size);
	*btf_raw = raw ? malloc(*btf_size) : NULL;
	if (!*btf_raw) {
		btf_ext__free(btf_ext);
		return elfobj_error(output_path, BTF_SECTION, "out of memory");
	}
	memcpy(*btf_raw, raw, *btf_size);
	if (btf_ext) {
		raw = btf_ext__get_raw_data(btf_ext, ext_size);
		*ext_raw = raw ? malloc(*ext_size) : NULL;
		if (*ext_raw)
			memcpy(*ext_raw, raw, *ext_size);
		btf_ext__free(btf_ext);
		if (!*ext_raw)
			return elfobj_error(output_path, BTF_EXT_SECTION, "out of memory");
	}
	return 0;
}
