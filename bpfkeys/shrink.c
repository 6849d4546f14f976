// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Shrink (lower's code phase): fix every static branch at its key's state and
 * delete the code that no path reaches any more, so that a stock verifier
 * meets neither a branch it cannot fold nor an "unreachable insn".
 * shrink_reach.c finds what is reachable; here, scanning the output order
 * backwards:
 *   - an unreachable instruction goes (ld_imm64 as one unit of 2 slots);
 *   - a site whose branch is not taken goes;
 *   - a taken site becomes `ja` (`gotol` if the new offset needs 32 bits), or
 *     goes when the next instruction kept is its target; so does a plain
 *     `ja`/`gotol` that the deletions turned into a jump to the next one.
 * shrink_place.c may first move a taken site's out-of-line block into its
 * place. Kept instructions get new indices (a deleted one maps to the next
 * one kept in the output order, which is where control now goes) and the new
 * code has jumps, pc-relative calls and callback addresses, and the in-place
 * addends of relocated calls and ld_imm64 into moved code rewritten.
 * Symbols, relocations, .BTF.ext and addends outside the code are
 * shrink_refs.c.
 */
#include <stdlib.h>
#include <string.h>

#include "bpfkeys.h"
#include "shrink.h"

/*
 * Which instructions stay, scanning the new order backwards so a jump knows
 * what follows it: a jump (site or plain ja) whose target is the next kept
 * instruction in that order goes; so do unreachable and not-taken ones.
 */
static void choose_kept(const struct bk_object *obj, const struct code_scan *c, const bool *taken,
			const uint64_t *order, const uint64_t *pos, bool *kept)
{
	uint64_t next_kept = c->count; /* order position of the first kept one after q */

	for (uint64_t q = c->count; q-- > 0;) {
		uint64_t k = order[q];
		struct bk_insn insn = insn_at(c, k);
		bool keep;

		if (c->second_half[k])
			keep = k > 0 && c->reachable[k - 1];
		else if (!c->reachable[k])
			keep = false;
		else if (c->site[k] != NO_SITE) {
			uint64_t target = pos[obj->sites[c->site[k]].target];

			keep = taken[c->site[k]] && !(target > q && next_kept >= target);
		} else if (is_plain_ja(&insn)) {
			uint64_t target = pos[jump_target(&insn, k)];

			keep = !(target > q && next_kept >= target);
		} else
			keep = true;
		kept[k] = keep;
		if (keep)
			next_kept = q;
	}
}

/* New indices from the order: a deleted instruction gets the next kept one's. */
static void number(struct bk_code_layout *l)
{
	uint64_t n = 0;

	for (uint64_t q = 0; q < l->count; q++) {
		l->new_index[l->order[q]] = n;
		n += l->kept[l->order[q]];
		l->moved |= !l->kept[l->order[q]] || l->order[q] != q;
	}
	l->new_index[l->count] = n;
}

/* Do the 16-bit jumps still reach (placement can lengthen a jump)? */
static bool offsets_fit(const struct bk_object *obj, const struct code_scan *c,
			const struct bk_code_layout *l)
{
	(void)obj;
	for (uint64_t k = 0; k < c->count; k++) {
		struct bk_insn insn = insn_at(c, k);
		int64_t rel;

		if (!l->kept[k] || c->second_half[k] || c->site[k] != NO_SITE ||
		    !is_jump_class(insn.code) || insn.code == ELFOBJ_JA32_CODE ||
		    BPF_OP(insn.code) == BPF_CALL || BPF_OP(insn.code) == BPF_EXIT)
			continue;
		rel = (int64_t)l->new_index[jump_target(&insn, k)] - (int64_t)l->new_index[k] - 1;
		if (rel < INT16_MIN || rel > INT16_MAX)
			return false;
	}
	return true;
}

/* Kept instructions and their order and indices; blocks placed if allowed. */
static void lay_out(const struct bk_object *obj, const struct code_scan *c, const bool *taken,
		    struct bk_code_layout *l, bool place)
{
	uint64_t *pos = bk_xcalloc(c->count + 1, sizeof(uint64_t));

	for (uint64_t i = 0; i <= c->count; i++)
		pos[i] = i;
	for (uint64_t i = 0; i < c->count; i++)
		l->order[i] = i;
	l->moved = false;
	choose_kept(obj, c, taken, l->order, pos, l->kept);
	/* each move deletes a kept jump (the site's), so rounds end; a few suffice */
	for (int round = 0; place && round < 16; round++) {
		if (!bk_place_blocks(obj, c, taken, l->kept, l->order, pos))
			break;
		for (uint64_t q = 0; q < c->count; q++)
			pos[l->order[q]] = q;
		choose_kept(obj, c, taken, l->order, pos, l->kept);
	}
	number(l);
	free(pos);
}

