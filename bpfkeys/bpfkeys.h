/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * bpfkeys: the static-key post-processor. One object model shared by the
 * phases: read (ELF + BTF), callgraph, resolve (sites, validation, key
 * instances), write (ELF rewrite), lower, list. The ABI is docs/abi.md.
 */
#ifndef BPFKEYS_H
#define BPFKEYS_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <gelf.h>

#include "bpfkeys_format.h"
#include "elfobj.h"

struct btf_type;

/* ABI constants (instruction size, relocation types, map type and flags,
 * section names) are elfobj.h's and the uapi header's it includes. */

struct bk_insn {
	uint8_t code;
	uint8_t regs; /* src_reg << 4 | dst_reg, little endian */
	int16_t off;
	int32_t imm;
};

static inline unsigned bk_insn_src(const struct bk_insn *insn)
{
	return insn->regs >> 4;
}
static inline unsigned bk_insn_dst(const struct bk_insn *insn)
{
	return insn->regs & 0xf;
}

struct bk_section {
	const char *name;
	GElf_Shdr shdr;
	uint8_t *data; /* points into the input image; NULL for SHT_NOBITS */
	bool exec; /* SHT_PROGBITS + SHF_EXECINSTR: code */
	/* relocations applying to this section, sorted by offset */
	const GElf_Rel *rels; /* in the image, or rels_copy if the file's were out of order */
	GElf_Rel *rels_copy;
	size_t rel_count;
};

/*
 * 32-bit indices: bk_read_sites() refuses objects with 4G functions, sections or
 * sites. 48 bytes: a million of them are resolve's largest table at one site per
 * function, and each new page of memory costs a page fault.
 */
struct bk_function {
	const char *name;
	uint64_t start; /* first instruction, index in the section */
	uint64_t count; /* instructions */
	/* BPF-to-BPF calls and callbacks taken by address, sorted, each once */
	uint32_t first_callee, callee_count; /* into obj->callees */
	uint32_t section; /* ELF section index */
	uint32_t first_site, site_count; /* into obj->sites, after sorting by function */
	bool is_program; /* a libbpf program: in an executable section other than .text */
};

struct bk_key {
	const char *name;
	size_t symbol; /* index in .symtab */
	uint64_t map_type;
	uint64_t map_extra;
	bool is_static_key; /* elfobj_map_is_static_key() */
	size_t site_count;
	size_t instance_count; /* computed by resolve */
	size_t reference_count; /* programs that refer to it, computed by resolve */
};

/* The size of elfobj's struct elfobj_static_branch: bk_read_sites() turns each into a site in place. */
struct bk_site {
	uint64_t insn; /* instruction index in the section */
	uint64_t target; /* target instruction index in the section */
	uint32_t section; /* ELF section of the branch */
	uint32_t key; /* index in obj->keys */
	uint32_t function; /* index in obj->functions */
	bool jump_when_off; /* polarity: nop_or_goto(l) */
	bool wide; /* 32-bit (gotol) form */
	/* a resolved object's branch in a function no program reaches: .bpfkeys
	 * names no key for it (key is 0, unused) and lower fixes it not taken */
	bool unkeyed;
};

/*
 * An ld_imm64 of a static key in code (`&key`), whose value
 * bk_check_key_references() followed to the map argument of a static key
 * kfunc and nowhere else.
 */
struct bk_key_load {
	uint64_t insn; /* the ld_imm64's first slot, index in the section */
	uint32_t section;
	uint32_t key; /* index in obj->keys */
	uint32_t function; /* index in obj->functions */
};

/*
 * One (key, program) pair and its run of members: for an instance (the unit
 * a loader creates a map for) its sites, indices in obj->instance_sites; for
 * a reference (the program passes `&key` to a kfunc) its key loads, indices
 * in obj->reference_loads. 32-bit: bk_build_instances() refuses 4G keys,
 * functions or members.
 */
struct bk_key_program {
	uint32_t key;
	uint32_t program; /* index in obj->functions */
	uint32_t first;
	uint32_t count;
};

struct bk_object {
	struct elfobj file; /* what elfobj read and owns; the fields below point into it */
	const char *path;
	struct bk_section *sections;
	size_t section_count;
	const GElf_Sym *symbols;
	size_t symbol_count;
	const char **symbol_names;
	size_t static_keys_section;
	size_t maps_section, btf_section, instances_section;
	struct btf *btf;

