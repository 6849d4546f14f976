/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Reading and validating one input object. Everything later phases rely on
 * (indices in range, sizes consistent, relocations inside their section) is
 * checked here, so that merge/resolve can index without re-checking.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/bpf.h>
#include "bpfld.h"

#define SHT_LLVM_ADDRSIG_TYPE 0x6fff4c03

static bool is_dwarf_section_name(const char *name)
{
	return strncmp(name, ".debug_", sizeof(".debug_") - 1) == 0;
}

/* Sections that are not copied to the output, as in libbpf. */
static bool is_ignored_section(const struct input_section *sec)
{
	const char *name = sec->name;

	if (sec->shdr->sh_type == SHT_STRTAB || sec->shdr->sh_type == SHT_LLVM_ADDRSIG_TYPE)
		return true;
	/* a file without subprograms has an empty .text */
	if (sec->shdr->sh_type == SHT_PROGBITS && sec->shdr->sh_size == 0 &&
	    strcmp(name, ".text") == 0)
		return true;
	if (is_dwarf_section_name(name))
		return true;
	if (strncmp(name, ".rel", 4) == 0) {
		name += 4;
		if (is_dwarf_section_name(name) || strcmp(name, BTF_SECTION) == 0 ||
		    strcmp(name, BTF_EXT_SECTION) == 0)
			return true;
	}
	return false;
}

static bool is_power_of_2(uint64_t x)
{
	return x && (x & (x - 1)) == 0;
}

const char *input_symbol_name(const struct input_object *obj, const Elf64_Sym *sym)
{
	return elf_strptr(obj->elf, obj->strtab_index, sym->st_name);
}

struct input_section *input_section_by_name(struct input_object *obj, const char *name)
{
	size_t i;

	for (i = 1; i < obj->section_count; i++)
		if (strcmp(obj->sections[i].name, name) == 0)
			return &obj->sections[i];
	return NULL;
}

/* Sections must lie inside the file and not overlap each other or the headers. */
struct file_range { uint64_t start, end; size_t index; };

static int compare_ranges(const void *a, const void *b)
{
	const struct file_range *ra = a, *rb = b;

	if (ra->start != rb->start)
		return ra->start < rb->start ? -1 : 1;
	return ra->index < rb->index ? -1 : ra->index > rb->index;
}

static int check_file_layout(struct input_object *obj, const Elf64_Ehdr *ehdr, size_t shnum)
{
	struct file_range *ranges = calloc(shnum + 2, sizeof(*ranges));
	size_t count = 0, i;
	int err = 0;

	if (!ranges)
		return link_error(obj->path, NULL, "out of memory");
	ranges[count++] = (struct file_range){ 0, sizeof(Elf64_Ehdr), SIZE_MAX - 1 };
	ranges[count++] = (struct file_range){ ehdr->e_shoff,
		ehdr->e_shoff + (uint64_t)shnum * sizeof(Elf64_Shdr), SIZE_MAX };
	for (i = 1; i < shnum; i++) {
		Elf64_Shdr *shdr = elf64_getshdr(elf_getscn(obj->elf, i));

		if (!shdr) {
			err = link_error(obj->path, NULL, "section #%zu: bad section header: %s",
					 i, elf_errmsg(-1));
			goto out;
		}
		if (shdr->sh_type == SHT_NOBITS || shdr->sh_size == 0)
			continue;
		if (shdr->sh_offset > obj->file_size ||
		    shdr->sh_size > obj->file_size - shdr->sh_offset) {
			err = link_error(obj->path, NULL,
					 "section #%zu: data [%#llx, +%#llx) is past the end of the file (%zu bytes): truncated file?",
					 i, (unsigned long long)shdr->sh_offset,
					 (unsigned long long)shdr->sh_size, obj->file_size);
			goto out;
		}
		ranges[count++] = (struct file_range){ shdr->sh_offset,
						       shdr->sh_offset + shdr->sh_size, i };
	}
	qsort(ranges, count, sizeof(*ranges), compare_ranges);
	for (i = 1; i < count; i++) {
		if (ranges[i].start < ranges[i - 1].end) {
			char a[40], b[40];
			size_t ia = ranges[i - 1].index, ib = ranges[i].index;

			snprintf(a, sizeof(a), ia == SIZE_MAX ? "the section header table" :
				 ia == SIZE_MAX - 1 ? "the ELF header" : "section #%zu", ia);
			snprintf(b, sizeof(b), ib == SIZE_MAX ? "the section header table" :
				 ib == SIZE_MAX - 1 ? "the ELF header" : "section #%zu", ib);
			err = link_error(obj->path, NULL, "%s overlaps %s in the file", b, a);
			goto out;
		}
	}
out:
	free(ranges);
	return err;
}

