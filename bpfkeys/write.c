// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Write phase: the input object rewritten with libelf according to an edit
 * (sections dropped or replaced, symbols dropped, sections added). Section
 * and symbol indices are renumbered everywhere they appear (symbols,
 * sh_link/sh_info, relocations); relocations against dropped symbols go with
 * them (only debug info can still name a removed key: code cannot, see
 * bk_check_key_references). .llvm_addrsig holds symbol indices and is
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

static int add_section(const struct bk_object *obj, Elf *out, GElf_Shdr *shdr, void *buf, size_t size)
{
	Elf_Scn *scn = elf_newscn(out);
	Elf_Data *data;

	if (!scn || !(data = elf_newdata(scn))) {
		bk_error(obj, "cannot create output section: %s", elf_errmsg(-1));
		return -1;
	}
	data->d_buf = shdr->sh_type == SHT_NOBITS ? NULL : buf;
	data->d_size = size;
	data->d_type = ELF_T_BYTE;
	data->d_align = shdr->sh_addralign ? shdr->sh_addralign : 1;
	data->d_off = 0;
	data->d_version = EV_CURRENT;
	shdr->sh_size = size;
	shdr->sh_offset = 0;
	if (!gelf_update_shdr(scn, shdr)) {
		bk_error(obj, "cannot write section header: %s", elf_errmsg(-1));
		return -1;
	}
	return 0;
}

