/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Output: lays out the merged sections with libelf into elfobj's output
 * file, which appears at -o only on success (atomically for a regular file,
 * streamed into a device or FIFO), so a failed link leaves no partial object.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bpfld.h"

struct elf_writer {
	Elf *elf;
	const char *path;
};

static Elf_Scn *new_section(struct elf_writer *w, uint32_t name, uint32_t type, uint64_t flags,
			    uint64_t align, uint64_t entsize, void *buf, uint64_t size,
			    Elf_Type data_type)
{
	Elf_Scn *scn = elf_newscn(w->elf);
	Elf64_Shdr *shdr = scn ? elf64_getshdr(scn) : NULL;
	Elf_Data *data = scn ? elf_newdata(scn) : NULL;

	if (!shdr || !data) {
		elfobj_error(w->path, NULL, "libelf: %s", elf_errmsg(-1));
		return NULL;
	}
	shdr->sh_name = name;
	shdr->sh_type = type;
	shdr->sh_flags = flags;
	shdr->sh_addralign = align ? align : 1;
	shdr->sh_entsize = entsize;
	shdr->sh_size = size;
	data->d_buf = type == SHT_NOBITS ? NULL : buf;
	data->d_size = size;
	data->d_type = data_type;
	data->d_align = align ? align : 1;
	data->d_version = EV_CURRENT;
	return scn;
}

static int add_name(struct linker *linker, const char *name, uint32_t *off)
{
	int64_t r = elfobj_strtab_add(&linker->strtab, name);

	if (r < 0)
		return -1;
	*off = r;
	return 0;
}

