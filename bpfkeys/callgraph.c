// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Functions and the call graph. A function is an STT_FUNC symbol in an
 * executable section; a program is a function in an executable section
 * other than .text (libbpf's definition). Edges are what makes the kernel
 * load a function as part of a program: BPF-to-BPF calls (call with
 * src_reg BPF_PSEUDO_CALL, relocated by ELFOBJ_R_BPF_64_32 or pc-relative within
 * the section) and callbacks taken by address (ld_imm64 relocated by
 * ELFOBJ_R_BPF_64_64 against a symbol in an executable section, as clang emits for
 * bpf_loop callbacks, or an unrelocated ld_imm64 with src_reg
 * BPF_PSEUDO_FUNC, pc-relative). A kfunc call is not an edge.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/btf.h>
#include <bpf/btf.h>

#include "bpfkeys.h"

static int cmp_function(const void *a, const void *b)
{
	const struct bk_function *x = a, *y = b;

	if (x->section != y->section)
		return x->section < y->section ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return strcmp(x->name, y->name);
}

int bk_build_functions(struct bk_object *obj)
{
	size_t n = 0, count = 0;

	/* counted first: the table is mapped in at once, and no larger */
	for (size_t i = 1; i < obj->symbol_count; i++) {
		const GElf_Sym *sym = &obj->symbols[i];

		count += GELF_ST_TYPE(sym->st_info) == STT_FUNC && sym->st_shndx != SHN_UNDEF &&
			 sym->st_shndx < SHN_LORESERVE && obj->sections[sym->st_shndx].exec;
	}
	obj->functions = bk_populated(bk_xcalloc(count + 1, sizeof(*obj->functions)), count,
				      sizeof(*obj->functions));
	for (size_t i = 1; i < obj->symbol_count; i++) {
		const GElf_Sym *sym = &obj->symbols[i];
		const struct bk_section *sec;
		struct bk_function *fn;

		if (GELF_ST_TYPE(sym->st_info) != STT_FUNC || sym->st_shndx == SHN_UNDEF ||
		    sym->st_shndx >= SHN_LORESERVE)
			continue;
		sec = &obj->sections[sym->st_shndx];
		if (!sec->exec)
			continue;
		if (sym->st_value % ELFOBJ_INSN_SIZE || sym->st_size % ELFOBJ_INSN_SIZE ||
		    sym->st_value > sec->shdr.sh_size ||
		    sym->st_size > sec->shdr.sh_size - sym->st_value) {
			bk_error(obj,
				 "function '%s' (section '%s', offset 0x%llx, size 0x%llx) is "
				 "misaligned or outside its section",
				 obj->symbol_names[i], sec->name, (unsigned long long)sym->st_value,
				 (unsigned long long)sym->st_size);
			return -1;
		}
		fn = &obj->functions[n++];
		fn->name = obj->symbol_names[i];
		fn->section = sym->st_shndx;
		fn->start = sym->st_value / ELFOBJ_INSN_SIZE;
		fn->count = sym->st_size / ELFOBJ_INSN_SIZE;
		fn->is_program = strcmp(sec->name, ".text") != 0;
	}
	obj->function_count = n;
	elfobj_sort(obj->functions, n, sizeof(*obj->functions), cmp_function);
	for (size_t i = 0; i < n; i++) {
		struct bk_function *fn = &obj->functions[i];
		struct bk_function *next = i + 1 < n && obj->functions[i + 1].section == fn->section
						   ? &obj->functions[i + 1]
						   : NULL;

		if (fn->count == 0) /* no st_size: up to the next function or the section end */
			fn->count = (next ? next->start
					  : obj->sections[fn->section].shdr.sh_size /
						     ELFOBJ_INSN_SIZE) -
				    fn->start;
		if (next && fn->start + fn->count > next->start) {
			bk_error(obj, "functions '%s' and '%s' overlap in section %s", fn->name,
				 next->name, obj->sections[fn->section].name);
			return -1;
		}
		if (!*fn->name) {
			bk_error(obj, "section '%s': function at offset 0x%llx has no name",
				 obj->sections[fn->section].name,
				 (unsigned long long)fn->start * ELFOBJ_INSN_SIZE);
			return -1;
		}
	}
	return 0;
}

ssize_t bk_function_at(const struct bk_object *obj, size_t section, uint64_t insn)
{
	size_t lo = 0, hi = obj->function_count;

	/* first function at or after (section, insn + 1) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct bk_function *fn = &obj->functions[mid];

		if (fn->section < section || (fn->section == section && fn->start <= insn))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	const struct bk_function *fn = &obj->functions[lo - 1];
	if (fn->section != section || insn >= fn->start + fn->count)
		return -1;
	return (ssize_t)(lo - 1);
}

/* The callees of the function being scanned are the last of obj->callees. */
static void add_callee(struct bk_object *obj, struct bk_function *fn, size_t callee)
{
	obj->callees =
		bk_xgrow(obj->callees, obj->callee_count, &obj->callee_cap, sizeof(*obj->callees));
	obj->callees[obj->callee_count++] = (uint32_t)callee;
	fn->callee_count++;
}

static int cmp_u32(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static int add_edge(struct bk_object *obj, size_t caller, size_t section, int64_t target,
		    uint64_t at, const char *what)
{
	const struct bk_section *sec = &obj->sections[section];
	ssize_t callee;

	if (target < 0 || (uint64_t)target >= sec->shdr.sh_size / ELFOBJ_INSN_SIZE ||
	    (callee = bk_function_at(obj, section, (uint64_t)target)) < 0) {
		bk_error(obj,
			 "function '%s': %s at section %s offset 0x%llx: target (section %s, "
			 "instruction %lld) is not in a function",
			 obj->functions[caller].name, what,
			 obj->sections[obj->functions[caller].section].name, (unsigned long long)at,
			 sec->name, (long long)target);
		return -1;
	}
	if (obj->callee_count >= UINT32_MAX) {
		bk_error(obj, "too many calls (4G)");
		return -1;
	}
	add_callee(obj, &obj->functions[caller], (size_t)callee);
	return 0;
}

/*
 * A kfunc call looks like a BPF-to-BPF call in an object: clang emits both as
 * `call -1` with src_reg BPF_PSEUDO_CALL relocated against a symbol, and
 * only libbpf's load turns a kfunc call into src_reg BPF_PSEUDO_KFUNC_CALL.
 * What tells them apart is libbpf's rule: the symbol is undefined and its
 * BTF is a FUNC in the DATASEC .ksyms (declared __ksym). Such a call stays
 * as it is, relocation included, for libbpf to resolve against the kernel.
 */
bool bk_is_kfunc(const struct bk_object *obj, const struct btf_type *ksyms, const GElf_Sym *sym,
		 const char *name)
{
	const struct btf_var_secinfo *entry;

	if (sym->st_shndx != SHN_UNDEF || !ksyms)
		return false;
	entry = btf_var_secinfos(ksyms);
	for (unsigned i = 0; i < btf_vlen(ksyms); i++, entry++) {
		const struct btf_type *t = btf__type_by_id(obj->btf, entry->type);

		if (t && btf_is_func(t) &&
		    !strcmp(btf__name_by_offset(obj->btf, t->name_off), name))
			return true;
	}
	return false;
}

/* The DATASEC .ksyms that declares the object's kfuncs, NULL if it has none. */
const struct btf_type *bk_find_ksyms(const struct bk_object *obj)
{
	int id;

	if (!obj->btf)
		return NULL;
	id = btf__find_by_name_kind(obj->btf, ".ksyms", BTF_KIND_DATASEC);
	return id > 0 ? btf__type_by_id(obj->btf, id) : NULL;
}

/* ksyms: bk_find_ksyms(obj), looked up once for all functions */
static int scan_function(struct bk_object *obj, size_t index, const struct btf_type *ksyms)
{
	struct bk_function *fn = &obj->functions[index];
	const struct bk_section *sec = &obj->sections[fn->section];

	fn->first_callee = (uint32_t)obj->callee_count;
	fn->callee_count = 0;
	for (uint64_t i = fn->start; i < fn->start + fn->count; i++) {
		struct bk_insn insn;
		uint64_t at = i * ELFOBJ_INSN_SIZE;
		const GElf_Rel *rel;
		size_t nrel;

		memcpy(&insn, sec->data + at, sizeof(insn));
		if (insn.code == ELFOBJ_CALL_CODE && bk_insn_src(&insn) == BPF_PSEUDO_CALL) {
			rel = bk_find_rel(sec, at, &nrel);
			if (nrel > 1) {
				bk_error(obj,
					 "section '%s': offset 0x%llx: %zu relocations on one call",
					 sec->name, (unsigned long long)at, nrel);
				return -1;
			}
			if (!rel) {
				if (add_edge(obj, index, fn->section, (int64_t)i + insn.imm + 1, at,
					     "call"))
					return -1;
				continue;
			}
			const GElf_Sym *sym = &obj->symbols[GELF_R_SYM(rel->r_info)];

			if (GELF_R_TYPE(rel->r_info) == ELFOBJ_R_BPF_64_32 &&
			    bk_is_kfunc(obj, ksyms, sym,
					obj->symbol_names[GELF_R_SYM(rel->r_info)]))
				continue;
			if (GELF_R_TYPE(rel->r_info) == ELFOBJ_R_BPF_64_32 &&
			    sym->st_shndx == SHN_UNDEF) {
				bk_error(obj,
					 "section '%s': offset 0x%llx: call to '%s', which is not "
					 "defined in this object: link every object with bpfld "
					 "first, then resolve",
					 sec->name, (unsigned long long)at,
					 obj->symbol_names[GELF_R_SYM(rel->r_info)]);
				return -1;
			}
			if (GELF_R_TYPE(rel->r_info) != ELFOBJ_R_BPF_64_32 ||
			    sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE ||
			    !obj->sections[sym->st_shndx].exec ||
			    sym->st_value % ELFOBJ_INSN_SIZE) {
				bk_error(obj,
					 "section '%s': offset 0x%llx: call relocation (type %llu, "
					 "symbol '%s') does not name a BPF function",
					 sec->name, (unsigned long long)at,
					 (unsigned long long)GELF_R_TYPE(rel->r_info),
					 obj->symbol_names[GELF_R_SYM(rel->r_info)]);
				return -1;
			}
			/* libbpf: callee = sym_off / 8 + imm + 1 */
			if (add_edge(obj, index, sym->st_shndx,
				     (int64_t)(sym->st_value / ELFOBJ_INSN_SIZE) + insn.imm + 1, at,
				     "call"))
				return -1;
		} else if (insn.code == ELFOBJ_LD_IMM64_CODE) {
			if (i + 1 >= fn->start + fn->count) {
				bk_error(obj,
					 "function '%s': ld_imm64 at section %s offset 0x%llx is "
					 "cut by the function end",
					 fn->name, sec->name, (unsigned long long)at);
				return -1;
			}
			rel = bk_find_rel(sec, at, &nrel);
			if (rel && GELF_R_TYPE(rel->r_info) == ELFOBJ_R_BPF_64_64) {
				const GElf_Sym *sym = &obj->symbols[GELF_R_SYM(rel->r_info)];

				if (sym->st_shndx != SHN_UNDEF && sym->st_shndx < SHN_LORESERVE &&
				    obj->sections[sym->st_shndx].exec) {
					int64_t byte = (int64_t)sym->st_value + insn.imm;

					if (byte % ELFOBJ_INSN_SIZE) {
						bk_error(obj,
							 "section '%s': offset 0x%llx: function "
							 "address is misaligned",
							 sec->name, (unsigned long long)at);
						return -1;
					}
					if (add_edge(obj, index, sym->st_shndx,
						     byte / ELFOBJ_INSN_SIZE, at,
						     "function address"))
						return -1;
				}
			} else if (!rel && bk_insn_src(&insn) == BPF_PSEUDO_FUNC) {
				if (add_edge(obj, index, fn->section, (int64_t)i + insn.imm + 1, at,
					     "function address"))
					return -1;
			}
			i++; /* second half of ld_imm64 */
		}
	}
	if (fn->callee_count > 1) {
		uint32_t *callees = &obj->callees[fn->first_callee];
		size_t n = 1;

		qsort(callees, fn->callee_count, sizeof(*callees), cmp_u32);
		for (size_t j = 1; j < fn->callee_count; j++)
			if (callees[j] != callees[n - 1])
				callees[n++] = callees[j];
		fn->callee_count = (uint32_t)n;
		obj->callee_count = fn->first_callee + n;
	}
	return 0;
}

int bk_build_callgraph(struct bk_object *obj)
{
	const struct btf_type *ksyms = bk_find_ksyms(obj);

	/* callee indices and their count are 32 bits: bk_read_sites() comes after */
	if (obj->function_count >= UINT32_MAX) {
		bk_error(obj, "too many functions (4G)");
		return -1;
	}
	for (size_t i = 0; i < obj->function_count; i++)
		if (scan_function(obj, i, ksyms))
			return -1;
	return 0;
}
