// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Write phase: the input object rewritten with libelf according to an edit
 * (sections dropped or replaced, symbols dropped, sections added). Section
 * and symbol indices are renumbered everywhere they appear (symbols,
 * sh_link/sh_info, relocations); relocations against dropped symbols go with
 * them (only debug info, or `&key` in a function no program calls, can still
 * name a removed key: see bk_check_key_references and lower's refusal of
 * references). .llvm_addrsig holds symbol indices and is
 * dropped when symbols are. elfobj's output writer puts the file at -o.
 */
#include <stdlib.h>
#include <string.h>

#include "bpfkeys.h"

int bk_edit_init(struct bk_edit *edit, const struct bk_object *obj)
{
	memset(edit, 0, sizeof(*edit));
	edit->drop_section = bk_xcalloc(obj->section_count, sizeof(bool));
	edit->drop_symbol = bk_xcalloc(obj->symbol_count, sizeof(bool));
	edit->section_data = bk_xcalloc(obj->section_count, sizeof(void *));
	edit->section_size = bk_xcalloc(obj->section_count, sizeof(size_t));
	return 0;
}

void bk_edit_free(struct bk_edit *edit)
{
	free(edit->drop_section);
	free(edit->drop_symbol);
	free(edit->section_data);
	free(edit->section_size);
	free(edit->new_sections);
	memset(edit, 0, sizeof(*edit));
}

struct buffers {
	void **items;
	size_t count;
};

static void *keep(struct buffers *b, void *p)
{
	b->items = bk_xrealloc(b->items, b->count + 1, sizeof(void *));
	b->items[b->count++] = p;
	return p;
}

static int add_section(struct elfobj_writer *w, const GElf_Shdr *shdr, void *buf, size_t size,
		       const void *tail, size_t tail_size)
{
	const struct elfobj_out_section section = {
		.shdr = *shdr, .data = buf, .size = size, .tail = tail, .tail_size = tail_size
	};

	return elfobj_writer_add(w, &section);
}

/* What survives the edit, and the new section and symbol indices. */
struct renumbering {
	bool *drop, *drop_sym; /* [section_count], [symbol_count] */
	size_t *sec_map; /* new index of each kept section */
	size_t *sym_map; /* new index of each kept symbol; NULL if none is dropped (each keeps its own) */
	size_t kept_syms, first_global; /* symbols in the output, first non-local */
	bool symbols_unchanged; /* every symbol kept, its section keeping its index */
};

static void renumbering_free(struct renumbering *r)
{
	free(r->drop);
	free(r->drop_sym);
	free(r->sec_map);
	free(r->sym_map);
}

static size_t new_symbol_index(const struct renumbering *r, size_t symbol)
{
	return r->sym_map ? r->sym_map[symbol] : symbol;
}

static int renumber(const struct bk_object *obj, const struct bk_edit *edit, struct renumbering *r)
{
	size_t n = obj->section_count;
	size_t *sec_map = r->sec_map = bk_xcalloc(n, sizeof(size_t));
	bool *drop = r->drop = bk_xcalloc(n, sizeof(bool));
	bool *drop_sym = r->drop_sym = bk_xcalloc(obj->symbol_count, sizeof(bool));
	size_t kept = 1, kept_syms = 1, first_global = 0;
	bool symbols_changed = false;

	/*
	 * Which sections and symbols survive: a relocation section goes with
	 * the section it relocates, a symbol with its section, .llvm_addrsig
	 * (symbol indices) as soon as one symbol goes. Each rule can trigger
	 * another (a relocated .llvm_addrsig, symbols defined in a dropped
	 * relocation section), so apply them until nothing more goes.
	 */
	for (size_t i = 1; i < n; i++)
		drop[i] = edit->drop_section[i];
	for (bool more = true; more;) {
		more = false;
		for (size_t i = 1; i < n; i++) {
			const GElf_Shdr *sh = &obj->sections[i].shdr;

			if (!drop[i] && sh->sh_type == SHT_REL && drop[sh->sh_info])
				drop[i] = more = true;
		}
		symbols_changed = false;
		for (size_t j = 1; j < obj->symbol_count; j++) {
			const GElf_Sym *sym = &obj->symbols[j];

			drop_sym[j] = edit->drop_symbol[j] ||
				      (sym->st_shndx != SHN_UNDEF &&
				       sym->st_shndx < SHN_LORESERVE && drop[sym->st_shndx]);
			symbols_changed |= drop_sym[j];
		}
		for (size_t i = 1; i < n; i++)
			if (!drop[i] && symbols_changed &&
			    obj->sections[i].shdr.sh_type == ELFOBJ_SHT_LLVM_ADDRSIG)
				drop[i] = more = true;
	}
	if (drop[obj->file.symtab] || drop[obj->file.shstrndx] ||
	    drop[obj->sections[obj->file.symtab].shdr.sh_link]) {
		bk_error(obj, "internal error: cannot drop the symbol or string tables");
		return -1;
	}
	for (size_t i = 1; i < n; i++)
		if (!drop[i])
			sec_map[i] = kept++;
	/* a map only if a symbol goes: resolve drops none, and at a million
	 * symbols the map was 8 MB written and read as the identity */
	if (symbols_changed)
		r->sym_map = bk_populated(bk_xcalloc(obj->symbol_count, sizeof(size_t)),
					  obj->symbol_count, sizeof(size_t));
	r->symbols_unchanged = true;
	for (size_t j = 1; j < obj->symbol_count; j++) {
		const GElf_Sym *sym = &obj->symbols[j];

		if (drop_sym[j]) {
			r->symbols_unchanged = false;
			continue;
		}
		if (!first_global && GELF_ST_BIND(sym->st_info) != STB_LOCAL)
			first_global = kept_syms;
		if (r->sym_map)
			r->sym_map[j] = kept_syms;
		kept_syms++;
		if (sym->st_shndx != SHN_UNDEF && sym->st_shndx < SHN_LORESERVE &&
		    sec_map[sym->st_shndx] != sym->st_shndx)
			r->symbols_unchanged = false;
	}
	if (!first_global)
		first_global = kept_syms;
	r->kept_syms = kept_syms;
	r->first_global = first_global;
	return 0;
}