static int build_elf(struct linker *linker, struct elf_writer *w, Elf64_Sym *symbols,
		     size_t *new_index, char **rel_names, void *btf_raw, uint32_t btf_size,
		     void *ext_raw, uint32_t ext_size)
{
	uint32_t strtab_name, symtab_name, btf_name = 0, ext_name = 0;
	size_t i, next_index = 3, local_count = 1, s;
	Elf64_Ehdr *ehdr;
	Elf_Scn *strtab_scn, *symtab_scn;
	uint32_t *section_names = calloc(linker->section_count + 1, sizeof(*section_names));
	uint32_t *rel_section_names = calloc(linker->section_count + 1, sizeof(*rel_section_names));
	int err = -1;

	if (!section_names || !rel_section_names) {
		elfobj_error(w->path, NULL, "out of memory");
		goto out;
	}
	/* all names first: the string table must be complete before layout */
	if (add_name(linker, ".strtab", &strtab_name) || add_name(linker, ".symtab", &symtab_name))
		goto out;
	for (i = 1; i < linker->section_count; i++) {
		struct output_section *sec = &linker->sections[i];

		if (sec->ephemeral)
			continue;
		if (add_name(linker, sec->name, &section_names[i]))
			goto out;
		if (sec->relocation_count) {
			size_t len = strlen(sec->name) + 5;

			rel_names[i] = malloc(len);
			if (!rel_names[i])
				goto out;
			snprintf(rel_names[i], len, ".rel%s", sec->name);
			if (add_name(linker, rel_names[i], &rel_section_names[i]))
				goto out;
		}
	}
	if (btf_raw && add_name(linker, BTF_SECTION, &btf_name))
		goto out;
	if (ext_raw && add_name(linker, BTF_EXT_SECTION, &ext_name))
		goto out;

	/* section indices: 1 .strtab, 2 .symtab, then sections in link order */
	for (i = 1; i < linker->section_count; i++)
		linker->sections[i].elf_index = linker->sections[i].ephemeral ? 0 : next_index++;

	/* locals first, as ELF requires; relocations are renumbered below */
	for (s = 1; s < linker->symbol_count; s++)
		if (ELF64_ST_BIND(linker->symbols[s].sym.st_info) == STB_LOCAL)
			new_index[s] = local_count++;
	next_index = local_count;
	for (s = 1; s < linker->symbol_count; s++)
		if (ELF64_ST_BIND(linker->symbols[s].sym.st_info) != STB_LOCAL)
			new_index[s] = next_index++;
	memset(&symbols[0], 0, sizeof(symbols[0]));
	for (s = 1; s < linker->symbol_count; s++) {
		struct output_symbol *out = &linker->symbols[s];
		Elf64_Sym *sym = &symbols[new_index[s]];

		*sym = out->sym;
		if (out->section_id)
			sym->st_shndx = linker->sections[out->section_id].elf_index;
	}

	ehdr = elf64_newehdr(w->elf);
	if (!ehdr) {
		elfobj_error(w->path, NULL, "libelf: %s", elf_errmsg(-1));
		goto out;
	}
	ehdr->e_ident[EI_DATA] = ELFDATA2LSB;
	ehdr->e_machine = EM_BPF;
	ehdr->e_type = ET_REL;
	ehdr->e_version = EV_CURRENT;
	ehdr->e_shstrndx = 1;

	strtab_scn = new_section(w, strtab_name, SHT_STRTAB, SHF_STRINGS, 1, 0, linker->strtab.data,
				 linker->strtab.size, ELF_T_BYTE);
	symtab_scn = new_section(w, symtab_name, SHT_SYMTAB, 0, 8, sizeof(Elf64_Sym), symbols,
				 linker->symbol_count * sizeof(Elf64_Sym), ELF_T_SYM);
	if (!strtab_scn || !symtab_scn)
		goto out;
	elf64_getshdr(symtab_scn)->sh_link = 1;
	elf64_getshdr(symtab_scn)->sh_info = local_count;

	for (i = 1; i < linker->section_count; i++) {
		struct output_section *sec = &linker->sections[i];

		if (sec->ephemeral)
			continue;
		if (!new_section(w, section_names[i], sec->type, sec->flags, sec->align, sec->entsize,
				 sec->data, sec->size, ELF_T_BYTE))
			goto out;
	}
	for (i = 1; i < linker->section_count; i++) {
		struct output_section *sec = &linker->sections[i];
		Elf_Scn *scn;

		if (sec->ephemeral || !sec->relocation_count)
			continue;
		for (s = 0; s < sec->relocation_count; s++) {
			Elf64_Rel *rel = &sec->relocations[s];

			rel->r_info = ELF64_R_INFO(new_index[ELF64_R_SYM(rel->r_info)],
						   ELF64_R_TYPE(rel->r_info));
		}
		scn = new_section(w, rel_section_names[i], SHT_REL, SHF_INFO_LINK, 8, sizeof(Elf64_Rel),
				  sec->relocations, sec->relocation_count * sizeof(Elf64_Rel), ELF_T_REL);
		if (!scn)
			goto out;
		elf64_getshdr(scn)->sh_link = 2;
		elf64_getshdr(scn)->sh_info = sec->elf_index;
	}
	if (btf_raw && !new_section(w, btf_name, SHT_PROGBITS, 0, 8, 0, btf_raw, btf_size, ELF_T_BYTE))
		goto out;
	if (ext_raw && !new_section(w, ext_name, SHT_PROGBITS, 0, 8, 0, ext_raw, ext_size, ELF_T_BYTE))
		goto out;

	if (elf_update(w->elf, ELF_C_NULL) < 0 || elf_update(w->elf, ELF_C_WRITE) < 0) {
		elfobj_error(w->path, NULL, "cannot write ELF: %s", elf_errmsg(-1));
		goto out;
	}
	err = 0;
out:
	free(section_names);
	free(rel_section_names);
	return err;
}

int write_output(struct linker *linker, const char *path, const struct final_btf *btf)
{
	struct elfobj_output output = { .fd = -1 };
	struct elf_writer writer = { .path = path };
	Elf64_Sym *symbols = NULL;
	size_t *new_index = NULL;
	char **rel_names = NULL;
	size_t i;
	int err = -1;

	symbols = calloc(linker->symbol_count, sizeof(*symbols));
	new_index = calloc(linker->symbol_count, sizeof(*new_index));
	rel_names = calloc(linker->section_count + 1, sizeof(*rel_names));
	if (!symbols || !new_index || !rel_names) {
		elfobj_error(path, NULL, "out of memory");
		goto out;
	}
	if (elfobj_output_open(&output, path))
		goto out;
	writer.elf = elf_begin(output.fd, ELF_C_WRITE, NULL);
	if (!writer.elf) {
		elfobj_error(path, NULL, "libelf: %s", elf_errmsg(-1));
		goto out;
	}
	if (build_elf(linker, &writer, symbols, new_index, rel_names, btf->btf_raw, btf->btf_size,
		      btf->ext_raw, btf->ext_size))
		goto out;
	elf_end(writer.elf);
	writer.elf = NULL;
	err = elfobj_output_commit(&output);
out:
	if (writer.elf)
		elf_end(writer.elf);
	elfobj_output_abort(&output);
	if (rel_names)
		for (i = 0; i <= linker->section_count; i++)
			free(rel_names[i]);
	free(rel_names);
	free(symbols);
	free(new_index);
	return err;
}
