// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Resolve: .static_keys entries -> validated sites (section, function,
 * instruction, key, polarity) -> key instances, one per (key, program)
 * that reaches a site of the key through the call graph (abi.md sections
 * 2 and 5). All errors of one kind are reported before failing, so a user
 * sees every bad site at once.
 */
#include <stdlib.h>
#include <string.h>

#include "bpfkeys.h"

#define STATIC_KEY_ENTRY_SIZE 16
#define BPF_JA_CODE 0x05     /* BPF_JMP | BPF_JA */
#define BPF_JA32_CODE 0x06   /* BPF_JMP32 | BPF_JA */

static const char *const field_names[3] = {"insn_off", "target_off", "key"};
/*
 * LLVM picks NODYLD32 or ABS32 for a 32-bit "label - ." by the kind of label
 * (assembler temporary or basic block), not by field; both mean "32-bit
 * in-place section offset" in an ET_REL BPF object, so either is accepted on
 * the two offset fields (abi.md section 2).
 */
static const char *const type_names[3] = {"R_BPF_64_NODYLD32 or R_BPF_64_ABS32",
					  "R_BPF_64_NODYLD32 or R_BPF_64_ABS32", "R_BPF_64_ABS64"};

static bool field_accepts(int field, unsigned type)
{
	if (field == 2)
		return type == BK_R_BPF_64_ABS64;
	return type == BK_R_BPF_64_NODYLD32 || type == BK_R_BPF_64_ABS32;
}

static int field_of(uint64_t offset)
{
	switch (offset % STATIC_KEY_ENTRY_SIZE) {
	case 0: return 0;
	case 4: return 1;
	case 8: return 2;
	default: return -1;
	}
}

/* Every relocation of .rel.static_keys is on a field, of that field's type, one per field. */
static int check_entry_relocations(struct bk_object *obj, const struct bk_section *sk)
{
	int errors = 0;

	for (size_t i = 0; i < sk->rel_count; i++) {
		const GElf_Rel *rel = &sk->rels[i];
		uint64_t off = rel->r_offset;
		int field = field_of(off);
		unsigned type = (unsigned)GELF_R_TYPE(rel->r_info);

		if (off >= sk->shdr.sh_size || field < 0) {
			bk_error(obj, "section '%s': relocation at offset 0x%llx is not on an entry field",
				 BK_STATIC_KEYS_REL_SEC, (unsigned long long)off);
			errors++;
			continue;
		}
		if (!field_accepts(field, type)) {
			bk_error(obj, "section '%s': entry %llu field %s: relocation type %u, expected %s",
				 BK_STATIC_KEYS_REL_SEC, (unsigned long long)(off / STATIC_KEY_ENTRY_SIZE),
				 field_names[field], type, type_names[field]);
			errors++;
		}
		if (i > 0 && sk->rels[i - 1].r_offset == off) {
			bk_error(obj, "section '%s': entry %llu field %s has more than one relocation",
				 BK_STATIC_KEYS_REL_SEC, (unsigned long long)(off / STATIC_KEY_ENTRY_SIZE),
				 field_names[field]);
			errors++;
		}
	}
	return errors ? -1 : 0;
}

static uint32_t read_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t read_u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static int read_entry(struct bk_object *obj, const struct bk_section *sk, size_t entry,
		      struct bk_site *site)
{
	const uint8_t *raw = sk->data + entry * STATIC_KEY_ENTRY_SIZE;
	uint64_t base = (uint64_t)entry * STATIC_KEY_ENTRY_SIZE;
	const GElf_Rel *rel[3];
	size_t sym[3], n;
	const char *kname;
	const struct bk_section *code;
	const struct bk_function *fn;
	struct bk_key *key;
	uint32_t insn_off = read_u32(raw), target_off = read_u32(raw + 4);
	uint64_t flags = read_u64(raw + 8);
	struct bk_insn insn;
	ssize_t k, f;
	int64_t target;

	for (int i = 0; i < 3; i++) {
		rel[i] = bk_find_rel(sk, base + (uint64_t)i * 4, &n);
		if (!rel[i]) {
			bk_error(obj, "section '%s': entry %zu (offset 0x%llx): field %s has no relocation",
				 BK_STATIC_KEYS_SEC, entry, (unsigned long long)base, field_names[i]);
			return -1;
		}
		sym[i] = GELF_R_SYM(rel[i]->r_info);
	}

	kname = obj->symbol_names[sym[2]];

