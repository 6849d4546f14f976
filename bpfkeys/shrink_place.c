// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Block placement (lower): a taken site jumps forward to a block T..E that
 * clang laid out of line (an unlikely branch turned on, a likely one turned
 * off). Deleting the site alone leaves a `ja` to T and E's `ja` back: two
 * jumps the source with the branch fixed would not have. When it is safe,
 * the order becomes
 *     ... site T..E site+1..T-1 E+1 ...
 * so the site jumps to the next instruction (nothing), and E's `ja` back to
 * site+1 does too. Safe means nothing falls into a place it did not fall
 * into before: E is the first instruction from T on that does not fall
 * through (exit or a kept ja), the last instruction reached before T does not
 * fall through either (a kept exit or ja), T..E and the site lie in one
 * function, and moved spans do not overlap. Every jump is retargeted from
 * the order afterwards (shrink.c), so other jumps into T..E stay right.
 * Spans moved in one round do not overlap; shrink.c runs rounds on the new
 * order (a site that was inside a moved span gets its turn in the next).
 */
#include <stdlib.h>

#include "shrink.h"

/* Does a kept instruction let control fall to the next one? */
static bool falls_through(const struct bk_object *obj, const struct code_scan *c, const bool *taken,
			  uint64_t k)
{
	struct bk_insn insn = insn_at(c, k);

	(void)obj;
	if (c->site[k] != NO_SITE)
		return !taken[c->site[k]];
	if (is_plain_ja(&insn))
		return false;
	return !(is_jump_class(insn.code) && BPF_OP(insn.code) == BPF_EXIT);
}

/* End E of the block at position T: the first kept instruction that does not fall through. */
static bool block_end(const struct bk_object *obj, const struct code_scan *c, const bool *taken,
		      const bool *kept, const uint64_t *order, uint64_t t, uint64_t fn_end,
		      uint64_t *end)
{
	for (uint64_t p = t; p < fn_end; p++) {
		uint64_t k = order[p];

		/* deleted ones are passed over: dead ones, and jumps to the next kept */
		if (c->second_half[k] || !c->reachable[k])
			continue;
		if (kept[k] && !falls_through(obj, c, taken, k)) {
			*end = p;
			return true;
		}
	}
	return false;
}

/* The last instruction reached before position T must be kept and not fall into T. */
static bool nothing_falls_into(const struct bk_object *obj, const struct code_scan *c,
			       const bool *taken, const bool *kept, const uint64_t *order,
			       uint64_t site, uint64_t t)
{
	for (uint64_t p = t; p-- > site + 1;) {
		uint64_t k = order[p];

		if (c->second_half[k] || !c->reachable[k])
			continue;
		return kept[k] && !falls_through(obj, c, taken, k);
	}
	return false;
}

size_t bk_place_blocks(const struct bk_object *obj, const struct code_scan *c, const bool *taken,
		       const bool *kept, uint64_t *order, const uint64_t *pos)
{
	uint64_t *next = bk_xcalloc(c->count, sizeof(uint64_t));
	uint64_t busy_until = 0; /* spans moved in this round end before this position */
	size_t moves = 0;

	memcpy(next, order, c->count * sizeof(uint64_t));
	for (uint64_t q = 0; q < c->count; q++) {
		uint64_t i = order[q], t, end, fn_end, p;
		size_t k = c->site[i];
		const struct bk_function *fn;

		if (k == NO_SITE || !taken[k] || !kept[i] || !c->reachable[i] || q < busy_until)
			continue;
		/* a function's instructions keep its positions: moves stay inside it */
		fn = &obj->functions[obj->sites[k].function];
		fn_end = fn->start + fn->count;
		t = pos[obj->sites[k].target];
		if (t <= q + 1 || t >= fn_end || fn->section != obj->sites[k].section ||
		    !block_end(obj, c, taken, kept, order, t, fn_end, &end) ||
		    !nothing_falls_into(obj, c, taken, kept, order, q, t))
			continue;
		p = q + 1;
		for (uint64_t m = t; m <= end; m++)
			next[p++] = order[m];
		for (uint64_t m = q + 1; m < t; m++)
			next[p++] = order[m];
		busy_until = end + 1;
		moves++;
	}
	memcpy(order, next, c->count * sizeof(uint64_t));
	free(next);
	return moves;
}
