// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Lower: make an object with static keys load on a stock kernel with a stock
 * libbpf, each key fixed at its initial state or --set. shrink.c fixes each
 * static branch (not taken: deleted; taken: one `ja`, or nothing when its
 * target follows) and deletes the code no path reaches any more, so the
 * verifier meets no unreachable instruction and a site costs at most one
 * `ja`; shrink_refs.c moves what refers to positions. Then the static-key
 * machinery goes: .static_keys, its relocations, the key maps' symbols and
 * their entries in the BTF DATASEC .maps (a stock kernel refuses a static key:
 * before 6.19 it has no map type 34, after it requires map_extra 0 there; and
 * libbpf would try to create them).
 */
#include <stdlib.h>
#include <string.h>

#include <linux/btf.h>
#include <bpf/btf.h>

#include "bpfkeys.h"

#define BTF_INFO(kind, vlen) (((uint32_t)(kind) << 24) | ((vlen) & 0xffff))

/* The DATASEC .maps edit, as a map from old to new .BTF byte offsets. */
struct btf_edit {
	size_t section; /* .BTF */
	uint64_t secinfo_start; /* section offset of the DATASEC's first var_secinfo */
	uint32_t vlen;
	int32_t *new_position; /* [vlen]: new index of each var_secinfo, -1 if removed */
	uint64_t removed_bytes;
};

static bool remap_btf_offset(void *ctx, size_t section, uint64_t *offset)
{
	struct btf_edit *e = ctx;
	uint64_t end = e->secinfo_start + (uint64_t)e->vlen * sizeof(struct btf_var_secinfo);

	if (section != e->section || *offset < e->secinfo_start)
		return true;
	if (*offset >= end) {
		*offset -= e->removed_bytes;
		return true;
	}
	uint64_t i = (*offset - e->secinfo_start) / sizeof(struct btf_var_secinfo);
	uint64_t within = (*offset - e->secinfo_start) % sizeof(struct btf_var_secinfo);

	if (e->new_position[i] < 0)
		return false;
	*offset = e->secinfo_start + (uint64_t)e->new_position[i] * sizeof(struct btf_var_secinfo) +
		  within;
	return true;
}

/*
 * Remove the static keys from the DATASEC .maps in the raw .BTF, in place of
 * a rebuild through btf__add_*: a rebuild renumbers strings, which .BTF.ext
 * line info refers to by offset. Type IDs do not change. If no map is left,
 * the DATASEC (which the kernel rejects when empty) becomes an anonymous
 * `void *`, which nothing refers to, and *maps_empty is set.
 */
