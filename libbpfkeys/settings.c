// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libbpfkeys, settings before load: initial values of global data, global
 * variables, max_entries, map fds to reuse, pin paths, attach targets.
 *
 * They live in a template: the object lowered for the states of the first
 * setting and opened (not loaded) with libbpf, whose maps take the settings
 * through libbpf's own setters (so libbpf checks them as it would for a
 * bpf_object). Lowering changes code only, so every variant has the same
 * maps: the initial load copies each changed map's setting from the
 * template, and every load, initial or a flip's, gets the attach targets.
 * A flip's variant reuses the loaded maps, so values and sizes stay.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "internal.h"

/* what was set on a template map, to copy at the initial load */
enum {
	SET_VALUE = 1,
	SET_MAX_ENTRIES = 2,
	SET_PIN_PATH = 4,
	SET_REUSE_FD = 8,
};

struct lbk_map_setting {
	char *name; /* bpf_map__name() */
	unsigned int set; /* SET_* */
};

struct lbk_program_setting {
	bool set;
	int attach_prog_fd; /* ours (a dup), or 0 */
	char *attach_func_name;
};

struct lbk_settings {
	struct bpfkeys_loaded *template;
	struct lbk_map_setting *maps;
	size_t map_count;
	struct lbk_program_setting *programs; /* [obj->program_count] */
};

void lbk_settings_free(struct bpfkeys_object *obj)
{
	struct lbk_settings *s = obj->settings;

	if (!s)
		return;
	for (size_t i = 0; i < s->map_count; i++)
		free(s->maps[i].name);
	for (size_t p = 0; s->programs && p < obj->program_count; p++) {
		if (s->programs[p].attach_prog_fd > 0)
			close(s->programs[p].attach_prog_fd);
		free(s->programs[p].attach_func_name);
	}
	if (s->template) {
		s->template->refs = 1;
		lbk_loaded_put(s->template);
	}
	free(s->maps);
	free(s->programs);
	free(s);
	obj->settings = NULL;
}

/* the template, opened on first use */
static struct lbk_settings *settings(struct bpfkeys_object *obj)
{
	struct lbk_settings *s = obj->settings;
	struct bpf_map *map;
	int err;

	if (s)
		return s;
	s = lbk_calloc(obj, 1, sizeof(*s));
	if (!s)
		return NULL;
	obj->settings = s;
	s->programs = lbk_calloc(obj, obj->program_count, sizeof(*s->programs));
	if (!s->programs)
		goto fail;
	err = lbk_open_variant(obj, obj->on, &s->template);
	if (err)
		goto fail;
	bpf_object__for_each_map(map, s->template->bpf) s->map_count++;
	s->maps = lbk_calloc(obj, s->map_count, sizeof(*s->maps));
	if (!s->maps) {
		s->map_count = 0;
		goto fail;
	}
	s->map_count = 0;
	bpf_object__for_each_map(map, s->template->bpf)
	{
		s->maps[s->map_count].name = lbk_strdup(obj, bpf_map__name(map));
		if (!s->maps[s->map_count].name)
			goto fail;
		s->map_count++;
	}
	return s;
fail:
	err = errno; /* the error said; freeing may change errno */
	lbk_settings_free(obj);
	errno = err;
	return NULL;
}

/* name as the caller writes it: the map's name, or ".rodata", ".data.NAME"
 * for the global-data map libbpf names "OBJECT.rodata" */
static bool map_name_matches(const struct bpf_map *map, const char *name)
{
	const char *full = bpf_map__name(map);
	size_t full_len = strlen(full), len = strlen(name);

	if (!strcmp(full, name))
		return true;
	return name[0] == '.' && bpf_map__is_internal(map) && full_len > len &&
	       !strcmp(full + full_len - len, name);
}

/* the template's map and its setting; an exact name wins over a suffix */
static struct bpf_map *find_map(struct bpfkeys_object *obj, const char *name,
				struct lbk_map_setting **setting)
{
	struct lbk_settings *s = settings(obj);
	struct bpf_map *map, *found = NULL;
	size_t i = 0, found_index = 0;

	if (!s)
		return NULL;
	bpf_object__for_each_map(map, s->template->bpf)
	{
		if (!strcmp(bpf_map__name(map), name) || (!found && map_name_matches(map, name))) {
			found = map;
			found_index = i;
		}
		i++;
	}
	if (!found) {
		lbk_error(obj, ENOENT, "no map named '%s'", name);
		return NULL;
	}
	if (setting)
		*setting = &s->maps[found_index];
	return found;
}

