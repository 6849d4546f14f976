// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Keys: the BTF-defined maps of the .maps DATASEC (abi.md section 3). Every
 * map is recorded, so that a .static_keys entry naming a map that is not a
 * static key gets an error saying what the map is.
 */
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "bpfkeys.h"

static const struct bk_object *sort_obj;

static int cmp_symbol_name(const void *a, const void *b)
{
	const size_t *x = a, *y = b;

	return strcmp(sort_obj->symbol_names[*x], sort_obj->symbol_names[*y]);
}

static int cmp_key(const void *a, const void *b)
{
	const struct bk_key *x = a, *y = b;

	return strcmp(x->name, y->name);
}

int bk_read_keys(struct bk_object *obj)
{
	const struct btf_type *datasec;
	const struct btf_var_secinfo *vsi;
	int id;

	if (!obj->maps_section)
		return 0; /* and a .maps without .BTF was refused by elfobj */
	id = btf__find_by_name_kind(obj->btf, ELFOBJ_MAPS_SECTION, BTF_KIND_DATASEC);
	if (id <= 0)
		return 0; /* no BTF-defined maps */
	datasec = btf__type_by_id(obj->btf, id);
	vsi = btf_var_secinfos(datasec);
	/* the .maps object symbols by name, to match DATASEC variables in n log n */
	size_t *map_syms = bk_xcalloc(obj->symbol_count, sizeof(*map_syms)), map_sym_count = 0;

	for (size_t sym = 1; sym < obj->symbol_count; sym++)
		if (obj->symbols[sym].st_shndx == obj->maps_section &&
		    GELF_ST_TYPE(obj->symbols[sym].st_info) == STT_OBJECT)
			map_syms[map_sym_count++] = sym;
	sort_obj = obj;
	qsort(map_syms, map_sym_count, sizeof(*map_syms), cmp_symbol_name);
	obj->keys = bk_xcalloc(btf_vlen(datasec), sizeof(*obj->keys));
	for (int i = 0; i < btf_vlen(datasec); i++, vsi++) {
		const struct btf_type *var = btf__type_by_id(obj->btf, vsi->type);
		struct elfobj_map_kind kind;
		struct bk_key *key;
		const char *name;
		size_t sym, lo = 0, hi = map_sym_count;

		if (!var || !btf_is_var(var)) {
			bk_error(obj, "section '.BTF': DATASEC .maps entry %d is not a variable",
				 i);
			free(map_syms);
			return -1;
		}
		name = btf__name_by_offset(obj->btf, var->name_off);
		if (!name || !*name) {
			bk_error(obj, "section '.BTF': DATASEC .maps entry %d has no name", i);
			free(map_syms);
			return -1;
		}
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (strcmp(obj->symbol_names[map_syms[mid]], name) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == map_sym_count || strcmp(obj->symbol_names[map_syms[lo]], name) != 0)
			continue; /* no symbol: no relocation can name it */
		sym = map_syms[lo];
		key = &obj->keys[obj->key_count++];
		key->name = obj->symbol_names[sym];
		key->symbol = sym;
		elfobj_map_kind(obj->btf, var->type, &kind);
		key->map_type = kind.type;
		key->map_extra = kind.map_extra;
		key->is_static_key = elfobj_map_is_static_key(&kind);
	}
	free(map_syms);
	qsort(obj->keys, obj->key_count, sizeof(*obj->keys), cmp_key);
	/* at most a DATASEC's 65535 variables: 1 + index fits */
	obj->symbol_key = bk_xcalloc(obj->symbol_count, sizeof(*obj->symbol_key));
	for (size_t i = 0; i < obj->key_count; i++)
		obj->symbol_key[obj->keys[i].symbol] = (uint32_t)i + 1;
	for (size_t i = 1; i < obj->key_count; i++)
		if (strcmp(obj->keys[i].name, obj->keys[i - 1].name) == 0) {
			bk_error(obj, "section '.maps': two maps named '%s'", obj->keys[i].name);
			return -1;
		}
	return 0;
}

ssize_t bk_key_by_symbol(const struct bk_object *obj, size_t symbol)
{
	if (!obj->symbol_key || symbol >= obj->symbol_count)
		return -1;
	return (ssize_t)obj->symbol_key[symbol] - 1;
}

ssize_t bk_key_by_name(const struct bk_object *obj, const char *name)
{
	size_t lo = 0, hi = obj->key_count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(obj->keys[mid].name, name);

		if (c == 0)
			return (ssize_t)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}
