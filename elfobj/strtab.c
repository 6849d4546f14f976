// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The string table both tools write (bpfld's .strtab, the strings of
 * bpfkeys' .bpfkeys): insertion order, each string once, found by an
 * open-addressing FNV-1a hash so that adding N names stays linear in N.
 */
#include <stdlib.h>
#include <string.h>

#include "elfobj.h"

#define EMPTY_SLOT UINT32_MAX

uint64_t elfobj_hash_name(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

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

int elfobj_strtab_init(struct elfobj_strtab *table)
{
	memset(table, 0, sizeof(*table));
	table->capacity = 4096;
	table->data = calloc(1, table->capacity);
	table->slot_count = 1024;
	table->slots = alloc_slots(table->slot_count);
	if (!table->data || !table->slots) {
		elfobj_strtab_free(table);
		return elfobj_error(NULL, NULL, "out of memory");
	}
	table->size = 1; /* offset 0 is the empty string */
	return 0;
}

void elfobj_strtab_free(struct elfobj_strtab *table)
{
	free(table->data);
	free(table->slots);
	memset(table, 0, sizeof(*table));
}

static int rehash(struct elfobj_strtab *table)
{
	size_t count = table->slot_count * 2;
	uint32_t *slots = alloc_slots(count);

	if (!slots)
		return elfobj_error(NULL, NULL, "out of memory");
	for (size_t i = 0; i < table->slot_count; i++) {
		uint32_t off = table->slots[i];
		size_t pos;

		if (off == EMPTY_SLOT)
			continue;
		pos = elfobj_hash_name(table->data + off) & (count - 1);
		while (slots[pos] != EMPTY_SLOT)
			pos = (pos + 1) & (count - 1);
		slots[pos] = off;
	}
	free(table->slots);
	table->slots = slots;
	table->slot_count = count;
	return 0;
}

int64_t elfobj_strtab_add(struct elfobj_strtab *table, const char *str)
{
	size_t len = strlen(str) + 1, pos;
	uint32_t offset;

	if (!str[0])
		return 0;
	pos = elfobj_hash_name(str) & (table->slot_count - 1);
	while (table->slots[pos] != EMPTY_SLOT) {
		if (strcmp(table->data + table->slots[pos], str) == 0)
			return table->slots[pos];
		pos = (pos + 1) & (table->slot_count - 1);
	}
	if (table->size + len > UINT32_MAX - 1)
		return elfobj_error(NULL, NULL, "string table too large");
	if (table->size + len > table->capacity) {
		size_t capacity = table->capacity;
		char *grown;

		while (capacity < table->size + len)
			capacity *= 2;
		grown = realloc(table->data, capacity);
		if (!grown)
			return elfobj_error(NULL, NULL, "out of memory");
		table->data = grown;
		table->capacity = capacity;
	}
	offset = (uint32_t)table->size;
	memcpy(table->data + offset, str, len);
	table->slots[pos] = offset;
	table->size += len;
	if (++table->used * 2 > table->slot_count && rehash(table))
		return -1;
	return offset;
}