/* every setter: before load only */
static int before_load(struct bpfkeys_object *obj, const char *what, const char *name,
		       const char *setting)
{
	if (!obj->loaded)
		return 0;
	return lbk_error(obj, EBUSY, "%s '%s': %s is set before load (the object is loaded)", what,
			 name, setting);
}

int bpfkeys_set_initial_value(struct bpfkeys_object *obj, const char *map, const void *data,
			      size_t size)
{
	struct lbk_map_setting *setting;
	struct bpf_map *m;
	const void *old;
	size_t value_size;
	int err = before_load(obj, "map", map, "its initial value");

	if (err)
		return err;
	m = find_map(obj, map, &setting);
	if (!m)
		return -errno;
	if (setting->set & SET_REUSE_FD)
		return lbk_error(obj, EINVAL,
				 "map '%s': loads with a reused map fd, whose value it keeps", map);
	old = bpf_map__initial_value(m, &value_size);
	if (!old)
		return lbk_error(obj, EINVAL,
				 "map '%s': not global data (.data, .rodata, .bss): no "
				 "initial value to set",
				 map);
	if (size != value_size)
		return lbk_error(
			obj, EINVAL,
			"map '%s': initial value of %zu bytes, the map's value is %zu bytes", map,
			size, value_size);
	err = bpf_map__set_initial_value(m, data, size);
	if (err)
		return lbk_error(obj, err, "map '%s': cannot set its initial value: %s", map,
				 strerror(-err));
	setting->set |= SET_VALUE;
	return 0;
}

/* the variable's DATASEC entry, and the template map that holds it */
static const struct btf_var_secinfo *find_global(struct bpfkeys_object *obj, const char *variable,
						 struct bpf_map **map,
						 struct lbk_map_setting **setting)
{
	struct lbk_settings *s = settings(obj);
	const struct btf *btf = s ? bpf_object__btf(s->template->bpf) : NULL;

	if (!s)
		return NULL;
	for (__u32 id = 1; btf && id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_var_secinfo *vs;

		if (!btf_is_datasec(t))
			continue;
		vs = btf_var_secinfos(t);
		for (__u16 i = 0; i < btf_vlen(t); i++, vs++) {
			const struct btf_type *var = btf__type_by_id(btf, vs->type);
			const char *section = btf__name_by_offset(btf, t->name_off);
			struct bpf_map *m;

			if (!var || strcmp(btf__name_by_offset(btf, var->name_off), variable))
				continue;
			bpf_object__for_each_map(m, s->template->bpf)
			{
				size_t value_size;

				if (!map_name_matches(m, section))
					continue;
				if (!bpf_map__initial_value(m, &value_size) ||
				    (size_t)vs->offset + vs->size > value_size)
					break;
				*map = m;
				return find_map(obj, bpf_map__name(m), setting) ? vs : NULL;
			}
			lbk_error(obj, EINVAL,
				  "global variable '%s': its section %s is not a global-data map",
				  variable, section);
			return NULL;
		}
	}
	lbk_error(obj, ENOENT, "no global variable named '%s' (in the object's BTF)", variable);
	return NULL;
}

int bpfkeys_set_global(struct bpfkeys_object *obj, const char *variable, const void *value,
		       size_t size)
{
	const struct btf_var_secinfo *vs;
	struct lbk_map_setting *setting;
	struct bpf_map *map;
	const void *old;
	size_t value_size;
	char *buf;
	int err = before_load(obj, "global variable", variable, "its value");

	if (err)
		return err;
	vs = find_global(obj, variable, &map, &setting);
	if (!vs)
		return -errno;
	if (size != vs->size)
		return lbk_error(
			obj, EINVAL,
			"global variable '%s': value of %zu bytes, the variable has %u bytes",
			variable, size, vs->size);
	if (setting->set & SET_REUSE_FD)
		return lbk_error(obj, EINVAL,
				 "global variable '%s': its map '%s' loads with a reused map fd, "
				 "whose value it keeps",
				 variable, setting->name);
	old = bpf_map__initial_value(map, &value_size);
	buf = lbk_calloc(obj, value_size, 1);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, old, value_size);
	memcpy(buf + vs->offset, value, size);
	err = bpf_map__set_initial_value(map, buf, value_size);
	free(buf);
	if (err)
		return lbk_error(obj, err, "global variable '%s': cannot set it: %s", variable,
				 strerror(-err));
	setting->set |= SET_VALUE;
	return 0;
}

