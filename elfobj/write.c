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

/*
 * Bytes of one Elf_Data: libelf writes each with one pwrite(). Sections of
 * many megabytes written whole cost this project's virtual machines up to
 * several times the copy in system time, now and then (likely the page-cache
 * folios the kernel sizes by the write, up to 2 MiB): 124 MB written in one
 * pwrite() took 0.03-0.27 s, in pieces of this size 0.04-0.05 s (8 runs each).
 */
#define WRITE_PIECE_BYTES ((size_t)256 << 10)

/* One more Elf_Data of scn: size bytes at buf, placed at the next multiple of align. */
static int add_data(struct elfobj_writer *w, Elf_Scn *scn, const void *buf, size_t size,
		    Elf_Type type, uint64_t align)
{
	Elf_Data *data = elf_newdata(scn);

	if (!data)
		return elfobj_error(w->path, NULL, "libelf: %s", elf_errmsg(-1));
	data->d_buf = (void *)buf;
	data->d_size = size;
	data->d_type = type;
	data->d_align = align;
	data->d_off = 0;
	data->d_version = EV_CURRENT;
	return 0;
}

int elfobj_writer_add(struct elfobj_writer *w, const struct elfobj_out_section *section)
{
	Elf_Scn *scn = elf_newscn(w->elf);
	Elf64_Shdr *shdr = scn ? elf64_getshdr(scn) : NULL;
	uint64_t align = section->shdr.sh_addralign ? section->shdr.sh_addralign : 1;
	const uint8_t *bytes = section->data;
	size_t first = section->size;

	if (!shdr)
		return elfobj_error(w->path, NULL, "libelf: %s", elf_errmsg(-1));
	*shdr = section->shdr;
	shdr->sh_offset = 0; /* libelf's layout */
	shdr->sh_size = section->size;
	if (section->shdr.sh_type == SHT_NOBITS)
		return add_data(w, scn, NULL, section->size, section->data_type, align);
	/*
	 * libelf places a section's data one after the other, each at its
	 * d_align: 1 after the first, so bytes in file order (ELF_T_BYTE) can
	 * be cut into pieces, and a tail starts where data ends.
	 */
	if (section->data_type == ELF_T_BYTE && first > WRITE_PIECE_BYTES)
		first = WRITE_PIECE_BYTES;
	if (add_data(w, scn, bytes, first, section->data_type, align))
		return -1;
	for (size_t done = first, n; done < section->size; done += n) {
		n = section->size - done < WRITE_PIECE_BYTES ? section->size - done
							     : WRITE_PIECE_BYTES;
		if (add_data(w, scn, bytes + done, n, ELF_T_BYTE, 1))
			return -1;
	}
	if (section->tail_size) {
		shdr->sh_size += section->tail_size;
		if (add_data(w, scn, section->tail, section->tail_size, ELF_T_BYTE, 1))
			return -1;
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
