// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * .BTF and .BTF.ext of an object, parsed with libbpf and checked once for
 * both tools: every type id and string offset in range, FUNCs pointing at
 * FUNC_PROTOs, .BTF.ext headers and blocks in bounds, and every record naming
 * a code section of the object, an instruction inside it, a FUNC (func_info)
 * or valid strings (line_info, CO-RE relocations).
 */
#include <stdlib.h>
#include <string.h>

#include "elfobj.h"

#define fail(obj, section, ...) elfobj_error((obj)->path, section, __VA_ARGS__)

/* Calls fn on every type id field of t. */
int elfobj_btf_visit_type_ids(struct btf_type *t, int (*fn)(uint32_t *id, void *ctx), void *ctx)
{
	int i, n = btf_vlen(t), err;

	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
		return 0;
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_DECL_TAG:
		return fn(&t->type, ctx);
	case BTF_KIND_ARRAY: {
		struct btf_array *a = btf_array(t);

		err = fn(&a->type, ctx);
		return err ? err : fn(&a->index_type, ctx);
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		struct btf_member *m = btf_members(t);

		for (i = 0; i < n; i++, m++)
			if ((err = fn(&m->type, ctx)))
				return err;
		return 0;
	}
	case BTF_KIND_FUNC_PROTO: {
		struct btf_param *p = btf_params(t);

		if ((err = fn(&t->type, ctx)))
			return err;
		for (i = 0; i < n; i++, p++)
			if ((err = fn(&p->type, ctx)))
				return err;
		return 0;
	}
	case BTF_KIND_DATASEC: {
		struct btf_var_secinfo *v = btf_var_secinfos(t);

		for (i = 0; i < n; i++, v++)
			if ((err = fn(&v->type, ctx)))
				return err;
		return 0;
	}
	}
	return -1;
}

int elfobj_btf_visit_str_offs(struct btf_type *t, int (*fn)(uint32_t *off, void *ctx), void *ctx)
{
	int i, n = btf_vlen(t), err;

	if ((err = fn(&t->name_off, ctx)))
		return err;
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		struct btf_member *m = btf_members(t);

		for (i = 0; i < n; i++, m++)
			if ((err = fn(&m->name_off, ctx)))
				return err;
		break;
	}
	case BTF_KIND_ENUM: {
		struct btf_enum *e = btf_enum(t);

		for (i = 0; i < n; i++, e++)
			if ((err = fn(&e->name_off, ctx)))
				return err;
		break;
	}
	case BTF_KIND_ENUM64: {
		struct btf_enum64 *e = btf_enum64(t);

		for (i = 0; i < n; i++, e++)
			if ((err = fn(&e->name_off, ctx)))
				return err;
		break;
	}
	case BTF_KIND_FUNC_PROTO: {
		struct btf_param *p = btf_params(t);

		for (i = 0; i < n; i++, p++)
			if ((err = fn(&p->name_off, ctx)))
				return err;
		break;
	}
	}
	return 0;
}

int elfobj_btf_check_type_id(uint32_t *id, void *ctx)
{
	return *id < *(uint32_t *)ctx ? 0 : -1;
}

static int check_str_off(uint32_t *off, void *ctx)
{
	return btf__str_by_offset(ctx, *off) ? 0 : -1;
}

/* A reference to a declaration (VAR, FUNC, DATASEC) where a data type belongs. */
struct declaration_ref {
	const struct btf *btf;
	uint32_t target;
};

static int check_not_declaration(uint32_t *id, void *ctx)
{
	struct declaration_ref *ref = ctx;
	const struct btf_type *t = *id ? btf__type_by_id(ref->btf, *id) : NULL;

	if (t && (btf_is_var(t) || btf_is_func(t) || btf_is_datasec(t))) {
		ref->target = *id;
		return -1;
	}
	return 0;
}

/*
 * libbpf reads the types at data + hdr_len + type_off as struct btf_type
 * (4-byte fields) without checking that this is aligned; the kernel refuses
 * an unaligned type section, so such BTF is refused here before libbpf
 * parses it.
 */
