/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Shared by shrink.c, shrink_reach.c and shrink_place.c: one code section as shrink sees it. */
#ifndef BPFKEYS_SHRINK_H
#define BPFKEYS_SHRINK_H

#include <string.h>

#include "bpfkeys.h"

#define BPF_CLASS_MASK 0x07
#define BPF_CLASS_JMP 0x05
#define BPF_CLASS_JMP32 0x06
#define BPF_OP_MASK 0xf0
#define BPF_OP_JA 0x00
#define BPF_OP_CALL 0x80
#define BPF_OP_EXIT 0x90
#define BPF_SRC_X 0x08
#define BPF_JA_CODE 0x05
#define BPF_GOTOL_CODE 0x06
#define BPF_CALL_CODE 0x85
#define BPF_LD_IMM64_CODE 0x18
#define BPF_PSEUDO_CALL 1
#define BPF_PSEUDO_FUNC 4
#define NO_SITE SIZE_MAX

/* Working state of one code section. */
struct code_scan {
	const uint8_t *text;
	uint64_t count;
	bool has_sites;
	bool *second_half;   /* [count]: second slot of an ld_imm64 */
	bool *root;          /* [count] */
	bool *reachable;     /* [count] */
	size_t *site;        /* [count]: index in obj->sites, or NO_SITE */
};

static inline struct bk_insn insn_at(const struct code_scan *c, uint64_t i)
{
	struct bk_insn insn;

	memcpy(&insn, c->text + i * ELFOBJ_INSN_SIZE, sizeof(insn));
	return insn;
}

static inline bool is_jump_class(uint8_t code)
{
	return (code & BPF_CLASS_MASK) == BPF_CLASS_JMP || (code & BPF_CLASS_MASK) == BPF_CLASS_JMP32;
}

/* Target of a jump at i (any of ja, gotol, conditional), as an index. */
static inline int64_t jump_target(const struct bk_insn *insn, uint64_t i)
{
	if (insn->code == BPF_GOTOL_CODE)
		return (int64_t)i + insn->imm + 1;
	return (int64_t)i + insn->off + 1;
}

static inline bool is_plain_ja(const struct bk_insn *insn)
{
	return (insn->code == BPF_JA_CODE || insn->code == BPF_GOTOL_CODE) && !bk_insn_src(insn);
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
