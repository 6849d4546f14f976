// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The validated object reader (rules in elfobj.h). The file is mapped (or
 * read) whole into memory and parsed with elf_memory(); the headers are
 * checked against the image before libelf is trusted with them, and every
 * index a tool later follows (section, symbol, relocation, string offsets) is
 * checked here once.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfobj.h"

#define fail(obj, section, ...) elfobj_error((obj)->path, section, __VA_ARGS__)
/* an allocation failed: said, and kept for a library caller's -ENOMEM */
#define out_of_memory(obj) ((obj)->out_of_memory = true, fail(obj, NULL, "out of memory"))

uint64_t elfobj_relocation_width(uint32_t type)
{
	switch (type) {
	case ELFOBJ_R_BPF_64_64:
		return 16; /* ld_imm64: two instructions */
	case ELFOBJ_R_BPF_64_32:
		return 8; /* call */
	case ELFOBJ_R_BPF_64_ABS64:
		return 8;
	case ELFOBJ_R_BPF_64_ABS32:
	case ELFOBJ_R_BPF_64_NODYLD32:
		return 4;
	default:
		return 0;
	}
}

int elfobj_compare_relocations(const void *a, const void *b)
{
	const Elf64_Rel *x = a, *y = b;

	if (x->r_offset != y->r_offset)
		return x->r_offset < y->r_offset ? -1 : 1;
	/* same offset (an error for whoever reads it): keep a deterministic order */
	return x->r_info < y->r_info ? -1 : x->r_info > y->r_info;
}

bool elfobj_sorted(const void *base, size_t count, size_t size,
		   int (*compare)(const void *, const void *))
{
	const char *item = base;

	for (size_t i = 1; i < count; i++, item += size)
		if (compare(item, item + size) > 0)
			return false;
	return true;
}

void elfobj_sort(void *base, size_t count, size_t size, int (*compare)(const void *, const void *))
{
	if (!elfobj_sorted(base, count, size, compare))
		qsort(base, count, size, compare);
}

/* A transparent huge page with 4 KiB pages (x86-64, arm64): what MADV_HUGEPAGE maps at once. */
#define HUGE_PAGE_BYTES ((uintptr_t)2 << 20)

/* [start, end) rounded inwards to multiples of `unit` (a power of two); false if empty. */
static bool round_inwards(uintptr_t *start, uintptr_t *end, uintptr_t unit)
{
	*start = (*start + unit - 1) & ~(unit - 1);
	*end &= ~(unit - 1);
	return *end > *start;
}

void elfobj_populate(void *p, size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)p, end = start + bytes;
	uintptr_t huge_start = start, huge_end = end;

	if (page <= 0 || bytes < 16 * (size_t)page) /* small: faults are as cheap */
		return;
#ifdef MADV_HUGEPAGE
	/*
	 * Huge pages first, where the table covers whole ones: on this
	 * project's virtual machines the first touch of each 4 KiB page costs
	 * the hypervisor microseconds even once it is mapped in, and that was
	 * half of `bpfkeys resolve`'s time at a million functions.
	 */
	if (round_inwards(&huge_start, &huge_end, HUGE_PAGE_BYTES))
		madvise((void *)huge_start, huge_end - huge_start, MADV_HUGEPAGE);
#endif
	if (round_inwards(&start, &end, (uintptr_t)page))
		madvise((void *)start, end - start, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)bytes;
#endif
}

const Elf64_Rel *elfobj_sorted_relocations(const struct elfobj *obj, size_t section, size_t *count,
					   Elf64_Rel **copy)
{
	const Elf64_Rel *rels = elfobj_relocations(obj, section, count);

	size_t i = 1;

	*copy = NULL;
	/* elfobj_sorted() with the comparison inlined: a million relocations are a
	 * million indirect calls otherwise */
	while (i < *count &&
	       (rels[i - 1].r_offset < rels[i].r_offset ||
		(rels[i - 1].r_offset == rels[i].r_offset && rels[i - 1].r_info <= rels[i].r_info)))
		i++;
	if (i >= *count)
		return rels;
	*copy = malloc(*count * sizeof(**copy));
	if (!*copy)
		return NULL;
	memcpy(*copy, rels, *count * sizeof(**copy));
	qsort(*copy, *count, sizeof(**copy), elfobj_compare_relocations);
	return *copy;
}