static int check_btf_header(struct elfobj *obj, const struct elfobj_section *sec)
{
	struct btf_header hdr;

	if (sec->shdr.sh_size < sizeof(hdr))
		return fail(obj, sec->name, "%llu bytes: too small for a BTF header (%zu bytes)",
			    (unsigned long long)sec->shdr.sh_size, sizeof(hdr));
	memcpy(&hdr, sec->data, sizeof(hdr));
	if (hdr.magic == __builtin_bswap16(BTF_MAGIC)) { /* libbpf reads the other byte order too */
		hdr.hdr_len = __builtin_bswap32(hdr.hdr_len);
		hdr.type_off = __builtin_bswap32(hdr.type_off);
	} else if (hdr.magic != BTF_MAGIC) {
		return 0; /* libbpf's own message says what it is */
	}
	if (hdr.hdr_len < sizeof(hdr) || hdr.hdr_len % 4)
		return fail(obj, sec->name,
			    "header length %u is not a multiple of 4 of at least %zu bytes",
			    hdr.hdr_len, sizeof(hdr));
	if (hdr.type_off % 4)
		return fail(obj, sec->name, "type section offset %u is not a multiple of 4",
			    hdr.type_off);
	return 0;
}

static const char *declaration_kind(const struct btf_type *t)
{
	return btf_is_var(t) ? "a VAR" : btf_is_func(t) ? "a FUNC" : "a DATASEC";
}

static int check_types(struct elfobj *obj)
{
	uint32_t count = btf__type_cnt(obj->btf);
	struct declaration_ref ref = { obj->btf, 0 };

	for (uint32_t id = 1; id < count; id++) {
		struct btf_type *t = (struct btf_type *)btf__type_by_id(obj->btf, id);

		if (!t || elfobj_btf_visit_type_ids(t, elfobj_btf_check_type_id, &count))
			return fail(obj, ".BTF", "type id %u refers to a missing type", id);
		if (elfobj_btf_visit_str_offs(t, check_str_off, obj->btf))
			return fail(obj, ".BTF", "type id %u has a bad string offset", id);
		if (btf_is_func(t) && !btf_is_func_proto(btf__type_by_id(obj->btf, t->type)))
			return fail(obj, ".BTF", "FUNC type id %u does not point to a FUNC_PROTO",
				    id);
	}
	/* only a DATASEC lists declarations and only a DECL_TAG annotates them: a
	 * member, pointer, array or VAR of a VAR/FUNC/DATASEC is no type (the
	 * kernel refuses it, and a lowered key's VAR would leave it dangling) */
	for (uint32_t id = 1; id < count; id++) {
		struct btf_type *t = (struct btf_type *)btf__type_by_id(obj->btf, id);

		if (btf_is_datasec(t) || btf_is_decl_tag(t) || btf_is_func(t))
			continue;
		if (elfobj_btf_visit_type_ids(t, check_not_declaration, &ref))
			return fail(obj, ".BTF", "type id %u refers to type id %u, %s", id,
				    ref.target,
				    declaration_kind(btf__type_by_id(obj->btf, ref.target)));
	}
	return 0;
}

