/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Shared by shrink.c, shrink_reach.c and shrink_place.c: one code section as shrink sees it. */
#ifndef BPFKEYS_SHRINK_H
#define BPFKEYS_SHRINK_H

#include <string.h>

#include "bpfkeys.h"

#define NO_SITE SIZE_MAX

/* Working state of one code section. */
struct code_scan {
	const uint8_t *text;
	uint64_t count;
	bool has_sites;
	bool *second_half; /* [count]: second slot of an ld_imm64 */
	bool *root; /* [count] */
	bool *reachable; /* [count] */
	size_t *site; /* [count]: index in obj->sites, or NO_SITE */
};

static inline struct bk_insn insn_at(const struct code_scan *c, uint64_t i)
{
	struct bk_insn insn;

	memcpy(&insn, c->text + i * ELFOBJ_INSN_SIZE, sizeof(insn));
	return insn;
}

static inline bool is_jump_class(uint8_t code)
{
	return BPF_CLASS(code) == BPF_JMP || BPF_CLASS(code) == BPF_JMP32;
}

/* Target of a jump at i (any of ja, gotol, conditional), as an index. */
static inline int64_t jump_target(const struct bk_insn *insn, uint64_t i)
{
	if (insn->code == ELFOBJ_JA32_CODE)
		return (int64_t)i + insn->imm + 1;
	return (int64_t)i + insn->off + 1;
}

static inline bool is_plain_ja(const struct bk_insn *insn)
{
	return (insn->code == ELFOBJ_JA_CODE || insn->code == ELFOBJ_JA32_CODE) &&
	       !bk_insn_src(insn);
}

/* shrink_reach.c */
void bk_shrink_scan_init(struct bk_object *obj, struct code_scan *c, size_t s);
/* entries from calls, callbacks and data relocations, into sections with sites */
int bk_shrink_roots(struct bk_object *obj, struct code_scan *scan);
int bk_shrink_reach(struct bk_object *obj, struct code_scan *c, size_t s, const bool *taken);

/* Puts the block a taken site jumps to in the site's place where that is safe
 * (shrink_place.c): one round over the current order (pos: its inverse),
 * rewritten in place; returns the moves made. */
size_t bk_place_blocks(const struct bk_object *obj, const struct code_scan *c, const bool *taken,
		       const bool *kept, uint64_t *order, const uint64_t *pos);

#endif