int bpfkeys_set_max_entries(struct bpfkeys_object *obj, const char *map, __u32 max_entries)
{
	struct lbk_map_setting *setting;
	struct bpf_map *m;
	int err = before_load(obj, "map", map, "max_entries");

	if (err)
		return err;
	m = find_map(obj, map, &setting);
	if (!m)
		return -errno;
	if (setting->set & SET_REUSE_FD)
		return lbk_error(obj, EINVAL,
				 "map '%s': loads with a reused map fd, whose max_entries it keeps",
				 map);
	err = bpf_map__set_max_entries(m, max_entries);
	if (err)
		return lbk_error(obj, err, "map '%s': cannot set max_entries to %u: %s", map,
				 max_entries, strerror(-err));
	setting->set |= SET_MAX_ENTRIES;
	return 0;
}

int bpfkeys_reuse_map_fd(struct bpfkeys_object *obj, const char *map, int fd)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	struct lbk_map_setting *setting;
	struct bpf_map *m;
	int err = before_load(obj, "map", map, "a map fd to reuse");

	if (err)
		return err;
	m = find_map(obj, map, &setting);
	if (!m)
		return -errno;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return lbk_error(obj, errno, "map '%s': fd %d is not a BPF map: %s", map, fd,
				 strerror(errno));
	if (info.type != bpf_map__type(m) || info.key_size != bpf_map__key_size(m) ||
	    info.value_size != bpf_map__value_size(m))
		return lbk_error(obj, EINVAL,
				 "map '%s': fd %d is a map of type %u, key %u bytes, value %u "
				 "bytes; the object's has type %u, key %u, value %u",
				 map, fd, info.type, info.key_size, info.value_size,
				 bpf_map__type(m), bpf_map__key_size(m), bpf_map__value_size(m));
	/* libbpf duplicates fd: the caller may close theirs */
	err = bpf_map__reuse_fd(m, fd);
	if (err)
		return lbk_error(obj, err, "map '%s': cannot reuse fd %d: %s", map, fd,
				 strerror(-err));
	setting->set |= SET_REUSE_FD;
	return 0;
}

int bpfkeys_set_map_pin_path(struct bpfkeys_object *obj, const char *map, const char *path)
{
	struct lbk_map_setting *setting;
	struct bpf_map *m;
	int err = before_load(obj, "map", map, "its pin path");

	if (err)
		return err;
	m = find_map(obj, map, &setting);
	if (!m)
		return -errno;
	err = bpf_map__set_pin_path(m, path);
	if (err)
		return lbk_error(obj, err, "map '%s': cannot set pin path %s: %s", map,
				 path ? path : "(none)", strerror(-err));
	setting->set |= SET_PIN_PATH;
	return 0;
}

static int attach_target_error(struct bpfkeys_object *obj, const char *program,
			       const char *function, int err)
{
	return lbk_error(obj, err, "program '%s': attach target %s%s%s: %s", program,
			 function ? "'" : "", function ? function : "(no function)",
			 function ? "'" : "", strerror(-err));
}

int bpfkeys_set_attach_target(struct bpfkeys_object *obj, const char *program, int attach_prog_fd,
			      const char *attach_func_name)
{
	ssize_t p = lbk_program_index(obj, program);
	struct lbk_program_setting *setting;
	struct lbk_settings *s;
	struct bpf_program *prog;
	char *func = NULL;
	int fd = 0, err = before_load(obj, "program", program, "its attach target");

	if (err)
		return err;
	if (p < 0)
		return lbk_error(obj, ENOENT, "no program named '%s'", program);
	s = settings(obj);
	if (!s)
		return -errno;
	/* libbpf resolves a target in a BPF program now: an unknown function is
	 * said here. One in the kernel is resolved at load: libbpf 1.1 keeps
	 * the vmlinux BTF it reads until a load, which the template never has. */
	prog = bpf_object__find_program_by_name(s->template->bpf, program);
	err = prog ? 0 : -ENOENT;
	if (!err && attach_prog_fd <= 0 && !attach_func_name)
		err = -EINVAL; /* neither a program nor a function */
	if (!err && attach_prog_fd > 0)
		err = bpf_program__set_attach_target(prog, attach_prog_fd, attach_func_name);
	if (err)
		return attach_target_error(obj, program, attach_func_name, err);
	if (attach_prog_fd > 0) {
		fd = fcntl(attach_prog_fd, F_DUPFD_CLOEXEC, 3);
		if (fd < 0)
			return lbk_error(obj, errno, "program '%s': dup of fd %d: %s", program,
					 attach_prog_fd, strerror(errno));
	}
	if (attach_func_name) {
		func = lbk_strdup(obj, attach_func_name);
		if (!func) {
			if (fd > 0)
				close(fd);
			return -ENOMEM;
		}
	}
	setting = &s->programs[p];
	if (setting->attach_prog_fd > 0)
		close(setting->attach_prog_fd);
	free(setting->attach_func_name);
	setting->set = true;
	setting->attach_prog_fd = fd;
	setting->attach_func_name = func;
	return 0;
}