const Elf64_Rel *elfobj_relocations(const struct elfobj *obj, size_t section, size_t *count)
{
	const struct elfobj_section *rel = &obj->sections[obj->sections[section].rel_section];

	if (!obj->sections[section].rel_section) {
		*count = 0;
		return NULL;
	}
	*count = rel->shdr.sh_size / sizeof(Elf64_Rel);
	return (const Elf64_Rel *)rel->data;
}

static const char *type_name(uint32_t type)
{
	switch (type) {
	case SHT_NULL:
		return "SHT_NULL";
	case SHT_RELA:
		return "SHT_RELA";
	case SHT_DYNAMIC:
		return "SHT_DYNAMIC";
	case SHT_DYNSYM:
		return "SHT_DYNSYM";
	case SHT_NOTE:
		return "SHT_NOTE";
	case SHT_GROUP:
		return "SHT_GROUP";
	case SHT_SYMTAB_SHNDX:
		return "SHT_SYMTAB_SHNDX";
	default:
		return NULL;
	}
}

static bool string_table_ok(const struct elfobj_section *sec)
{
	return sec->shdr.sh_type == SHT_STRTAB && sec->shdr.sh_size > 0 &&
	       sec->data[sec->shdr.sh_size - 1] == '\0';
}

struct extent {
	uint64_t start, end;
	size_t section; /* SIZE_MAX: ELF header, SIZE_MAX - 1: section headers */
};

static int compare_extents(const void *a, const void *b)
{
	const struct extent *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->section < y->section ? -1 : x->section > y->section;
}

/* A section's name before the name table is checked (for messages only). */
static const char *early_section_name(const struct elfobj *obj, size_t index)
{
	const Elf64_Shdr *names = &obj->sections[obj->shstrndx].shdr;
	uint64_t off = obj->sections[index].shdr.sh_name;

	if (names->sh_type != SHT_STRTAB || names->sh_offset > obj->image_size ||
	    names->sh_size > obj->image_size - names->sh_offset || off >= names->sh_size ||
	    !memchr(obj->image + names->sh_offset + off, '\0', names->sh_size - off))
		return "?";
	return (const char *)obj->image + names->sh_offset + off;
}

static const char *extent_name(const struct elfobj *obj, size_t section, char *buf, size_t size)
{
	if (section == SIZE_MAX)
		return "the ELF header";
	if (section == SIZE_MAX - 1)
		return "the section header table";
	snprintf(buf, size, "section [%zu] '%s'", section, early_section_name(obj, section));
	return buf;
}

/* Every section's data lies in the file, clear of the headers and of each other. */
static int check_layout(struct elfobj *obj)
{
	struct extent *extents = calloc(obj->section_count + 2, sizeof(*extents));
	size_t count = 0;
	int err = 0;

	if (!extents)
		return out_of_memory(obj);
	extents[count++] = (struct extent){ 0, sizeof(Elf64_Ehdr), SIZE_MAX };
	extents[count++] = (struct extent){ obj->ehdr.e_shoff,
					    obj->ehdr.e_shoff + (uint64_t)obj->section_count *
									sizeof(Elf64_Shdr),
					    SIZE_MAX - 1 };
	for (size_t i = 1; i < obj->section_count; i++) {
		const Elf64_Shdr *sh = &obj->sections[i].shdr;

		if (sh->sh_type == SHT_NOBITS || sh->sh_size == 0)
			continue;
		if (sh->sh_offset > obj->image_size ||
		    sh->sh_size > obj->image_size - sh->sh_offset) {
			err = fail(obj, NULL,
				   "section [%zu] '%s': data [0x%llx, +0x%llx) is past the end of "
				   "the file (%zu bytes): truncated file?",
				   i, early_section_name(obj, i), (unsigned long long)sh->sh_offset,
				   (unsigned long long)sh->sh_size, obj->image_size);
			goto out;
		}
		extents[count++] = (struct extent){ sh->sh_offset, sh->sh_offset + sh->sh_size, i };
	}
	qsort(extents, count, sizeof(*extents), compare_extents);
	for (size_t i = 1; i < count; i++) {
		char a[300], b[300];

		if (extents[i].start >= extents[i - 1].end)
			continue;
		err = fail(obj, NULL, "%s overlaps %s in the file (at offset 0x%llx)",
			   extent_name(obj, extents[i].section, b, sizeof(b)),
			   extent_name(obj, extents[i - 1].section, a, sizeof(a)),
			   (unsigned long long)extents[i].start);
		goto out;
	}
out:
	free(extents);
	return err;
}