static int read_btf_ext_header(struct elfobj *obj, const struct elfobj_section *sec)
{
	static const uint32_t min_record_size[ELFOBJ_BTF_EXT_BLOCKS] = { 8, 16, 16 };
	struct elfobj_btf_ext_header hdr = { 0 };
	uint32_t offsets[ELFOBJ_BTF_EXT_BLOCKS], lengths[ELFOBJ_BTF_EXT_BLOCKS];
	size_t size = sec->shdr.sh_size;

	if (size < offsetof(struct elfobj_btf_ext_header, core_relo_off))
		return fail(obj, sec->name, "too small for a .BTF.ext header");
	memcpy(&hdr, sec->data, size < sizeof(hdr) ? size : sizeof(hdr));
	if (hdr.magic != 0xeB9F)
		return fail(obj, sec->name, "bad magic %#x", hdr.magic);
	if (hdr.version != 1)
		return fail(obj, sec->name, "unsupported version %u", hdr.version);
	if (hdr.hdr_len < offsetof(struct elfobj_btf_ext_header, core_relo_off) ||
	    hdr.hdr_len > size)
		return fail(obj, sec->name, "bad header length %u", hdr.hdr_len);
	if (hdr.hdr_len < sizeof(hdr))
		hdr.core_relo_off = hdr.core_relo_len = 0;
	offsets[0] = hdr.func_info_off;
	lengths[0] = hdr.func_info_len;
	offsets[1] = hdr.line_info_off;
	lengths[1] = hdr.line_info_len;
	offsets[2] = hdr.core_relo_off;
	lengths[2] = hdr.core_relo_len;
	for (int i = 0; i < ELFOBJ_BTF_EXT_BLOCKS; i++) {
		struct elfobj_btf_ext_block *block = &obj->btf_ext[i];
		uint64_t start = (uint64_t)hdr.hdr_len + offsets[i];

		if (!lengths[i])
			continue;
		if (start > size || lengths[i] > size - start || lengths[i] < 4)
			return fail(obj, sec->name, "info block %d out of bounds", i);
		memcpy(&block->record_size, sec->data + start, 4);
		if (block->record_size < min_record_size[i] || block->record_size % 4 ||
		    block->record_size > 1024)
			return fail(obj, sec->name, "info block %d: bad record size %u", i,
				    block->record_size);
		block->data = sec->data + start + 4;
		block->size = lengths[i] - 4;
	}
	obj->has_btf_ext = true;
	return 0;
}

/* The code section a .BTF.ext record group names, or NULL. */
static const struct elfobj_section *code_section(const struct elfobj *obj, const char *name)
{
	for (size_t i = 1; i < obj->section_count; i++) {
		const struct elfobj_section *sec = &obj->sections[i];

		if (sec->shdr.sh_type == SHT_PROGBITS && (sec->shdr.sh_flags & SHF_EXECINSTR) &&
		    strcmp(sec->name, name) == 0)
			return sec;
	}
	return NULL;
}

static int check_btf_ext_record(struct elfobj *obj, int block, const char *sec_name,
				const struct elfobj_section *code, const uint8_t *record)
{
	uint32_t fields[4], type_count = btf__type_cnt(obj->btf);

	memcpy(fields, record, block == ELFOBJ_BTF_EXT_FUNC_INFO ? 8 : 16);
	if (fields[0] % ELFOBJ_INSN_SIZE)
		return fail(obj, ".BTF.ext", "record for '%s' has unaligned instruction offset %u",
			    sec_name, fields[0]);
	if (fields[0] >= code->shdr.sh_size)
		return fail(obj, ".BTF.ext",
			    "record for '%s' has instruction offset %u past the section end (%llu "
			    "bytes)",
			    sec_name, fields[0], (unsigned long long)code->shdr.sh_size);
	switch (block) {
	case ELFOBJ_BTF_EXT_FUNC_INFO:
		if (fields[1] == 0 || fields[1] >= type_count ||
		    !btf_is_func(btf__type_by_id(obj->btf, fields[1])))
			return fail(obj, ".BTF.ext",
				    "func_info for '%s' refers to type id %u, not a FUNC", sec_name,
				    fields[1]);
		break;
	case ELFOBJ_BTF_EXT_LINE_INFO:
		if (!btf__str_by_offset(obj->btf, fields[1]) ||
		    !btf__str_by_offset(obj->btf, fields[2]))
			return fail(obj, ".BTF.ext", "line_info for '%s' has bad string offsets",
				    sec_name);
		break;
	case ELFOBJ_BTF_EXT_CORE_RELO:
		if (fields[1] == 0 || fields[1] >= type_count ||
		    !btf__str_by_offset(obj->btf, fields[2]))
			return fail(obj, ".BTF.ext", "CO-RE relocation for '%s' is malformed",
				    sec_name);
		/* A VAR or DATASEC is no type a program can be relocated against
		 * (clang never emits one), and a linker merges DATASECs, so such a
		 * record could not keep its type. */
		if (btf_is_var(btf__type_by_id(obj->btf, fields[1])) ||
		    btf_is_datasec(btf__type_by_id(obj->btf, fields[1])))
			return fail(obj, ".BTF.ext",
				    "CO-RE relocation for '%s' at instruction offset %u refers to "
				    "type id %u, a %s",
				    sec_name, fields[0], fields[1],
				    btf_is_var(btf__type_by_id(obj->btf, fields[1])) ? "VAR"
										     : "DATASEC");
		break;
	}
	return 0;
}

