// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Shrink, outside the code: once shrink.c has deleted instructions, every
 * other place that names an instruction position follows.
 *   - symbols in moved code: st_value and st_size (write.c calls back);
 *   - relocations of code sections: moved with their instruction, dropped
 *     with a deleted one;
 *   - .BTF.ext: line info is re-derived so every kept instruction keeps the
 *     source line it had (lines_of_moved); a func_info record of a deleted
 *     instruction (a function starting with a deleted site) moves to the next
 *     one kept, as the verifier requires one at each function start; CO-RE
 *     records of deleted instructions are dropped; records sorted by their
 *     new offsets. A group left empty goes, a block left empty gets length 0
 *     (libbpf rejects a block with a record size and no records);
 *     .rel.BTF.ext follows its records;
 *   - in-place addends of relocations in data sections into moved code;
 *   - DWARF: its line table and ranges are encoded (not plain relocated
 *     offsets), so it is dropped when code was deleted, as `strip -g` would;
 *     BTF line info stays exact and is what the verifier and bpftool show.
 */
#include <stdlib.h>
#include <string.h>

#include "bpfkeys.h"

#define BTF_EXT_SEC ".BTF.ext"

static bool is_debug_section(const struct bk_object *obj, size_t s)
{
	return strncmp(obj->sections[s].name, ".debug_", 7) == 0;
}

bool bk_shrink_relocations_matter(const struct bk_object *obj, size_t s)
{
	return s != obj->static_keys_section && s != obj->instances_section &&
	       !is_debug_section(obj, s) && strcmp(obj->sections[s].name, BTF_EXT_SEC) != 0;
}

static unsigned addend_width(uint32_t type)
{
	switch (type) {
	case ELFOBJ_R_BPF_64_ABS64:
		return 8;
	case ELFOBJ_R_BPF_64_ABS32:
	case ELFOBJ_R_BPF_64_NODYLD32:
		return 4;
	default:
		return 0;
	}
}

int bk_shrink_read_addend(const struct bk_object *obj, size_t s, const GElf_Rel *rel,
			  int64_t *addend)
{
	const struct bk_section *sec = &obj->sections[s];
	unsigned width = addend_width((uint32_t)GELF_R_TYPE(rel->r_info));

	if (!width || !sec->data || rel->r_offset > sec->shdr.sh_size - width ||
	    sec->shdr.sh_size < width) {
		bk_error(obj,
			 "section '%s': offset 0x%llx: relocation of type %u against '%s' points "
			 "into code that lower shrinks and cannot be moved",
			 sec->name, (unsigned long long)rel->r_offset,
			 (unsigned)GELF_R_TYPE(rel->r_info),
			 obj->symbol_names[GELF_R_SYM(rel->r_info)]);
		return -1;
	}
	if (width == 8) {
		memcpy(addend, sec->data + rel->r_offset, 8);
	} else {
		uint32_t v;

		memcpy(&v, sec->data + rel->r_offset, 4);
		*addend = v;
	}
	return 0;
}

static bool in_moved_code(const struct bk_object *obj, const struct bk_shrink *shrink, size_t shndx)
{
	return shndx != SHN_UNDEF && shndx < SHN_LORESERVE && shndx < obj->section_count &&
	       obj->sections[shndx].exec && shrink->layout[shndx].moved;
}

void bk_shrink_remap_symbol(void *ctx, Elf64_Sym *sym)
{
	const struct bk_shrink *shrink = ctx;
	uint64_t start, end;

	if (ELF64_ST_TYPE(sym->st_info) == STT_SECTION ||
	    !in_moved_code(shrink->obj, shrink, sym->st_shndx))
		return;
	start = bk_shrink_byte(shrink, sym->st_shndx, sym->st_value);
	end = bk_shrink_byte(shrink, sym->st_shndx, sym->st_value + sym->st_size);
	sym->st_value = start;
	/* functions keep their order; a sized label inside a moved block cannot */
	sym->st_size = end > start ? end - start : 0;
}