static int read_btf_ext(struct input_object *obj, const struct input_section *sec)
{
	const uint8_t *raw = sec->data->d_buf;
	size_t size = sec->data->d_size;
	struct btf_ext_header hdr = {};
	static const uint32_t min_record_size[BTF_EXT_BLOCK_COUNT] = { 8, 16, 16 };
	uint32_t offsets[BTF_EXT_BLOCK_COUNT], lengths[BTF_EXT_BLOCK_COUNT];
	int i;

	if (size < offsetof(struct btf_ext_header, core_relo_off))
		return link_error(obj->path, sec->name, "too small for a .BTF.ext header");
	memcpy(&hdr, raw, size < sizeof(hdr) ? size : sizeof(hdr));
	if (hdr.magic != 0xeB9F)
		return link_error(obj->path, sec->name, "bad magic %#x", hdr.magic);
	if (hdr.version != 1)
		return link_error(obj->path, sec->name, "unsupported version %u", hdr.version);
	if (hdr.hdr_len < offsetof(struct btf_ext_header, core_relo_off) || hdr.hdr_len > size)
		return link_error(obj->path, sec->name, "bad header length %u", hdr.hdr_len);
	if (hdr.hdr_len < sizeof(hdr))
		hdr.core_relo_off = hdr.core_relo_len = 0;
	offsets[0] = hdr.func_info_off; lengths[0] = hdr.func_info_len;
	offsets[1] = hdr.line_info_off; lengths[1] = hdr.line_info_len;
	offsets[2] = hdr.core_relo_off; lengths[2] = hdr.core_relo_len;
	for (i = 0; i < BTF_EXT_BLOCK_COUNT; i++) {
		struct btf_ext_block *block = &obj->btf_ext[i];
		uint64_t start = (uint64_t)hdr.hdr_len + offsets[i];

		if (!lengths[i])
			continue;
		if (start > size || lengths[i] > size - start || lengths[i] < 4)
			return link_error(obj->path, sec->name, "info block %d out of bounds", i);
		memcpy(&block->record_size, raw + start, 4);
		if (block->record_size < min_record_size[i] || block->record_size % 4 ||
		    block->record_size > 1024)
			return link_error(obj->path, sec->name, "info block %d: bad record size %u",
					  i, block->record_size);
		block->data = raw + start + 4;
		block->size = lengths[i] - 4;
	}
	obj->has_btf_ext = true;
	return 0;
}