/*
 * The edited object's sections into w (open); the caller commits or aborts.
 * The rebuilt tables are in bufs, which must live until the commit.
 */
static int build_elf(const struct bk_object *obj, const struct bk_edit *edit,
		     const struct renumbering *r, struct elfobj_writer *w, struct buffers *bufs)
{
	size_t n = obj->section_count, kept_syms = r->kept_syms;
	const size_t *sec_map = r->sec_map;
	const bool *drop = r->drop, *drop_sym = r->drop_sym;
	uint32_t *new_name = bk_xcalloc(edit->new_section_count + 1, sizeof(uint32_t));
	int err = -1;

	for (size_t i = 1; i < n; i++) {
		const struct bk_section *sec = &obj->sections[i];
		GElf_Shdr shdr = sec->shdr;
		void *buf = sec->data;
		size_t size = sec->shdr.sh_size;
		uint8_t *tail = NULL;
		size_t tail_size = 0;

		if (drop[i])
			continue;
		if (edit->section_data[i]) {
			buf = (void *)edit->section_data[i];
			size = edit->section_size[i];
		}
		if (i == obj->file.shstrndx && edit->new_section_count) {
			/* the names of the new sections, appended as a tail (the
			 * table is .strtab too when it holds the symbol names: a
			 * copy of it was megabytes at a million functions) */
			for (size_t s = 0; s < edit->new_section_count; s++)
				tail_size += strlen(edit->new_sections[s].name) + 1;
			tail = keep(bufs, bk_xcalloc(tail_size, 1));
			for (size_t s = 0, at = 0; s < edit->new_section_count; s++) {
				size_t len = strlen(edit->new_sections[s].name) + 1;

				new_name[s] = (uint32_t)(size + at);
				memcpy(tail + at, edit->new_sections[s].name, len);
				at += len;
			}
		}
		if (shdr.sh_type == SHT_SYMTAB && r->symbols_unchanged && !edit->remap_symbol) {
			/* the input's table as it is (symbol 0 is all zero: elfobj checked) */
			buf = (void *)obj->symbols;
			size = obj->symbol_count * sizeof(Elf64_Sym);
			shdr.sh_info = (Elf64_Word)r->first_global;
			shdr.sh_link = (Elf64_Word)sec_map[shdr.sh_link];
		} else if (shdr.sh_type == SHT_SYMTAB) {
			Elf64_Sym *syms = keep(bufs, bk_xcalloc(kept_syms, sizeof(Elf64_Sym)));

			for (size_t j = 1; j < obj->symbol_count; j++) {
				Elf64_Sym *s;

				if (drop_sym[j])
					continue;
				s = &syms[new_symbol_index(r, j)];
				memcpy(s, sec->data + j * sizeof(Elf64_Sym), sizeof(*s));
				if (edit->remap_symbol)
					edit->remap_symbol(edit->remap_symbol_ctx, s);
				if (s->st_shndx != SHN_UNDEF && s->st_shndx < SHN_LORESERVE)
					s->st_shndx = (Elf64_Half)sec_map[s->st_shndx];
			}
			buf = syms;
			size = kept_syms * sizeof(Elf64_Sym);
			shdr.sh_info = (Elf64_Word)r->first_global;
			shdr.sh_link = (Elf64_Word)sec_map[shdr.sh_link];
		} else if (shdr.sh_type == SHT_REL) {
			size_t count = sec->shdr.sh_size / sizeof(Elf64_Rel), m = 0;
			Elf64_Rel *rels = keep(bufs, bk_xcalloc(count, sizeof(Elf64_Rel)));

			for (size_t k = 0; k < count; k++) {
				Elf64_Rel rel;
				size_t sym;

				memcpy(&rel, sec->data + k * sizeof(rel), sizeof(rel));
				sym = ELF64_R_SYM(rel.r_info);
				if (sym && drop_sym[sym])
					continue;
				if (edit->remap_offset && edit->section_data[shdr.sh_info] &&
				    !edit->remap_offset(edit->remap_ctx, shdr.sh_info,
							&rel.r_offset))
					continue;
				rel.r_info = ELF64_R_INFO(new_symbol_index(r, sym),
							  ELF64_R_TYPE(rel.r_info));
				rels[m++] = rel;
			}
			buf = rels;
			size = m * sizeof(Elf64_Rel);
			shdr.sh_link = (Elf64_Word)sec_map[shdr.sh_link];
			shdr.sh_info = (Elf64_Word)sec_map[shdr.sh_info];
		} else {
			if (shdr.sh_link && shdr.sh_link < n)
				shdr.sh_link = (Elf64_Word)sec_map[shdr.sh_link];
			if ((shdr.sh_flags & SHF_INFO_LINK) && shdr.sh_info < n)
				shdr.sh_info = (Elf64_Word)sec_map[shdr.sh_info];
		}
		if (add_section(w, &shdr, buf, size, tail, tail_size))
			goto out;
	}
	for (size_t s = 0; s < edit->new_section_count; s++) {
		const struct bk_new_section *ns = &edit->new_sections[s];
		GElf_Shdr shdr = { 0 };

		shdr.sh_name = new_name[s];
		shdr.sh_type = ns->type;
		shdr.sh_flags = ns->flags;
		shdr.sh_addralign = ns->align;
		if (add_section(w, &shdr, (void *)ns->data, ns->size, NULL, 0))
			goto out;
	}
	err = 0;
out:
	free(new_name);
	return err;
}

