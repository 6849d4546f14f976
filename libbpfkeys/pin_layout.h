/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* libbpfkeys: the records of a pin directory (pin.c) and of a pinned flip's
 * journal (journal.c), as they are stored in their ARRAY maps. */
#ifndef LIBBPFKEYS_PIN_LAYOUT_H
#define LIBBPFKEYS_PIN_LAYOUT_H

#include <stdint.h>

#define PIN_MAGIC "bpfkeys-stock-1"
#define JOURNAL_MAGIC "bpfkeys-flip-1"
#define META_VALUE_SIZE 256
#define OBJECT_CHUNK 4096
/* a key or program name as stored: at most this many characters */
#define PIN_NAME_MAX 247

/* DIR/meta [0] */
struct meta_header {
	char magic[16];
	uint64_t object_size;
	uint32_t key_count;
	uint32_t reserved;
	char object_name[64];
	uint8_t pad[META_VALUE_SIZE - 96];
};

/* DIR/meta [1..key_count]; DIR/journal's key records (reserved: the old state) */
struct meta_key {
	char name[PIN_NAME_MAX + 1];
	uint32_t on;
	uint32_t reserved;
};

enum journal_direction {
	JOURNAL_FORWARD, /* complete the flip */
	JOURNAL_BACK, /* the flipper gave up: roll back */
};

/* DIR/journal [0]; then program_count journal_program, then key_count meta_key */
struct journal_header {
	char magic[16];
	uint32_t direction;
	uint32_t program_count;
	uint32_t key_count;
	uint8_t pad[META_VALUE_SIZE - 28];
};

struct journal_program {
	char name[PIN_NAME_MAX + 1];
	uint32_t old_id; /* the program every link ran before the flip */
	uint32_t new_id; /* pinned at progs/NAME:new until the flip is done */
};

_Static_assert(sizeof(struct meta_header) == META_VALUE_SIZE, "meta header size");
_Static_assert(sizeof(struct meta_key) == META_VALUE_SIZE, "meta key size");
_Static_assert(sizeof(struct journal_header) == META_VALUE_SIZE, "journal header size");
_Static_assert(sizeof(struct journal_program) == META_VALUE_SIZE, "journal program size");

#endif /* LIBBPFKEYS_PIN_LAYOUT_H */