	/* the site's section */
	for (int i = 0; i < 2; i++) {
		const GElf_Sym *s = &obj->symbols[sym[i]];

		if (GELF_ST_TYPE(s->st_info) != STT_SECTION || s->st_shndx == SHN_UNDEF ||
		    s->st_shndx >= SHN_LORESERVE || !obj->sections[s->st_shndx].exec) {
			bk_error(obj, "section '%s': entry %zu (offset 0x%llx): key '%s': field %s is relocated against '%s', not the section symbol of a code section",
				 BK_STATIC_KEYS_SEC, entry, (unsigned long long)base, kname,
				 field_names[i], obj->symbol_names[sym[i]]);
			return -1;
		}
	}
	if (obj->symbols[sym[0]].st_shndx != obj->symbols[sym[1]].st_shndx) {
		bk_error(obj, "section '%s': entry %zu (offset 0x%llx): key '%s': branch (section %s) and target (section %s) are in different sections",
			 BK_STATIC_KEYS_SEC, entry, (unsigned long long)base, kname,
			 obj->symbol_names[sym[0]], obj->symbol_names[sym[1]]);
		return -1;
	}
	/* the key */
	k = bk_key_by_symbol(obj, sym[2]);
	if (k < 0) {
		bk_error(obj, "section '%s': entry %zu (offset 0x%llx): key symbol '%s' (section %s) is not a map in .maps",
			 BK_STATIC_KEYS_SEC, entry, (unsigned long long)base, kname,
			 obj->symbols[sym[2]].st_shndx < obj->section_count ?
			 bk_section_name(obj, obj->symbols[sym[2]].st_shndx) : "<special>");
		return -1;
	}
	key = &obj->keys[k];
	if (!key->is_static_key) {
		bk_error(obj, "section '%s': entry %zu (offset 0x%llx): key '%s' is not a static key (map type %llu, map_extra 0x%llx; expected type %d with BPF_F_STATIC_KEY)",
			 BK_STATIC_KEYS_SEC, entry, (unsigned long long)base, kname,
			 (unsigned long long)key->map_type, (unsigned long long)key->map_extra,
			 BK_MAP_TYPE_INSN_SET);
		return -1;
	}
	if (flags & ~BK_ENTRY_LIKELY) {
		bk_error(obj, "section '%s': entry %zu (offset 0x%llx): key '%s': unknown flags 0x%llx",
			 BK_STATIC_KEYS_SEC, entry, (unsigned long long)base, kname,
			 (unsigned long long)flags);
		return -1;
	}

	site->entry = entry;
	site->section = obj->symbols[sym[0]].st_shndx;
	site->key = (size_t)k;
	site->likely = flags & BK_ENTRY_LIKELY;
	code = &obj->sections[site->section];
	if (insn_off % BK_INSN_SIZE || insn_off >= code->shdr.sh_size) {
		bk_error(obj, "key '%s': section %s offset 0x%x: site is misaligned or outside the section",
			 kname, code->name, insn_off);
		return -1;
	}
	site->insn = insn_off / BK_INSN_SIZE;
	f = bk_function_at(obj, site->section, site->insn);
	if (f < 0) {
		bk_error(obj, "key '%s': section %s offset 0x%x: site is not inside a function",
			 kname, code->name, insn_off);
		return -1;
	}
	site->function = (size_t)f;
	fn = &obj->functions[f];

	/* the instruction */
	memcpy(&insn, code->data + insn_off, sizeof(insn));
	if ((insn.code != BPF_JA_CODE && insn.code != BPF_JA32_CODE) || bk_insn_dst(&insn) != 0 ||
	    (bk_insn_src(&insn) != BK_BRANCH_JA && bk_insn_src(&insn) != (BK_BRANCH_JA | BK_BRANCH_NOP)) ||
	    (insn.code == BPF_JA_CODE && insn.imm != 0) || (insn.code == BPF_JA32_CODE && insn.off != 0)) {
		bk_error(obj, "key '%s': function '%s' (section %s offset 0x%x): instruction (code 0x%02x, regs 0x%02x, off %d, imm %d) is not a static branch",
			 kname, fn->name, code->name, insn_off, insn.code, insn.regs, insn.off, insn.imm);
		return -1;
	}
	site->wide = insn.code == BPF_JA32_CODE;
	site->jump_when_off = bk_insn_src(&insn) & BK_BRANCH_NOP;
	target = (int64_t)site->insn + 1 + (site->wide ? insn.imm : insn.off);
	if (target_off % BK_INSN_SIZE || target != (int64_t)(target_off / BK_INSN_SIZE)) {
		bk_error(obj, "key '%s': function '%s' (section %s offset 0x%x): entry target offset 0x%x differs from the instruction's jump target 0x%llx",
			 kname, fn->name, code->name, insn_off, target_off,
			 (unsigned long long)target * BK_INSN_SIZE);
		return -1;
	}
	if (target < (int64_t)fn->start || target >= (int64_t)(fn->start + fn->count)) {
		bk_error(obj, "key '%s': function '%s' (section %s offset 0x%x): jump target 0x%llx is outside the function",
			 kname, fn->name, code->name, insn_off, (unsigned long long)target * BK_INSN_SIZE);
		return -1;
	}
	site->target = (uint64_t)target;
	if (site->likely != site->jump_when_off) {
		bk_error(obj, "key '%s': function '%s' (section %s offset 0x%x): entry says %s but the instruction is %s",
			 kname, fn->name, code->name, insn_off,
			 site->likely ? "likely" : "unlikely",
			 site->jump_when_off ? (site->wide ? "nop_or_gotol (likely)" : "nop_or_goto (likely)")
					     : (site->wide ? "gotol_or_nop (unlikely)" : "goto_or_nop (unlikely)"));
		return -1;
	}
	return 0;
}