int bk_write_fd(const struct bk_object *obj, const struct bk_edit *edit, int fd)
{
	size_t n = obj->section_count;
	size_t *sec_map = bk_xcalloc(n, sizeof(size_t));
	size_t *sym_map = bk_xcalloc(obj->symbol_count, sizeof(size_t));
	bool *drop = bk_xcalloc(n, sizeof(bool));
	bool *drop_sym = bk_xcalloc(obj->symbol_count, sizeof(bool));
	uint32_t *new_name = bk_xcalloc(edit->new_section_count + 1, sizeof(uint32_t));
	struct buffers bufs = {0};
	size_t kept = 1, kept_syms = 1, first_global = 0;
	bool symbols_changed = false;
	GElf_Ehdr ehdr;
	Elf *out = NULL;
	int err = -1;

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
				      (sym->st_shndx != SHN_UNDEF && sym->st_shndx < SHN_LORESERVE &&
				       drop[sym->st_shndx]);
			symbols_changed |= drop_sym[j];
		}
		for (size_t i = 1; i < n; i++)
			if (!drop[i] && symbols_changed &&
			    obj->sections[i].shdr.sh_type == ELFOBJ_SHT_LLVM_ADDRSIG)
				drop[i] = more = true;
	}
	if (drop[obj->symtab] || drop[obj->shstrndx] || drop[obj->sections[obj->symtab].shdr.sh_link]) {
		bk_error(obj, "internal error: cannot drop the symbol or string tables");
		goto out;
	}
	for (size_t i = 1; i < n; i++)
		if (!drop[i])
			sec_map[i] = kept++;
	for (size_t j = 1; j < obj->symbol_count; j++)
		if (!drop_sym[j]) {
			if (!first_global && GELF_ST_BIND(obj->symbols[j].st_info) != STB_LOCAL)
				first_global = kept_syms;
			sym_map[j] = kept_syms++;
		}
	if (!first_global)
		first_global = kept_syms;

	out = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!out || !gelf_newehdr(out, ELFCLASS64) || !gelf_getehdr(out, &ehdr)) {
		bk_error(obj, "cannot create output ELF: %s", elf_errmsg(-1));
		goto out;
	}
	memcpy(ehdr.e_ident, obj->ehdr.e_ident, EI_NIDENT);
	ehdr.e_type = obj->ehdr.e_type;
	ehdr.e_machine = obj->ehdr.e_machine;
	ehdr.e_version = obj->ehdr.e_version;
	ehdr.e_flags = obj->ehdr.e_flags;
	ehdr.e_shstrndx = (Elf64_Half)sec_map[obj->shstrndx];
	if (!gelf_update_ehdr(out, &ehdr)) {
		bk_error(obj, "cannot write ELF header: %s", elf_errmsg(-1));
		goto out;
	}

	for (size_t i = 1; i < n; i++) {
		const struct bk_section *sec = &obj->sections[i];
		GElf_Shdr shdr = sec->shdr;
		void *buf = sec->data;
		size_t size = sec->shdr.sh_size;

		if (drop[i])
			continue;
		if (edit->section_data[i]) {
			buf = (void *)edit->section_data[i];
			size = edit->section_size[i];
		}
		if (i == obj->shstrndx && edit->new_section_count) {
			/* append the names of the new sections */
			size_t extra = 0;

			for (size_t s = 0; s < edit->new_section_count; s++)
				extra += strlen(edit->new_sections[s].name) + 1;
			uint8_t *names = keep(&bufs, bk_xcalloc(size + extra, 1));
			memcpy(names, buf, size);
			for (size_t s = 0; s < edit->new_section_count; s++) {
				size_t len = strlen(edit->new_sections[s].name) + 1;

				new_name[s] = (uint32_t)size;
				memcpy(names + size, edit->new_sections[s].name, len);
				size += len;
			}
			buf = names;
		}
		if (shdr.sh_type == SHT_SYMTAB) {
			Elf64_Sym *syms = keep(&bufs, bk_xcalloc(kept_syms, sizeof(Elf64_Sym)));

			for (size_t j = 1; j < obj->symbol_count; j++) {
				Elf64_Sym *s;

				if (drop_sym[j])
					continue;
				s = &syms[sym_map[j]];
				memcpy(s, sec->data + j * sizeof(Elf64_Sym), sizeof(*s));
				if (edit->remap_symbol)
					edit->remap_symbol(edit->remap_symbol_ctx, s);
				if (s->st_shndx != SHN_UNDEF && s->st_shndx < SHN_LORESERVE)
					s->st_shndx = (Elf64_Half)sec_map[s->st_shndx];
			}
			buf = syms;
			size = kept_syms * sizeof(Elf64_Sym);
			shdr.sh_info = (Elf64_Word)first_global;
			shdr.sh_link = (Elf64_Word)sec_map[shdr.sh_link];
		} else if (shdr.sh_type == SHT_REL) {
			size_t count = sec->shdr.sh_size / sizeof(Elf64_Rel), m = 0;
			Elf64_Rel *rels = keep(&bufs, bk_xcalloc(count, sizeof(Elf64_Rel)));

			for (size_t r = 0; r < count; r++) {
				Elf64_Rel rel;
				size_t sym;

				memcpy(&rel, sec->data + r * sizeof(rel), sizeof(rel));
				sym = ELF64_R_SYM(rel.r_info);
				if (sym && drop_sym[sym])
					continue;
				if (edit->remap_offset && edit->section_data[shdr.sh_info] &&
				    !edit->remap_offset(edit->remap_ctx, shdr.sh_info, &rel.r_offset))
					continue;
				rel.r_info = ELF64_R_INFO(sym_map[sym], ELF64_R_TYPE(rel.r_info));
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
		if (add_section(obj, out, &shdr, buf, size))
			goto out;
	}
	for (size_t s = 0; s < edit->new_section_count; s++) {
		const struct bk_new_section *ns = &edit->new_sections[s];
		GElf_Shdr shdr = {0};

		shdr.sh_name = new_name[s];
		shdr.sh_type = ns->type;
		shdr.sh_flags = ns->flags;
		shdr.sh_addralign = ns->align;
		if (add_section(obj, out, &shdr, (void *)ns->data, ns->size))
			goto out;
	}
	if (elf_update(out, ELF_C_WRITE) < 0) {
		bk_error(obj, "cannot write output: %s", elf_errmsg(-1));
		goto out;
	}
	err = 0;
out:
	if (out)
		elf_end(out);
	for (size_t i = 0; i < bufs.count; i++)
		free(bufs.items[i]);
	free(bufs.items);
	free(sec_map);
	free(sym_map);
	free(drop);
	free(drop_sym);
	free(new_name);
	return err;
}

/* -o: elfobj's output rules (atomic for regular files, devices streamed into). */
int bk_write(const struct bk_object *obj, const struct bk_edit *edit, const char *out_path)
{
	struct elfobj_output out;

	if (elfobj_output_open(&out, out_path))
		return -1;
	if (bk_write_fd(obj, edit, out.fd)) {
		elfobj_output_abort(&out);
		return -1;
	}
	return elfobj_output_commit(&out);
}

/* resolve's output: the input without .static_keys, plus .bpfkeys (abi.md section 5) */
int bk_write_resolved(struct bk_object *obj, const char *out_path, int out_fd)
{
	struct bk_edit edit;
	struct bk_new_section section = {
		.name = BPFKEYS_SECTION, .type = SHT_PROGBITS, .flags = 0, .align = 8,
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
	err = out_path ? bk_write(obj, &edit, out_path) : bk_write_fd(obj, &edit, out_fd);
	bk_edit_free(&edit);
	free(data);
	return err;
}