static int check_header(struct elfobj *obj)
{
	const uint8_t *ident = obj->image;
	size_t shnum, shstrndx;

	if (obj->image_size < EI_NIDENT || memcmp(ident, ELFMAG, SELFMAG))
		return fail(obj, NULL, "not an ELF file");
	if (ident[EI_CLASS] != ELFCLASS64)
		return fail(obj, NULL, "not a 64-bit ELF file (ELFCLASS64 required)");
	if (ident[EI_DATA] != ELFDATA2LSB)
		return fail(obj, NULL,
			    "byte order %s is not supported: BPF objects here are little endian",
			    ident[EI_DATA] == ELFDATA2MSB ? "big endian" : "(invalid)");
	if (obj->image_size < sizeof(Elf64_Ehdr))
		return fail(obj, NULL, "truncated file: %zu bytes, smaller than an ELF header",
			    obj->image_size);
	memcpy(&obj->ehdr, obj->image, sizeof(obj->ehdr));
	if (obj->ehdr.e_machine != EM_BPF)
		return fail(obj, NULL, "machine %u is not EM_BPF (%u): not a BPF object",
			    obj->ehdr.e_machine, EM_BPF);
	if (obj->ehdr.e_type != ET_REL)
		return fail(obj, NULL, "ELF type %u is not ET_REL: not a relocatable object",
			    obj->ehdr.e_type);
	if (obj->ehdr.e_shentsize != sizeof(Elf64_Shdr))
		return fail(obj, NULL, "bad section header size %u", obj->ehdr.e_shentsize);
	if (obj->ehdr.e_shoff % 8)
		return fail(obj, NULL, "section header table offset 0x%llx is misaligned",
			    (unsigned long long)obj->ehdr.e_shoff);
	/* e_shnum 0 with a table means extended numbering (count in section 0) */
	if (obj->ehdr.e_shnum == 0 || obj->ehdr.e_shnum >= SHN_LORESERVE ||
	    obj->ehdr.e_shstrndx == SHN_XINDEX)
		return fail(obj, NULL,
			    "no sections, or extended section numbering (not supported)");
	if (obj->ehdr.e_shoff > obj->image_size ||
	    (obj->image_size - obj->ehdr.e_shoff) / sizeof(Elf64_Shdr) < obj->ehdr.e_shnum)
		return fail(obj, NULL,
			    "section header table past the end of the file: truncated file?");
	obj->elf = elf_memory((char *)obj->image, obj->image_size);
	if (!obj->elf || elf_kind(obj->elf) != ELF_K_ELF)
		return fail(obj, NULL, "cannot parse ELF: %s", elf_errmsg(-1));
	if (elf_getshdrnum(obj->elf, &shnum) || elf_getshdrstrndx(obj->elf, &shstrndx) ||
	    shnum != obj->ehdr.e_shnum)
		return fail(obj, NULL, "cannot read the section headers: %s", elf_errmsg(-1));
	if (shnum < 2)
		return fail(obj, NULL, "no sections");
	if (shstrndx == 0 || shstrndx >= shnum)
		return fail(obj, NULL, "no section name string table (e_shstrndx %zu)", shstrndx);
	obj->section_count = shnum;
	obj->shstrndx = shstrndx;
	return 0;
}

/*
 * Sections that libbpf's loader takes by name whatever their flags, and the
 * static-key ABI's own tables: marked executable they would be both data and
 * code (bpfkeys would rewrite them as code), so such an object is refused.
 */
