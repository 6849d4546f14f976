// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The string table both tools write (bpfld's .strtab, the strings of
 * bpfkeys' .bpfkeys): insertion order, each string once, found by an
 * open-addressing FNV-1a hash so that adding N names stays linear in N.
 * A slot keeps the string's hash beside its offset: a probe compares
 * strings only when the hashes agree, and growing the table does not hash
 * every string again. With a million names both were cache misses into the
 * strings, most of the time of `bpfkeys resolve` at one site per function.
 */
#include <stdlib.h>
#include <string.h>

#include "elfobj.h"

#define EMPTY_SLOT UINT64_MAX

/* A slot: the low 32 bits of the hash, then the offset (never UINT32_MAX). */
static uint64_t slot_of(uint64_t hash, uint32_t offset)
{
	return hash << 32 | offset;
}

static uint32_t slot_hash(uint64_t slot)
{
	return (uint32_t)(slot >> 32);
}

static uint32_t slot_offset(uint64_t slot)
{
	return (uint32_t)slot;
}

uint64_t elfobj_hash_name(const char *s)
{
	size_t length;

	return elfobj_hash_name_length(s, &length);
}

uint64_t elfobj_hash_name_length(const char *s, size_t *length)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	size_t i = 0;

	for (; s[i]; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	*length = i;
	return h;
}

static uint64_t *alloc_slots(size_t count)
{
	uint64_t *slots = malloc(count * sizeof(*slots));

	if (slots)
		memset(slots, 0xff, count * sizeof(*slots));
	return slots;
}

/* Starts @table on @data (capacity bytes, owned by the table unless @fixed): "" at offset 0. */
static int strtab_start(struct elfobj_strtab *table, char *data, size_t capacity, bool fixed)
{
	memset(table, 0, sizeof(*table));
	table->data = data;
	table->capacity = capacity;
	table->fixed = fixed;
	table->slot_count = 1024;
	table->slots = alloc_slots(table->slot_count);
	if (!table->data || !table->slots) {
		elfobj_strtab_free(table);
		return elfobj_error(NULL, NULL, "out of memory");
	}
	table->data[0] = '\0';
	table->size = 1; /* offset 0 is the empty string */
	return 0;
}

int elfobj_strtab_init(struct elfobj_strtab *table)
{
	return strtab_start(table, calloc(1, 4096), 4096, false);
}

int elfobj_strtab_init_in(struct elfobj_strtab *table, char *data, size_t capacity)
{
	if (!capacity) {
		memset(table, 0, sizeof(*table));
		return elfobj_error(NULL, NULL, "internal error: no room for the string table");
	}
	return strtab_start(table, data, capacity, true);
}

void elfobj_strtab_free(struct elfobj_strtab *table)
{
	if (!table->fixed)
		free(table->data);
	free(table->slots);
	memset(table, 0, sizeof(*table));
}

static int rehash(struct elfobj_strtab *table)
{
	size_t count = table->slot_count * 2;
	uint64_t *slots = alloc_slots(count);

	if (!slots)
		return elfobj_error(NULL, NULL, "out of memory");
	for (size_t i = 0; i < table->slot_count; i++) {
		uint64_t slot = table->slots[i];
		size_t pos;

		if (slot == EMPTY_SLOT)
			continue;
		pos = slot_hash(slot) & (count - 1);
		while (slots[pos] != EMPTY_SLOT)
			pos = (pos + 1) & (count - 1);
		slots[pos] = slot;
	}
	free(table->slots);
	table->slots = slots;
	table->slot_count = count;
	return 0;
}

/* Room for `bytes` more bytes of strings, the buffer doubled as often as needed. */
static int reserve_bytes(struct elfobj_strtab *table, size_t bytes)
{
	size_t capacity = table->capacity;
	char *grown;

	if (table->size + bytes <= table->capacity)
		return 0;
	if (table->fixed)
		return elfobj_error(NULL, NULL, "internal error: string table full");
	while (capacity < table->size + bytes)
		capacity *= 2;
	grown = realloc(table->data, capacity);
	if (!grown)
		return elfobj_error(NULL, NULL, "out of memory");
	table->data = grown;
	table->capacity = capacity;
	return 0;
}

/* Slots for `strings` names and room for `bytes` of them: no growing while they are added. */
int elfobj_strtab_reserve(struct elfobj_strtab *table, size_t strings, size_t bytes)
{
	size_t count = table->slot_count;

	while (count / 2 < table->used + strings)
		count *= 2;
	while (table->slot_count < count)
		if (rehash(table))
			return -1;
	return reserve_bytes(table, bytes);
}

int64_t elfobj_strtab_add(struct elfobj_strtab *table, const char *str)
{
	if (!str[0])
		return 0;
	return elfobj_strtab_add_hashed(table, str, strlen(str), elfobj_hash_name(str));
}

/* str's `length` bytes and NUL at the end of the strings: the offset, <0 on error */
static int64_t append(struct elfobj_strtab *table, const char *str, size_t length)
{
	size_t len = length + 1;
	uint32_t offset;

	if (table->size + len > UINT32_MAX - 1)
		return elfobj_error(NULL, NULL, "string table too large");
	if (reserve_bytes(table, len))
		return -1;
	offset = (uint32_t)table->size;
	memcpy(table->data + offset, str, len);
	table->size += len;
	return offset;
}

int64_t elfobj_strtab_add_hashed(struct elfobj_strtab *table, const char *str, size_t length,
				 uint64_t full_hash)
{
	size_t pos;
	uint32_t hash;
	int64_t offset;

	if (!length)
		return 0;
	hash = (uint32_t)full_hash;
	pos = hash & (table->slot_count - 1);
	while (table->slots[pos] != EMPTY_SLOT) {
		uint64_t slot = table->slots[pos];

		if (slot_hash(slot) == hash && strcmp(table->data + slot_offset(slot), str) == 0)
			return slot_offset(slot);
		pos = (pos + 1) & (table->slot_count - 1);
	}
	offset = append(table, str, length);
	if (offset < 0)
		return -1;
	table->slots[pos] = slot_of(hash, (uint32_t)offset);
	if (++table->used * 2 > table->slot_count && rehash(table))
		return -1;
	return offset;
}

int64_t elfobj_strtab_append_unique(struct elfobj_strtab *table, const char *str, size_t length)
{
	return length ? append(table, str, length) : 0;
}