static int cmp_site(const void *a, const void *b)
{
	const struct bk_site *x = a, *y = b;

	if (x->function != y->function)
		return x->function < y->function ? -1 : 1;
	if (x->insn != y->insn)
		return x->insn < y->insn ? -1 : 1;
	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

int bk_read_sites(struct bk_object *obj)
{
	const struct bk_section *sk;
	size_t count;
	int errors = 0;

	if (!obj->static_keys_section)
		return 0;
	sk = &obj->sections[obj->static_keys_section];
	if (sk->shdr.sh_size % STATIC_KEY_ENTRY_SIZE) {
		bk_error(obj, "section '%s': size %llu is not a multiple of the %d-byte entry",
			 BK_STATIC_KEYS_SEC, (unsigned long long)sk->shdr.sh_size, STATIC_KEY_ENTRY_SIZE);
		return -1;
	}
	count = sk->shdr.sh_size / STATIC_KEY_ENTRY_SIZE;
	if (count && !obj->static_keys_rel_section) {
		bk_error(obj, "section '%s' has %zu entries but no %s", BK_STATIC_KEYS_SEC, count,
			 BK_STATIC_KEYS_REL_SEC);
		return -1;
	}
	if (check_entry_relocations(obj, sk))
		return -1;
	obj->sites = bk_xcalloc(count, sizeof(*obj->sites));
	for (size_t i = 0; i < count; i++) {
		if (read_entry(obj, sk, i, &obj->sites[obj->site_count]))
			errors++;
		else
			obj->site_count++;
	}
	if (errors)
		return -1;
	qsort(obj->sites, obj->site_count, sizeof(*obj->sites), cmp_site);
	for (size_t i = 1; i < obj->site_count; i++) {
		const struct bk_site *a = &obj->sites[i - 1], *b = &obj->sites[i];

		if (a->function == b->function && a->insn == b->insn) {
			bk_error(obj, "function '%s' (section %s offset 0x%llx): two .static_keys entries (%zu and %zu, keys '%s' and '%s') for one instruction",
				 obj->functions[a->function].name, obj->sections[a->section].name,
				 (unsigned long long)a->insn * BK_INSN_SIZE, a->entry, b->entry,
				 obj->keys[a->key].name, obj->keys[b->key].name);
			errors++;
		}
	}
	for (size_t i = 0; i < obj->site_count; i++) {
		struct bk_function *fn = &obj->functions[obj->sites[i].function];

		if (!fn->site_count)
			fn->first_site = i;
		fn->site_count++;
		obj->keys[obj->sites[i].key].site_count++;
	}
	return errors ? -1 : 0;
}

/* BPF code cannot touch a static key (abi.md section 4): no relocation from code or .maps. */
int bk_check_key_references(struct bk_object *obj)
{
	int errors = 0;

	for (size_t s = 1; s < obj->section_count; s++) {
		const struct bk_section *sec = &obj->sections[s];

		if (!sec->exec && s != obj->maps_section)
			continue;
		for (size_t r = 0; r < sec->rel_count; r++) {
			ssize_t k = bk_key_by_symbol(obj, GELF_R_SYM(sec->rels[r].r_info));
			ssize_t f;

			if (k < 0 || !obj->keys[k].is_static_key)
				continue;
			f = sec->exec ? bk_function_at(obj, s, sec->rels[r].r_offset / BK_INSN_SIZE) : -1;
			bk_error(obj, "key '%s' is referenced from section %s offset 0x%llx%s%s%s: a static key is not a map BPF code can use",
				 obj->keys[k].name, sec->name, (unsigned long long)sec->rels[r].r_offset,
				 f >= 0 ? " (function '" : "", f >= 0 ? obj->functions[f].name : "",
				 f >= 0 ? "')" : "");
			errors++;
		}
	}
	return errors ? -1 : 0;
}

struct triple {
	size_t key, program_rank, site;
};

static int cmp_triple(const void *a, const void *b)
{
	const struct triple *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->program_rank != y->program_rank)
		return x->program_rank < y->program_rank ? -1 : 1;
	return x->site < y->site ? -1 : x->site > y->site;
}