static int check_symtab(struct input_object *obj, struct input_section *sec)
{
	struct input_section *strtab;
	size_t i;

	if (sec->shdr->sh_entsize != sizeof(Elf64_Sym) || sec->shdr->sh_size % sizeof(Elf64_Sym))
		return link_error(obj->path, sec->name, "bad symbol table entry size");
	if (!sec->shdr->sh_link || sec->shdr->sh_link >= obj->section_count)
		return link_error(obj->path, sec->name, "points to missing string table #%u",
				  sec->shdr->sh_link);
	strtab = &obj->sections[sec->shdr->sh_link];
	if (strtab->shdr->sh_type != SHT_STRTAB)
		return link_error(obj->path, sec->name, "section #%u is not a string table",
				  sec->shdr->sh_link);
	obj->strtab_index = sec->shdr->sh_link;
	obj->symbols = sec->table;
	obj->symbol_count = sec->shdr->sh_size / sizeof(Elf64_Sym);
	if (!obj->symbol_count)
		return link_error(obj->path, sec->name, "empty symbol table");

	for (i = 0; i < obj->symbol_count; i++) {
		Elf64_Sym *sym = &obj->symbols[i];
		int type = ELF64_ST_TYPE(sym->st_info), bind = ELF64_ST_BIND(sym->st_info);
		int visibility = ELF64_ST_VISIBILITY(sym->st_other);
		const char *name;
		struct input_section *target;

		if (i == 0) {
			if (sym->st_name || sym->st_info || sym->st_other || sym->st_shndx ||
			    sym->st_value || sym->st_size)
				return link_error(obj->path, sec->name, "symbol #0 is not all zero");
			continue;
		}
		name = input_symbol_name(obj, sym);
		if (!name)
			return link_error(obj->path, sec->name, "symbol #%zu: name offset %u out of bounds",
					  i, sym->st_name);
		if (bind != STB_LOCAL && bind != STB_GLOBAL && bind != STB_WEAK)
			return link_error(obj->path, sec->name, "symbol '%s': unsupported binding %d",
					  name, bind);
		if (visibility != STV_DEFAULT && visibility != STV_HIDDEN)
			return link_error(obj->path, sec->name, "symbol '%s': unsupported visibility %d",
					  name, visibility);
		if (sym->st_shndx == SHN_UNDEF) {
			if (type != STT_NOTYPE || bind == STB_LOCAL || sym->st_value || sym->st_size)
				return link_error(obj->path, sec->name, "symbol '%s': invalid extern symbol",
						  name);
			continue;
		}
		if (sym->st_shndx == SHN_ABS)
			continue;
		if (sym->st_shndx >= SHN_LORESERVE || sym->st_shndx >= obj->section_count)
			return link_error(obj->path, sec->name,
					  "symbol '%s': points to missing section #%u", name, sym->st_shndx);
		target = &obj->sections[sym->st_shndx];
		if (type == STT_SECTION) {
			if (sym->st_value)
				return link_error(obj->path, sec->name,
						  "section symbol #%zu has non-zero value", i);
			continue;
		}
		if (target->skipped)
			continue;
		if (sym->st_value > target->shdr->sh_size ||
		    sym->st_size > target->shdr->sh_size - sym->st_value)
			return link_error(obj->path, target->name,
					  "symbol '%s' [%#llx, +%#llx) lies outside the section (%#llx bytes)",
					  name, (unsigned long long)sym->st_value,
					  (unsigned long long)sym->st_size,
					  (unsigned long long)target->shdr->sh_size);
		if (type == STT_FUNC && !(target->shdr->sh_flags & SHF_EXECINSTR))
			return link_error(obj->path, target->name,
					  "function symbol '%s' is in a non-executable section", name);
		if (type == STT_FUNC && sym->st_value % BPF_INSN_SIZE)
			return link_error(obj->path, target->name,
					  "function symbol '%s' is not instruction aligned", name);
	}
	return 0;
}

/* Bytes a relocation of this type patches at r_offset. */
static uint64_t relocation_width(uint32_t type)
{
	switch (type) {
	case R_BPF_64_64: return 16;	/* ld_imm64: two instructions */
	case R_BPF_64_32: return 8;	/* call */
	case R_BPF_64_ABS64: return 8;
	case R_BPF_64_ABS32:
	case R_BPF_64_NODYLD32: return 4;
	default: return 0;
	}
}