int elfobj_btf_ext_for_each(const struct elfobj *obj, int index, elfobj_btf_ext_record_fn fn,
			    void *ctx)
{
	const struct elfobj_btf_ext_block *block = &obj->btf_ext[index];
	size_t pos = 0;

	while (pos < block->size) {
		uint32_t name_off, count;
		const char *sec_name;

		memcpy(&name_off, block->data + pos, 4);
		memcpy(&count, block->data + pos + 4, 4);
		pos += 8;
		sec_name = btf__str_by_offset(obj->btf, name_off);
		for (uint32_t i = 0; i < count; i++, pos += block->record_size)
			if (fn(index, sec_name, block->data + pos, ctx))
				return -1;
	}
	return 0;
}

static int check_btf_ext_block(struct elfobj *obj, int index)
{
	const struct elfobj_btf_ext_block *block = &obj->btf_ext[index];
	size_t pos = 0;

	while (pos < block->size) {
		const struct elfobj_section *code;
		uint32_t name_off, count;
		const char *sec_name;

		if (block->size - pos < 8)
			return fail(obj, ".BTF.ext", "truncated info section header");
		memcpy(&name_off, block->data + pos, 4);
		memcpy(&count, block->data + pos + 4, 4);
		pos += 8;
		sec_name = btf__str_by_offset(obj->btf, name_off);
		if (!sec_name || !sec_name[0])
			return fail(obj, ".BTF.ext", "bad section name offset %u", name_off);
		if (count == 0 || (block->size - pos) / block->record_size < count)
			return fail(obj, ".BTF.ext", "bad record count %u for section '%s'", count,
				    sec_name);
		code = code_section(obj, sec_name);
		if (!code)
			return fail(obj, ".BTF.ext",
				    "records for '%s', which is not a code section of this object",
				    sec_name);
		for (uint32_t i = 0; i < count; i++, pos += block->record_size)
			if (check_btf_ext_record(obj, index, sec_name, code, block->data + pos))
				return -1;
	}
	return 0;
}

/*
 * A key of the old ABI (map type 36 with BPF_F_STATIC_KEY, before ABI 2) is
 * no plain map either: refuse the object instead of passing it through to a
 * kernel that has no type 36 (abi.md section 3).
 */
static int check_old_abi_keys(struct elfobj *obj)
{
	const struct btf_type *datasec;
	const struct btf_var_secinfo *vsi;
	int id = btf__find_by_name_kind(obj->btf, ELFOBJ_MAPS_SECTION, BTF_KIND_DATASEC);

	if (id <= 0)
		return 0;
	datasec = btf__type_by_id(obj->btf, id);
	vsi = btf_var_secinfos(datasec);
	for (int i = 0; i < btf_vlen(datasec); i++, vsi++) {
		const struct btf_type *var = btf__type_by_id(obj->btf, vsi->type);
		struct elfobj_map_kind kind;

		if (!var || !btf_is_var(var) || !elfobj_map_kind(obj->btf, var->type, &kind) ||
		    !elfobj_map_is_old_abi_static_key(&kind))
			continue;
		return fail(obj, NULL,
			    "map '%s' is a static key of the old ABI (map type %u, "
			    "BPF_MAP_TYPE_INSN_SET): rebuild it with the current bpf_static_keys.h",
			    btf__name_by_offset(obj->btf, var->name_off), kind.type);
	}
	return 0;
}