/*
 * To -o (out_path; elfobj's output rules: atomic for regular files, devices
 * streamed into) or, if out_path is NULL, into out_fd (the fuzzer's memfd).
 */
int bk_write(const struct bk_object *obj, const struct bk_edit *edit, const char *out_path,
	     int out_fd)
{
	struct renumbering r = { 0 };
	struct buffers bufs = { 0 };
	Elf64_Ehdr header = obj->file.ehdr;
	struct elfobj_writer w;
	int err = renumber(obj, edit, &r);

	if (!err) {
		header.e_shstrndx = (Elf64_Half)r.sec_map[obj->file.shstrndx];
		err = out_path ? elfobj_writer_open(&w, out_path, &header)
			       : elfobj_writer_open_fd(&w, "<output>", out_fd, &header);
	}
	if (!err) {
		if (bk_transient) /* a bail-out in build_elf aborts it */
			bk_transient->writer = &w;
		if (build_elf(obj, edit, &r, &w, &bufs)) {
			elfobj_writer_abort(&w);
			err = -1;
		} else {
			err = elfobj_writer_commit(&w);
		}
		if (bk_transient)
			bk_transient->writer = NULL;
	}
	for (size_t i = 0; i < bufs.count; i++)
		free(bufs.items[i]);
	free(bufs.items);
	renumbering_free(&r);
	return err;
}

/* resolve's output: the input without .static_keys, plus .bpfkeys (abi.md section 5) */
int bk_write_resolved(struct bk_object *obj, const char *out_path, int out_fd)
{
	struct bk_edit edit;
	struct bk_new_section section = {
		.name = BPFKEYS_SECTION,
		.type = SHT_PROGBITS,
		.flags = 0,
		.align = 8,
	};
	uint8_t *data = NULL;
	int err;

	if (bk_format_build(obj, &data, &section.size))
		return -1;
	section.data = data;
	bk_edit_init(&edit, obj);
	if (obj->static_keys_section)
		edit.drop_section[obj->static_keys_section] = true;
	if (obj->instances_section)
		edit.drop_section[obj->instances_section] = true;
	edit.new_sections = bk_xcalloc(1, sizeof(section));
	edit.new_sections[0] = section;
	edit.new_section_count = 1;
	err = bk_write(obj, &edit, out_path, out_fd);
	bk_edit_free(&edit);
	free(data);
	return err;
}
