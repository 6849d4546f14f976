// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A name -> int map over elfobj's string table, and a name -> index map
 * over strings kept elsewhere (section names, an input's
 * symbol and BTF names). All are hash tables so that linking N objects stays
 * linear in N (libbpf's linker scans all global symbols for every new one).
 */
#include <stdlib.h>
#include <string.h>
#include "bpfld.h"

#define EMPTY_SLOT UINT32_MAX

int name_map_init(struct name_map *map, const struct elfobj_strtab *names)
{
	memset(map, 0, sizeof(*map));
	map->names = names;
	map->slot_count = 256;
	map->slots = malloc(map->slot_count * sizeof(*map->slots));
	if (!map->slots)
		return elfobj_error(NULL, NULL, "out of memory");
	memset(map->slots, 0xff, map->slot_count * sizeof(*map->slots));
	return 0;
}

void name_map_free(struct name_map *map)
{
	free(map->slots);
	memset(map, 0, sizeof(*map));
}

static int name_map_rehash(struct name_map *map)
{
	size_t count = map->slot_count * 2, i;
	struct name_map_slot *slots = malloc(count * sizeof(*slots));

	if (!slots)
		return elfobj_error(NULL, NULL, "out of memory");
	memset(slots, 0xff, count * sizeof(*slots));
	for (i = 0; i < map->slot_count; i++) {
		size_t pos;

		if (map->slots[i].name_off == EMPTY_SLOT)
			continue;
		pos = elfobj_hash_name(map->names->data + map->slots[i].name_off) & (count - 1);
		while (slots[pos].name_off != EMPTY_SLOT)
			pos = (pos + 1) & (count - 1);
		slots[pos] = map->slots[i];
	}
	free(map->slots);
	map->slots = slots;
	map->slot_count = count;
	return 0;
}

int name_map_put(struct name_map *map, uint32_t name_off, int value)
{
	const char *name = map->names->data + name_off;
	size_t pos = elfobj_hash_name(name) & (map->slot_count - 1);

	while (map->slots[pos].name_off != EMPTY_SLOT) {
		if (strcmp(map->names->data + map->slots[pos].name_off, name) == 0) {
			map->slots[pos].value = value;
			return 0;
		}
		pos = (pos + 1) & (map->slot_count - 1);
	}
	map->slots[pos].name_off = name_off;
	map->slots[pos].value = value;
	if (++map->used * 2 > map->slot_count)
		return name_map_rehash(map);
	return 0;
}

int name_map_get(const struct name_map *map, const char *name)
{
	size_t pos = elfobj_hash_name(name) & (map->slot_count - 1);

	while (map->slots[pos].name_off != EMPTY_SLOT) {
		if (strcmp(map->names->data + map->slots[pos].name_off, name) == 0)
			return map->slots[pos].value;
		pos = (pos + 1) & (map->slot_count - 1);
	}
	return -1;
}

void name_index_free(struct name_index *index)
{
	free(index->slots);
	memset(index, 0, sizeof(*index));
}

static int name_index_rehash(struct name_index *index)
{
	size_t count = index->slot_count ? index->slot_count * 2 : 64, i;
	struct name_index_slot *slots = calloc(count, sizeof(*slots));

	if (!slots)
		return elfobj_error(NULL, NULL, "out of memory");
	for (i = 0; i < index->slot_count; i++) {
		size_t pos;

		if (!index->slots[i].name)
			continue;
		pos = elfobj_hash_name(index->slots[i].name) & (count - 1);
		while (slots[pos].name)
			pos = (pos + 1) & (count - 1);
		slots[pos] = index->slots[i];
	}
	free(index->slots);
	index->slots = slots;
	index->slot_count = count;
	return 0;
}

static struct name_index_slot *name_index_find(const struct name_index *index, const char *name)
{
	size_t pos;

	if (!index->slot_count)
		return NULL;
	pos = elfobj_hash_name(name) & (index->slot_count - 1);
	while (index->slots[pos].name) {
		if (strcmp(index->slots[pos].name, name) == 0)
			return &index->slots[pos];
		pos = (pos + 1) & (index->slot_count - 1);
	}
	return &index->slots[pos];
}

size_t *name_index_slot(struct name_index *index, const char *name, bool *added)
{
	struct name_index_slot *slot;

	if (2 * (index->used + 1) > index->slot_count && name_index_rehash(index))
		return NULL;
	slot = name_index_find(index, name);
	*added = !slot->name;
	if (*added) {
		slot->name = name;
		slot->value = 0;
		index->used++;
	}
	return &slot->value;
}

bool name_index_get(const struct name_index *index, const char *name, size_t *value)
{
	const struct name_index_slot *slot = name_index_find(index, name);

	if (!slot || !slot->name)
		return false;
	*value = slot->value;
	return true;
}