/* The .BTF.ext record (kept or dropped) whose bytes include offset, or NULL. */
static const struct bk_btf_ext_record *btf_ext_record_at(const struct bk_shrink *shrink,
							 uint64_t offset)
{
	size_t lo = 0, hi = shrink->btf_ext_record_count;

	while (lo < hi) { /* last record starting at or before offset */
		size_t mid = lo + (hi - lo) / 2;

		if (shrink->btf_ext_records[mid].old_offset <= offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct bk_btf_ext_record *r = &shrink->btf_ext_records[lo - 1];

	return offset - r->old_offset < r->size ? r : NULL;
}

static bool remap_btf_ext(const struct bk_shrink *shrink, uint64_t *offset)
{
	const struct bk_btf_ext_record *r = btf_ext_record_at(shrink, *offset);

	if (!r || !r->kept)
		return false; /* on a dropped record, or on a header: nothing else is relocated */
	*offset = r->new_offset + (*offset - r->old_offset);
	return true;
}

bool bk_shrink_remap_offset(void *ctx, size_t section, uint64_t *offset)
{
	const struct bk_shrink *shrink = ctx;
	const struct bk_code_layout *l;
	uint64_t i = *offset / ELFOBJ_INSN_SIZE;

	if (shrink->btf_ext_section && section == shrink->btf_ext_section)
		return remap_btf_ext(shrink, offset);
	if (!in_moved_code(shrink->obj, shrink, section))
		return true;
	l = &shrink->layout[section];
	if (i < l->count && !l->kept[i])
		return false;
	*offset = bk_shrink_byte(shrink, section, *offset);
	return true;
}

static void *own(struct bk_shrink *shrink, void *buf)
{
	shrink->buffers = bk_xrealloc(shrink->buffers, shrink->buffer_count + 1, sizeof(void *));
	shrink->buffers[shrink->buffer_count++] = buf;
	return buf;
}

/* The code section a .BTF.ext group names, as elfobj finds it: the first of that name. */
static size_t code_section_named(const struct bk_object *obj, const char *name)
{
	for (size_t s = 1; s < obj->section_count; s++)
		if (obj->sections[s].exec && strcmp(obj->sections[s].name, name) == 0)
			return s;
	return 0;
}

static void note_record(struct bk_shrink *shrink, uint64_t old_offset, uint64_t new_offset,
			uint32_t size, bool kept, size_t *cap)
{
	shrink->btf_ext_records = bk_xgrow(shrink->btf_ext_records, shrink->btf_ext_record_count,
					   cap, sizeof(*shrink->btf_ext_records));
	shrink->btf_ext_records[shrink->btf_ext_record_count++] = (struct bk_btf_ext_record){
		.old_offset = old_offset,
		.new_offset = new_offset,
		.size = size,
		.kept = kept,
	};
}

static int cmp_record(const void *a, const void *b)
{
	const struct bk_btf_ext_record *x = a, *y = b;

	return x->old_offset < y->old_offset ? -1 : x->old_offset > y->old_offset;
}

/* The .BTF.ext being written: a growing buffer (line info can gain records). */
struct ext_out {
	uint8_t *data;
	size_t size, cap, note_cap;
};

static uint8_t *ext_room(struct ext_out *o, size_t n)
{
	if (o->size + n > o->cap) {
		o->cap = 2 * (o->size + n);
		o->data = bk_xrealloc(o->data, o->cap, 1);
	}
	o->size += n;
	return o->data + o->size - n;
}

/* One input record of a group and where its instruction goes. */
struct ext_record {
	const uint8_t *data;
	uint64_t old_offset; /* in the input .BTF.ext */
	uint32_t insn_off, new_off;
	uint32_t seq;
	bool kept;
};

static int cmp_by_insn(const void *a, const void *b)
{
	const struct ext_record *x = a, *y = b;

	if (x->insn_off != y->insn_off)
		return x->insn_off < y->insn_off ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_by_new(const void *a, const void *b)
{
	const struct ext_record *x = a, *y = b;

	if (x->new_off != y->new_off)
		return x->new_off < y->new_off ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static uint32_t emit(struct ext_out *o, const struct ext_record *r, uint32_t size,
		     uint32_t insn_off)
{
	uint8_t *at = ext_room(o, size);

	memcpy(at, r->data, size);
	memcpy(at, &insn_off, 4);
	return (uint32_t)(at - o->data);
}

/*
 * Line info of moved code: each kept instruction keeps the record in effect
 * for it in the input (the last one at or before it), and a record is
 * written wherever that changes along the new order. A record on a deleted
 * instruction thus moves to the next one kept unless that has its own, a
 * function keeps a record at its (possibly new) first instruction, and a
 * moved block starts with the line it had.
 */
static uint32_t lines_of_moved(struct ext_out *o, const struct bk_code_layout *l,
			       struct ext_record *recs, uint32_t count, uint32_t size)
{
	size_t *in_effect = bk_xcalloc(l->count, sizeof(size_t));
	size_t prev = SIZE_MAX, r = 0;
	uint32_t written = 0;

	qsort(recs, count, sizeof(*recs), cmp_by_insn);
	for (uint64_t k = 0; k < l->count; k++) {
		while (r < count && recs[r].insn_off / ELFOBJ_INSN_SIZE <= k)
			r++;
		in_effect[k] = r ? r - 1 : SIZE_MAX;
	}
	for (uint64_t q = 0; q < l->count; q++) {
		uint64_t k = l->order[q];

		if (!l->kept[k] || in_effect[k] == SIZE_MAX || in_effect[k] == prev)
			continue;
		prev = in_effect[k];
		struct ext_record *rec = &recs[prev];
		uint32_t at = emit(o, rec, size, (uint32_t)(l->new_index[k] * ELFOBJ_INSN_SIZE));

		if (!rec->kept) { /* .rel.BTF.ext follows the first copy */
			rec->kept = true;
			rec->new_off = at;
		}
		written++;
	}
	free(in_effect);
	return written;
}

/* func_info and CO-RE records of moved code: moved (CO-RE of a deleted instruction dropped). */
static uint32_t records_of_moved(struct ext_out *o, const struct bk_shrink *shrink, size_t s,
				 int block, struct ext_record *recs, uint32_t count, uint32_t size)
{
	const struct bk_code_layout *l = &shrink->layout[s];
	uint32_t written = 0;

	for (uint32_t r = 0; r < count; r++) {
		bool kept = l->kept[recs[r].insn_off / ELFOBJ_INSN_SIZE];

		recs[r].new_off = (uint32_t)bk_shrink_byte(shrink, s, recs[r].insn_off);
		recs[r].kept = block == ELFOBJ_BTF_EXT_FUNC_INFO ? recs[r].new_off < l->size : kept;
	}
	qsort(recs, count, sizeof(*recs), cmp_by_new);
	for (uint32_t r = 0; r < count; r++) {
		/* two func_info on one instruction now: the later one is its own */
		if (!recs[r].kept || (block == ELFOBJ_BTF_EXT_FUNC_INFO && r + 1 < count &&
				      recs[r + 1].kept && recs[r + 1].new_off == recs[r].new_off)) {
			recs[r].kept = false;
			continue;
		}
		recs[r].new_off = emit(o, &recs[r], size, recs[r].new_off);
		written++;
	}
	return written;
}

/*
 * A relocation of .BTF.ext that patches bytes of a record must patch that
 * record only (clang's patch the instruction offset of each): a record moves
 * as a whole, and a relocation across two records, or from a header into a
 * record, could not follow it. One on bytes no block covers is dropped, as
 * nothing reads them.
 */
static int check_btf_ext_relocations(const struct bk_object *obj, const struct bk_shrink *shrink,
				     size_t ext)
{
	const struct bk_section *sec = &obj->sections[ext];

	for (size_t i = 0; i < sec->rel_count; i++) {
		uint64_t offset = sec->rels[i].r_offset;
		uint64_t width =
			elfobj_relocation_width((uint32_t)GELF_R_TYPE(sec->rels[i].r_info));

		if (btf_ext_record_at(shrink, offset) ==
		    btf_ext_record_at(shrink, offset + (width ? width - 1 : 0)))
			continue;
		bk_error(obj,
			 "section '.rel%s': relocation at %#llx does not patch one record of "
			 "'%s': cannot move it with the code",
			 BTF_EXT_SEC, (unsigned long long)offset, BTF_EXT_SEC);
		return -1;
	}
	return 0;
}

/* .BTF.ext with the records of moved code moved, dropped or re-derived. */
static int rewrite_btf_ext(struct bk_object *obj, struct bk_shrink *shrink, struct bk_edit *edit)
{
	size_t ext = bk_find_section(obj, BTF_EXT_SEC), cap = 0;
	const struct bk_section *sec = &obj->sections[ext];
	struct elfobj_btf_ext_header hdr = { 0 };
	uint32_t *offs[ELFOBJ_BTF_EXT_BLOCKS] = { &hdr.func_info_off, &hdr.line_info_off,
						  &hdr.core_relo_off };
	uint32_t *lens[ELFOBJ_BTF_EXT_BLOCKS] = { &hdr.func_info_len, &hdr.line_info_len,
						  &hdr.core_relo_len };
	struct ext_out o = { 0 };

	if (!ext || !obj->file.has_btf_ext)
		return 0;
	memcpy(&hdr, sec->data, sizeof(hdr) < sec->shdr.sh_size ? sizeof(hdr) : sec->shdr.sh_size);
	if (hdr.hdr_len > sizeof(hdr)) {
		bk_error(obj,
			 "section '%s': header of %u bytes has fields this tool does not know: "
			 "cannot move its records",
			 BTF_EXT_SEC, hdr.hdr_len);
		return -1;
	}
	ext_room(&o, hdr.hdr_len);
	for (int b = 0; b < ELFOBJ_BTF_EXT_BLOCKS; b++) {
		const struct elfobj_btf_ext_block *block = &obj->file.btf_ext[b];
		size_t start = o.size, in = 0;
		uint64_t in_base = (uint64_t)(block->data ? block->data - sec->data : 0);

		if (b == ELFOBJ_BTF_EXT_CORE_RELO && hdr.hdr_len < sizeof(hdr))
			break;
		*offs[b] = (uint32_t)(o.size - hdr.hdr_len);
		*lens[b] = 0;
		if (!block->data)
			continue;
		memcpy(ext_room(&o, 4), &block->record_size, 4);
		while (in < block->size) { /* groups: name_off, count, records (elfobj checked) */
			uint32_t name_off, count, written = 0;
			size_t group = o.size;

			memcpy(&name_off, block->data + in, 4);
			memcpy(&count, block->data + in + 4, 4);
			in += 8;
			ext_room(&o, 8);
			size_t s = code_section_named(obj, btf__str_by_offset(obj->btf, name_off));
			struct ext_record *recs = bk_xcalloc(count, sizeof(*recs));

			for (uint32_t r = 0; r < count; r++, in += block->record_size) {
				recs[r].data = block->data + in;
				recs[r].old_offset = in_base + in;
				recs[r].seq = r;
				memcpy(&recs[r].insn_off, block->data + in, 4);
			}
			if (!in_moved_code(obj, shrink, s)) {
				for (uint32_t r = 0; r < count; r++) {
					recs[r].kept = true;
					recs[r].new_off = emit(&o, &recs[r], block->record_size,
							       recs[r].insn_off);
				}
				written = count;
			} else if (b == ELFOBJ_BTF_EXT_LINE_INFO) {
				written = lines_of_moved(&o, &shrink->layout[s], recs, count,
							 block->record_size);
			} else {
				written = records_of_moved(&o, shrink, s, b, recs, count,
							   block->record_size);
			}
			for (uint32_t r = 0; r < count; r++)
				note_record(shrink, recs[r].old_offset, recs[r].new_off,
					    block->record_size, recs[r].kept, &cap);
			free(recs);
			if (!written) {
				o.size = group;
				continue;
			}
			memcpy(o.data + group, &name_off, 4);
			memcpy(o.data + group + 4, &written, 4);
		}
		if (o.size == start + 4)
			o.size = start; /* no group left: no block */
		*lens[b] = (uint32_t)(o.size - start);
	}
	memcpy(o.data, &hdr, hdr.hdr_len);
	if (shrink->btf_ext_record_count) /* none (every group empty): no array to sort */
		qsort(shrink->btf_ext_records, shrink->btf_ext_record_count,
		      sizeof(*shrink->btf_ext_records), cmp_record);
	own(shrink, o.data);
	if (check_btf_ext_relocations(obj, shrink, ext))
		return -1;
	edit->section_data[ext] = o.data;
	edit->section_size[ext] = o.size;
	shrink->btf_ext_section = ext;
	return 0;
}

/* Data sections' relocations into moved code: their in-place addends. */
static int patch_addends(struct bk_object *obj, struct bk_shrink *shrink, struct bk_edit *edit,
			 size_t s)
{
	const struct bk_section *sec = &obj->sections[s];
	uint8_t *data = NULL;

	for (size_t r = 0; r < sec->rel_count; r++) {
		const GElf_Rel *rel = &sec->rels[r];
		const GElf_Sym *sym = &obj->symbols[GELF_R_SYM(rel->r_info)];
		int64_t addend, fixed;

		if (!in_moved_code(obj, shrink, sym->st_shndx))
			continue;
		if (bk_shrink_read_addend(obj, s, rel, &addend))
			return -1;
		if (edit->section_data[s] && !data) {
			bk_error(obj,
				 "section '%s': both edited by lower and relocated against code it "
				 "shrinks",
				 sec->name);
			return -1;
		}
		if (!data)
			data = own(shrink, memcpy(bk_xcalloc(sec->shdr.sh_size, 1), sec->data,
						  sec->shdr.sh_size));
		fixed = (int64_t)bk_shrink_byte(shrink, sym->st_shndx,
						sym->st_value + (uint64_t)addend) -
			(int64_t)bk_shrink_byte(shrink, sym->st_shndx, sym->st_value);
		if (addend_width((uint32_t)GELF_R_TYPE(rel->r_info)) == 8) {
			memcpy(data + rel->r_offset, &fixed, 8);
		} else {
			uint32_t v = (uint32_t)fixed;

			memcpy(data + rel->r_offset, &v, 4);
		}
	}
	if (data) {
		edit->section_data[s] = data;
		edit->section_size[s] = sec->shdr.sh_size;
	}
	return 0;
}

int bk_shrink_apply(struct bk_object *obj, struct bk_shrink *shrink, struct bk_edit *edit)
{
	shrink->obj = obj;
	for (size_t s = 1; s < obj->section_count; s++)
		if (obj->sections[s].exec && shrink->layout[s].code) {
			edit->section_data[s] = shrink->layout[s].code;
			edit->section_size[s] = shrink->layout[s].size;
		}
	if (!shrink->moved)
		return 0;
	edit->remap_symbol = bk_shrink_remap_symbol;
	edit->remap_symbol_ctx = shrink;
	for (size_t s = 1; s < obj->section_count; s++)
		if (is_debug_section(obj, s))
			edit->drop_section[s] = true;
	if (rewrite_btf_ext(obj, shrink, edit))
		return -1;
	for (size_t s = 1; s < obj->section_count; s++)
		if (!obj->sections[s].exec && !edit->drop_section[s] &&
		    bk_shrink_relocations_matter(obj, s) && patch_addends(obj, shrink, edit, s))
			return -1;
	return 0;
}
