/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * elfobj: the one validated reader of BPF ELF relocatable objects and the one
 * output writer, shared by bpfld and bpfkeys, so that a rule about what a
 * valid object is lives in one place and what one tool writes the other reads.
 *
 *   read.c    whole file into memory, libelf over it, every structure checked
 *   output.c  -o handling: atomic rename for regular files, written through
 *             symlinks, streamed into devices and FIFOs
 *   diag.c    "tool: file: error: [section 'S': ]message"
 */
#ifndef ELFOBJ_H
#define ELFOBJ_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <gelf.h>
#include <libelf.h>

#ifndef EM_BPF
#define EM_BPF 247
#endif
#define ELFOBJ_SHT_LLVM_ADDRSIG 0x6fff4c03
#define ELFOBJ_INSN_SIZE 8

/* BPF relocation types (llvm/BinaryFormat/ELFRelocs/BPF.def) */
#define ELFOBJ_R_BPF_64_64 1
#define ELFOBJ_R_BPF_64_ABS64 2
#define ELFOBJ_R_BPF_64_ABS32 3
#define ELFOBJ_R_BPF_64_NODYLD32 4
#define ELFOBJ_R_BPF_64_32 10

/* ---- diagnostics (diag.c) ---- */
extern const char *elfobj_progname;	/* "bpfld", "bpfkeys" */
extern bool elfobj_quiet;		/* no output at all (fuzzing) */

void elfobj_vreport(const char *file, const char *section, const char *kind, const char *fmt,
		    va_list ap);
/* Prints "tool: file: error: section 'S': message" (file, section optional); returns -1. */
int elfobj_error(const char *file, const char *section, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void elfobj_warning(const char *file, const char *section, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- reading (read.c) ---- */
struct elfobj_section {
	const char *name;
	Elf64_Shdr shdr;
	const uint8_t *data;	/* in the image (or an aligned copy of a misaligned
				 * relocation table); NULL for SHT_NOBITS and index 0 */
	void *aligned_copy;
	size_t rel_section;	/* index of the SHT_REL section relocating it, 0 if none */
};

struct elfobj {
	const char *path;
	uint8_t *image;		/* the whole file (owned), NUL-padded by one byte */
	size_t image_size;
	Elf *elf;		/* libelf over image */
	Elf64_Ehdr ehdr;
	struct elfobj_section *sections;
	size_t section_count;
	size_t shstrndx, symtab, strtab;
	Elf64_Sym *symbols;	/* 8-byte aligned copy of .symtab */
	size_t symbol_count;
	const char **symbol_names; /* a section symbol gets its section's name */
};

/*
 * What every object must be for either tool to read it (each is checked, with
 * a message naming the section or symbol):
 *  - ELF64, little endian, EM_BPF, ET_REL, no extended section numbering;
 *  - sections of the kinds BPF objects have (PROGBITS, NOBITS, SYMTAB,
 *    STRTAB, REL, LLVM_ADDRSIG) with names, power-of-two alignment, data
 *    inside the file and not overlapping each other or the headers;
 *  - one symbol table, locals first, names inside its string table, every
 *    symbol in a section that holds data (never ABS section symbols,
 *    reserved indices, or a relocation/symbol/string table) and inside it;
 *  - relocations of known types, against existing symbols, inside the section
 *    they patch (instruction aligned in code), one REL section per section.
 */
int elfobj_open(struct elfobj *obj, const char *path);
/* Takes ownership of `image` (malloc'd). */
int elfobj_parse(struct elfobj *obj, const char *path, uint8_t *image, size_t image_size);
/* Copies `size` bytes from `buf`. */
int elfobj_parse_memory(struct elfobj *obj, const char *path, const void *buf, size_t size);
void elfobj_close(struct elfobj *obj);

/* Bytes a relocation of this type patches at r_offset; 0 for unknown types. */
uint64_t elfobj_relocation_width(uint32_t type);
const Elf64_Rel *elfobj_relocations(const struct elfobj *obj, size_t section, size_t *count);

/* ---- output (output.c) ---- */
struct elfobj_output {
	const char *path;	/* as given (for messages) */
	char *temp_path;	/* regular file: the temporary renamed into place */
	char *target_path;	/* what is replaced: path, or what its symlink names */
	bool stream;		/* a device or FIFO: the bytes are copied in at commit */
	int fd;			/* seekable, for libelf */
};

/* Opens a seekable file to lay the output out in; nothing at `path` changes yet. */
int elfobj_output_open(struct elfobj_output *out, const char *path);
/* Puts the complete output at `path`: rename, or copy into a device/FIFO. */
int elfobj_output_commit(struct elfobj_output *out);
/* Removes what was written; `path` is as it was. Safe after commit too. */
void elfobj_output_abort(struct elfobj_output *out);

#endif