static const struct bk_object *sort_obj;

static int cmp_program_name(const void *a, const void *b)
{
	const size_t *x = a, *y = b;

	return strcmp(sort_obj->functions[*x].name, sort_obj->functions[*y].name);
}

int bk_build_instances(struct bk_object *obj)
{
	size_t *programs = bk_xcalloc(obj->function_count, sizeof(size_t)), program_count = 0;
	size_t *stack = bk_xcalloc(obj->function_count + 1, sizeof(size_t));
	size_t *seen = bk_xcalloc(obj->function_count, sizeof(size_t)); /* stamp: rank + 1 */
	bool *reached = bk_xcalloc(obj->function_count, sizeof(bool));
	struct triple *triples = NULL;
	size_t triple_count = 0, triple_cap = 0;
	int err = 0;

	for (size_t i = 0; i < obj->function_count; i++)
		if (obj->functions[i].is_program)
			programs[program_count++] = i;
	sort_obj = obj;
	qsort(programs, program_count, sizeof(size_t), cmp_program_name);
	for (size_t r = 1; r < program_count; r++)
		if (strcmp(obj->functions[programs[r]].name, obj->functions[programs[r - 1]].name) == 0) {
			bk_error(obj, "two programs named '%s' (sections %s and %s)",
				 obj->functions[programs[r]].name,
				 obj->sections[obj->functions[programs[r - 1]].section].name,
				 obj->sections[obj->functions[programs[r]].section].name);
			err = -1;
			goto out;
		}

	for (size_t r = 0; r < program_count; r++) {
		size_t depth = 0;

		stack[depth++] = programs[r];
		seen[programs[r]] = r + 1;
		while (depth) {
			const struct bk_function *fn = &obj->functions[stack[--depth]];

			reached[fn - obj->functions] = true;
			for (size_t s = fn->first_site; s < fn->first_site + fn->site_count; s++) {
				if (triple_count == triple_cap) {
					triple_cap = triple_cap ? 2 * triple_cap : 64;
					triples = bk_xrealloc(triples, triple_cap, sizeof(*triples));
				}
				triples[triple_count++] = (struct triple){obj->sites[s].key, r, s};
			}
			for (size_t c = 0; c < fn->callee_count; c++)
				if (seen[fn->callees[c]] != r + 1) {
					seen[fn->callees[c]] = r + 1;
					stack[depth++] = fn->callees[c];
				}
		}
	}
	if (triple_count)
		qsort(triples, triple_count, sizeof(*triples), cmp_triple);

	obj->instance_sites = bk_xcalloc(triple_count, sizeof(size_t));
	obj->instance_site_count = triple_count;
	obj->instances = bk_xcalloc(triple_count, sizeof(*obj->instances));
	for (size_t t = 0; t < triple_count; t++) {
		struct bk_instance *inst = obj->instance_count ? &obj->instances[obj->instance_count - 1] : NULL;

		if (!inst || inst->key != triples[t].key || inst->program != programs[triples[t].program_rank]) {
			inst = &obj->instances[obj->instance_count++];
			inst->key = triples[t].key;
			inst->program = programs[triples[t].program_rank];
			inst->first_site = t;
			obj->keys[inst->key].instance_count++;
		}
		inst->site_count++;
		obj->instance_sites[t] = triples[t].site;
	}

	for (size_t i = 0; i < obj->key_count; i++) {
		const struct bk_key *key = &obj->keys[i];

		if (!key->is_static_key)
			continue;
		if (!key->site_count)
			bk_warn(obj, "key '%s' is unused: no .static_keys entry names it", key->name);
		else if (!key->instance_count)
			bk_warn(obj, "key '%s' is unused: no program reaches its %zu site(s)",
				key->name, key->site_count);
	}
	for (size_t i = 0; i < obj->function_count; i++)
		if (obj->functions[i].site_count && !reached[i])
			bk_warn(obj, "function '%s' (section %s) has %zu static-key site(s) but no program calls it",
				obj->functions[i].name, obj->sections[obj->functions[i].section].name,
				obj->functions[i].site_count);
out:
	free(triples);
	free(programs);
	free(stack);
	free(seen);
	free(reached);
	return err;
}

int bk_analyze(struct bk_object *obj)
{
	if (bk_read_keys(obj) || bk_build_functions(obj) || bk_build_callgraph(obj) ||
	    bk_read_sites(obj) || bk_check_key_references(obj) ||
	    bk_build_instances(obj))
		return -1;
	return 0;
}
