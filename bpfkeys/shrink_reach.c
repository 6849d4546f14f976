// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Shrink, reachability: in each code section with sites, reachability starts
 * from every entry: function starts, call and callback targets (pc-relative
 * or relocated, from any section), code outside any function, and code that
 * another section points at through a relocation. It follows fallthrough and
 * jumps; a site has only the edge its state takes. Constructs whose targets
 * cannot be followed (gotox, .jumptables) are refused in a section that would
 * change, as are jumps to what is not an instruction start.
 */
#include <stdlib.h>
#include <string.h>

#include "shrink.h"

/* A code symbol's section if it may move (has sites), else 0. */
static size_t moving_section(const struct bk_object *obj, const struct code_scan *scan,
			     const GElf_Sym *sym)
{
	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE ||
	    sym->st_shndx >= obj->section_count || !obj->sections[sym->st_shndx].exec)
		return 0;
	return scan[sym->st_shndx].has_sites ? sym->st_shndx : 0;
}

static int add_root(struct bk_object *obj, struct code_scan *scan, size_t section, int64_t target,
		    const char *from, uint64_t at, const char *what)
{
	struct code_scan *c = &scan[section];

	if (!c->has_sites)
		return 0;
	if (target < 0 || (uint64_t)target >= c->count || c->second_half[target]) {
		bk_error(obj,
			 "section '%s': offset 0x%llx: %s targets instruction %lld of section %s, "
			 "which is not an instruction start: cannot remove dead code",
			 from, (unsigned long long)at, what, (long long)target,
			 obj->sections[section].name);
		return -1;
	}
	c->root[target] = true;
	return 0;
}

/* Calls and callback addresses in code section s: entries of their targets. */
static int code_roots(struct bk_object *obj, struct code_scan *scan, size_t s)
{
	const struct bk_section *sec = &obj->sections[s];
	struct code_scan *c = &scan[s];

	for (uint64_t i = 0; i < c->count; i++) {
		struct bk_insn insn = insn_at(c, i);
		uint64_t at = i * ELFOBJ_INSN_SIZE;
		size_t nrel;
		const GElf_Rel *rel = bk_find_rel(sec, at, &nrel);

		if (c->second_half[i])
			continue;
		if (insn.code == ELFOBJ_CALL_CODE && bk_insn_src(&insn) == BPF_PSEUDO_CALL &&
		    !rel &&
		    add_root(obj, scan, s, (int64_t)i + insn.imm + 1, sec->name, at, "call"))
			return -1;
		if (insn.code == ELFOBJ_LD_IMM64_CODE && bk_insn_src(&insn) == BPF_PSEUDO_FUNC &&
		    !rel &&
		    add_root(obj, scan, s, (int64_t)i + insn.imm + 1, sec->name, at,
			     "function address"))
			return -1;
		for (size_t r = 0; r < nrel; r++) {
			const GElf_Sym *sym = &obj->symbols[GELF_R_SYM(rel[r].r_info)];
			size_t target_sec = moving_section(obj, scan, sym);
			int64_t byte = (int64_t)sym->st_value + insn.imm;

			if (!target_sec)
				continue;
			/* libbpf: a relocated call's callee is sym_off / 8 + imm + 1 */
			if (insn.code == ELFOBJ_CALL_CODE)
				byte = (int64_t)sym->st_value +
				       ((int64_t)insn.imm + 1) * ELFOBJ_INSN_SIZE;
			/* any other kind of relocation into moving code is refused in write_code */
			if ((insn.code == ELFOBJ_CALL_CODE || insn.code == ELFOBJ_LD_IMM64_CODE) &&
			    add_root(obj, scan, target_sec,
				     byte % ELFOBJ_INSN_SIZE ? -1 : byte / ELFOBJ_INSN_SIZE,
				     sec->name, at,
				     insn.code == ELFOBJ_CALL_CODE ? "call" : "function address"))
				return -1;
		}
	}
	return 0;
}

/* Relocations of data sections into code that may move keep their targets. */
static int data_roots(struct bk_object *obj, struct code_scan *scan, size_t s)
{
	const struct bk_section *sec = &obj->sections[s];

	if (sec->exec || !bk_shrink_relocations_matter(obj, s))
		return 0;
	for (size_t r = 0; r < sec->rel_count; r++) {
		const GElf_Rel *rel = &sec->rels[r];
		const GElf_Sym *sym = &obj->symbols[GELF_R_SYM(rel->r_info)];
		size_t target_sec = moving_section(obj, scan, sym);
		int64_t addend;

		if (!target_sec)
			continue;
		if (bk_shrink_read_addend(obj, s, rel, &addend))
			return -1;
		int64_t byte = (int64_t)sym->st_value + addend;

		if (byte == (int64_t)obj->sections[target_sec].shdr.sh_size)
			continue; /* the end of the code: stays the end */
		if (add_root(obj, scan, target_sec,
			     byte % ELFOBJ_INSN_SIZE ? -1 : byte / ELFOBJ_INSN_SIZE, sec->name,
			     rel->r_offset, "relocation"))
			return -1;
	}
	return 0;
}