int elfobj_read_btf(struct elfobj *obj)
{
	const struct elfobj_section *btf = NULL, *ext = NULL;

	for (size_t i = 1; i < obj->section_count; i++) {
		const struct elfobj_section *sec = &obj->sections[i];
		const struct elfobj_section **slot;

		if (strcmp(sec->name, ".BTF") == 0)
			slot = &btf;
		else if (strcmp(sec->name, ".BTF.ext") == 0)
			slot = &ext;
		else
			continue;
		if (*slot)
			return fail(obj, sec->name, "more than one %s section", sec->name);
		if (sec->shdr.sh_type != SHT_PROGBITS)
			return fail(obj, sec->name, "not SHT_PROGBITS");
		*slot = sec;
	}
	if (ext && !btf)
		return fail(obj, ".BTF.ext", "present without .BTF");
	if (!btf) {
		/* BTF-defined maps (static keys among them) are described by .BTF
		 * alone: without it libbpf cannot open the object and bpfkeys cannot
		 * tell a key from a map, so neither tool takes or makes such an object */
		for (size_t i = 1; i < obj->section_count; i++)
			if (strcmp(obj->sections[i].name, ELFOBJ_MAPS_SECTION) == 0)
				return fail(obj, ELFOBJ_MAPS_SECTION,
					    "no .BTF to describe its maps (compile with -g)");
		return 0;
	}
	if (btf->shdr.sh_size > UINT32_MAX)
		return fail(obj, btf->name, "too large");
	if (check_btf_header(obj, btf))
		return -1;
	obj->btf = btf__new(btf->data, (uint32_t)btf->shdr.sh_size);
	if (libbpf_get_error(obj->btf)) {
		int err = (int)libbpf_get_error(obj->btf);

		obj->btf = NULL;
		return fail(obj, btf->name, "invalid BTF: %s", strerror(-err));
	}
	if (check_types(obj))
		return -1;
	if (ext && read_btf_ext_header(obj, ext))
		return -1;
	for (int i = 0; i < ELFOBJ_BTF_EXT_BLOCKS; i++)
		if (check_btf_ext_block(obj, i))
			return -1;
	return check_old_abi_keys(obj);
}

/* ---- BTF-defined maps: the one reading of "is this map a static key" ---- */

const struct btf_type *elfobj_btf_skip_mods(const struct btf *btf, uint32_t id, uint32_t *res_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	/* bounded: a typedef cycle in a malformed .BTF must not hang the tools */
	for (int depth = 0; t && depth < 32; depth++) {
		if (!btf_is_mod(t) && !btf_is_typedef(t)) {
			if (res_id)
				*res_id = id;
			return t;
		}
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	return NULL;
}

bool elfobj_btf_map_uint(const struct btf *btf, uint32_t member_type, uint32_t *value)
{
	const struct btf_type *ptr = elfobj_btf_skip_mods(btf, member_type, NULL), *arr;

	if (!ptr || !btf_is_ptr(ptr))
		return false;
	arr = elfobj_btf_skip_mods(btf, ptr->type, NULL);
	if (!arr || !btf_is_array(arr))
		return false;
	*value = btf_array(arr)->nelems;
	return true;
}

bool elfobj_map_kind(const struct btf *btf, uint32_t def_type, struct elfobj_map_kind *kind)
{
	const struct btf_type *def = elfobj_btf_skip_mods(btf, def_type, NULL);
	const struct btf_member *m;
	bool have_type = false, have_extra = false;

	memset(kind, 0, sizeof(*kind));
	if (!def || !btf_is_struct(def))
		return false;
	m = btf_members(def);
	for (int i = 0; i < btf_vlen(def); i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);

		/* the first member of a name decides, malformed or not */
		if (!name)
			continue;
		if (!have_type && strcmp(name, "type") == 0) {
			have_type = true;
			elfobj_btf_map_uint(btf, m->type, &kind->type);
		} else if (!have_extra && strcmp(name, "map_extra") == 0) {
			have_extra = true;
			elfobj_btf_map_uint(btf, m->type, &kind->map_extra);
		}
	}
	return true;
}
