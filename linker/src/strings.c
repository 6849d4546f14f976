/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * ELF string table with deduplication, a name -> int map over it, and a
 * name -> index map over strings kept elsewhere (section names, an input's
 * symbol and BTF names). All are hash tables so that linking N objects stays
 * linear in N (libbpf's linker scans all global symbols for every new one).
 */
#include <stdlib.h>
#include <string.h>
#include "bpfld.h"

#define EMPTY_SLOT UINT32_MAX

static uint64_t hash_name(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static uint32_t *alloc_slots(size_t count)
{
	uint32_t *slots = malloc(count * sizeof(*slots));

	if (slots)
		memset(slots, 0xff, count * sizeof(*slots));
	return slots;
}

int string_table_init(struct string_table *table)
{
	memset(table, 0, sizeof(*table));
	table->capacity = 4096;
	table->data = calloc(1, table->capacity);
	table->slot_count = 1024;
	table->slots = alloc_slots(table->slot_count);
	if (!table->data || !table->slots)
		return elfobj_error(NULL, NULL, "out of memory");
	table->size = 1;	/* offset 0 is the empty string */
	return 0;
}

void string_table_free(struct string_table *table)
{
	free(table->data);
	free(table->slots);
	memset(table, 0, sizeof(*table));
}

static int string_table_rehash(struct string_table *table)
{
	size_t count = table->slot_count * 2, i;
	uint32_t *slots = alloc_slots(count);

	if (!slots)
		return elfobj_error(NULL, NULL, "out of memory");
	for (i = 0; i < table->slot_count; i++) {
		uint32_t off = table->slots[i];
		size_t pos;

		if (off == EMPTY_SLOT)
			continue;
		pos = hash_name(table->data + off) & (count - 1);
		while (slots[pos] != EMPTY_SLOT)
			pos = (pos + 1) & (count - 1);
		slots[pos] = off;
	}
	free(table->slots);
	table->slots = slots;
	table->slot_count = count;
	return 0;
}

int64_t string_table_add(struct string_table *table, const char *str)
{
	size_t len = strlen(str) + 1, pos;

	if (!str[0])
		return 0;
	pos = hash_name(str) & (table->slot_count - 1);
	while (table->slots[pos] != EMPTY_SLOT) {
		if (strcmp(table->data + table->slots[pos], str) == 0)
			return table->slots[pos];
		pos = (pos + 1) & (table->slot_count - 1);
	}
	if (table->size + len > UINT32_MAX - 1)
		return elfobj_error(NULL, NULL, "string table too large");
	if (grow_array((void **)&table->data, &table->capacity, table->size + len, 1))
		return -1;
	uint32_t offset = table->size;

	memcpy(table->data + offset, str, len);
	table->slots[pos] = offset;
	table->size += len;
	if (++table->used * 2 > table->slot_count && string_table_rehash(table))
		return -1;
	return offset;
}

int name_map_init(struct name_map *map, const struct string_table *names)
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
		pos = hash_name(map->names->data + map->slots[i].name_off) & (count - 1);
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
	size_t pos = hash_name(name) & (map->slot_count - 1);

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
	size_t pos = hash_name(name) & (map->slot_count - 1);

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
		pos = hash_name(index->slots[i].name) & (count - 1);
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
	pos = hash_name(name) & (index->slot_count - 1);
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
