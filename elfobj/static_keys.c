// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * .static_keys entries (docs/abi.md section 2), checked once for both tools:
 * 16 bytes each (insn_off, target_off, flags), one relocation per field of
 * the field's type, both offsets against the section symbol of one code
 * section, and the instruction there a static branch whose jump target and
 * polarity agree with the entry. What a key must be (a map in .maps, a
 * static key by its BTF) is for each tool to say: bpfld may see a key
 * declared here and defined in another object.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfobj.h"

static const char *const field_names[3] = { "insn_off", "target_off", "key" };

/*
 * LLVM picks NODYLD32 or ABS32 for a 32-bit "label - ." by the kind of label
 * (assembler temporary or basic block), not by field; both mean "32-bit
 * in-place section offset" in an ET_REL BPF object.
 */
static const char *const type_names[3] = { "R_BPF_64_NODYLD32 or R_BPF_64_ABS32",
					   "R_BPF_64_NODYLD32 or R_BPF_64_ABS32",
					   "R_BPF_64_ABS64" };

static bool field_accepts(int field, uint32_t type)
{
	if (field == 2)
		return type == ELFOBJ_R_BPF_64_ABS64;
	return type == ELFOBJ_R_BPF_64_NODYLD32 || type == ELFOBJ_R_BPF_64_ABS32;
}

const char *elfobj_function_at(const struct elfobj *obj, size_t section, uint64_t offset)
{
	for (size_t i = 1; i < obj->symbol_count; i++) {
		const Elf64_Sym *sym = &obj->symbols[i];

		if (ELF64_ST_TYPE(sym->st_info) == STT_FUNC && sym->st_shndx == section &&
		    offset >= sym->st_value && offset - sym->st_value < sym->st_size)
			return obj->symbol_names[i];
	}
	return NULL;
}

struct entry_check {
	const struct elfobj *obj;
	const char *sec; /* ".static_keys" */
	size_t entry;
	const char *key;
};

