// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Output: the merged sections, the symbols (locals first) and the
 * relocations renumbered to them, given to elfobj's writer, which lays them
 * out and puts the object at -o only on success (atomically for a regular
 * file, streamed into a device or FIFO): a failed link leaves no partial object.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bpfld.h"

/* One output section; bpfld aligns to at least 1, as the inputs it merged. */
static int add_section(struct elfobj_writer *w, uint32_t name, uint32_t type, uint64_t flags,
		       uint64_t align, uint64_t entsize, uint32_t link, uint32_t info, void *buf,
		       uint64_t size, Elf_Type data_type)
{
	struct elfobj_out_section section = {
		.shdr = {
			.sh_name = name,
			.sh_type = type,
			.sh_flags = flags,
			.sh_addralign = align ? align : 1,
			.sh_entsize = entsize,
			.sh_link = link,
			.sh_info = info,
		},
		.data = buf,
		.size = size,
		.data_type = data_type,
	};

	return elfobj_writer_add(w, &section);
}

static int add_name(struct linker *linker, const char *name, uint32_t *off)
{
	int64_t r = elfobj_strtab_add(&linker->strtab, name);

	if (r < 0)
		return -1;
	*off = r;
	return 0;
}

static int build_elf(struct linker *linker, struct elfobj_writer *w, Elf64_Sym *symbols,
		     size_t *new_index, char **rel_names, void *btf_raw, uint32_t btf_size,
		     void *ext_raw, uint32_t ext_size)
{
	uint32_t strtab_name, symtab_name, btf_name = 0, ext_name = 0;
	size_t i, next_index = 3, local_count = 1, s;
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

	if (add_section(w, strtab_name, SHT_STRTAB, SHF_STRINGS, 1, 0, 0, 0, linker->strtab.data,
			linker->strtab.size, ELF_T_BYTE) ||
	    add_section(w, symtab_name, SHT_SYMTAB, 0, 8, sizeof(Elf64_Sym), 1, local_count,
			symbols, linker->symbol_count * sizeof(Elf64_Sym), ELF_T_SYM))
		goto out;

	for (i = 1; i < linker->section_count; i++) {
		struct output_section *sec = &linker->sections[i];

		if (sec->ephemeral)
			continue;
		if (add_section(w, section_names[i], sec->type, sec->flags, sec->align,
				sec->entsize, 0, 0, sec->data, sec->size, ELF_T_BYTE))
			goto out;
	}
	for (i = 1; i < linker->section_count; i++) {
		struct output_section *sec = &linker->sections[i];

		if (sec->ephemeral || !sec->relocation_count)
			continue;
		for (s = 0; s < sec->relocation_count; s++) {
			Elf64_Rel *rel = &sec->relocations[s];

			rel->r_info = ELF64_R_INFO(new_index[ELF64_R_SYM(rel->r_info)],
						   ELF64_R_TYPE(rel->r_info));
		}
		if (add_section(w, rel_section_names[i], SHT_REL, SHF_INFO_LINK, 8,
				sizeof(Elf64_Rel), 2, sec->elf_index, sec->relocations,
				sec->relocation_count * sizeof(Elf64_Rel), ELF_T_REL))
			goto out;
	}
	if (btf_raw &&
	    add_section(w, btf_name, SHT_PROGBITS, 0, 8, 0, 0, 0, btf_raw, btf_size, ELF_T_BYTE))
		goto out;
	if (ext_raw &&
	    add_section(w, ext_name, SHT_PROGBITS, 0, 8, 0, 0, 0, ext_raw, ext_size, ELF_T_BYTE))
		goto out;
	err = 0;
out:
	free(section_names);
	free(rel_section_names);
	return err;
}

int write_output(struct linker *linker, const char *path, const struct final_btf *btf)
{
	/* 1 .strtab (also the section names), 2 .symtab, then the link's sections */
	const Elf64_Ehdr header = {
		.e_ident[EI_DATA] = ELFDATA2LSB,
		.e_type = ET_REL,
		.e_machine = EM_BPF,
		.e_version = EV_CURRENT,
		.e_shstrndx = 1,
	};
	struct elfobj_writer writer;
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
	if (elfobj_writer_open(&writer, path, &header))
		goto out;
	if (build_elf(linker, &writer, symbols, new_index, rel_names, btf->btf_raw, btf->btf_size,
		      btf->ext_raw, btf->ext_size))
		elfobj_writer_abort(&writer);
	else
		err = elfobj_writer_commit(&writer);
out:
	if (rel_names)
		for (i = 0; i <= linker->section_count; i++)
			free(rel_names[i]);
	free(rel_names);
	free(symbols);
	free(new_index);
	return err;
}
