/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * bpfld: a static linker for BPF ELF relocatable objects.
 *
 * Phases (one file each, in linker.c's order per input): read.c takes the
 * object elfobj read and validated, merge.c appends its sections,
 * resolve.c merges its symbols into the global symbol table, merge.c copies
 * its relocations (rebasing section-relative in-place values, .static_keys
 * and .jumptables included), btf.c merges .BTF/.BTF.ext. Once every
 * input is in, main.c calls, in order: resolve.c's check_link_complete()
 * (undefined keys, missing BTF), btf.c's finalize_btf() (DATASECs, dedup),
 * and write.c's write_output(), which hands the output ELF to elfobj's writer
 * (libelf layout, atomic write). No phase calls the next. The design follows
 * libbpf's linker.c (tools/lib/bpf/linker.c) so that outputs are compatible.
 */
#ifndef BPFLD_H
#define BPFLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <gelf.h>
#include <libelf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "bpfkeys_format.h"
#include "elfobj.h"

#define BTF_SECTION ".BTF"
#define BTF_EXT_SECTION ".BTF.ext"
#define BTF_EXTERN_DATASEC ".extern"
#define JUMP_TABLES_SECTION ".jumptables"
#define JUMP_TABLE_SYMBOL_PREFIX "BPF.JT."

/* ---- diagnostics (elfobj/diag.c: elfobj_error) and arrays (diag.c) ---- */
extern bool bpfld_verbose;

/* ---- name lookup (strings.c) over elfobj's string table ---- */

/* Map from a name (offset in a string table) to an int, for global symbols. */
struct name_map {
	const struct elfobj_strtab *names;
	struct name_map_slot {
		uint32_t name_off;
		int value;
	} *slots;
	size_t slot_count, used;
};
int name_map_init(struct name_map *map, const struct elfobj_strtab *names);
void name_map_free(struct name_map *map);
int name_map_put(struct name_map *map, uint32_t name_off, int value);
/* Returns the value or -1. */
int name_map_get(const struct name_map *map, const char *name);

/*
 * Map from a name to an index, over strings that outlive it (an input's
 * section, symbol and BTF names; output section names). Zeroed is empty.
 */
struct name_index {
	struct name_index_slot {
		const char *name;
		size_t value;
	} *slots;
	size_t slot_count, used;
};
void name_index_free(struct name_index *index);
/* The value of `name`, added as 0 (*added set) if absent; NULL if out of memory. */
size_t *name_index_slot(struct name_index *index, const char *name, bool *added);
/* Whether `name` is present; its value in *value. */
bool name_index_get(const struct name_index *index, const char *name, size_t *value);

/* ---- input objects (read.c) ---- */
struct input_section {
	const char *name;
	size_t elf_index; /* 0 for ephemeral sections */
	Elf64_Shdr *shdr;
	Elf_Data *data;
	/* symbol and relocation tables, 8-byte aligned (elfobj's copies if the file's are not) */
	void *table;
	bool skipped; /* not copied to the output (.BTF, DWARF, ...) */
	bool ephemeral; /* exists only in BTF: .kconfig, .ksyms */
	int output_id; /* index into linker.sections, 0 if none */
	uint64_t output_offset; /* where this section's data starts in the output section */
	uint32_t datasec_type_id; /* BTF DATASEC describing this section */
};

/* .BTF.ext as elfobj read and checked it */
#define btf_ext_block elfobj_btf_ext_block
enum {
	BTF_EXT_FUNC_INFO = ELFOBJ_BTF_EXT_FUNC_INFO,
	BTF_EXT_LINE_INFO = ELFOBJ_BTF_EXT_LINE_INFO,
	BTF_EXT_CORE_RELO = ELFOBJ_BTF_EXT_CORE_RELO,
	BTF_EXT_BLOCK_COUNT = ELFOBJ_BTF_EXT_BLOCKS,
};

struct input_object {
	struct elfobj file; /* the validated ELF (owns image and elf) */
	const char *path;
	const Elf64_Sym *symbols;
	size_t symbol_count;
	struct btf *btf; /* elfobj's (owned by file) */
	struct btf_ext_block btf_ext[BTF_EXT_BLOCK_COUNT];
	bool has_btf_ext;
	/* positional array: ELF sections first (slot = ELF index), then ephemeral ones */
	struct input_section *sections;
	size_t section_count;
	struct name_index section_names; /* name -> first section of that name */
	/* STT_OBJECT symbols: name -> first of that name, next_object_symbol[] the
	 * next one (0: none), in symbol order; built by btf.c when first needed */
	struct name_index object_symbols;
	size_t *next_object_symbol;
	/* .static_keys branches as elfobj checked them */
	struct elfobj_static_branch *static_branches;
	size_t static_branch_count;
	size_t *symbol_map; /* input symbol index -> output symbol index (0: dropped) */
	uint32_t *btf_type_map; /* input BTF type id -> output BTF type id */
};

int input_object_open(struct input_object *obj, const char *path);
/* Parses an image already in memory; takes ownership of `image` (malloc'd). */
int input_object_parse(struct input_object *obj, const char *path, char *image, size_t size);
void input_object_close(struct input_object *obj);
struct input_section *input_section_by_name(struct input_object *obj, const char *name);
const char *input_symbol_name(const struct input_object *obj, const Elf64_Sym *sym);

/* ---- output being linked ---- */
struct record_array {
	uint32_t record_size;
	size_t count, capacity;
	uint8_t *records;
};

struct output_section {
	char *name;
	int id;
	bool ephemeral;
	uint32_t type, flags;
	uint64_t entsize, align, size;
	uint8_t *data;
	size_t capacity;
	size_t section_symbol; /* STT_SECTION symbol index, 0 if none yet */
	/* relocations against this section, symbol indices are output indices */
	Elf64_Rel *relocations;
	size_t relocation_count, relocation_capacity;
	/* BTF DATASEC members, emitted when BTF is finalized */
	bool has_btf;
	struct btf_var_secinfo *vars;
	size_t var_count, var_capacity;
	struct record_array btf_ext[BTF_EXT_BLOCK_COUNT];
	size_t elf_index; /* assigned by write.c */
};

struct output_symbol {
	Elf64_Sym sym; /* st_shndx is used only when section_id == 0 */
	int section_id;
};

struct global_symbol {
	size_t symbol_index;
	int section_id; /* output section (ephemeral ones included), 0 for .extern */
	uint32_t name_off;
	uint32_t btf_id; /* VAR/FUNC in the output BTF, 0 until BTF of its object is merged */
	/* <0: -(input type id) of the VAR/FUNC's type, to remap once its object's
	 * BTF is appended; >0: the output type id */
	int64_t underlying_btf_id;
	int var_index; /* index in its section's DATASEC vars, -1 if none */
	bool is_extern;
	bool is_weak;
	/* the input whose symbol (and so BTF type) the global stands for: the
	 * first to mention it, then each definition that wins */
	const char *path;
	/* an input with a .static_keys entry on this global while it was
	 * still an extern: checked once every input is linked */
	const char *static_key_user;
};

struct linker {
	struct output_section *sections; /* slot 0 unused */
	size_t section_count, section_capacity;
	struct name_index section_names; /* name -> id */
	struct output_symbol *symbols; /* slot 0 is the null symbol */
	size_t symbol_count, symbol_capacity;
	struct elfobj_strtab strtab; /* symbol and section names */
	struct global_symbol *globals;
	size_t global_count, global_capacity;
	struct name_map global_names;
	struct btf *btf;
	/* globals whose VAR/FUNC type awaits remapping by the object being merged */
	size_t *pending_types;
	size_t pending_count, pending_capacity;
};

int linker_init(struct linker *linker);
void linker_free(struct linker *linker);
/* Runs one input file through every per-object phase (linker.c). */
int link_input_object(struct linker *linker, const char *path);
struct output_section *output_section_by_name(struct linker *linker, const char *name);
struct output_section *output_section_add(struct linker *linker, const char *name);
int output_symbol_add(struct linker *linker, size_t *index);

/* ---- phases ---- */
int merge_section_data(struct linker *linker, struct input_object *obj); /* merge.c */
int resolve_symbols(struct linker *linker, struct input_object *obj); /* resolve.c */
int merge_relocations(struct linker *linker, struct input_object *obj); /* merge.c */
int merge_btf(struct linker *linker, struct input_object *obj); /* btf.c */
/* A VAR or FUNC of global or extern linkage. */
bool btf_is_non_static(const struct btf_type *t); /* btf.c */
/* A compiler's jump table (BPF.JT.<func>.<n> in .jumptables): private to its object. */
bool is_jump_table_symbol(const struct input_object *obj, const Elf64_Sym *sym); /* merge.c */
int merge_btf_ext(struct linker *linker, struct input_object *obj); /* btf.c */
int btf_type_matches(const char *sym_name, bool exact, const struct btf *btf1, uint32_t id1,
		     const struct btf *btf2, uint32_t id2); /* btf.c */
/* 1 if the two map definitions agree, else 0 with the difference in why. */
int map_definitions_match(const char *sym_name, const struct btf *btf1, uint32_t var_id1,
			  const struct btf *btf2, uint32_t var_id2, char *why,
			  size_t why_size); /* btf.c */
int complete_extern_btf(struct btf *dst, uint32_t dst_id, const struct btf *src, uint32_t src_id);
/* 0 or 1 (DEFINE_STATIC_KEY_FALSE/TRUE) if the VAR is a static key map, -1 if not. */
int static_key_polarity(const struct btf *btf, uint32_t var_id); /* btf.c */
/* Once every input is linked: what no single input could show (resolve.c). */
int check_link_complete(struct linker *linker);
struct global_symbol *global_symbol_by_index(struct linker *linker, size_t symbol_index);
/* The output's .BTF and .BTF.ext, NULL when no input has BTF. */
struct final_btf {
	void *btf_raw, *ext_raw;
	uint32_t btf_size, ext_size;
};
/* After check_link_complete(): DATASECs, dedup, raw sections (btf.c). */
int finalize_btf(struct linker *linker, const char *output_path, struct final_btf *out);
void final_btf_free(struct final_btf *btf); /* btf.c */
int write_output(struct linker *linker, const char *path,
		 const struct final_btf *btf); /* write.c */

/* helpers */
int grow_array(void **array, size_t *capacity, size_t needed, size_t element_size);
static inline struct btf_type *btf_type_mut(const struct btf *btf, uint32_t id)
{
	/* The output BTF is always in libbpf's modifiable state once types are
	 * appended, so editing a type in place is safe (libbpf's linker does
	 * the same through its internal btf_type_by_id()). */
	return (struct btf_type *)btf__type_by_id(btf, id);
}

#endif