#define entry_error(c, fmt, ...)                                                           \
	elfobj_error((c)->obj->path, (c)->sec, "entry %zu (offset 0x%zx): key '%s': " fmt, \
		     (c)->entry, (c)->entry *ELFOBJ_STATIC_KEY_ENTRY_SIZE, (c)->key,       \
		     ##__VA_ARGS__)

/*
 * An entry error about the instruction at insn_off, prefixed with the function
 * holding it. Finding that function scans the symbol table, so it is only done
 * here, when a message is printed: on the path every valid entry takes it cost
 * one scan per entry (most of `bpfkeys resolve` at 80k sites).
 */
static int site_error(const struct entry_check *c, size_t section, uint32_t insn_off,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int site_error(const struct entry_check *c, size_t section, uint32_t insn_off,
		      const char *fmt, ...)
{
	const char *function = elfobj_function_at(c->obj, section, insn_off);
	const char *code = c->obj->sections[section].name;
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (function)
		return entry_error(c, "function '%s' (section '%s', offset 0x%x): %s", function,
				   code, insn_off, what);
	return entry_error(c, "section '%s', offset 0x%x: %s", code, insn_off, what);
}

static int read_entry(struct entry_check *c, const uint8_t *raw, const Elf64_Rel *const rel[3],
		      struct elfobj_static_branch *branch)
{
	const struct elfobj *obj = c->obj;
	const Elf64_Sym *sym[2] = { &obj->symbols[ELF64_R_SYM(rel[0]->r_info)],
				    &obj->symbols[ELF64_R_SYM(rel[1]->r_info)] };
	uint32_t insn_off, target_off;
	const struct elfobj_section *code;
	uint8_t insn[8];
	uint64_t flags;
	int16_t off;
	int32_t imm;
	int64_t target;
	unsigned src, dst;

	memcpy(&insn_off, raw, 4);
	memcpy(&target_off, raw + 4, 4);
	memcpy(&flags, raw + 8, 8);
	for (int i = 0; i < 2; i++) {
		if (ELF64_ST_TYPE(sym[i]->st_info) != STT_SECTION ||
		    sym[i]->st_shndx == SHN_UNDEF || sym[i]->st_shndx >= SHN_LORESERVE ||
		    obj->sections[sym[i]->st_shndx].shdr.sh_type != SHT_PROGBITS ||
		    !(obj->sections[sym[i]->st_shndx].shdr.sh_flags & SHF_EXECINSTR))
			return entry_error(c,
					   "field %s is relocated against '%s', not the section "
					   "symbol of a code section",
					   field_names[i],
					   obj->symbol_names[ELF64_R_SYM(rel[i]->r_info)]);
	}
	if (sym[0]->st_shndx != sym[1]->st_shndx)
		return entry_error(
			c,
			"branch (section '%s') and target (section '%s') are in different sections",
			obj->sections[sym[0]->st_shndx].name, obj->sections[sym[1]->st_shndx].name);
	if (flags & ~ELFOBJ_STATIC_KEY_ENTRY_LIKELY)
		return entry_error(c, "unknown flags 0x%llx", (unsigned long long)flags);
	code = &obj->sections[sym[0]->st_shndx];
	if (insn_off % ELFOBJ_INSN_SIZE || insn_off >= code->shdr.sh_size)
		return entry_error(
			c, "section '%s', offset 0x%x: site is misaligned or outside the section",
			code->name, insn_off);
	memcpy(insn, code->data + insn_off, sizeof(insn));
	src = insn[1] >> 4;
	dst = insn[1] & 0xf;
	memcpy(&off, insn + 2, 2);
	memcpy(&imm, insn + 4, 4);
	if ((insn[0] != ELFOBJ_JA_CODE && insn[0] != ELFOBJ_JA32_CODE) || dst != 0 ||
	    (src != BPF_STATIC_BRANCH_JA &&
	     src != (BPF_STATIC_BRANCH_JA | BPF_STATIC_BRANCH_NOP)) ||
	    (insn[0] == ELFOBJ_JA_CODE && imm != 0) || (insn[0] == ELFOBJ_JA32_CODE && off != 0))
		return site_error(c, sym[0]->st_shndx, insn_off,
				  "instruction (code 0x%02x, regs 0x%02x, off %d, imm %d) is not a "
				  "static branch",
				  insn[0], insn[1], off, imm);
	branch->section = sym[0]->st_shndx;
	branch->insn = insn_off / ELFOBJ_INSN_SIZE;
	branch->wide = insn[0] == ELFOBJ_JA32_CODE;
	branch->jump_when_off = src & BPF_STATIC_BRANCH_NOP;
	branch->likely = flags & ELFOBJ_STATIC_KEY_ENTRY_LIKELY;
	target = (int64_t)branch->insn + 1 + (branch->wide ? imm : off);
	if (target_off % ELFOBJ_INSN_SIZE || target != (int64_t)(target_off / ELFOBJ_INSN_SIZE))
		return site_error(c, sym[0]->st_shndx, insn_off,
				  "entry target offset 0x%x differs from the instruction's jump "
				  "target 0x%llx",
				  target_off, (unsigned long long)target * ELFOBJ_INSN_SIZE);
	if (target < 0 || (uint64_t)target >= code->shdr.sh_size / ELFOBJ_INSN_SIZE)
		return site_error(c, sym[0]->st_shndx, insn_off,
				  "jump target 0x%llx is outside the section",
				  (unsigned long long)target * ELFOBJ_INSN_SIZE);
	branch->target = (uint64_t)target;
	if (branch->likely != branch->jump_when_off)
		return site_error(
			c, sym[0]->st_shndx, insn_off, "entry says %s but the instruction is %s",
			branch->likely ? "likely" : "unlikely",
			branch->jump_when_off
				? (branch->wide ? "nop_or_gotol (likely)" : "nop_or_goto (likely)")
				: (branch->wide ? "gotol_or_nop (unlikely)"
						: "goto_or_nop (unlikely)"));
	return 0;
}

static int compare_branches(const void *a, const void *b)
{
	const struct elfobj_static_branch *x = a, *y = b;

	if (x->section != y->section)
		return x->section < y->section ? -1 : 1;
	if (x->insn != y->insn)
		return x->insn < y->insn ? -1 : 1;
	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

/* The field (0, 1, 2) a relocation at `offset` into an entry patches, -1 if none. */
static int field_at(uint64_t offset)
{
	uint64_t in_entry = offset % ELFOBJ_STATIC_KEY_ENTRY_SIZE;

	return in_entry == 0 ? 0 : in_entry == 4 ? 1 : in_entry == 8 ? 2 : -1;
}

/*
 * Every relocation is on a field, of that field's type, one per field. The
 * relocations come sorted by offset, so a second one on a field is next to
 * the first (no table of every entry's fields: at a million entries, filling
 * one was a tenth of reading them).
 */
static int check_relocations(const struct elfobj *obj, const struct elfobj_section *keys,
			     const Elf64_Rel *rels, size_t count)
{
	const char *rel_name = obj->sections[keys->rel_section].name;
	int errors = 0;

	for (size_t i = 0; i < count; i++) {
		uint64_t off = rels[i].r_offset;
		uint32_t type = (uint32_t)ELF64_R_TYPE(rels[i].r_info);
		int field = field_at(off);
		size_t entry = off / ELFOBJ_STATIC_KEY_ENTRY_SIZE;

		if (off >= keys->shdr.sh_size || field < 0) {
			errors +=
				elfobj_error(obj->path, rel_name,
					     "relocation at offset 0x%llx is not on an entry field",
					     (unsigned long long)off) != 0;
			continue;
		}
		if (!field_accepts(field, type))
			errors += elfobj_error(obj->path, rel_name,
					       "entry %zu (offset 0x%zx): field %s: relocation "
					       "type %u, expected %s",
					       entry, entry * ELFOBJ_STATIC_KEY_ENTRY_SIZE,
					       field_names[field], type, type_names[field]) != 0;
		if (i > 0 && rels[i - 1].r_offset == off)
			errors += elfobj_error(obj->path, rel_name,
					       "entry %zu (offset 0x%zx): field %s has more than "
					       "one relocation",
					       entry, entry * ELFOBJ_STATIC_KEY_ENTRY_SIZE,
					       field_names[field]) != 0;
	}
	return errors ? -1 : 0;
}

int elfobj_read_static_keys(const struct elfobj *obj, struct elfobj_static_branch **branches,
			    size_t *branch_count)
{
	const struct elfobj_section *keys = NULL;
	const Elf64_Rel *rels;
	Elf64_Rel *sorted = NULL; /* a sorted copy, if the file's are out of order */
	size_t count, rel_count = 0, next_rel = 0;
	int errors = 0;

	*branches = NULL;
	*branch_count = 0;
	for (size_t i = 1; i < obj->section_count; i++) {
		if (strcmp(obj->sections[i].name, ELFOBJ_STATIC_KEYS_SECTION))
			continue;
		if (keys)
			return elfobj_error(obj->path, ELFOBJ_STATIC_KEYS_SECTION,
					    "more than one .static_keys section");
		keys = &obj->sections[i];
	}
	if (!keys)
		return 0;
	if (keys->shdr.sh_type != SHT_PROGBITS)
		return elfobj_error(obj->path, keys->name, "not SHT_PROGBITS");
	if (keys->shdr.sh_size % ELFOBJ_STATIC_KEY_ENTRY_SIZE)
		return elfobj_error(
			obj->path, keys->name, "size %llu is not a multiple of the %d-byte entry",
			(unsigned long long)keys->shdr.sh_size, ELFOBJ_STATIC_KEY_ENTRY_SIZE);
	count = keys->shdr.sh_size / ELFOBJ_STATIC_KEY_ENTRY_SIZE;
	if (!count)
		return 0;
	if (count > UINT32_MAX)
		return elfobj_error(obj->path, keys->name, "%zu entries: more than 4G", count);
	if (!keys->rel_section)
		return elfobj_error(obj->path, keys->name,
				    "has %zu entries but no .rel.static_keys", count);
	/* in offset order, so that messages come in entry order */
	rels = elfobj_sorted_relocations(obj, (size_t)(keys - obj->sections), &rel_count, &sorted);
	/* not zeroed: each branch kept is written in full (a million are 32 MB) */
	*branches = malloc(count * sizeof(**branches));
	if (*branches)
		elfobj_populate(*branches, count * sizeof(**branches));
	if ((!rels && rel_count) || !*branches) {
		elfobj_error(obj->path, NULL, "out of memory");
		errors = -ENOMEM; /* said; told apart for a library caller */
		goto out;
	}
	if (check_relocations(obj, keys, rels, rel_count)) {
		errors = -1;
		goto out;
	}
	for (size_t e = 0; e < count; e++) {
		struct entry_check check = { obj, keys->name, e, NULL };
		struct elfobj_static_branch *branch = &(*branches)[*branch_count];
		const Elf64_Rel *by_field[3] = { NULL, NULL, NULL };
		int missing = -1;

		/* checked: each relocation is on a field, one per field, in offset order */
		for (; next_rel < rel_count &&
		       rels[next_rel].r_offset < (e + 1) * ELFOBJ_STATIC_KEY_ENTRY_SIZE;
		     next_rel++)
			by_field[field_at(rels[next_rel].r_offset)] = &rels[next_rel];
		for (int f = 0; f < 3 && missing < 0; f++)
			if (!by_field[f])
				missing = f;
		if (missing >= 0) {
			errors +=
				elfobj_error(obj->path, keys->name,
					     "entry %zu (offset 0x%zx): field %s has no relocation",
					     e, e * ELFOBJ_STATIC_KEY_ENTRY_SIZE,
					     field_names[missing]) != 0;
			continue;
		}
		branch->entry = (uint32_t)e;
		branch->key_symbol = ELF64_R_SYM(by_field[2]->r_info);
		check.key = obj->symbol_names[branch->key_symbol];
		if (read_entry(&check, keys->data + e * ELFOBJ_STATIC_KEY_ENTRY_SIZE, by_field,
			       branch))
			errors++;
		else
			(*branch_count)++;
	}
	if (errors)
		goto out;
	elfobj_sort(*branches, *branch_count, sizeof(**branches), compare_branches);
	for (size_t i = 1; i < *branch_count; i++) {
		const struct elfobj_static_branch *a = &(*branches)[i - 1], *b = &(*branches)[i];

		if (a->section == b->section && a->insn == b->insn)
			errors += elfobj_error(obj->path, keys->name,
					       "entries %zu and %zu (keys '%s' and '%s') are for "
					       "one instruction (section '%s', offset 0x%llx)",
					       (size_t)a->entry, (size_t)b->entry,
					       obj->symbol_names[a->key_symbol],
					       obj->symbol_names[b->key_symbol],
					       obj->sections[a->section].name,
					       (unsigned long long)a->insn * ELFOBJ_INSN_SIZE) != 0;
	}
out:
	free(sorted);
	if (errors) {
		free(*branches);
		*branches = NULL;
		*branch_count = 0;
		return errors == -ENOMEM ? -ENOMEM : -1;
	}
	return 0;
}
