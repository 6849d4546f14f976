// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libbpfkeys, what an opener of a pin directory checks before it trusts it
 * (bpfkeys_open_pinned): meta and object are our maps and agree with each
 * other, every pinned map is the object's map of that name (type, key and
 * value sizes; not max_entries, which a setting may change), and every link
 * runs the program pinned in progs/; a missing progs/ pin is pinned again
 * from the links that run it. Each error names the pin.
 *
 * Allocations are bk_x*(): this runs under lbk_core() (pin.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "internal.h"
#include "pin_layout.h"

static int map_info(struct bpfkeys_object *obj, int fd, const char *path, struct bpf_map_info *info)
{
	uint32_t len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	if (bpf_obj_get_info_by_fd(fd, info, &len))
		return lbk_error(obj, errno, "%s: %s", path, strerror(errno));
	return 0;
}

int lbk_pin_check_meta(struct bpfkeys_object *holder, const char *dir, int meta_fd,
		       const struct meta_header *header)
{
	char *meta_path = lbk_pin_path(dir, "meta", NULL),
	     *object_path = lbk_pin_path(dir, "object", NULL);
	struct bpf_map_info meta, object;
	int object_fd = bpf_obj_get(object_path), err;

	err = map_info(holder, meta_fd, meta_path, &meta);
	if (!err && (meta.type != BPF_MAP_TYPE_ARRAY || meta.key_size != 4 ||
		     meta.value_size != META_VALUE_SIZE ||
		     meta.max_entries != (uint64_t)header->key_count + 1))
		err = lbk_error(holder, EINVAL,
				"%s: not a libbpfkeys meta map for %u key(s) (an ARRAY of %u "
				"entries of %u bytes expected)",
				meta_path, header->key_count, header->key_count + 1,
				META_VALUE_SIZE);
	if (!err && object_fd < 0)
		err = lbk_error(holder, errno, "%s: %s", object_path, strerror(errno));
	if (!err)
		err = map_info(holder, object_fd, object_path, &object);
	if (!err && (object.type != BPF_MAP_TYPE_ARRAY || object.key_size != 4 ||
		     object.value_size != OBJECT_CHUNK))
		err = lbk_error(holder, EINVAL,
				"%s: not a libbpfkeys object map (an ARRAY of %u-byte chunks "
				"expected)",
				object_path, OBJECT_CHUNK);
	if (!err && (header->object_size == 0 ||
		     header->object_size > (uint64_t)object.max_entries * OBJECT_CHUNK))
		err = lbk_error(holder, EINVAL,
				"%s: object_size %llu does not fit %s (%u chunks of %u bytes)",
				meta_path, (unsigned long long)header->object_size, object_path,
				object.max_entries, OBJECT_CHUNK);
	if (object_fd >= 0)
		close(object_fd);
	free(meta_path);
	free(object_path);
	return err;
}

static const struct bpfkeys_map *pinned_map(const struct bpfkeys_object *obj, const char *name)
{
	for (size_t i = 0; i < obj->map_count; i++)
		if (strcmp(obj->maps[i].name, name) == 0)
			return &obj->maps[i];
	return NULL;
}

int lbk_pin_check_maps(struct bpfkeys_object *obj, const char *dir)
{
	struct bpfkeys_loaded *variant;
	struct bpf_map *map;
	size_t object_maps = 0;
	int err = lbk_open_variant(obj, obj->on, &variant);

	if (err)
		return err;
	bpf_object__for_each_map(map, variant->bpf)
	{
		const struct bpfkeys_map *m = pinned_map(obj, bpf_map__name(map));
		struct bpf_map_info info;
		char *pin;

		if (err)
			break;
		object_maps++;
		/* the pin's name: dots are colons (pin.c) */
		pin = lbk_pin_path(dir, "maps", bpf_map__name(map));
		for (char *c = pin + strlen(dir) + 6; *c; c++)
			if (*c == '.')
				*c = ':';
		if (!m)
			err = lbk_error(obj, ENOENT, "%s: missing (map '%s' of the object)", pin,
					bpf_map__name(map));
		else
			err = map_info(obj, m->fd, pin, &info);
		/* not max_entries: bpfkeys_set_max_entries() may have sized the map
		 * at load, and the pins do not record the settings */
		if (!err &&
		    (info.type != bpf_map__type(map) || info.key_size != bpf_map__key_size(map) ||
		     info.value_size != bpf_map__value_size(map)))
			err = lbk_error(obj, EINVAL,
					"%s: not the object's map '%s': type %u, key %u, value %u, "
					"max_entries %u pinned; type %u, key %u, value %u, "
					"max_entries %u in the object",
					pin, bpf_map__name(map), info.type, info.key_size,
					info.value_size, info.max_entries, bpf_map__type(map),
					bpf_map__key_size(map), bpf_map__value_size(map),
					bpf_map__max_entries(map));
		free(pin);
	}
	if (!err && object_maps != obj->map_count)
		err = lbk_error(obj, EINVAL, "%s/maps: %zu pins, the object has %zu map(s)", dir,
				obj->map_count, object_maps);
	variant->refs = 1;
	lbk_loaded_put(variant);
	return err;
}

static uint32_t link_prog_id(int fd)
{
	struct bpf_link_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.prog_id;
}

int lbk_pin_check_links(struct bpfkeys_object *obj, const char *dir)
{
	int err = 0;

	for (struct bpfkeys_link *l = obj->links; l && !err; l = l->next) {
		struct bpfkeys_program *p = &obj->programs[l->program];
		uint32_t runs = link_prog_id(l->fd);
		char *pin;

		if (p->pinned_fd < 0) {
			/* a lost progs/ pin: the program is the one its link runs */
			pin = lbk_pin_path(dir, "progs", p->name);
			p->pinned_fd = bpf_prog_get_fd_by_id(runs);
			if (p->pinned_fd < 0 || bpf_obj_pin(p->pinned_fd, pin))
				err = lbk_error(
					obj, errno,
					"%s: missing, and cannot be pinned again from %s: %s", pin,
					l->pin_path, strerror(errno));
			else
				lbk_print(obj, LIBBPFKEYS_WARN,
					  "libbpfkeys: %s: warning: %s was missing: pinned again "
					  "from %s (program id %u)\n",
					  obj->path, pin, l->pin_path, runs);
			free(pin);
		} else if (runs != lbk_prog_id(p->pinned_fd)) {
			pin = lbk_pin_path(dir, "progs", p->name);
			err = lbk_error(obj, EINVAL,
					"%s runs program id %u, but %s is program id %u: the pins "
					"disagree (not a libbpfkeys flip's)",
					l->pin_path, runs, pin, lbk_prog_id(p->pinned_fd));
			free(pin);
		}
	}
	return err;
}