uint64_t bk_shrink_byte(const struct bk_shrink *shrink, size_t section, uint64_t offset)
{
	const struct bk_code_layout *l = &shrink->layout[section];
	uint64_t i = offset / ELFOBJ_INSN_SIZE;

	if (!l->moved)
		return offset;
	if (i >= l->count)
		return l->new_index[l->count] * ELFOBJ_INSN_SIZE +
		       (offset - l->count * ELFOBJ_INSN_SIZE);
	return l->new_index[i] * ELFOBJ_INSN_SIZE + (l->kept[i] ? offset % ELFOBJ_INSN_SIZE : 0);
}

static int64_t new_rel(const struct bk_code_layout *l, uint64_t from, int64_t target)
{
	return (int64_t)l->new_index[target] - (int64_t)l->new_index[from] - 1;
}

/* A relocated call or ld_imm64 into moved code: its in-place addend. */
static int fix_relocated(struct bk_object *obj, const struct bk_shrink *shrink, size_t s,
			 uint64_t i, const GElf_Rel *rel, struct bk_insn *insn, bool second_half)
{
	const GElf_Sym *sym = &obj->symbols[GELF_R_SYM(rel->r_info)];
	size_t ts = sym->st_shndx;
	uint32_t type = (uint32_t)GELF_R_TYPE(rel->r_info);

	if (ts == SHN_UNDEF || ts >= SHN_LORESERVE || ts >= obj->section_count ||
	    !shrink->layout[ts].moved)
		return 0;
	int64_t new_sym = (int64_t)bk_shrink_byte(shrink, ts, sym->st_value);

	/* only what code_roots made an entry can be retargeted */
	if (insn->code == ELFOBJ_CALL_CODE && type == ELFOBJ_R_BPF_64_32 && !second_half) {
		uint64_t target =
			sym->st_value / ELFOBJ_INSN_SIZE + (uint64_t)((int64_t)insn->imm + 1);

		insn->imm = (int32_t)((int64_t)shrink->layout[ts].new_index[target] -
				      new_sym / ELFOBJ_INSN_SIZE - 1);
	} else if (insn->code == ELFOBJ_LD_IMM64_CODE && type == ELFOBJ_R_BPF_64_64 &&
		   !second_half) {
		uint64_t byte = sym->st_value + (uint64_t)(int64_t)insn->imm;

		insn->imm = (int32_t)((int64_t)bk_shrink_byte(shrink, ts, byte) - new_sym);
	} else {
		bk_error(obj,
			 "section '%s': offset 0x%llx: relocation of type %u against '%s', in code "
			 "that lower shrinks: cannot move its target",
			 obj->sections[s].name, (unsigned long long)i * ELFOBJ_INSN_SIZE, type,
			 obj->symbol_names[GELF_R_SYM(rel->r_info)]);
		return -1;
	}
	return 0;
}

/*
 * bk_find_rel() for a caller that goes up the section: a cursor into the
 * sorted relocations instead of a search per instruction (a tenth of lower's
 * time at a million sites).
 */
static const GElf_Rel *relocations_at(const struct bk_section *sec, uint64_t offset, size_t *cursor,
				      size_t *count)
{
	while (*cursor < sec->rel_count && sec->rels[*cursor].r_offset < offset)
		(*cursor)++;
	*count = 0;
	while (*cursor + *count < sec->rel_count && sec->rels[*cursor + *count].r_offset == offset)
		(*count)++;
	return *count ? &sec->rels[*cursor] : NULL;
}