static bool holds_metadata(const char *name)
{
	static const char *const names[] = { ".BTF",
					     ".BTF.ext",
					     "license",
					     "version",
					     ELFOBJ_MAPS_SECTION,
					     "maps",
					     ELFOBJ_STATIC_KEYS_SECTION,
					     ".bpfkeys",
					     ".jumptables" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

static int check_sections(struct elfobj *obj)
{
	const struct elfobj_section *names;

	obj->sections = calloc(obj->section_count, sizeof(*obj->sections));
	if (!obj->sections)
		return out_of_memory(obj);
	/* the headers were checked to lie in the image, 8-byte aligned */
	for (size_t i = 1; i < obj->section_count; i++)
		memcpy(&obj->sections[i].shdr,
		       obj->image + obj->ehdr.e_shoff + i * sizeof(Elf64_Shdr), sizeof(Elf64_Shdr));
	obj->sections[0].name = "";
	if (check_layout(obj))
		return -1;
	for (size_t i = 1; i < obj->section_count; i++) {
		struct elfobj_section *sec = &obj->sections[i];

		if (sec->shdr.sh_type != SHT_NOBITS)
			sec->data = obj->image + (sec->shdr.sh_size ? sec->shdr.sh_offset : 0);
	}
	names = &obj->sections[obj->shstrndx];
	if (!string_table_ok(names))
		return fail(obj, NULL,
			    "section name table [%zu] is not a NUL-terminated string table",
			    obj->shstrndx);
	for (size_t i = 1; i < obj->section_count; i++) {
		struct elfobj_section *sec = &obj->sections[i];
		const Elf64_Shdr *sh = &sec->shdr;
		const char *kind;

		if (sh->sh_name >= names->shdr.sh_size)
			return fail(obj, NULL,
				    "section [%zu]: name offset %u is outside the name table", i,
				    sh->sh_name);
		sec->name = (const char *)names->data + sh->sh_name;
		if (!sec->name[0])
			return fail(obj, NULL, "section [%zu] has an empty name", i);
		switch (sh->sh_type) {
		case SHT_PROGBITS:
		case SHT_NOBITS:
		case SHT_SYMTAB:
		case SHT_STRTAB:
		case SHT_REL:
		case ELFOBJ_SHT_LLVM_ADDRSIG:
			break;
		default:
			kind = type_name(sh->sh_type);
			if (kind)
				return fail(obj, sec->name,
					    "%s sections are not part of BPF objects", kind);
			return fail(obj, sec->name, "unknown section type 0x%x", sh->sh_type);
		}
		if (sh->sh_flags & SHF_COMPRESSED)
			return fail(obj, sec->name, "compressed sections are not supported");
		if (sh->sh_addralign > 4096 || (sh->sh_addralign & (sh->sh_addralign - 1)))
			return fail(obj, sec->name,
				    "alignment %llu is not a power of two up to 4096",
				    (unsigned long long)sh->sh_addralign);
		if ((sh->sh_flags & SHF_EXECINSTR) && holds_metadata(sec->name))
			return fail(obj, sec->name,
				    "marked executable (SHF_EXECINSTR), but it holds no code");
		/* their bytes are what the tools read: a NOBITS one has none */
		if (sh->sh_type != SHT_PROGBITS && holds_metadata(sec->name))
			return fail(obj, sec->name,
				    "type %u, not PROGBITS: its contents are not in the file",
				    sh->sh_type);
		if (sh->sh_type == SHT_PROGBITS && (sh->sh_flags & SHF_EXECINSTR) &&
		    sh->sh_size % ELFOBJ_INSN_SIZE)
			return fail(obj, sec->name, "code size %llu is not a multiple of %d",
				    (unsigned long long)sh->sh_size, ELFOBJ_INSN_SIZE);
		/* tables are read through casts: give a misaligned one an aligned copy */
		if ((sh->sh_type == SHT_REL || sh->sh_type == SHT_SYMTAB) && sh->sh_size &&
		    (uintptr_t)sec->data % 8) {
			sec->aligned_copy = malloc(sh->sh_size);
			if (!sec->aligned_copy)
				return out_of_memory(obj);
			memcpy(sec->aligned_copy, sec->data, sh->sh_size);
			sec->data = sec->aligned_copy;
		}
		if (sh->sh_type == SHT_SYMTAB) {
			if (obj->symtab)
				return fail(obj, sec->name, "more than one symbol table");
			obj->symtab = i;
		}
	}
	if (!obj->symtab)
		return fail(obj, NULL, "no symbol table");
	return 0;
}

/* Sections a symbol may be defined in: the ones that hold program data. */
static bool holds_data(const struct elfobj_section *sec)
{
	return sec->shdr.sh_type == SHT_PROGBITS || sec->shdr.sh_type == SHT_NOBITS;
}

static int check_symbols(struct elfobj *obj)
{
	const struct elfobj_section *symtab = &obj->sections[obj->symtab], *strtab;
	size_t first_global = symtab->shdr.sh_info;

	if (symtab->shdr.sh_entsize != sizeof(Elf64_Sym) ||
	    symtab->shdr.sh_size % sizeof(Elf64_Sym))
		return fail(obj, symtab->name, "bad symbol table entry size");
	if (!symtab->shdr.sh_link || symtab->shdr.sh_link >= obj->section_count ||
	    !string_table_ok(&obj->sections[symtab->shdr.sh_link]))
		return fail(obj, symtab->name, "sh_link %u is not a NUL-terminated string table",
			    symtab->shdr.sh_link);
	obj->strtab = symtab->shdr.sh_link;
	strtab = &obj->sections[obj->strtab];
	obj->symbol_count = symtab->shdr.sh_size / sizeof(Elf64_Sym);
	if (!obj->symbol_count)
		return fail(obj, symtab->name, "empty symbol table");
	if (first_global == 0 || first_global > obj->symbol_count)
		return fail(obj, symtab->name,
			    "sh_info %zu is not the index of the first non-local symbol",
			    first_global);
	/* read in place: nothing writes a symbol, and a million symbols copied were a
	 * tenth of `bpfkeys resolve`'s memory */
	obj->symbols = (Elf64_Sym *)symtab->data;
	obj->symbol_names = calloc(obj->symbol_count, sizeof(*obj->symbol_names));
	if (!obj->symbol_names)
		return out_of_memory(obj);
	elfobj_populate(obj->symbol_names, obj->symbol_count * sizeof(*obj->symbol_names));
	obj->symbol_names[0] = "";
	if (obj->symbols[0].st_name || obj->symbols[0].st_info || obj->symbols[0].st_other ||
	    obj->symbols[0].st_shndx || obj->symbols[0].st_value || obj->symbols[0].st_size)
		return fail(obj, symtab->name, "symbol #0 is not all zero");
	for (size_t i = 1; i < obj->symbol_count; i++) {
		const Elf64_Sym *sym = &obj->symbols[i];
		int type = ELF64_ST_TYPE(sym->st_info), bind = ELF64_ST_BIND(sym->st_info);
		const struct elfobj_section *target;
		const char *name;

		if (sym->st_name >= strtab->shdr.sh_size)
			return fail(obj, symtab->name, "symbol #%zu: name offset %u is outside %s",
				    i, sym->st_name, strtab->name);
		name = (const char *)strtab->data + sym->st_name;
		obj->symbol_names[i] = name;
		if (bind != STB_LOCAL && bind != STB_GLOBAL && bind != STB_WEAK)
			return fail(obj, symtab->name, "symbol '%s': unsupported binding %d", name,
				    bind);
		if ((bind == STB_LOCAL) != (i < first_global))
			return fail(obj, symtab->name,
				    "symbol '%s' (#%zu): %s symbol %s the first non-local (#%zu)",
				    name, i, bind == STB_LOCAL ? "local" : "non-local",
				    bind == STB_LOCAL ? "after" : "before", first_global);
		if (type != STT_NOTYPE && type != STT_OBJECT && type != STT_FUNC &&
		    type != STT_SECTION && type != STT_FILE)
			return fail(obj, symtab->name, "symbol '%s': unsupported type %d", name,
				    type);
		if (ELF64_ST_VISIBILITY(sym->st_other) != STV_DEFAULT &&
		    ELF64_ST_VISIBILITY(sym->st_other) != STV_HIDDEN)
			return fail(obj, symtab->name, "symbol '%s': unsupported visibility %d",
				    name, ELF64_ST_VISIBILITY(sym->st_other));
		if (sym->st_shndx == SHN_UNDEF) {
			if (type != STT_NOTYPE || bind == STB_LOCAL || sym->st_value ||
			    sym->st_size)
				return fail(obj, symtab->name,
					    "symbol '%s': an undefined symbol must be a global "
					    "NOTYPE with value and size 0",
					    name);
			continue;
		}
		if (sym->st_shndx == SHN_ABS) {
			if (type == STT_SECTION || type == STT_FUNC)
				return fail(obj, symtab->name,
					    "symbol '%s': a %s symbol cannot be absolute", name,
					    type == STT_SECTION ? "section" : "function");
			continue;
		}
		if (type == STT_FILE)
			return fail(obj, symtab->name, "file symbol '%s' must be absolute", name);
		if (sym->st_shndx >= SHN_LORESERVE)
			return fail(obj, symtab->name,
				    "symbol '%s': reserved section index 0x%x is not supported",
				    name, sym->st_shndx);
		if (sym->st_shndx >= obj->section_count)
			return fail(obj, symtab->name,
				    "symbol '%s': section index %u does not exist", name,
				    sym->st_shndx);
		target = &obj->sections[sym->st_shndx];
		if (!holds_data(target))
			return fail(obj, symtab->name,
				    "symbol '%s' is defined in section '%s', which holds no "
				    "program data",
				    name, target->name);
		if (type == STT_SECTION) {
			if (sym->st_value || sym->st_size)
				return fail(obj, symtab->name,
					    "section symbol #%zu has a value or size", i);
			obj->symbol_names[i] = target->name;
			continue;
		}
		if (sym->st_value > target->shdr.sh_size ||
		    sym->st_size > target->shdr.sh_size - sym->st_value)
			return fail(obj, target->name,
				    "symbol '%s' [0x%llx, +0x%llx) lies outside the section "
				    "(0x%llx bytes)",
				    name, (unsigned long long)sym->st_value,
				    (unsigned long long)sym->st_size,
				    (unsigned long long)target->shdr.sh_size);
		if (type == STT_FUNC && !(target->shdr.sh_flags & SHF_EXECINSTR))
			return fail(obj, target->name,
				    "function symbol '%s' is in a non-executable section", name);
		if (type == STT_FUNC && sym->st_value % ELFOBJ_INSN_SIZE)
			return fail(obj, target->name,
				    "function symbol '%s' is not instruction aligned", name);
	}
	return 0;
}

static int check_relocation_section(struct elfobj *obj, size_t index)
{
	struct elfobj_section *sec = &obj->sections[index], *target;
	Elf64_Rel rel;
	size_t count;

	if (sec->shdr.sh_entsize != sizeof(Elf64_Rel) || sec->shdr.sh_size % sizeof(Elf64_Rel))
		return fail(obj, sec->name, "bad relocation entry size");
	if (sec->shdr.sh_link != obj->symtab)
		return fail(obj, sec->name, "sh_link %u is not the symbol table",
			    sec->shdr.sh_link);
	if (!sec->shdr.sh_info || sec->shdr.sh_info >= obj->section_count)
		return fail(obj, sec->name, "relocates missing section #%u", sec->shdr.sh_info);
	target = &obj->sections[sec->shdr.sh_info];
	if (target->shdr.sh_type != SHT_PROGBITS)
		return fail(obj, sec->name, "relocates section '%s', which has no data to relocate",
			    target->name);
	if (strncmp(sec->name, ".rel", 4) || strcmp(sec->name + 4, target->name))
		return fail(obj, sec->name, "name does not match the relocated section '%s'",
			    target->name);
	if (target->rel_section)
		return fail(obj, sec->name, "section '%s' already has relocation section '%s'",
			    target->name, obj->sections[target->rel_section].name);
	target->rel_section = index;
	count = sec->shdr.sh_size / sizeof(Elf64_Rel);
	for (size_t i = 0; i < count; i++) {
		size_t sym;
		uint32_t type;
		uint64_t width;

		memcpy(&rel, sec->data + i * sizeof(rel), sizeof(rel));
		sym = ELF64_R_SYM(rel.r_info);
		type = ELF64_R_TYPE(rel.r_info);
		width = elfobj_relocation_width(type);
		if (!width)
			return fail(obj, sec->name, "relocation #%zu has unsupported type %u", i,
				    type);
		if (!sym || sym >= obj->symbol_count)
			return fail(obj, sec->name,
				    "relocation #%zu at 0x%llx: symbol #%zu does not exist", i,
				    (unsigned long long)rel.r_offset, sym);
		if (rel.r_offset > target->shdr.sh_size ||
		    width > target->shdr.sh_size - rel.r_offset)
			return fail(obj, sec->name,
				    "relocation #%zu at 0x%llx patches past the end of '%s' "
				    "(0x%llx bytes)",
				    i, (unsigned long long)rel.r_offset, target->name,
				    (unsigned long long)target->shdr.sh_size);
		if (target->shdr.sh_flags & SHF_EXECINSTR) {
			if (rel.r_offset % ELFOBJ_INSN_SIZE)
				return fail(obj, sec->name,
					    "relocation #%zu at 0x%llx is not instruction aligned",
					    i, (unsigned long long)rel.r_offset);
		} else if (type == ELFOBJ_R_BPF_64_64 || type == ELFOBJ_R_BPF_64_32) {
			return fail(obj, sec->name,
				    "relocation #%zu: instruction relocation type %u in data "
				    "section '%s'",
				    i, type, target->name);
		}
	}
	return 0;
}

static int parse_image(struct elfobj *obj, const char *path, uint8_t *image, size_t image_size,
		       bool mapped)
{
	memset(obj, 0, sizeof(*obj));
	obj->path = path;
	obj->image = image;
	obj->image_size = image_size;
	obj->image_mapped = mapped;
	elf_version(EV_CURRENT);
	if (check_header(obj) || check_sections(obj) || check_symbols(obj))
		return -1;
	for (size_t i = 1; i < obj->section_count; i++)
		if (obj->sections[i].shdr.sh_type == SHT_REL && check_relocation_section(obj, i))
			return -1;
	return elfobj_read_btf(obj);
}

int elfobj_parse(struct elfobj *obj, const char *path, uint8_t *image, size_t image_size)
{
	return parse_image(obj, path, image, image_size, false);
}

/*
 * A regular file is mapped, not read: at a hundred megabytes, copying it into
 * fresh memory (and faulting that memory in first) was a tenth of a tool's
 * run. The mapping is private and writable, as the read image was, and
 * NUL-padded like it by the rest of its last page; a file that ends on a page
 * boundary has no byte there, and is read. A small file is read too: a
 * linker opens thousands of them, and on a VM each munmap() costs tens of
 * microseconds (bpfld on 1,000 small objects spent half its time there).
 * NULL: read it.
 */
#define MAP_IMAGE_MIN_SIZE (1u << 20)

static uint8_t *map_image(int fd, size_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	void *image;

	if (size < MAP_IMAGE_MIN_SIZE || page <= 0 || size % (size_t)page == 0)
		return NULL;
	image = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	return image == MAP_FAILED ? NULL : image;
}

int elfobj_parse_memory(struct elfobj *obj, const char *path, const void *buf, size_t size)
{
	uint8_t *image = calloc(size + 1, 1);

	if (!image) {
		memset(obj, 0, sizeof(*obj));
		obj->path = path;
		return out_of_memory(obj);
	}
	memcpy(image, buf, size);
	return elfobj_parse(obj, path, image, size);
}

/* "-": standard input (a pipe, or a file of any kind), read to its end. */
static int read_stdin(struct elfobj *obj)
{
	size_t size = 0, cap = 65536;
	uint8_t *image = malloc(cap + 1), *grown;

	obj->path = "<stdin>";
	for (;;) {
		ssize_t n;

		if (!image)
			return fail(obj, NULL, "out of memory");
		n = read(STDIN_FILENO, image + size, cap - size);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(image);
			return fail(obj, NULL, "cannot read: %s", strerror(errno));
		}
		if (n == 0)
			break;
		size += (size_t)n;
		if (size == cap) {
			cap *= 2;
			grown = realloc(image, cap + 1);
			if (!grown)
				free(image);
			image = grown;
		}
	}
	image[size] = 0;
	return elfobj_parse(obj, obj->path, image, size);
}

int elfobj_open(struct elfobj *obj, const char *path)
{
	struct stat st;
	uint8_t *image;
	size_t done = 0;
	int fd;

	memset(obj, 0, sizeof(*obj));
	if (strcmp(path, "-") == 0)
		return read_stdin(obj);
	obj->path = path;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(obj, NULL, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return fail(obj, NULL, "not a regular file");
	}
	image = map_image(fd, (size_t)st.st_size);
	if (image) {
		close(fd);
		return parse_image(obj, path, image, (size_t)st.st_size, true);
	}
	image = calloc((size_t)st.st_size + 1, 1);
	if (!image) {
		close(fd);
		return out_of_memory(obj);
	}
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, image + done, (size_t)st.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			free(image);
			return fail(obj, NULL, "cannot read: %s",
				    n ? strerror(errno) : "the file shrank");
		}
		done += (size_t)n;
	}
	close(fd);
	return elfobj_parse(obj, path, image, done);
}

void elfobj_close(struct elfobj *obj)
{
	btf__free(obj->btf);
	if (obj->elf)
		elf_end(obj->elf);
	for (size_t i = 0; obj->sections && i < obj->section_count; i++)
		free(obj->sections[i].aligned_copy);
	free(obj->sections);
	free(obj->symbol_names);
	if (obj->image_mapped)
		munmap(obj->image, obj->image_size);
	else
		free(obj->image);
	memset(obj, 0, sizeof(*obj));
}
