// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Write phase of both tools: an ELF64 relocatable object laid out by libelf
 * (offsets and padding are libelf's, so what bpfld links and what bpfkeys
 * rewrites are laid out by one rule) into elfobj's output file, which
 * appears at -o only when complete (output.c).
 */
#include <string.h>

#include "elfobj.h"

static int begin(struct elfobj_writer *w, const Elf64_Ehdr *header)
{
	Elf64_Ehdr *ehdr;

	w->elf = elf_begin(w->output.fd, ELF_C_WRITE, NULL);
	ehdr = w->elf ? elf64_newehdr(w->elf) : NULL;
	if (!ehdr)
		return elfobj_error(w->path, NULL, "libelf: %s", elf_errmsg(-1));
	/* libelf fills in the magic, class and version bytes of e_ident */
	memcpy(ehdr->e_ident, header->e_ident, EI_NIDENT);
	ehdr->e_type = header->e_type;
	ehdr->e_machine = header->e_machine;
	ehdr->e_version = header->e_version;
	ehdr->e_flags = header->e_flags;
	ehdr->e_shstrndx = header->e_shstrndx;
	return 0;
}

int elfobj_writer_open(struct elfobj_writer *w, const char *path, const Elf64_Ehdr *header)
{
	memset(w, 0, sizeof(*w));
	w->path = path;
	if (elfobj_output_open(&w->output, path))
		return -1;
	if (begin(w, header)) {
		elfobj_writer_abort(w);
		return -1;
	}
	return 0;
}

int elfobj_writer_open_fd(struct elfobj_writer *w, const char *path, int fd,
			  const Elf64_Ehdr *header)
{
	memset(w, 0, sizeof(*w));
	w->path = path;
	w->output.fd = fd;
	w->caller_fd = true;
	if (begin(w, header)) {
		elfobj_writer_abort(w);
		return -1;
	}
	return 0;
}

int elfobj_writer_add(struct elfobj_writer *w, const struct elfobj_out_section *section)
{
	Elf_Scn *scn = elf_newscn(w->elf);
	Elf64_Shdr *shdr = scn ? elf64_getshdr(scn) : NULL;
	Elf_Data *data = scn ? elf_newdata(scn) : NULL;
	uint64_t align = section->shdr.sh_addralign ? section->shdr.sh_addralign : 1;

	if (!shdr || !data)
		return elfobj_error(w->path, NULL, "libelf: %s", elf_errmsg(-1));
	*shdr = section->shdr;
	shdr->sh_offset = 0; /* libelf's layout */
	shdr->sh_size = section->size;
	data->d_buf = section->shdr.sh_type == SHT_NOBITS ? NULL : section->data;
	data->d_size = section->size;
	data->d_type = section->data_type;
	data->d_align = align;
	data->d_off = 0;
	data->d_version = EV_CURRENT;
	if (section->tail_size && section->shdr.sh_type != SHT_NOBITS) {
		/* libelf places a section's data one after the other, each at its
		 * d_align: 1 here, so the tail starts where data ends */
		Elf_Data *tail = elf_newdata(scn);

		if (!tail)
			return elfobj_error(w->path, NULL, "libelf: %s", elf_errmsg(-1));
		shdr->sh_size += section->tail_size;
		tail->d_buf = (void *)section->tail;
		tail->d_size = section->tail_size;
		tail->d_type = ELF_T_BYTE;
		tail->d_align = 1;
		tail->d_off = 0;
		tail->d_version = EV_CURRENT;
	}
	return 0;
}

int elfobj_writer_commit(struct elfobj_writer *w)
{
	int err = 0;

	if (elf_update(w->elf, ELF_C_WRITE) < 0)
		err = elfobj_error(w->path, NULL, "cannot write ELF: %s", elf_errmsg(-1));
	elf_end(w->elf);
	w->elf = NULL;
	if (!err && !w->caller_fd)
		err = elfobj_output_commit(&w->output);
	elfobj_writer_abort(w);
	return err;
}

void elfobj_writer_abort(struct elfobj_writer *w)
{
	if (w->elf)
		elf_end(w->elf);
	w->elf = NULL;
	if (!w->caller_fd)
		elfobj_output_abort(&w->output);
}