static int edit_btf(struct bk_object *obj, struct btf_edit *e, uint8_t **out, size_t *out_size,
		    bool *maps_empty)
{
	const struct bk_section *sec = &obj->sections[obj->btf_section];
	struct btf_header hdr;
	const struct btf_type *first, *ds;
	uint64_t ds_off, types_start;
	uint32_t kept = 0;
	int id;
	uint8_t *buf;

	*maps_empty = false;
	id = btf__find_by_name_kind(obj->btf, ELFOBJ_MAPS_SECTION, BTF_KIND_DATASEC);
	if (id <= 0)
		return 0;
	memcpy(&hdr, sec->data, sizeof(hdr));
	if (hdr.str_off != hdr.type_off + hdr.type_len) {
		bk_error(obj, "section '.BTF': strings do not follow types; cannot edit");
		return -1;
	}
	/* libbpf keeps an unmodified BTF's types contiguous, as in the file */
	first = btf__type_by_id(obj->btf, 1);
	ds = btf__type_by_id(obj->btf, id);
	types_start = hdr.hdr_len + hdr.type_off;
	ds_off = types_start + (uint64_t)((const uint8_t *)ds - (const uint8_t *)first);
	if (ds_off + sizeof(*ds) > sec->shdr.sh_size ||
	    memcmp(sec->data + ds_off, ds, sizeof(*ds)) != 0) {
		bk_error(obj, "section '.BTF': cannot locate DATASEC .maps");
		return -1;
	}
	e->section = obj->btf_section;
	e->secinfo_start = ds_off + sizeof(struct btf_type);
	e->vlen = btf_vlen(ds);
	e->new_position = bk_xcalloc(e->vlen, sizeof(int32_t));
	const struct btf_var_secinfo *vsi = btf_var_secinfos(ds);
	for (uint32_t i = 0; i < e->vlen; i++) {
		const struct btf_type *var = btf__type_by_id(obj->btf, vsi[i].type);
		const char *name = var ? btf__name_by_offset(obj->btf, var->name_off) : NULL;
		ssize_t k = name ? bk_key_by_name(obj, name) : -1;

		e->new_position[i] = k >= 0 && obj->keys[k].is_static_key ? -1 : (int32_t)kept++;
	}
	buf = bk_xcalloc(sec->shdr.sh_size, 1);
	memcpy(buf, sec->data, e->secinfo_start);
	if (kept) {
		struct btf_type t;
		uint64_t pos = e->secinfo_start;

		memcpy(&t, buf + ds_off, sizeof(t));
		t.info = BTF_INFO(BTF_KIND_DATASEC, kept);
		memcpy(buf + ds_off, &t, sizeof(t));
		for (uint32_t i = 0; i < e->vlen; i++)
			if (e->new_position[i] >= 0) {
				memcpy(buf + pos, &vsi[i], sizeof(vsi[i]));
				pos += sizeof(vsi[i]);
			}
		e->removed_bytes = (uint64_t)(e->vlen - kept) * sizeof(struct btf_var_secinfo);
	} else {
		struct btf_type t = { .name_off = 0, .info = BTF_INFO(BTF_KIND_PTR, 0), .type = 0 };

		memcpy(buf + ds_off, &t, sizeof(t));
		e->removed_bytes = (uint64_t)e->vlen * sizeof(struct btf_var_secinfo);
		*maps_empty = true;
	}
	uint64_t old_end = e->secinfo_start + (uint64_t)e->vlen * sizeof(struct btf_var_secinfo);
	memcpy(buf + old_end - e->removed_bytes, sec->data + old_end, sec->shdr.sh_size - old_end);
	hdr.type_len -= (uint32_t)e->removed_bytes;
	hdr.str_off -= (uint32_t)e->removed_bytes;
	memcpy(buf, &hdr, sizeof(hdr));
	*out = buf;
	*out_size = sec->shdr.sh_size - e->removed_bytes;
	return 0;
}

/*
 * Whether instruction insn of section is a site. Sites are sorted by
 * (function, insn), functions by (section, start), so by (section, insn):
 * the caller goes up the sections and their code, and so does *cursor (a
 * search per instruction was a tenth of lower at a million sites).
 */
static bool is_site(const struct bk_object *obj, size_t section, uint64_t insn, size_t *cursor)
{
	while (*cursor < obj->site_count &&
	       (obj->sites[*cursor].section < section ||
		(obj->sites[*cursor].section == section && obj->sites[*cursor].insn < insn)))
		(*cursor)++;
	return *cursor < obj->site_count && obj->sites[*cursor].section == section &&
	       obj->sites[*cursor].insn == insn;
}

/* .rel.BTF (DATASEC edit) and everything shrink moved */
struct remap {
	struct btf_edit *btf;
	struct bk_shrink *shrink;
};

static bool remap_offset(void *ctx, size_t section, uint64_t *offset)
{
	struct remap *r = ctx;

	if (r->btf->new_position && section == r->btf->section)
		return remap_btf_offset(r->btf, section, offset);
	return bk_shrink_remap_offset(r->shrink, section, offset);
}