/* Successors of instruction i: *n of them in next[]; -1 on what cannot be followed. */
static int successors(struct bk_object *obj, const struct code_scan *c, size_t s, uint64_t i,
		      const bool *taken, int64_t next[2], int *n)
{
	const struct bk_section *sec = &obj->sections[s];
	struct bk_insn insn = insn_at(c, i);
	uint64_t at = i * ELFOBJ_INSN_SIZE;

	*n = 0;
	if (c->site[i] != NO_SITE) {
		const struct bk_site *site = &obj->sites[c->site[i]];

		next[(*n)++] = taken[c->site[i]] ? (int64_t)site->target : (int64_t)i + 1;
		return 0;
	}
	if (insn.code == ELFOBJ_LD_IMM64_CODE) {
		size_t nrel;
		const GElf_Rel *rel = bk_find_rel(sec, at, &nrel);

		if (rel) {
			const GElf_Sym *sym = &obj->symbols[GELF_R_SYM(rel->r_info)];

			if (sym->st_shndx && sym->st_shndx < obj->section_count &&
			    strcmp(obj->sections[sym->st_shndx].name, ".jumptables") == 0) {
				bk_error(obj,
					 "section '%s': offset 0x%llx: loads jump table '%s' "
					 "(gotox): removing dead code from a section with jump "
					 "tables is not supported",
					 sec->name, (unsigned long long)at,
					 obj->symbol_names[GELF_R_SYM(rel->r_info)]);
				return -1;
			}
		}
		next[(*n)++] = (int64_t)i + 2;
		return 0;
	}
	if (!is_jump_class(insn.code)) {
		next[(*n)++] = (int64_t)i + 1;
		return 0;
	}
	switch
		BPF_OP(insn.code)
		{
		case BPF_JA:
			if (insn.code & BPF_X) {
				bk_error(obj,
					 "section '%s': offset 0x%llx: gotox (indirect jump): "
					 "removing dead code around it is not supported",
					 sec->name, (unsigned long long)at);
				return -1;
			}
			next[(*n)++] = jump_target(&insn, i);
			return 0;
		case BPF_CALL:
			next[(*n)++] = (int64_t)i + 1;
			return 0;
		case BPF_EXIT:
			return 0;
		default: /* conditional jumps, may_goto */
			next[(*n)++] = (int64_t)i + 1;
			next[(*n)++] = jump_target(&insn, i);
			return 0;
		}
}

int bk_shrink_reach(struct bk_object *obj, struct code_scan *c, size_t s, const bool *taken)
{
	uint64_t *stack = bk_xcalloc(c->count, sizeof(uint64_t));
	size_t depth = 0;
	int err = 0;

	for (uint64_t i = 0; i < c->count; i++)
		if (c->root[i] && !c->reachable[i]) {
			c->reachable[i] = true;
			stack[depth++] = i;
		}
	while (depth && !err) {
		uint64_t i = stack[--depth];
		int64_t next[2];
		int n;

		if (successors(obj, c, s, i, taken, next, &n)) {
			err = -1;
			break;
		}
		for (int k = 0; k < n; k++) {
			int64_t t = next[k];

			if (t == (int64_t)c->count && (t == (int64_t)i + 1 || t == (int64_t)i + 2))
				continue; /* falls off the section: the verifier's to reject */
			if (t < 0 || (uint64_t)t >= c->count || c->second_half[t]) {
				bk_error(obj,
					 "section '%s': offset 0x%llx: jump to instruction %lld, "
					 "which is not an instruction start of the section: cannot "
					 "remove dead code",
					 obj->sections[s].name,
					 (unsigned long long)i * ELFOBJ_INSN_SIZE, (long long)t);
				err = -1;
				break;
			}
			if (!c->reachable[t]) {
				c->reachable[t] = true;
				stack[depth++] = (uint64_t)t;
			}
		}
	}
	free(stack);
	return err;
}

int bk_shrink_roots(struct bk_object *obj, struct code_scan *scan)
{
	for (size_t s = 1; s < obj->section_count; s++)
		if (obj->sections[s].exec ? code_roots(obj, scan, s) : data_roots(obj, scan, s))
			return -1;
	return 0;
}

void bk_shrink_scan_init(struct bk_object *obj, struct code_scan *c, size_t s)
{
	const struct bk_section *sec = &obj->sections[s];

	c->text = sec->data;
	c->count = sec->shdr.sh_size / ELFOBJ_INSN_SIZE;
	c->second_half = bk_xcalloc(c->count, sizeof(bool));
	c->root = bk_xcalloc(c->count, sizeof(bool));
	c->reachable = bk_xcalloc(c->count, sizeof(bool));
	c->site = bk_xcalloc(c->count, sizeof(size_t));
	for (uint64_t i = 0; i < c->count; i++) {
		c->site[i] = NO_SITE;
		c->root[i] = true; /* until a function covers it */
	}
	for (uint64_t i = 0; i + 1 < c->count; i++)
		if (insn_at(c, i).code == ELFOBJ_LD_IMM64_CODE)
			c->second_half[++i] = true;
	for (size_t f = 0; f < obj->function_count; f++) {
		const struct bk_function *fn = &obj->functions[f];

		if (fn->section != s)
			continue;
		for (uint64_t i = fn->start; i < fn->start + fn->count && i < c->count; i++)
			c->root[i] = false;
		if (fn->start < c->count)
			c->root[fn->start] = true;
	}
	for (uint64_t i = 0; i < c->count; i++)
		if (c->second_half[i])
			c->root[i] = false;
}
