// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The model of a resolved object (`bpfkeys resolve` output, .bpfkeys instead
 * of .static_keys), so that what lowers a raw object lowers it too: one
 * artifact for both kernels. The sites come from .bpfkeys' site table (one
 * entry per instance and site: a subprogram's sites appear once per program
 * that reaches it), each checked against the instruction it names; then the
 * key references and the instances are built as for a raw object, and equal
 * what the table says when the object was written by resolve. A static
 * branch the table does not name is one in a function no program reaches
 * (resolve records instances' sites only): it is kept as an unkeyed site.
 */
#include <stdlib.h>
#include <string.h>

#include "bpfkeys.h"
#include "format.h"

struct resolved_site {
	uint32_t section;
	uint64_t insn;
	uint32_t key;
	uint32_t flags;
	bool unkeyed; /* not in the table: in a function no program reaches */
};

static int compare_resolved_sites(const void *a, const void *b)
{
	const struct resolved_site *x = a, *y = b;

	if (x->section != y->section)
		return x->section < y->section ? -1 : 1;
	if (x->insn != y->insn)
		return x->insn < y->insn ? -1 : 1;
	return 0;
}

/* The code section named by a site's section string, or 0. */
static size_t code_section(const struct bk_object *obj, const char *name)
{
	for (size_t s = 1; s < obj->section_count; s++)
		if (obj->sections[s].exec && !strcmp(obj->sections[s].name, name))
			return s;
	return 0;
}

/* The site's instruction must be the static branch its flags say; the target
 * comes from the instruction, inside the function. */
static int check_site(struct bk_object *obj, const struct resolved_site *in, struct bk_site *out)
{
	const struct bk_section *sec = &obj->sections[in->section];
	ssize_t f = bk_function_at(obj, in->section, in->insn);
	const struct bk_function *fn;
	struct bk_insn insn;
	bool wide, jump_when_off;
	int64_t target;

	if (f < 0 || (in->insn + 1) * ELFOBJ_INSN_SIZE > sec->shdr.sh_size) {
		bk_error(obj,
			 "section '%s': site at instruction %llu of section '%s' is not "
			 "inside a function",
			 BPFKEYS_SECTION, (unsigned long long)in->insn, sec->name);
		return -1;
	}
	fn = &obj->functions[f];
	memcpy(&insn, sec->data + in->insn * ELFOBJ_INSN_SIZE, sizeof(insn));
	wide = insn.code == ELFOBJ_JA32_CODE;
	jump_when_off = bk_insn_src(&insn) == (BPF_STATIC_BRANCH_JA | BPF_STATIC_BRANCH_NOP);
	if ((insn.code != ELFOBJ_JA_CODE && !wide) || bk_insn_dst(&insn) ||
	    !(bk_insn_src(&insn) & BPF_STATIC_BRANCH_JA) || (wide ? insn.off : insn.imm) ||
	    wide != !!(in->flags & BPFKEYS_SITE_WIDE) ||
	    jump_when_off != !!(in->flags & BPFKEYS_SITE_JUMP_WHEN_OFF)) {
		bk_error(obj,
			 "section '%s': site in function '%s' (section '%s', offset 0x%llx): not "
			 "the static branch the entry says",
			 BPFKEYS_SECTION, fn->name, sec->name,
			 (unsigned long long)in->insn * ELFOBJ_INSN_SIZE);
		return -1;
	}
	target = (int64_t)in->insn + 1 + (wide ? insn.imm : insn.off);
	if (target < (int64_t)fn->start || target >= (int64_t)(fn->start + fn->count)) {
		bk_error(obj,
			 "section '%s': site in function '%s' (section '%s', offset 0x%llx): jump "
			 "target is outside the function",
			 BPFKEYS_SECTION, fn->name, sec->name,
			 (unsigned long long)in->insn * ELFOBJ_INSN_SIZE);
		return -1;
	}
	out->insn = in->insn;
	out->target = (uint64_t)target;
	out->section = in->section;
	out->key = in->key;
	out->function = (uint32_t)f;
	out->jump_when_off = jump_when_off;
	out->wide = wide;
	out->unkeyed = in->unkeyed;
	return 0;
}

static bool in_table(const struct resolved_site *sites, size_t count, uint32_t section,
		     uint64_t insn)
{
	const struct resolved_site key = { .section = section, .insn = insn };

	return bsearch(&key, sites, count, sizeof(*sites), compare_resolved_sites) != NULL;
}

/*
 * The static branches the table does not name: resolve records the sites of
 * instances only, so a site in a function no program reaches (resolve warned
 * of it) has no entry and no key. No loader loads that function; lower fixes
 * it not taken. One in a function a program reaches is an error.
 */
static int add_unkeyed_sites(struct bk_object *obj, struct resolved_site **sites, size_t *count)
{
	size_t table_count = *count;
	int errors = 0;

	for (size_t s = 1; s < obj->section_count; s++) {
		const struct bk_section *sec = &obj->sections[s];

		if (!sec->exec || !sec->data)
			continue;
		for (uint64_t i = 0; i < sec->shdr.sh_size / ELFOBJ_INSN_SIZE; i++) {
			struct bk_insn insn;
			const char *first;
			ssize_t f;

			memcpy(&insn, sec->data + i * ELFOBJ_INSN_SIZE, sizeof(insn));
			if (insn.code == ELFOBJ_LD_IMM64_CODE) {
				i++;
				continue;
			}
			if ((insn.code != ELFOBJ_JA_CODE && insn.code != ELFOBJ_JA32_CODE) ||
			    !bk_insn_src(&insn) || in_table(*sites, table_count, (uint32_t)s, i))
				continue;
			f = bk_function_at(obj, s, i);
			if (f >= 0 && !bk_programs_reaching(obj, (size_t)f, &first)) {
				*sites = bk_xrealloc(*sites, *count + 1, sizeof(**sites));
				(*sites)[(*count)++] = (struct resolved_site){
					.section = (uint32_t)s,
					.insn = i,
					.flags = (insn.code == ELFOBJ_JA32_CODE ? BPFKEYS_SITE_WIDE
										: 0) |
						 (bk_insn_src(&insn) & BPF_STATIC_BRANCH_NOP
							  ? BPFKEYS_SITE_JUMP_WHEN_OFF
							  : 0),
					.unkeyed = true,
				};
				continue;
			}
			bk_error(
				obj,
				"section '%s': offset 0x%llx%s%s%s: static branch that no entry of "
				"%s names",
				sec->name, (unsigned long long)i * ELFOBJ_INSN_SIZE,
				f >= 0 ? " (function '" : "", f >= 0 ? obj->functions[f].name : "",
				f >= 0 ? "')" : "", BPFKEYS_SECTION);
			errors++;
		}
	}
	if (errors)
		return -1;
	qsort(*sites, *count, sizeof(**sites), compare_resolved_sites);
	return 0;
}

/* The table's sites, by (section, instruction), each once, with their keys. */
static int read_table_sites(struct bk_object *obj, const struct bk_format_view *view,
			    struct resolved_site **out, size_t *out_count)
{
	struct resolved_site *sites = bk_xcalloc(view->site_count, sizeof(*sites));
	size_t count = 0, kept = 0;

	for (uint32_t i = 0; i < view->instance_count; i++) {
		const struct bpfkeys_instance *inst = &view->instances[i];
		const char *key_name = view->strings + view->keys[inst->key].name;
		ssize_t k = bk_key_by_name(obj, key_name);

		if (k < 0 || !obj->keys[k].is_static_key) {
			bk_error(obj, "section '%s': key '%s' is not a static key in .maps",
				 BPFKEYS_SECTION, key_name);
			free(sites);
			return -1;
		}
		for (uint32_t s = inst->first_site; s < inst->first_site + inst->site_count; s++) {
			const struct bpfkeys_site *site = &view->sites[s];
			size_t section = code_section(obj, view->strings + site->section);

			if (!section) {
				bk_error(obj, "section '%s': key '%s': no code section '%s'",
					 BPFKEYS_SECTION, key_name, view->strings + site->section);
				free(sites);
				return -1;
			}
			sites[count].section = (uint32_t)section;
			sites[count].insn = (uint64_t)site->function_start + site->insn;
			sites[count].key = (uint32_t)k;
			sites[count++].flags = site->flags;
		}
	}
	qsort(sites, count, sizeof(*sites), compare_resolved_sites);
	for (size_t i = 0; i < count; i++) {
		if (kept && !compare_resolved_sites(&sites[kept - 1], &sites[i])) {
			if (sites[kept - 1].key != sites[i].key) {
				bk_error(obj,
					 "section '%s': the static branch at offset 0x%llx of "
					 "section '%s' belongs to two keys",
					 BPFKEYS_SECTION,
					 (unsigned long long)sites[i].insn * ELFOBJ_INSN_SIZE,
					 obj->sections[sites[i].section].name);
				free(sites);
				return -1;
			}
			continue;
		}
		sites[kept++] = sites[i];
	}
	*out = sites;
	*out_count = kept;
	return 0;
}

static int read_resolved_sites(struct bk_object *obj)
{
	const struct bk_section *sec = &obj->sections[obj->instances_section];
	struct bk_format_view view;
	struct resolved_site *table;
	size_t count;
	int errors = 0;

	if (!sec->data) {
		bk_error(obj, "section '%s' has no data", BPFKEYS_SECTION);
		return -1;
	}
	if (bk_format_parse(obj, sec->data, sec->shdr.sh_size, &view))
		return -1;
	if (read_table_sites(obj, &view, &table, &count)) {
		bk_format_view_free(&view);
		return -1;
	}
	bk_format_view_free(&view);
	if (add_unkeyed_sites(obj, &table, &count)) {
		free(table);
		return -1;
	}
	/* sorted by (section, insn): by (function, insn), functions being sorted and apart */
	obj->sites = bk_xcalloc(count, sizeof(*obj->sites));
	for (size_t i = 0; i < count; i++)
		if (check_site(obj, &table[i], &obj->sites[obj->site_count]))
			errors++;
		else
			obj->site_count++;
	free(table);
	if (errors)
		return -1;
	for (size_t i = 0; i < obj->site_count; i++) {
		struct bk_function *fn = &obj->functions[obj->sites[i].function];

		if (!fn->site_count)
			fn->first_site = (uint32_t)i;
		fn->site_count++;
		if (!obj->sites[i].unkeyed)
			obj->keys[obj->sites[i].key].site_count++;
	}
	return 0;
}

int bk_analyze_resolved(struct bk_object *obj)
{
	if (bk_read_keys(obj) || bk_build_functions(obj) || bk_build_callgraph(obj) ||
	    read_resolved_sites(obj) || bk_check_key_references(obj) || bk_build_instances(obj))
		return -1;
	return 0;
}