static int check_relocations(struct input_object *obj, struct input_section *sec)
{
	struct input_section *target;
	const Elf64_Rel *rel = sec->table;
	size_t i, count;

	if (sec->shdr->sh_entsize != sizeof(Elf64_Rel) || sec->shdr->sh_size % sizeof(Elf64_Rel))
		return link_error(obj->path, sec->name, "bad relocation entry size");
	if (sec->shdr->sh_link != obj->symtab_index)
		return link_error(obj->path, sec->name, "sh_link %u is not the symbol table",
				  sec->shdr->sh_link);
	if (!sec->shdr->sh_info || sec->shdr->sh_info >= obj->section_count)
		return link_error(obj->path, sec->name, "relocates missing section #%u",
				  sec->shdr->sh_info);
	target = &obj->sections[sec->shdr->sh_info];
	if (strncmp(sec->name, ".rel", 4) || strcmp(sec->name + 4, target->name))
		return link_error(obj->path, sec->name, "name does not match relocated section '%s'",
				  target->name);
	if (target->skipped)
		return 0;
	if (target->shdr->sh_type != SHT_PROGBITS)
		return link_error(obj->path, sec->name, "relocates section '%s', which has no data",
				  target->name);

	count = sec->shdr->sh_size / sizeof(Elf64_Rel);
	for (i = 0; i < count; i++, rel++) {
		size_t sym_index = ELF64_R_SYM(rel->r_info);
		uint32_t type = ELF64_R_TYPE(rel->r_info);
		uint64_t width = relocation_width(type);

		if (!width)
			return link_error(obj->path, sec->name, "relocation #%zu has unexpected type %u",
					  i, type);
		if (!sym_index || sym_index >= obj->symbol_count)
			return link_error(obj->path, sec->name,
					  "relocation #%zu points to invalid symbol #%zu", i, sym_index);
		if (rel->r_offset > target->shdr->sh_size ||
		    width > target->shdr->sh_size - rel->r_offset)
			return link_error(obj->path, sec->name,
					  "relocation #%zu at %#llx patches past the end of '%s' (%#llx bytes)",
					  i, (unsigned long long)rel->r_offset, target->name,
					  (unsigned long long)target->shdr->sh_size);
		if ((target->shdr->sh_flags & SHF_EXECINSTR) && rel->r_offset % BPF_INSN_SIZE)
			return link_error(obj->path, sec->name,
					  "relocation #%zu at %#llx is not instruction aligned",
					  i, (unsigned long long)rel->r_offset);
		if ((type == R_BPF_64_64 || type == R_BPF_64_32) &&
		    !(target->shdr->sh_flags & SHF_EXECINSTR))
			return link_error(obj->path, sec->name,
					  "relocation #%zu: instruction relocation type %u in data section",
					  i, type);
	}
	return 0;
}

static int add_input_section(struct input_object *obj, size_t *capacity)
{
	if (grow_array((void **)&obj->sections, capacity, obj->section_count + 1,
		       sizeof(*obj->sections)))
		return -1;
	obj->section_count++;
	return 0;
}

/*
 * DATASECs such as .kconfig and .ksyms exist only in BTF: give them an
 * ephemeral input section so that their externs have a section to live in.
 * .extern (unannotated externs) deliberately gets none, as in libbpf.
 */
static int add_ephemeral_sections(struct input_object *obj, size_t *capacity)
{
	uint32_t id, count;

	if (!obj->btf)
		return 0;
	count = btf__type_cnt(obj->btf);
	for (id = 1; id < count; id++) {
		const struct btf_type *t = btf__type_by_id(obj->btf, id);
		struct input_section *sec;
		const char *name;

		if (!btf_is_datasec(t))
			continue;
		name = btf__name_by_offset(obj->btf, t->name_off);
		sec = input_section_by_name(obj, name);
		if (!sec) {
			if (strcmp(name, BTF_EXTERN_DATASEC) == 0)
				continue;
			if (add_input_section(obj, capacity))
				return -1;
			sec = &obj->sections[obj->section_count - 1];
			sec->name = name;
			sec->ephemeral = true;
		}
		sec->datasec_type_id = id;
	}
	return 0;
}