	struct bk_function *functions; /* sorted by (section, start) */
	size_t function_count;
	uint32_t *callees; /* each function's callees, function by function */
	size_t callee_count, callee_cap;
	struct bk_key *keys; /* sorted by name */
	/* [symbol_count]: 1 + index in keys, 0 if none (zero-filled: the pages of
	 * symbols no lookup asks about are never touched) */
	uint32_t *symbol_key;
	size_t key_count;
	struct bk_site *sites; /* sorted by (function, insn) after resolve */
	size_t site_count;
	struct bk_key_program *instances; /* sorted by (key name, program name) */
	size_t instance_count;
	uint32_t *instance_sites; /* indices into sites, per instance */
	size_t instance_site_count;
	struct bk_key_load *key_loads; /* sorted by (function, insn) */
	size_t key_load_count;
	struct bk_key_program *references; /* sorted by (key name, program name) */
	size_t reference_count;
	uint32_t *reference_loads; /* indices into key_loads, per reference */
	size_t reference_load_count;
	/* no two functions share a name, nor a function a key's or a section's
	 * (bk_build_instances): .bpfkeys need not look function names up */
	bool function_names_unique;
	/* the analysis failed for want of memory (said), not for the input */
	bool out_of_memory;
};

/* diag.c */
void bk_error(const struct bk_object *obj, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void bk_warn(const struct bk_object *obj, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * The core has no error path for a failed allocation, and never exits: a
 * library entry into it (libbpfkeys' calls, the fuzz target) first sets
 * bk_bail_target with setjmp(), and bk_bail() jumps there with the error.
 * Per thread, so two threads may run the core at once. What the interrupted
 * call had allocated outside the bk_object is not freed. A program (the CLI)
 * sets bk_bail_exit instead, which says it and exits with every frame live.
 */
extern _Thread_local jmp_buf *bk_bail_target;
extern void (*bk_bail_exit)(int err) __attribute__((noreturn));
/* longjmp(*bk_bail_target, -err), else bk_bail_exit(err), else abort() (an
 * entry without either is a bug): err is -ENOMEM, or -E2BIG (reported) for a
 * table past 4 GiB. */
void bk_bail(int err) __attribute__((noreturn));
/* bk_bail(-ENOMEM) */
void bk_out_of_memory(void) __attribute__((noreturn));
/*
 * The allocations of a call that leaves nothing allocated behind it (a lower:
 * its output goes to a file), recorded while bk_transient is set, so that a
 * bail-out out of it frees them: bk_x*() record what they allocate, bk_free()
 * (free() in the core, below) forgets it. Per thread, NULL: nothing recorded.
 */
struct bk_transient {
	void **slots; /* open addressing on the pointer; NULL empty */
	size_t capacity, used, count; /* used: slots ever filled (tombstones too) */
	struct elfobj_writer *writer; /* the output being written (libelf's), or NULL */
};
extern _Thread_local struct bk_transient *bk_transient;
void bk_free(void *p);
/* ends the recording; with free_all, frees what is still recorded */
void bk_transient_end(struct bk_transient *transient, bool free_all);
#define free(p) bk_free(p)
void *bk_xcalloc(size_t n, size_t size);
/* Not zeroed, for tables written in full: zeroing a reused heap block costs a pass over it. */
void *bk_xmalloc(size_t n, size_t size);
/* p, its first n * size bytes mapped in at once (elfobj_populate()): a table about to be written. */
void *bk_populated(void *p, size_t n, size_t size);
void *bk_xrealloc(void *ptr, size_t n, size_t size);
/* ptr with room for entry `count` of a growing array (count <= *cap): doubles *cap when full. */
void *bk_xgrow(void *ptr, size_t count, size_t *cap, size_t size);
char *bk_xstrdup(const char *s);

/* read.c: open and check the ELF, load sections, symbols, relocations, BTF */
int bk_object_read(struct bk_object *obj, const char *path);
int bk_object_read_memory(struct bk_object *obj, const char *path, const void *buf, size_t size);
void bk_object_free(struct bk_object *obj);
size_t bk_find_section(const struct bk_object *obj, const char *name);
const GElf_Rel *bk_find_rel(const struct bk_section *sec, uint64_t offset, size_t *count);
const char *bk_section_name(const struct bk_object *obj, size_t index);

/* maps.c: key maps from the .maps DATASEC */
int bk_read_keys(struct bk_object *obj);
ssize_t bk_key_by_symbol(const struct bk_object *obj, size_t symbol);
ssize_t bk_key_by_name(const struct bk_object *obj, const char *name);

/* callgraph.c */
int bk_build_functions(struct bk_object *obj);
int bk_build_callgraph(struct bk_object *obj);
ssize_t bk_function_at(const struct bk_object *obj, size_t section, uint64_t insn);
/* The DATASEC .ksyms that declares the object's kfuncs (NULL if none), and whether a symbol is one. */
const struct btf_type *bk_find_ksyms(const struct bk_object *obj);
bool bk_is_kfunc(const struct bk_object *obj, const struct btf_type *ksyms, const GElf_Sym *sym,
		 const char *name);

/* resolve.c */
int bk_read_sites(struct bk_object *obj);
int bk_build_instances(struct bk_object *obj);
/* The programs that reach function f: how many, and the first in object order (for messages). */
size_t bk_programs_reaching(const struct bk_object *obj, size_t f, const char **first);
/* key_refs.c: ld_imm64s of keys, followed to the static key kfuncs */
int bk_check_key_references(struct bk_object *obj);
/* lower and libbpfkeys: an object whose programs flip keys cannot run on a stock kernel */
int bk_refuse_references_on_stock(const struct bk_object *obj);
/* everything above, in order: the model of a raw object */
int bk_analyze(struct bk_object *obj);
/* resolved.c: the same model of a resolved object, its sites read from .bpfkeys */
int bk_analyze_resolved(struct bk_object *obj);

/* format.c: the .bpfkeys section */
int bk_format_build(const struct bk_object *obj, uint8_t **out, size_t *out_size);

/* write.c: rewrite of the input object */
struct bk_new_section {
	const char *name;
	uint32_t type;
	uint64_t flags;
	uint64_t align;
	const void *data;
	size_t size;
};
struct bk_edit {
	bool *drop_section; /* [section_count] */
	bool *drop_symbol; /* [symbol_count] */
	const void **section_data; /* [section_count]: replacement bytes or NULL */
	size_t *section_size; /* [section_count] */
	/* offset remapping of relocation targets in a replaced section (BTF edits):
	 * returns false to drop the relocation */
	bool (*remap_offset)(void *ctx, size_t section, uint64_t *offset);
	void *remap_ctx;
	/* st_value/st_size of a kept symbol (st_shndx still the input's index) */
	void (*remap_symbol)(void *ctx, Elf64_Sym *sym);
	void *remap_symbol_ctx;
	struct bk_new_section *new_sections;
	size_t new_section_count;
};
int bk_edit_init(struct bk_edit *edit, const struct bk_object *obj);
void bk_edit_free(struct bk_edit *edit);
int bk_write(const struct bk_object *obj, const struct bk_edit *edit, const char *out_path,
	     int out_fd);
/* out_path, or (if NULL) out_fd: the fuzzer writes to a memfd */
int bk_write_resolved(struct bk_object *obj, const char *out_path, int out_fd);

/* shrink.c: static branches fixed at a state and the code they make dead removed (lower) */
struct bk_code_layout {
	uint64_t count; /* instructions of the input section */
	bool *kept; /* [count] */
	uint64_t *order; /* [count]: input indices in output order (deleted ones too) */
	uint64_t *new_index; /* [count + 1]: output index of i, or of the next kept one in order */
	bool moved; /* an instruction was deleted or moved */
	uint8_t *code; /* output bytes, NULL if the section is unchanged */
	size_t size;
};
/* a .BTF.ext record: where it was and went (.rel.BTF.ext follows it) */
struct bk_btf_ext_record {
	uint64_t old_offset, new_offset;
	uint32_t size;
	bool kept;
};
struct bk_shrink {
	const struct bk_object *obj;
	struct bk_code_layout *layout; /* [section_count], filled for code sections */
	size_t section_count;
	bool moved; /* any code section lost instructions */
	size_t btf_ext_section; /* rewritten .BTF.ext, 0 if none */
	struct bk_btf_ext_record *btf_ext_records; /* sorted by old_offset */
	size_t btf_ext_record_count;
	void **buffers; /* replacement section bytes owned here */
	size_t buffer_count;
};
/* taken[site]: the branch of each site jumps at the chosen states */
int bk_shrink_code(struct bk_object *obj, const bool *taken, struct bk_shrink *shrink);
void bk_shrink_free(struct bk_shrink *shrink);
/* Output offset of a byte of code section `section` (a deleted instruction: the next kept one). */
uint64_t bk_shrink_byte(const struct bk_shrink *shrink, size_t section, uint64_t offset);
/* shrink_refs.c: symbols, relocations, .BTF.ext, data addends and DWARF after shrink */
bool bk_shrink_relocations_matter(const struct bk_object *obj, size_t section);
int bk_shrink_read_addend(const struct bk_object *obj, size_t section, const GElf_Rel *rel,
			  int64_t *addend);
int bk_shrink_apply(struct bk_object *obj, struct bk_shrink *shrink, struct bk_edit *edit);
bool bk_shrink_remap_offset(void *ctx, size_t section, uint64_t *offset);
void bk_shrink_remap_symbol(void *ctx, Elf64_Sym *sym);

/* lower.c */
struct bk_setting {
	const char *key;
	bool on;
	bool used;
};
int bk_lower(struct bk_object *obj, struct bk_setting *settings, size_t setting_count,
	     const char *out_path, int out_fd);

/* skeleton.c (the command line's): `bpfkeys gen skeleton PATH [NAME]` to
 * stdout; the exit status */
int bk_gen_skeleton(const char *path, const char *name);

/* list.c */
int bk_list(struct bk_object *obj, bool json);
int bk_load_instances(struct bk_object *obj);

#endif /* BPFKEYS_H */
