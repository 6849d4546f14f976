/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * elfobj: the one validated reader of BPF ELF relocatable objects and the one
 * output writer, shared by bpfld and bpfkeys, so that a rule about what a
 * valid object is lives in one place and what one tool writes the other reads.
 *
 *   read.c    whole file into memory, libelf over it, every structure checked
 *   btf.c     .BTF and .BTF.ext parsed with libbpf and checked
 *   static_keys.c  .static_keys entries checked against the code
 *   write.c   the output object laid out by libelf (both tools' writer)
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
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
/* kernel ABI (map type, map_extra flags, static branch src_reg bits) */
#include "uapi/linux/bpf_static_keys.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif
#define ELFOBJ_SHT_LLVM_ADDRSIG 0x6fff4c03
#define ELFOBJ_INSN_SIZE 8
/* instruction codes the tools test, from linux/bpf.h's classes and ops */
#define ELFOBJ_JA_CODE (BPF_JMP | BPF_JA) /* goto, goto_or_nop: 16-bit off */
#define ELFOBJ_JA32_CODE (BPF_JMP32 | BPF_JA) /* gotol, gotol_or_nop: 32-bit imm */
#define ELFOBJ_CALL_CODE (BPF_JMP | BPF_CALL)
#define ELFOBJ_LD_IMM64_CODE (BPF_LD | BPF_IMM | BPF_DW)

/* Sections of the object ABI (docs/abi.md); .bpfkeys is BPFKEYS_SECTION. */
#define ELFOBJ_MAPS_SECTION ".maps"
#define ELFOBJ_STATIC_KEYS_SECTION ".static_keys"
#define ELFOBJ_STATIC_KEYS_REL_SECTION ".rel.static_keys"
/* Bit 0 of a .static_keys entry's key field: BPF_STATIC_KEY_ENTRY_LIKELY of
 * runtime-headers/bpf_static_keys.h, the BPF-side header (abi.md section 2). */
#define ELFOBJ_STATIC_KEY_ENTRY_LIKELY 1ULL
/* Bytes of one .static_keys entry: u32 insn offset, u32 target offset, u64 key (abi.md section 2). */
#define ELFOBJ_STATIC_KEY_ENTRY_SIZE 16

/* BPF relocation types (llvm/BinaryFormat/ELFRelocs/BPF.def) */
#define ELFOBJ_R_BPF_64_64 1
#define ELFOBJ_R_BPF_64_ABS64 2
#define ELFOBJ_R_BPF_64_ABS32 3
#define ELFOBJ_R_BPF_64_NODYLD32 4
#define ELFOBJ_R_BPF_64_32 10

/* ---- diagnostics (diag.c) ---- */
extern const char *elfobj_progname; /* "bpfld", "bpfkeys" */
extern bool elfobj_quiet; /* no output at all (fuzzing) */
/*
 * Where this thread's messages go instead of stderr: libbpfkeys sets it
 * around each call into the tools' code, so that a library's messages reach
 * its caller's print callback. NULL (the CLIs): stderr, "progname: ...".
 */
struct elfobj_reporter {
	void (*report)(void *ctx, const char *file, const char *section, const char *kind,
		       const char *fmt, va_list ap);
	void *ctx;
};
extern _Thread_local const struct elfobj_reporter *elfobj_reporter;

void elfobj_vreport(const char *file, const char *section, const char *kind, const char *fmt,
		    va_list ap);
/* Prints "tool: file: error: section 'S': message" (file, section optional); returns -1. */
int elfobj_error(const char *file, const char *section, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void elfobj_warning(const char *file, const char *section, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A detail of the error before it: "tool: file: note: ..." */
void elfobj_note(const char *file, const char *section, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * getopt_long()'s errors in the tools' form ("tool: error: unknown option
 * '--x'"): called with opterr = 0 and an optstring that starts with ':' (or
 * "+:"), when getopt_long() returns '?' or ':' (opt), with its optind and
 * optopt, and its table of long options. The caller then shows its short
 * usage and exits 2.
 */
struct option;
void elfobj_option_error(int opt, char *const argv[], int optind, int optopt,
			 const struct option *options);

/* ---- reading (read.c) ---- */
struct elfobj_section {
	const char *name;
	Elf64_Shdr shdr;
	const uint8_t *data; /* in the image (or an aligned copy of a misaligned
				 * relocation or symbol table); NULL for SHT_NOBITS and index 0 */
	void *aligned_copy;
	size_t rel_section; /* index of the SHT_REL section relocating it, 0 if none */
};

/* .BTF.ext header (the kernel's and libbpf's layout; libbpf keeps it private). */
struct elfobj_btf_ext_header {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t func_info_off;
	uint32_t func_info_len;
	uint32_t line_info_off;
	uint32_t line_info_len;
	/* optional part */
	uint32_t core_relo_off;
	uint32_t core_relo_len;
};

/* One of the three .BTF.ext blocks: func_info, line_info, core_relo_info. */
struct elfobj_btf_ext_block {
	uint32_t record_size;
	const uint8_t *data; /* the first section header of the block */
	size_t size;
};
enum {
	ELFOBJ_BTF_EXT_FUNC_INFO,
	ELFOBJ_BTF_EXT_LINE_INFO,
	ELFOBJ_BTF_EXT_CORE_RELO,
	ELFOBJ_BTF_EXT_BLOCKS
};

struct elfobj {
	const char *path;
	uint8_t *image; /* the whole file (owned), NUL-padded by one byte */
	size_t image_size;
	bool image_mapped; /* image is a private mapping of the file, else malloc'd */
	Elf *elf; /* libelf over image */
	Elf64_Ehdr ehdr;
	struct elfobj_section *sections;
	size_t section_count;
	size_t shstrndx, symtab, strtab;
	const Elf64_Sym *symbols; /* .symtab's data (8-byte aligned: in the image or a copy) */
	size_t symbol_count;
	const char **symbol_names; /* a section symbol gets its section's name */
	struct btf *btf; /* .BTF, NULL if none */
	bool has_btf_ext;
	struct elfobj_btf_ext_block btf_ext[ELFOBJ_BTF_EXT_BLOCKS];
	bool out_of_memory; /* reading failed for want of memory (reported) */
};

/*
 * What every object must be for either tool to read it (each is checked, with
 * a message naming the section or symbol):
 *  - ELF64, little endian, EM_BPF, ET_REL, no extended section numbering;
 *  - sections of the kinds BPF objects have (PROGBITS, NOBITS, SYMTAB,
 *    STRTAB, REL, LLVM_ADDRSIG) with names, power-of-two alignment, data
 *    inside the file and not overlapping each other or the headers; no
 *    SHF_EXECINSTR on a section that holds metadata (.BTF, .BTF.ext,
 *    license, version, .maps, .static_keys, .bpfkeys, .jumptables);
 *  - one symbol table, locals first, names inside its string table, every
 *    symbol in a section that holds data (never ABS section symbols,
 *    reserved indices, or a relocation/symbol/string table) and inside it;
 *  - relocations of known types, against existing symbols, inside the section
 *    they patch (instruction aligned in code), one REL section per section;
 *  - a .BTF if there is a .maps (BTF-defined maps need it);
 *  - at most one .BTF and .BTF.ext, parsed by libbpf, every type id and
 *    string offset in range, VARs, FUNCs and DATASECs referred to only by a
 *    DATASEC or a DECL_TAG, .BTF.ext records naming instructions of the
 *    object's code sections and existing FUNCs (btf.c).
 */
/* "-" reads standard input to its end (named "<stdin>" in messages). */
int elfobj_open(struct elfobj *obj, const char *path);
/* Takes ownership of `image` (malloc'd). */
int elfobj_parse(struct elfobj *obj, const char *path, uint8_t *image, size_t image_size);
/* Copies `size` bytes from `buf`. */
int elfobj_parse_memory(struct elfobj *obj, const char *path, const void *buf, size_t size);
void elfobj_close(struct elfobj *obj);

/* btf.c: called by the readers above; the visitors call fn on each type id / string offset field. */
int elfobj_read_btf(struct elfobj *obj);
int elfobj_btf_visit_type_ids(struct btf_type *t, int (*fn)(uint32_t *id, void *ctx), void *ctx);
int elfobj_btf_visit_str_offs(struct btf_type *t, int (*fn)(uint32_t *off, void *ctx), void *ctx);
/* A visitor fn: fails for an id >= *(uint32_t *)ctx (the type count). */
int elfobj_btf_check_type_id(uint32_t *id, void *ctx);
/* Calls fn on every record of .BTF.ext block `block` (as elfobj checked it). */
typedef int (*elfobj_btf_ext_record_fn)(int block, const char *sec_name, const uint8_t *record,
					void *ctx);
int elfobj_btf_ext_for_each(const struct elfobj *obj, int block, elfobj_btf_ext_record_fn fn,
			    void *ctx);

/*
 * BTF-defined maps (btf.c). A static key is the map a VAR of .maps defines
 * whose __uint(type) is BPF_MAP_TYPE_INSN_ARRAY and whose __uint(map_extra)
 * has BPF_F_STATIC_KEY (abi.md section 3); an INSN_ARRAY map without the flag
 * is a plain map. Type 36 with the flag is a key of the old ABI, which
 * elfobj_read_btf() refuses. Typedefs and modifiers are skipped on the
 * struct, the pointer and the array, as libbpf reads a map
 * definition; members other than those two do not change the answer.
 */
/* The type `id` names with typedefs and modifiers skipped; NULL for a bad id or a cycle. */
const struct btf_type *elfobj_btf_skip_mods(const struct btf *btf, uint32_t id, uint32_t *res_id);
/* __uint(name, N) is `int (*name)[N]`: N of a member of that type; false for another shape. */
bool elfobj_btf_map_uint(const struct btf *btf, uint32_t member_type, uint32_t *value);
struct elfobj_map_kind {
	uint32_t type; /* 0 when absent or not of the __uint shape */
	uint32_t map_extra; /* likewise */
};
/* false if def_type (a .maps VAR's type) is not a struct. */
bool elfobj_map_kind(const struct btf *btf, uint32_t def_type, struct elfobj_map_kind *kind);
static inline bool elfobj_map_is_static_key(const struct elfobj_map_kind *kind)
{
	return kind->type == BPF_MAP_TYPE_INSN_ARRAY && (kind->map_extra & BPF_F_STATIC_KEY);
}
/* Map type 36 was BPF_MAP_TYPE_INSN_SET, the key type before ABI 2; unused since. */
#define ELFOBJ_OLD_ABI_KEY_MAP_TYPE 36
static inline bool elfobj_map_is_old_abi_static_key(const struct elfobj_map_kind *kind)
{
	return kind->type == ELFOBJ_OLD_ABI_KEY_MAP_TYPE && (kind->map_extra & BPF_F_STATIC_KEY);
}

/* static_keys.c: the branches .static_keys describes, sorted by (section, insn). */
struct elfobj_static_branch {
	uint64_t insn; /* instruction index of the branch in the section */
	uint64_t target; /* instruction index it jumps to */
	/* 32 bits (a million entries take 32 MB, not 48): sections and symbols are
	 * numbered so in ELF64, and more entries are refused */
	uint32_t entry; /* index of its .static_keys entry */
	uint32_t section; /* code section of the branch and its target */
	uint32_t key_symbol; /* symbol of the key (its definition is the tools' to check) */
	bool likely; /* entry flag */
	bool jump_when_off; /* polarity: nop_or_goto(l) */
	bool wide; /* gotol (32-bit) form */
};
/* Checks every entry (all errors reported); *branches is malloc'd (NULL if none). -ENOMEM
 * (said) when an allocation failed, -1 for any other error. */
int elfobj_read_static_keys(const struct elfobj *obj, struct elfobj_static_branch **branches,
			    size_t *count);
/* Name of the STT_FUNC symbol whose range holds `offset` in `section`, or NULL. */
const char *elfobj_function_at(const struct elfobj *obj, size_t section, uint64_t offset);

/* Bytes a relocation of this type patches at r_offset; 0 for unknown types. */
uint64_t elfobj_relocation_width(uint32_t type);
const Elf64_Rel *elfobj_relocations(const struct elfobj *obj, size_t section, size_t *count);
/* qsort order of relocations: by offset, then r_info. */
int elfobj_compare_relocations(const void *a, const void *b);
/*
 * The relocations of `section` in that order: in place when the file has
 * them in order, as compilers write them, else a sorted copy that *copy
 * holds for the caller to free (*copy is NULL otherwise). NULL with
 * *count > 0 when out of memory.
 */
const Elf64_Rel *elfobj_sorted_relocations(const struct elfobj *obj, size_t section, size_t *count,
					   Elf64_Rel **copy);
/*
 * qsort(), after one pass that returns if the array is already in order, as
 * compilers emit relocations, .static_keys entries and symbols: for a million
 * entries, sorting them again was a large part of a tool's run.
 */
void elfobj_sort(void *base, size_t count, size_t size, int (*compare)(const void *, const void *));
/*
 * Maps in the whole pages of [p, p + bytes) at once (MADV_POPULATE_WRITE), for
 * a table about to be written in full: one call instead of a page fault per
 * page, which costs twice as much per page on this project's (virtualized)
 * machines. The whole 2 MiB pages in the range are asked for as transparent
 * huge pages first (MADV_HUGEPAGE): there, each 4 KiB page costs again at its
 * first touch, mapped in or not. A hint: nothing happens where the kernel
 * lacks it.
 */
void elfobj_populate(void *p, size_t bytes);
bool elfobj_sorted(const void *base, size_t count, size_t size,
		   int (*compare)(const void *, const void *));

/* ---- string table (strtab.c): bpfld's .strtab, the strings of .bpfkeys ---- */
struct elfobj_strtab {
	char *data; /* offset 0 is "" */
	size_t size, capacity;
	bool fixed; /* data is the caller's (elfobj_strtab_init_in): never grown or freed */
	uint64_t *slots; /* open-addressing hash: a string's hash << 32 | its offset */
	size_t slot_count, used;
};
uint64_t elfobj_hash_name(const char *s); /* FNV-1a */
uint64_t elfobj_hash_name_length(const char *s, size_t *length); /* and strlen() */
int elfobj_strtab_init(struct elfobj_strtab *table);
/*
 * A table whose strings are written into data[0, capacity) (the caller's, e.g.
 * the tail of the section they end up in): adding more than fits is an error.
 */
int elfobj_strtab_init_in(struct elfobj_strtab *table, char *data, size_t capacity);
void elfobj_strtab_free(struct elfobj_strtab *table);
/* The offset of an identical string, added if needed; <0 (reported) on error. */
int64_t elfobj_strtab_add(struct elfobj_strtab *table, const char *str);
/* The same, for a string of `length` bytes whose elfobj_hash_name() the caller knows. */
int64_t elfobj_strtab_add_hashed(struct elfobj_strtab *table, const char *str, size_t length,
				 uint64_t hash);
/*
 * Appends a string the caller knows differs from every string added before
 * and after it, unindexed (no hash, no slot): a lookup never finds it. Its
 * offset, or <0 (reported) on error.
 */
int64_t elfobj_strtab_append_unique(struct elfobj_strtab *table, const char *str, size_t length);
/* Room for `strings` more strings of `bytes` in all (sizes the table once, up front). */
int elfobj_strtab_reserve(struct elfobj_strtab *table, size_t strings, size_t bytes);

/* ---- output (output.c) ---- */
struct elfobj_output {
	const char *path; /* as given (for messages) */
	char *temp_path; /* regular file: the temporary renamed into place */
	char *target_path; /* what is replaced: path, or what its symlink names */
	bool stream; /* a device or FIFO: the bytes are copied in at commit */
	bool to_stdout; /* path "-": streamed into standard output */
	int fd; /* seekable, for libelf */
};

/* Opens a seekable file to lay the output out in; nothing at `path` changes yet.
 * "-" is standard output (named "<stdout>" in messages). */
int elfobj_output_open(struct elfobj_output *out, const char *path);
/* Puts the complete output at `path`: rename, or copy into a device/FIFO. */
int elfobj_output_commit(struct elfobj_output *out);
/* Removes what was written; `path` is as it was. Safe after commit too. */
void elfobj_output_abort(struct elfobj_output *out);

/* ---- writing (write.c) ---- */
struct elfobj_writer {
	const char *path; /* -o as given (for messages) */
	struct elfobj_output output;
	bool caller_fd; /* output.fd is the caller's: no commit, not closed */
	Elf *elf;
};
/*
 * One section of the output, added in section index order (index 0 is
 * libelf's). shdr is written as given except sh_offset (libelf's layout) and
 * sh_size (= size); sh_addralign 0 lays the data out as 1. data_type is
 * ELF_T_BYTE (0) for bytes in file order, ELF_T_SYM or ELF_T_REL for
 * structures in host order that libelf converts.
 */
struct elfobj_out_section {
	Elf64_Shdr shdr;
	void *data; /* ignored for SHT_NOBITS */
	size_t size;
	Elf_Type data_type;
	/* bytes that follow data (ELF_T_BYTE, no padding between): names
	 * appended to a string table without copying it */
	const void *tail;
	size_t tail_size;
};
/*
 * Starts an object for -o `path` (elfobj_output_open) with header's e_ident,
 * e_type, e_machine, e_version, e_flags and e_shstrndx; libelf sets the
 * rest. On failure nothing is left to abort.
 */
int elfobj_writer_open(struct elfobj_writer *w, const char *path, const Elf64_Ehdr *header);
/* The same into a seekable fd the caller owns (the fuzzers' memfd); `path` names it. */
int elfobj_writer_open_fd(struct elfobj_writer *w, const char *path, int fd,
			  const Elf64_Ehdr *header);
int elfobj_writer_add(struct elfobj_writer *w, const struct elfobj_out_section *section);
/* Lays out and writes the object and puts it at -o; the writer is closed either way. */
int elfobj_writer_commit(struct elfobj_writer *w);
/* Drops what was written: -o is as it was. */
void elfobj_writer_abort(struct elfobj_writer *w);

#endif