static int read_sections(struct input_object *obj, size_t shnum)
{
	size_t capacity = 0, i;

	if (grow_array((void **)&obj->sections, &capacity, shnum, sizeof(*obj->sections)))
		return -1;
	obj->section_count = shnum;
	for (i = 1; i < shnum; i++) {
		struct input_section *sec = &obj->sections[i];

		sec->elf_index = i;
		sec->scn = elf_getscn(obj->elf, i);
		sec->shdr = sec->scn ? elf64_getshdr(sec->scn) : NULL;
		if (!sec->shdr)
			return link_error(obj->path, NULL, "section #%zu: bad header: %s", i,
					  elf_errmsg(-1));
		sec->name = elf_strptr(obj->elf, obj->shstrtab_index, sec->shdr->sh_name);
		if (!sec->name)
			return link_error(obj->path, NULL, "section #%zu: bad name offset %u", i,
					  sec->shdr->sh_name);
		if (!sec->name[0])
			return link_error(obj->path, NULL, "section #%zu has an empty name", i);
		sec->data = elf_getdata(sec->scn, NULL);
		if (!sec->data)
			return link_error(obj->path, sec->name, "cannot read data: %s", elf_errmsg(-1));
		sec->skipped = is_ignored_section(sec);
		sec->table = sec->data->d_buf;
		/* libelf returns pointers into the image as they are: realign tables */
		if ((sec->shdr->sh_type == SHT_SYMTAB || sec->shdr->sh_type == SHT_REL) &&
		    (uintptr_t)sec->table % 8 && sec->data->d_size) {
			sec->aligned_copy = malloc(sec->data->d_size);
			if (!sec->aligned_copy)
				return link_error(obj->path, sec->name, "out of memory");
			memcpy(sec->aligned_copy, sec->data->d_buf, sec->data->d_size);
			sec->table = sec->aligned_copy;
		}
	}

	for (i = 1; i < shnum; i++) {
		struct input_section *sec = &obj->sections[i];
		Elf64_Shdr *shdr = sec->shdr;

		if (is_dwarf_section_name(sec->name))
			continue;
		if (shdr->sh_addralign && !is_power_of_2(shdr->sh_addralign))
			return link_error(obj->path, sec->name, "alignment %llu is not a power of 2",
					  (unsigned long long)shdr->sh_addralign);
		if (shdr->sh_addralign > 4096)
			return link_error(obj->path, sec->name, "alignment %llu is unreasonably large",
					  (unsigned long long)shdr->sh_addralign);
		if (shdr->sh_size != sec->data->d_size)
			return link_error(obj->path, sec->name, "inconsistent section size");
		switch (shdr->sh_type) {
		case SHT_SYMTAB:
			if (obj->symtab_index)
				return link_error(obj->path, sec->name, "more than one symbol table");
			obj->symtab_index = i;
			break;
		case SHT_PROGBITS:
			if (strcmp(sec->name, BTF_SECTION) == 0) {
				int err;

				if (obj->btf)
					return link_error(obj->path, sec->name, "more than one .BTF section");
				obj->btf = btf__new(sec->data->d_buf, shdr->sh_size);
				err = libbpf_get_error(obj->btf);
				if (err) {
					obj->btf = NULL;
					return link_error(obj->path, sec->name, "invalid BTF: %s",
							  strerror(-err));
				}
				sec->skipped = true;
			} else if (strcmp(sec->name, BTF_EXT_SECTION) == 0) {
				if (obj->has_btf_ext)
					return link_error(obj->path, sec->name, "more than one .BTF.ext section");
				sec->skipped = true;
				if (read_btf_ext(obj, sec))
					return -1;
			} else if ((shdr->sh_flags & SHF_EXECINSTR) && shdr->sh_size % BPF_INSN_SIZE) {
				return link_error(obj->path, sec->name,
						  "code size %llu is not a multiple of 8",
						  (unsigned long long)shdr->sh_size);
			}
			break;
		case SHT_NOBITS:
		case SHT_REL:
		case SHT_STRTAB:
		case SHT_LLVM_ADDRSIG_TYPE:
			break;
		default:
			if (sec->skipped)
				break;
			return link_error(obj->path, sec->name, "unsupported section type %#x",
					  shdr->sh_type);
		}
	}
	if (!obj->symtab_index)
		return link_error(obj->path, NULL, "no symbol table");
	if (check_symtab(obj, &obj->sections[obj->symtab_index]))
		return -1;
	for (i = 1; i < shnum; i++) {
		struct input_section *sec = &obj->sections[i];

		if (sec->shdr->sh_type == SHT_REL && !sec->skipped && check_relocations(obj, sec))
			return -1;
	}
	if (obj->has_btf_ext && !obj->btf)
		return link_error(obj->path, BTF_EXT_SECTION, "present without .BTF");
	if (validate_input_btf(obj))
		return -1;
	return add_ephemeral_sections(obj, &capacity);
}

/*
 * Reads the whole file into memory, which libelf then parses in place.
 * (Measured: for small objects read() is cheaper than mmap+munmap per file.)
 */
static int read_whole_file(struct input_object *obj, char **image)
{
	struct stat st;
	size_t done = 0;

	obj->fd = open(obj->path, O_RDONLY | O_CLOEXEC);
	if (obj->fd < 0)
		return link_error(obj->path, NULL, "cannot open: %s", strerror(errno));
	if (fstat(obj->fd, &st) || !S_ISREG(st.st_mode))
		return link_error(obj->path, NULL, "not a regular file");
	obj->file_size = st.st_size;
	*image = malloc(obj->file_size ? obj->file_size : 1);
	if (!*image)
		return link_error(obj->path, NULL, "out of memory");
	while (done < obj->file_size) {
		ssize_t n = read(obj->fd, *image + done, obj->file_size - done);

		if (n <= 0)
			return link_error(obj->path, NULL, "read error: %s",
					  n ? strerror(errno) : "unexpected end of file");
		done += n;
	}
	return 0;
}

