// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Read phase: the whole file is read into memory and parsed with libelf
 * (elf_memory), then every structure later phases index into is checked
 * here once: section bounds and overlaps, string tables, the symbol table,
 * relocation symbol indices. Later phases may then index without checks.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfkeys.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif

static int read_file(struct bk_object *obj, const char *path)
{
	struct stat st;
	size_t done = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		bk_error(obj, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		bk_error(obj, "not a regular file");
		close(fd);
		return -1;
	}
	obj->image_size = (size_t)st.st_size;
	obj->image = bk_xcalloc(obj->image_size + 1, 1);
	while (done < obj->image_size) {
		ssize_t n = read(fd, obj->image + done, obj->image_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			bk_error(obj, "cannot read: %s", n ? strerror(errno) : "file shrank");
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	close(fd);
	return 0;
}

const char *bk_section_name(const struct bk_object *obj, size_t index)
{
	if (index >= obj->section_count || !obj->sections[index].name)
		return "<none>";
	return obj->sections[index].name;
}

size_t bk_find_section(const struct bk_object *obj, const char *name)
{
	for (size_t i = 1; i < obj->section_count; i++)
		if (strcmp(obj->sections[i].name, name) == 0)
			return i;
	return 0;
}

/* The sections bpfkeys interprets must be unique. */
static int find_unique(struct bk_object *obj, const char *name, size_t *index)
{
	*index = 0;
	for (size_t i = 1; i < obj->section_count; i++) {
		if (strcmp(obj->sections[i].name, name) != 0)
			continue;
		if (*index) {
			bk_error(obj, "two sections named %s ([%zu] and [%zu])", name, *index, i);
			return -1;
		}
		*index = i;
	}
	return 0;
}

static bool string_table_ok(const struct bk_section *sec)
{
	return sec->shdr.sh_type == SHT_STRTAB && sec->shdr.sh_size > 0 &&
	       sec->data[sec->shdr.sh_size - 1] == '\0';
}

/* A section's name before the name table is known to be sound (for messages only). */
static const char *early_section_name(const struct bk_object *obj, size_t index)
{
	const GElf_Shdr *names;
	size_t off;

	if (index >= obj->section_count || obj->shstrndx >= obj->section_count)
		return "?";
	names = &obj->sections[obj->shstrndx].shdr;
	off = obj->sections[index].shdr.sh_name;
	if (names->sh_type != SHT_STRTAB || names->sh_offset > obj->image_size ||
	    names->sh_size > obj->image_size - names->sh_offset || off >= names->sh_size ||
	    !memchr(obj->image + names->sh_offset + off, '\0', names->sh_size - off))
		return "?";
	return (const char *)obj->image + names->sh_offset + off;
}

struct extent {
	uint64_t start, end;
	size_t section;
};

static int cmp_extent(const void *a, const void *b)
{
	const struct extent *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->section < y->section ? -1 : x->section > y->section;
}

/* Sections must lie in the file and must not overlap each other or the headers. */
static int check_layout(struct bk_object *obj)
{
	struct extent *ext = bk_xcalloc(obj->section_count + 2, sizeof(*ext));
	size_t n = 0;
	int err = 0;

	ext[n++] = (struct extent){0, sizeof(Elf64_Ehdr), SIZE_MAX};
	ext[n++] = (struct extent){obj->ehdr.e_shoff,
				   obj->ehdr.e_shoff + (uint64_t)obj->section_count * sizeof(Elf64_Shdr),
				   SIZE_MAX - 1};
	for (size_t i = 1; i < obj->section_count; i++) {
		const GElf_Shdr *sh = &obj->sections[i].shdr;

		if (sh->sh_type == SHT_NOBITS || sh->sh_type == SHT_NULL || sh->sh_size == 0)
			continue;
		if (sh->sh_offset > obj->image_size || sh->sh_size > obj->image_size - sh->sh_offset) {
			bk_error(obj, "section %s [%zu]: offset 0x%llx size 0x%llx is outside the file",
				 early_section_name(obj, i), i, (unsigned long long)sh->sh_offset,
				 (unsigned long long)sh->sh_size);
			err = -1;
			goto out;
		}
		ext[n++] = (struct extent){sh->sh_offset, sh->sh_offset + sh->sh_size, i};
	}
	qsort(ext, n, sizeof(*ext), cmp_extent);
	for (size_t i = 1; i < n; i++) {
		if (ext[i].start < ext[i - 1].end) {
			const char *a = ext[i - 1].section >= SIZE_MAX - 1 ? "ELF headers" :
					early_section_name(obj, ext[i - 1].section);
			const char *b = ext[i].section >= SIZE_MAX - 1 ? "ELF headers" :
					early_section_name(obj, ext[i].section);

			bk_error(obj, "sections overlap: %s and %s at file offset 0x%llx", a, b,
				 (unsigned long long)ext[i].start);
			err = -1;
			goto out;
		}
	}
out:
	free(ext);
	return err;
}

static int cmp_rel(const void *a, const void *b)
{
	const GElf_Rel *x = a, *y = b;

	if (x->r_offset != y->r_offset)
		return x->r_offset < y->r_offset ? -1 : 1;
	/* same offset (an error later): keep a deterministic order */
	return x->r_info < y->r_info ? -1 : x->r_info > y->r_info;
}

/* Relocations at `offset` in `sec`: pointer to the first, *count of them. */
const GElf_Rel *bk_find_rel(const struct bk_section *sec, uint64_t offset, size_t *count)
{
	size_t lo = 0, hi = sec->rel_count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sec->rels[mid].r_offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	*count = 0;
	while (lo + *count < sec->rel_count && sec->rels[lo + *count].r_offset == offset)
		(*count)++;
	return *count ? &sec->rels[lo] : NULL;
}

static int read_symbols(struct bk_object *obj)
{
	struct bk_section *symtab = &obj->sections[obj->symtab];
	struct bk_section *strtab;
	size_t link = symtab->shdr.sh_link;

	if (symtab->shdr.sh_entsize != sizeof(Elf64_Sym) || symtab->shdr.sh_size % sizeof(Elf64_Sym)) {
		bk_error(obj, "section .symtab: bad entry size");
		return -1;
	}
	if (link == 0 || link >= obj->section_count || !string_table_ok(&obj->sections[link])) {
		bk_error(obj, "section .symtab: sh_link %zu is not a string table", link);
		return -1;
	}
	strtab = &obj->sections[link];
	obj->symbol_count = symtab->shdr.sh_size / sizeof(Elf64_Sym);
	obj->symbols = bk_xcalloc(obj->symbol_count, sizeof(*obj->symbols));
	obj->symbol_names = bk_xcalloc(obj->symbol_count, sizeof(*obj->symbol_names));
	for (size_t i = 0; i < obj->symbol_count; i++) {
		Elf64_Sym raw;
		GElf_Sym *sym = &obj->symbols[i];

		memcpy(&raw, symtab->data + i * sizeof(raw), sizeof(raw));
		sym->st_name = raw.st_name;
		sym->st_info = raw.st_info;
		sym->st_other = raw.st_other;
		sym->st_shndx = raw.st_shndx;
		sym->st_value = raw.st_value;
		sym->st_size = raw.st_size;
		if (sym->st_name >= strtab->shdr.sh_size) {
			bk_error(obj, "symbol #%zu: name offset %u is outside .strtab", i, sym->st_name);
			return -1;
		}
		obj->symbol_names[i] = (const char *)strtab->data + sym->st_name;
		if (sym->st_shndx == SHN_XINDEX) {
			bk_error(obj, "symbol '%s': extended section indices are not supported",
				 obj->symbol_names[i]);
			return -1;
		}
		if (sym->st_shndx != SHN_UNDEF && sym->st_shndx < SHN_LORESERVE &&
		    sym->st_shndx >= obj->section_count) {
			bk_error(obj, "symbol '%s': section index %u does not exist",
				 obj->symbol_names[i], sym->st_shndx);
			return -1;
		}
		if (GELF_ST_TYPE(sym->st_info) == STT_SECTION && sym->st_shndx < obj->section_count)
			obj->symbol_names[i] = obj->sections[sym->st_shndx].name;
	}
	return 0;
}

static int read_relocations(struct bk_object *obj)
{
	for (size_t i = 1; i < obj->section_count; i++) {
		struct bk_section *rel = &obj->sections[i];
		struct bk_section *target;
		size_t count;

		if (rel->shdr.sh_type == SHT_RELA) {
			bk_error(obj, "section %s: RELA relocations are not used by BPF and not supported",
				 rel->name);
			return -1;
		}
		if (rel->shdr.sh_type != SHT_REL)
			continue;
		if (rel->shdr.sh_link != obj->symtab) {
			bk_error(obj, "section %s: sh_link %u is not .symtab", rel->name, rel->shdr.sh_link);
			return -1;
		}
		if (rel->shdr.sh_info == 0 || rel->shdr.sh_info >= obj->section_count) {
			bk_error(obj, "section %s: sh_info %u is not a section", rel->name, rel->shdr.sh_info);
			return -1;
		}
		if (rel->shdr.sh_entsize != sizeof(Elf64_Rel) || rel->shdr.sh_size % sizeof(Elf64_Rel)) {
			bk_error(obj, "section %s: bad entry size", rel->name);
			return -1;
		}
		target = &obj->sections[rel->shdr.sh_info];
		if (target->shdr.sh_type == SHT_REL || target->shdr.sh_type == SHT_RELA ||
		    target->shdr.sh_type == SHT_SYMTAB || target->shdr.sh_type == SHT_NULL ||
		    target->shdr.sh_type == SHT_NOBITS) {
			bk_error(obj, "section %s: relocates section %s, which cannot be relocated",
				 rel->name, target->name);
			return -1;
		}
		if (target->rel_section) {
			bk_error(obj, "section %s has two relocation sections", target->name);
			return -1;
		}
		count = rel->shdr.sh_size / sizeof(Elf64_Rel);
		target->rel_section = i;
		target->rel_count = count;
		target->rels = bk_xcalloc(count, sizeof(GElf_Rel));
		for (size_t j = 0; j < count; j++) {
			Elf64_Rel raw;

			memcpy(&raw, rel->data + j * sizeof(raw), sizeof(raw));
			if (ELF64_R_SYM(raw.r_info) >= obj->symbol_count) {
				bk_error(obj, "section %s: relocation #%zu at offset 0x%llx: symbol #%llu does not exist",
					 rel->name, j, (unsigned long long)raw.r_offset,
					 (unsigned long long)ELF64_R_SYM(raw.r_info));
				return -1;
			}
			target->rels[j].r_offset = raw.r_offset;
			target->rels[j].r_info = raw.r_info;
		}
		qsort(target->rels, count, sizeof(GElf_Rel), cmp_rel);
	}
	return 0;
}

static int silent_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

int bk_object_read_memory(struct bk_object *obj, const char *path, const void *buf, size_t size)
{
	memset(obj, 0, sizeof(*obj));
	obj->path = path;
	obj->image_size = size;
	obj->image = bk_xcalloc(size + 1, 1);
	memcpy(obj->image, buf, size);
	return bk_object_read(obj, NULL);
}

int bk_object_read(struct bk_object *obj, const char *path)
{
	size_t shnum, shstrndx;
	GElf_Ehdr *eh = &obj->ehdr;

	if (path) {
		memset(obj, 0, sizeof(*obj));
		obj->path = path;
		if (read_file(obj, path))
			return -1;
	}
	libbpf_set_print(silent_print);
	elf_version(EV_CURRENT);
	if (obj->image_size < EI_NIDENT || memcmp(obj->image, ELFMAG, SELFMAG) != 0) {
		bk_error(obj, "not an ELF file");
		return -1;
	}
	if (obj->image[EI_CLASS] != ELFCLASS64) {
		bk_error(obj, "not a 64-bit ELF file");
		return -1;
	}
	if (obj->image[EI_DATA] != ELFDATA2LSB) {
		bk_error(obj, "big-endian BPF objects are not supported");
		return -1;
	}
	if (obj->image_size < sizeof(Elf64_Ehdr)) {
		bk_error(obj, "truncated ELF header");
		return -1;
	}
	obj->elf = elf_memory((char *)obj->image, obj->image_size);
	if (!obj->elf || elf_kind(obj->elf) != ELF_K_ELF || !gelf_getehdr(obj->elf, eh)) {
		bk_error(obj, "cannot parse ELF: %s", elf_errmsg(-1));
		return -1;
	}
	if (eh->e_machine != EM_BPF) {
		bk_error(obj, "not a BPF object (e_machine %u)", eh->e_machine);
		return -1;
	}
	if (eh->e_type != ET_REL) {
		bk_error(obj, "not a relocatable object (e_type %u)", eh->e_type);
		return -1;
	}
	if (eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    elf_getshdrnum(obj->elf, &shnum) || elf_getshdrstrndx(obj->elf, &shstrndx)) {
		bk_error(obj, "cannot read section headers: %s", elf_errmsg(-1));
		return -1;
	}
	if (shnum == 0 || eh->e_shoff > obj->image_size ||
	    shnum > (obj->image_size - eh->e_shoff) / sizeof(Elf64_Shdr)) {
		bk_error(obj, "section header table is outside the file");
		return -1;
	}
	if (shstrndx == 0 || shstrndx >= shnum) {
		bk_error(obj, "no section name string table");
		return -1;
	}
	obj->section_count = shnum;
	obj->shstrndx = shstrndx;
	obj->sections = bk_xcalloc(shnum, sizeof(*obj->sections));
	for (size_t i = 0; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(obj->elf, i);

		if (!scn || !gelf_getshdr(scn, &obj->sections[i].shdr)) {
			bk_error(obj, "cannot read section header %zu: %s", i, elf_errmsg(-1));
			return -1;
		}
	}
	/* section 0 is reserved: whatever its header says, it is SHT_NULL */
	memset(&obj->sections[0].shdr, 0, sizeof(obj->sections[0].shdr));
	if (check_layout(obj))
		return -1;
	/* section 0 is reserved: whatever its header says, it has no data */
	for (size_t i = 1; i < shnum; i++) {
		struct bk_section *sec = &obj->sections[i];

		if (sec->shdr.sh_type != SHT_NOBITS && sec->shdr.sh_type != SHT_NULL)
			sec->data = sec->shdr.sh_size ? obj->image + sec->shdr.sh_offset : obj->image;
	}
	if (!string_table_ok(&obj->sections[shstrndx])) {
		bk_error(obj, "section name table [%zu] is not a NUL-terminated string table", shstrndx);
		return -1;
	}
	for (size_t i = 0; i < shnum; i++) {
		struct bk_section *sec = &obj->sections[i];
		const struct bk_section *names = &obj->sections[shstrndx];

		if (sec->shdr.sh_name >= names->shdr.sh_size) {
			bk_error(obj, "section [%zu]: name offset %u is outside the name table", i,
				 sec->shdr.sh_name);
			return -1;
		}
		sec->name = (const char *)names->data + sec->shdr.sh_name;
		/* the writer lays sections out with their alignment: keep it sane */
		if (sec->shdr.sh_addralign > 65536 ||
		    (sec->shdr.sh_addralign & (sec->shdr.sh_addralign - 1))) {
			bk_error(obj, "section %s: alignment %llu is not a power of two up to 65536",
				 sec->name, (unsigned long long)sec->shdr.sh_addralign);
			return -1;
		}
		sec->exec = sec->shdr.sh_type == SHT_PROGBITS && (sec->shdr.sh_flags & SHF_EXECINSTR);
		if (sec->exec && sec->shdr.sh_size % BK_INSN_SIZE) {
			bk_error(obj, "section %s: size %llu is not a multiple of the instruction size",
				 sec->name, (unsigned long long)sec->shdr.sh_size);
			return -1;
		}
		if (sec->shdr.sh_type == SHT_SYMTAB) {
			if (obj->symtab) {
				bk_error(obj, "more than one symbol table");
				return -1;
			}
			obj->symtab = i;
		}
	}
	if (!obj->symtab) {
		bk_error(obj, "no symbol table");
		return -1;
	}
	if (read_symbols(obj) || read_relocations(obj))
		return -1;

	if (find_unique(obj, ".text", &obj->text_section) ||
	    find_unique(obj, BK_STATIC_KEYS_SEC, &obj->static_keys_section) ||
	    find_unique(obj, BK_MAPS_SEC, &obj->maps_section) ||
	    find_unique(obj, ".BTF", &obj->btf_section) ||
	    find_unique(obj, BK_INSTANCES_SEC, &obj->instances_section))
		return -1;
	if (obj->static_keys_section) {
		const struct bk_section *sk = &obj->sections[obj->static_keys_section];

		if (sk->shdr.sh_type != SHT_PROGBITS) {
			bk_error(obj, "section %s: not SHT_PROGBITS", BK_STATIC_KEYS_SEC);
			return -1;
		}
		obj->static_keys_rel_section = sk->rel_section;
	}
	if (obj->btf_section) {
		const struct bk_section *sec = &obj->sections[obj->btf_section];

		if (!sec->data || sec->shdr.sh_size > UINT32_MAX) {
			bk_error(obj, "section .BTF: bad size");
			return -1;
		}
		obj->btf = btf__new(sec->data, (uint32_t)sec->shdr.sh_size);
		if (!obj->btf) {
			bk_error(obj, "section .BTF: cannot parse BTF: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

void bk_object_free(struct bk_object *obj)
{
	if (obj->btf)
		btf__free(obj->btf);
	if (obj->elf)
		elf_end(obj->elf);
	for (size_t i = 0; i < obj->section_count; i++)
		free(obj->sections[i].rels);
	for (size_t i = 0; i < obj->function_count; i++)
		free(obj->functions[i].callees);
	free(obj->sections);
	free(obj->symbols);
	free(obj->symbol_names);
	free(obj->functions);
	free(obj->keys);
	free(obj->symbol_key);
	free(obj->sites);
	free(obj->instances);
	free(obj->instance_sites);
	free(obj->image);
	memset(obj, 0, sizeof(*obj));
}