const void *bpfkeys_initial_value(struct bpfkeys_object *obj, const char *map, size_t *size)
{
	struct bpf_map *m = find_map(obj, map, NULL);
	const void *value;

	if (!m)
		return NULL;
	value = bpf_map__initial_value(m, size);
	if (!value)
		errno = EINVAL;
	return value;
}

const void *bpfkeys_global(struct bpfkeys_object *obj, const char *variable, size_t *size)
{
	struct lbk_map_setting *setting;
	struct bpf_map *map;
	const struct btf_var_secinfo *vs = find_global(obj, variable, &map, &setting);
	size_t value_size;

	if (!vs)
		return NULL;
	*size = vs->size;
	return (const char *)bpf_map__initial_value(map, &value_size) + vs->offset;
}

__u32 bpfkeys_max_entries(struct bpfkeys_object *obj, const char *map)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	int fd = obj->loaded ? bpfkeys_map_fd(obj, map) : -1;
	struct bpf_map *m;

	memset(&info, 0, sizeof(info));
	if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len))
		return info.max_entries; /* the loaded map's */
	m = find_map(obj, map, NULL);
	return m ? bpf_map__max_entries(m) : 0;
}

/* the variant's map named as the template's; both come from one image layout */
static struct bpf_map *variant_map(struct bpfkeys_object *obj, struct bpfkeys_loaded *variant,
				   const char *name)
{
	struct bpf_map *map = bpf_object__find_map_by_name(variant->bpf, name);

	if (!map)
		lbk_error(obj, EINVAL, "map '%s' is not in the lowered object", name);
	return map;
}

static int apply_map(struct bpfkeys_object *obj, struct bpfkeys_loaded *variant,
		     const struct lbk_map_setting *setting)
{
	struct bpf_map *from =
		bpf_object__find_map_by_name(obj->settings->template->bpf, setting->name);
	struct bpf_map *to = variant_map(obj, variant, setting->name);
	const void *value;
	size_t size;
	int err = 0;

	if (!from || !to)
		return -EINVAL;
	if (setting->set & SET_VALUE) {
		value = bpf_map__initial_value(from, &size);
		err = bpf_map__set_initial_value(to, value, size);
	}
	if (!err && (setting->set & SET_MAX_ENTRIES))
		err = bpf_map__set_max_entries(to, bpf_map__max_entries(from));
	if (!err && (setting->set & SET_PIN_PATH))
		err = bpf_map__set_pin_path(to, bpf_map__pin_path(from));
	if (!err && (setting->set & SET_REUSE_FD))
		err = bpf_map__reuse_fd(to, bpf_map__fd(from));
	if (err)
		return lbk_error(obj, err, "map '%s': cannot apply its settings: %s", setting->name,
				 strerror(-err));
	return 0;
}

int lbk_settings_apply(struct bpfkeys_object *obj, struct bpfkeys_loaded *variant)
{
	struct lbk_settings *s = obj->settings;
	int err = 0;

	if (!s)
		return 0;
	/* a flip's variant reuses the loaded maps, which have the settings */
	for (size_t i = 0; !obj->loaded && i < s->map_count && !err; i++)
		if (s->maps[i].set)
			err = apply_map(obj, variant, &s->maps[i]);
	for (size_t p = 0; p < obj->program_count && !err; p++) {
		const struct lbk_program_setting *setting = &s->programs[p];
		struct bpf_program *prog;

		if (!setting->set)
			continue;
		prog = bpf_object__find_program_by_name(variant->bpf, obj->programs[p].name);
		err = prog ? bpf_program__set_attach_target(prog, setting->attach_prog_fd,
							    setting->attach_func_name)
			   : -ENOENT;
		if (err)
			err = attach_target_error(obj, obj->programs[p].name,
						  setting->attach_func_name, err);
	}
	return err;
}