int input_object_parse(struct input_object *obj, const char *path, char *image, size_t size)
{
	const unsigned char *ident = (const unsigned char *)image;
	Elf64_Ehdr *ehdr;
	size_t shnum;

	obj->path = path;
	obj->file_size = size;
	if (size < EI_NIDENT || memcmp(ident, ELFMAG, SELFMAG))
		return link_error(path, NULL, "not an ELF file");
	if (ident[EI_CLASS] != ELFCLASS64)
		return link_error(path, NULL, "not a 64-bit ELF file (ELFCLASS64 required)");
	if (ident[EI_DATA] != ELFDATA2LSB)
		return link_error(path, NULL, "byte order %s is not supported: all inputs must be little endian like this host",
				  ident[EI_DATA] == ELFDATA2MSB ? "big endian" : "(invalid)");
	if (size < sizeof(Elf64_Ehdr))
		return link_error(path, NULL, "truncated file: %zu bytes, smaller than an ELF header", size);
	obj->elf = elf_memory(image, size);
	if (!obj->elf || elf_kind(obj->elf) != ELF_K_ELF)
		return link_error(path, NULL, "cannot parse ELF: %s", elf_errmsg(-1));
	ehdr = elf64_getehdr(obj->elf);
	if (!ehdr)
		return link_error(path, NULL, "cannot read ELF header: %s", elf_errmsg(-1));
	if (ehdr->e_machine != EM_BPF)
		return link_error(path, NULL, "machine %u is not EM_BPF (%u)", ehdr->e_machine, EM_BPF);
	if (ehdr->e_type != ET_REL)
		return link_error(path, NULL, "ELF type %u is not ET_REL (relocatable object)",
				  ehdr->e_type);
	if (ehdr->e_shentsize != sizeof(Elf64_Shdr))
		return link_error(path, NULL, "bad section header size %u", ehdr->e_shentsize);
	/* libelf hands out pointers into the image without realigning them */
	if (ehdr->e_shoff % 8)
		return link_error(path, NULL, "section header table offset %#llx is misaligned",
				  (unsigned long long)ehdr->e_shoff);
	if (ehdr->e_shoff > size || (size - ehdr->e_shoff) / sizeof(Elf64_Shdr) < ehdr->e_shnum ||
	    (ehdr->e_shnum == 0 && ehdr->e_shoff))
		return link_error(path, NULL, "section header table past the end of the file: truncated file?");
	if (elf_getshdrnum(obj->elf, &shnum) || shnum < 2)
		return link_error(path, NULL, "no sections: %s", elf_errmsg(-1));
	if (shnum != ehdr->e_shnum)
		return link_error(path, NULL, "extended section numbering is not supported");
	if (elf_getshdrstrndx(obj->elf, &obj->shstrtab_index) || !obj->shstrtab_index ||
	    obj->shstrtab_index >= shnum)
		return link_error(path, NULL, "bad section name string table index");
	if (check_file_layout(obj, ehdr, shnum))
		return -1;
	{
		Elf64_Shdr *shstr = elf64_getshdr(elf_getscn(obj->elf, obj->shstrtab_index));

		if (!shstr || shstr->sh_type != SHT_STRTAB)
			return link_error(path, NULL, "section name table is not a string table");
	}
	return read_sections(obj, shnum);
}

int input_object_open(struct input_object *obj, const char *path)
{
	char *image = NULL;
	int err;

	memset(obj, 0, sizeof(*obj));
	obj->path = path;
	err = read_whole_file(obj, &image);
	if (obj->fd >= 0)
		close(obj->fd);
	obj->fd = -1;
	obj->image = image;
	if (err)
		return err;
	return input_object_parse(obj, path, image, obj->file_size);
}

void input_object_close(struct input_object *obj)
{
	size_t i;

	for (i = 0; i < obj->section_count; i++)
		free(obj->sections[i].aligned_copy);
	btf__free(obj->btf);
	if (obj->elf)
		elf_end(obj->elf);
	free(obj->sections);
	free(obj->symbol_map);
	free(obj->btf_type_map);
	free(obj->image);
	memset(obj, 0, sizeof(*obj));
	obj->fd = -1;
}