/* The new bytes of code section s. */
static int write_code(struct bk_object *obj, struct bk_shrink *shrink, const struct code_scan *c,
		      size_t s)
{
	const struct bk_section *sec = &obj->sections[s];
	struct bk_code_layout *l = &shrink->layout[s];
	uint8_t *out = bk_xcalloc(l->new_index[c->count] + 1, ELFOBJ_INSN_SIZE);
	uint64_t tail = sec->shdr.sh_size % ELFOBJ_INSN_SIZE;
	size_t rel_cursor = 0;

	l->code = out;
	for (uint64_t i = 0; i < c->count; i++) {
		struct bk_insn insn = insn_at(c, i);
		size_t nrel;
		const GElf_Rel *rel;

		if (!l->kept[i])
			continue;
		if (c->second_half[i]) {
			/* copied as is (a relocation there into moving code is refused below) */
		} else if (c->site[i] != NO_SITE) {
			int64_t rel16 = new_rel(l, i, (int64_t)obj->sites[c->site[i]].target);

			memset(&insn, 0, sizeof(insn));
			if (rel16 >= INT16_MIN && rel16 <= INT16_MAX) {
				insn.code = ELFOBJ_JA_CODE;
				insn.off = (int16_t)rel16;
			} else {
				insn.code = ELFOBJ_JA32_CODE;
				insn.imm = (int32_t)rel16;
			}
		} else if (l->moved && is_jump_class(insn.code) && BPF_OP(insn.code) != BPF_CALL &&
			   BPF_OP(insn.code) != BPF_EXIT) {
			int64_t r = new_rel(l, i, jump_target(&insn, i));

			if (insn.code == ELFOBJ_JA32_CODE)
				insn.imm = (int32_t)r;
			else
				insn.off = (int16_t)r;
		} else if (l->moved &&
			   !relocations_at(sec, i * ELFOBJ_INSN_SIZE, &rel_cursor, &nrel) &&
			   ((insn.code == ELFOBJ_CALL_CODE &&
			     bk_insn_src(&insn) == BPF_PSEUDO_CALL) ||
			    (insn.code == ELFOBJ_LD_IMM64_CODE &&
			     bk_insn_src(&insn) == BPF_PSEUDO_FUNC))) {
			insn.imm = (int32_t)new_rel(l, i, (int64_t)i + insn.imm + 1);
		}
		rel = relocations_at(sec, i * ELFOBJ_INSN_SIZE, &rel_cursor, &nrel);
		for (size_t r = 0; r < nrel; r++)
			if (fix_relocated(obj, shrink, s, i, &rel[r], &insn, c->second_half[i]))
				return -1;
		memcpy(out + l->new_index[i] * ELFOBJ_INSN_SIZE, &insn, sizeof(insn));
	}
	/* bytes past the last whole instruction (none in a valid object) stay */
	memcpy(out + l->new_index[c->count] * ELFOBJ_INSN_SIZE,
	       sec->data + c->count * ELFOBJ_INSN_SIZE, tail);
	l->size = l->new_index[c->count] * ELFOBJ_INSN_SIZE + tail;
	return 0;
}

int bk_shrink_code(struct bk_object *obj, const bool *taken, struct bk_shrink *shrink)
{
	struct code_scan *scan = bk_xcalloc(obj->section_count, sizeof(*scan));
	int err = -1;

	memset(shrink, 0, sizeof(*shrink));
	shrink->layout = bk_xcalloc(obj->section_count, sizeof(*shrink->layout));
	shrink->section_count = obj->section_count;
	for (size_t s = 1; s < obj->section_count; s++)
		if (obj->sections[s].exec)
			bk_shrink_scan_init(obj, &scan[s], s);
	for (size_t k = 0; k < obj->site_count; k++) {
		const struct bk_site *site = &obj->sites[k];

		scan[site->section].site[site->insn] = k;
		scan[site->section].has_sites = true;
	}
	if (bk_shrink_roots(obj, scan))
		goto out;
	for (size_t s = 1; s < obj->section_count; s++) {
		struct code_scan *c = &scan[s];
		struct bk_code_layout *l = &shrink->layout[s];

		if (!obj->sections[s].exec)
			continue;
		l->count = c->count;
		l->kept = bk_xcalloc(c->count, sizeof(bool));
		l->new_index = bk_xcalloc(c->count + 1, sizeof(uint64_t));
		l->order = bk_xcalloc(c->count, sizeof(uint64_t));
		if (c->has_sites) {
			if (bk_shrink_reach(obj, c, s, taken))
				goto out;
			lay_out(obj, c, taken, l, true);
			if (!offsets_fit(obj, c, l))
				lay_out(obj, c, taken, l, false);
		} else {
			for (uint64_t i = 0; i < c->count; i++) {
				l->kept[i] = true;
				l->order[i] = i;
			}
			number(l);
		}
		shrink->moved |= l->moved;
	}
	/* every code section is rewritten once positions moved anywhere: calls cross sections */
	for (size_t s = 1; s < obj->section_count; s++)
		if (obj->sections[s].exec && (scan[s].has_sites || shrink->moved) &&
		    write_code(obj, shrink, &scan[s], s))
			goto out;
	err = 0;
out:
	for (size_t s = 0; s < obj->section_count; s++) {
		free(scan[s].second_half);
		free(scan[s].root);
		free(scan[s].reachable);
		free(scan[s].site);
	}
	free(scan);
	return err;
}

void bk_shrink_free(struct bk_shrink *shrink)
{
	for (size_t s = 0; s < shrink->section_count && shrink->layout; s++) {
		free(shrink->layout[s].kept);
		free(shrink->layout[s].new_index);
		free(shrink->layout[s].order);
		free(shrink->layout[s].code);
	}
	free(shrink->layout);
	for (size_t b = 0; b < shrink->buffer_count; b++)
		free(shrink->buffers[b]);
	free(shrink->buffers);
	free(shrink->btf_ext_records);
	memset(shrink, 0, sizeof(*shrink));
}