int bk_lower(struct bk_object *obj, struct bk_setting *settings, size_t setting_count,
	     const char *out_path, int out_fd)
{
	struct bk_edit edit;
	struct btf_edit btf_e = { 0 };
	struct bk_shrink shrink = { 0 };
	struct remap remap = { .btf = &btf_e, .shrink = &shrink };
	bool *on = bk_xcalloc(obj->key_count, sizeof(bool));
	bool *taken = bk_xcalloc(obj->site_count, sizeof(bool));
	uint8_t *btf_buf = NULL;
	size_t btf_size = 0;
	bool maps_empty = false;
	/* a program that flips a key calls kfuncs a stock kernel does not have */
	int errors = bk_refuse_references_on_stock(obj) ? 1 : 0;

	for (size_t k = 0; k < obj->key_count; k++)
		on[k] = obj->keys[k].map_extra & BPF_F_STATIC_KEY_ON;
	for (size_t s = 0; s < setting_count; s++) {
		ssize_t k = bk_key_by_name(obj, settings[s].key);

		if (k < 0 || !obj->keys[k].is_static_key) {
			bk_error(obj, "--set %s: no static key named '%s'", settings[s].key,
				 settings[s].key);
			errors++;
			continue;
		}
		on[k] = settings[s].on;
	}

	/* a static branch without an entry would reach the stock verifier as an unknown JA */
	for (size_t s = 1, site_cursor = 0; s < obj->section_count; s++) {
		const struct bk_section *sec = &obj->sections[s];
		const uint8_t *text = sec->data;

		if (!sec->exec)
			continue;
		for (uint64_t i = 0; i < sec->shdr.sh_size / ELFOBJ_INSN_SIZE; i++) {
			struct bk_insn insn;

			memcpy(&insn, text + i * ELFOBJ_INSN_SIZE, sizeof(insn));
			if (insn.code == ELFOBJ_LD_IMM64_CODE) {
				i++;
				continue;
			}
			if ((insn.code == ELFOBJ_JA_CODE || insn.code == ELFOBJ_JA32_CODE) &&
			    bk_insn_src(&insn) && !is_site(obj, s, i, &site_cursor)) {
				ssize_t f = bk_function_at(obj, s, i);

				bk_error(obj,
					 "section '%s': offset 0x%llx%s%s%s: static branch without "
					 "a .static_keys entry",
					 sec->name, (unsigned long long)i * ELFOBJ_INSN_SIZE,
					 f >= 0 ? " (function '" : "",
					 f >= 0 ? obj->functions[f].name : "", f >= 0 ? "')" : "");
				errors++;
			}
		}
	}
	if (errors)
		goto out;
	for (size_t i = 0; i < obj->site_count; i++)
		taken[i] = !obj->sites[i].unkeyed &&
			   on[obj->sites[i].key] != obj->sites[i].jump_when_off;
	if (bk_shrink_code(obj, taken, &shrink)) {
		errors++;
		goto out;
	}

	bk_edit_init(&edit, obj);
	if (obj->static_keys_section)
		edit.drop_section[obj->static_keys_section] = true;
	if (obj->instances_section)
		edit.drop_section[obj->instances_section] = true;
	for (size_t k = 0; k < obj->key_count; k++)
		if (obj->keys[k].is_static_key)
			edit.drop_symbol[obj->keys[k].symbol] = true;
	if (obj->btf && obj->key_count) {
		if (edit_btf(obj, &btf_e, &btf_buf, &btf_size, &maps_empty)) {
			errors++;
			bk_edit_free(&edit);
			goto out;
		}
		if (btf_buf) {
			edit.section_data[obj->btf_section] = btf_buf;
			edit.section_size[obj->btf_section] = btf_size;
		}
		if (maps_empty)
			edit.drop_section[obj->maps_section] = true;
	}
	if (bk_shrink_apply(obj, &shrink, &edit)) {
		errors++;
		bk_edit_free(&edit);
		goto out;
	}
	edit.remap_offset = remap_offset;
	edit.remap_ctx = &remap;
	if (bk_write(obj, &edit, out_path, out_fd))
		errors++;
	bk_edit_free(&edit);
out:
	bk_shrink_free(&shrink);
	free(taken);
	free(on);
	free(btf_buf);
	free(btf_e.new_position);
	return errors ? -1 : 0;
}
