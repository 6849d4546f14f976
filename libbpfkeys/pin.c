// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libbpfkeys, pins: what another process needs to flip a loaded object,
 * in a bpffs directory (which holds BPF objects only, so the raw object and
 * the key states travel in two maps of our own):
 *
 *   DIR/meta            ARRAY, 256-byte values: [0] header, [1..] key states
 *   DIR/object          ARRAY, 4 KiB values, frozen: the raw linked object
 *   DIR/maps/NAME       every map of the object (the ones each variant reuses)
 *   DIR/progs/NAME      the current version of every loaded program
 *   DIR/links/PROG:N    every link of the object
 *
 * bpffs refuses names with a dot (EPERM: "reserved"), so the dots of map
 * names (".bss" is "<object>.bss") are colons in the pins.
 *
 * A flip of a pinned object is a transaction recorded in DIR/journal while
 * it runs (journal.c has the steps); every opener completes or rolls back
 * one that was interrupted before it reads anything. One
 * process at a time holds the directory (flock), from bpfkeys_pin() or
 * bpfkeys_open_pinned() until bpfkeys_close().
 *
 * The small allocations here (paths, names) are bpfkeys' bk_x*(): every entry
 * (bpfkeys_pin, bpfkeys_open_pinned, a flip's or an attach's pin update) runs
 * under lbk_core(), so that their failure is -ENOMEM, not an exit.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "internal.h"
#include "pin_layout.h"

#define BPFFS_MAGIC 0xcafe4a11

/* a map name as a pin name and back: '.' <-> ':' */
static char *swap_dots(const char *name, char from, char to)
{
	char *s = bk_xstrdup(name);

	for (char *c = s; *c; c++)
		if (*c == from)
			*c = to;
	return s;
}

char *lbk_pin_path(const char *dir, const char *sub, const char *name)
{
	size_t n = strlen(dir) + strlen(sub) + (name ? strlen(name) : 0) + 3;
	char *path = bk_xcalloc(n, 1);

	snprintf(path, n, "%s/%s%s%s", dir, sub, name ? "/" : "", name ? name : "");
	return path;
}

/* the directory, held: one process at a time flips through it */
static int lock_dir(struct bpfkeys_object *obj, const char *dir)
{
	struct statfs st;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return lbk_error(obj, errno, "%s: %s", dir, strerror(errno));
	if (fstatfs(fd, &st) || st.f_type != BPFFS_MAGIC) {
		close(fd);
		return lbk_error(obj, ENOTSUP,
				 "%s: not on a BPF file system (mount -t bpf bpf /sys/fs/bpf)",
				 dir);
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int err = errno;

		close(fd);
		return lbk_error(obj, err, "%s: %s", dir,
				 err == EWOULDBLOCK
					 ? "held by another process (one flipper at a time)"
					 : strerror(err));
	}
	obj->lock_fd = fd;
	return 0;
}

static int write_states(struct bpfkeys_object *obj, int meta_fd, const bool *on)
{
	uint32_t slot = 1;

	for (size_t k = 0; k < obj->bk.key_count; k++) {
		struct meta_key key = { 0 }, have;

		if (!obj->bk.keys[k].is_static_key)
			continue;
		snprintf(key.name, sizeof(key.name), "%s", obj->bk.keys[k].name);
		key.on = on[k];
		/* only what changes: undoing a flip writes nothing it did not write */
		if (bpf_map_lookup_elem(meta_fd, &slot, &have) || memcmp(&have, &key, sizeof(key)))
			if (bpf_map_update_elem(meta_fd, &slot, &key, BPF_ANY))
				return lbk_error(obj, errno, "%s/meta: %s", obj->pin_dir,
						 strerror(errno));
		slot++;
	}
	return 0;
}

int lbk_pin_link(struct bpfkeys_object *obj, struct bpfkeys_link *link)
{
	char name[300];
	char *path;

	if (link->kind == BPFKEYS_LINK_TC) /* attach_tc.c */
		return lbk_error(obj, EOPNOTSUPP,
				 "program '%s': a legacy tc filter is no BPF object and cannot be "
				 "pinned (another process could not flip it); use tcx (Linux 6.6+)",
				 obj->programs[link->program].name);
	/* a new link of a holder whose directory was removed and pinned again
	 * does not go into the new one */
	if (lbk_pin_dir_check(obj))
		return -errno;
	snprintf(name, sizeof(name), "%s:%u", obj->programs[link->program].name,
		 obj->next_link_pin++);
	path = lbk_pin_path(obj->pin_dir, "links", name);
	if (bpf_obj_pin(link->fd, path)) {
		int err = lbk_error(obj, errno, "pin %s: %s", path, strerror(errno));

		free(path);
		return err;
	}
	link->pin_path = path;
	return 0;
}

/* what a bpfkeys_pin() made, in order: removed again if it fails, so that
 * its links detach with the object (and nothing of another's is touched) */
struct made {
	char **paths;
	bool *is_dir;
	size_t count;
};

static void made_add(struct made *made, const char *path, bool is_dir)
{
	made->paths = bk_xrealloc(made->paths, made->count + 1, sizeof(*made->paths));
	made->is_dir = bk_xrealloc(made->is_dir, made->count + 1, sizeof(*made->is_dir));
	made->paths[made->count] = bk_xstrdup(path);
	made->is_dir[made->count++] = is_dir;
}

static void made_free(struct made *made, bool remove)
{
	for (size_t i = made->count; i-- > 0;) {
		if (remove)
			(made->is_dir[i] ? rmdir : unlink)(made->paths[i]);
		free(made->paths[i]);
	}
	free(made->paths);
	free(made->is_dir);
}

static int make_dir(struct bpfkeys_object *obj, const char *path, struct made *made)
{
	if (mkdir(path, 0700) == 0)
		made_add(made, path, true);
	else if (errno != EEXIST)
		return lbk_error(obj, errno, "mkdir %s: %s", path, strerror(errno));
	return 0;
}

static int pin_new(struct bpfkeys_object *obj, int fd, const char *dir, const char *sub,
		   const char *name, struct made *made)
{
	char *path = lbk_pin_path(dir, sub, name);
	int err = 0;

	if (bpf_obj_pin(fd, path))
		err = lbk_error(obj, errno, "pin %s: %s", path, strerror(errno));
	else
		made_add(made, path, false);
	free(path);
	return err;
}

/* names the pins store in fixed fields (meta's keys, the journal's programs) */
static int check_names(struct bpfkeys_object *obj, const char *dir)
{
	for (size_t k = 0; k < obj->bk.key_count; k++)
		if (obj->bk.keys[k].is_static_key && strlen(obj->bk.keys[k].name) > PIN_NAME_MAX)
			return lbk_error(obj, ENAMETOOLONG,
					 "pin %s: key '%s': a name of %zu characters (pins keep "
					 "%d)",
					 dir, obj->bk.keys[k].name, strlen(obj->bk.keys[k].name),
					 PIN_NAME_MAX);
	for (size_t p = 0; p < obj->program_count; p++)
		if (strlen(obj->programs[p].name) > PIN_NAME_MAX)
			return lbk_error(obj, ENAMETOOLONG,
					 "pin %s: program '%s': a name of %zu characters (pins "
					 "keep %d)",
					 dir, obj->programs[p].name, strlen(obj->programs[p].name),
					 PIN_NAME_MAX);
	return 0;
}

/* the raw object and the states, in two maps of our own */
static int pin_meta_and_object(struct bpfkeys_object *obj, const char *dir, struct made *made)
{
	struct meta_header header = { 0 };
	uint32_t chunks = (uint32_t)((obj->bk.file.image_size + OBJECT_CHUNK - 1) / OBJECT_CHUNK);
	uint8_t *chunk = bk_xcalloc(OBJECT_CHUNK, 1);
	int meta = -1, object = -1, err;

	memcpy(header.magic, PIN_MAGIC, sizeof(PIN_MAGIC));
	header.object_size = obj->bk.file.image_size;
	header.key_count = (uint32_t)bpfkeys_key_count(obj);
	snprintf(header.object_name, sizeof(header.object_name), "%s", obj->name);
	meta = bpf_map_create(BPF_MAP_TYPE_ARRAY, "bpfkeys_meta", 4, META_VALUE_SIZE,
			      1 + header.key_count, NULL);
	object =
		bpf_map_create(BPF_MAP_TYPE_ARRAY, "bpfkeys_object", 4, OBJECT_CHUNK, chunks, NULL);
	if (meta < 0 || object < 0) {
		err = lbk_error(obj, errno, "cannot create the pin maps: %s", strerror(errno));
		goto out;
	}
	err = bpf_map_update_elem(meta, &(uint32_t){ 0 }, &header, BPF_ANY)
		      ? -errno
		      : write_states(obj, meta, obj->on);
	for (uint32_t i = 0; i < chunks && !err; i++) {
		size_t off = (size_t)i * OBJECT_CHUNK, n = obj->bk.file.image_size - off;

		memset(chunk, 0, OBJECT_CHUNK);
		memcpy(chunk, obj->bk.file.image + off, n < OBJECT_CHUNK ? n : OBJECT_CHUNK);
		if (bpf_map_update_elem(object, &i, chunk, BPF_ANY))
			err = -errno;
	}
	if (!err && bpf_map_freeze(object))
		err = -errno;
	if (err) {
		err = lbk_error(obj, err, "cannot fill the pin maps: %s", strerror(-err));
		goto out;
	}
	err = pin_new(obj, meta, dir, "meta", NULL, made);
	if (!err)
		err = pin_new(obj, object, dir, "object", NULL, made);
out:
	free(chunk);
	if (meta >= 0)
		close(meta);
	if (object >= 0)
		close(object);
	return err;
}

static int pin_object(struct bpfkeys_object *obj, void *arg)
{
	const char *dir = arg;
	struct made made = { 0 };
	char *meta_path;
	int err;

	if (!obj->loaded)
		return lbk_error(obj, EINVAL, "pin %s: load first", dir);
	if (obj->pin_dir)
		return lbk_error(obj, EBUSY, "pin %s: already pinned in %s", dir, obj->pin_dir);
	for (struct bpfkeys_link *l = obj->links; l; l = l->next)
		if (l->kind == BPFKEYS_LINK_TC) /* refused before anything is pinned */
			return lbk_pin_link(obj, l);
	err = check_names(obj, dir);
	if (!err)
		err = make_dir(obj, dir, &made);
	if (!err)
		err = lock_dir(obj, dir);
	if (err) {
		made_free(&made, true);
		return err;
	}
	meta_path = lbk_pin_path(dir, "meta", NULL);
	err = access(meta_path, F_OK) == 0
		      ? lbk_error(obj, EEXIST, "%s: an object is pinned here already", dir)
		      : 0;
	free(meta_path);
	if (!err)
		err = pin_meta_and_object(obj, dir, &made);
	for (const char *sub = "maps"; !err && sub; sub = strcmp(sub, "maps") == 0    ? "progs"
							  : strcmp(sub, "progs") == 0 ? "links"
										      : NULL) {
		char *path = lbk_pin_path(dir, sub, NULL);

		err = make_dir(obj, path, &made);
		free(path);
	}
	for (size_t i = 0; i < obj->map_count && !err; i++) {
		char *name = swap_dots(obj->maps[i].name, '.', ':');

		err = pin_new(obj, obj->maps[i].fd, dir, "maps", name, &made);
		free(name);
	}
	for (size_t p = 0; p < obj->program_count && !err; p++)
		if (lbk_program_loaded(obj, p))
			err = pin_new(obj, bpfkeys_program_fd(obj, obj->programs[p].name), dir,
				      "progs", obj->programs[p].name, &made);
	obj->pin_dir = bk_xstrdup(dir);
	for (struct bpfkeys_link *l = obj->links; l && !err; l = l->next) {
		err = lbk_pin_link(obj, l);
		if (!err)
			made_add(&made, l->pin_path, false);
	}
	if (err) {
		/* the object is not pinned: what this call pinned goes, so that its
		 * links detach when it is closed */
		free(obj->pin_dir);
		obj->pin_dir = NULL;
		for (struct bpfkeys_link *l = obj->links; l; l = l->next) {
			free(l->pin_path);
			l->pin_path = NULL;
		}
		close(obj->lock_fd);
		obj->lock_fd = -1;
	}
	made_free(&made, err != 0);
	return err;
}

int lbk_pin_write_states(struct bpfkeys_object *obj, const bool *on)
{
	char *path = lbk_pin_path(obj->pin_dir, "meta", NULL);
	int meta = bpf_obj_get(path), err;

	err = meta < 0 ? lbk_error(obj, errno, "%s: %s", path, strerror(errno))
		       : write_states(obj, meta, on);
	if (meta >= 0)
		close(meta);
	free(path);
	return err;
}

/* the raw object, from DIR/object */
static void *read_object(struct bpfkeys_object *holder, const char *dir,
			 const struct meta_header *h)
{
	char *path = lbk_pin_path(dir, "object", NULL);
	int fd = bpf_obj_get(path);
	uint32_t chunks = (uint32_t)((h->object_size + OBJECT_CHUNK - 1) / OBJECT_CHUNK);
	uint8_t *buf = bk_xcalloc((size_t)chunks * OBJECT_CHUNK + 1, 1);

	for (uint32_t i = 0; fd >= 0 && i < chunks; i++)
		if (bpf_map_lookup_elem(fd, &i, buf + (size_t)i * OBJECT_CHUNK)) {
			close(fd);
			fd = -1;
		}
	if (fd < 0) {
		lbk_error(holder, errno, "%s: %s", path, strerror(errno));
		free(buf);
		buf = NULL;
	} else {
		close(fd);
	}
	free(path);
	return buf;
}

static int open_pinned_maps(struct bpfkeys_object *obj, const char *dir)
{
	char *path = lbk_pin_path(dir, "maps", NULL);
	DIR *d = opendir(path);
	struct dirent *e;
	int err = 0;

	if (!d)
		err = lbk_error(obj, errno, "%s: %s", path, strerror(errno));
	while (!err && (e = readdir(d))) {
		char *pin;
		int fd;

		if (e->d_name[0] == '.' &&
		    (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
			continue;
		pin = lbk_pin_path(path, e->d_name, NULL);
		fd = bpf_obj_get(pin);
		if (fd < 0)
			err = lbk_error(obj, errno, "%s: %s", pin, strerror(errno));
		free(pin);
		if (err)
			break;
		obj->maps = bk_xrealloc(obj->maps, obj->map_count + 1, sizeof(*obj->maps));
		obj->maps[obj->map_count].name = swap_dots(e->d_name, ':', '.');
		obj->maps[obj->map_count++].fd = fd;
	}
	if (d)
		closedir(d);
	free(path);
	return err;
}

static enum bpfkeys_link_kind link_kind(uint32_t type)
{
	switch (type) {
	case BPF_LINK_TYPE_XDP:
		return BPFKEYS_LINK_XDP;
	case BPF_LINK_TYPE_CGROUP:
		return BPFKEYS_LINK_CGROUP;
	case BPFKEYS_LINK_TYPE_TCX:
		return BPFKEYS_LINK_TCX;
	case BPF_LINK_TYPE_NETNS:
		return BPFKEYS_LINK_NETNS;
	default:
		return BPFKEYS_LINK_OVERLAP;
	}
}

static int open_pinned_links(struct bpfkeys_object *obj, const char *dir)
{
	char *path = lbk_pin_path(dir, "links", NULL);
	DIR *d = opendir(path);
	struct dirent *e;
	int err = 0;

	if (!d)
		err = lbk_error(obj, errno, "%s: %s", path, strerror(errno));
	while (!err && (e = readdir(d))) {
		char *dot = strrchr(e->d_name, ':'), *pin;
		struct bpf_link_info info;
		uint32_t len = sizeof(info);
		struct bpfkeys_link *link;
		ssize_t p;
		int fd;

		if (!dot || dot == e->d_name || strcmp(dot, ":new") == 0)
			continue;
		*dot = '\0';
		p = lbk_program_index(obj, e->d_name);
		*dot = ':';
		pin = lbk_pin_path(path, e->d_name, NULL);
		fd = p < 0 ? -1 : bpf_obj_get(pin);
		memset(&info, 0, sizeof(info));
		if (p < 0)
			err = lbk_error(obj, ENOENT, "%s: no such program in the object", pin);
		else if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			err = lbk_error(obj, errno, "%s: %s", pin, strerror(errno));
		if (err) {
			if (fd >= 0)
				close(fd);
			free(pin);
			break;
		}
		link = lbk_add_link(obj, (size_t)p, link_kind(info.type), NULL, fd);
		if (!link) {
			close(fd);
			free(pin);
			err = -ENOMEM;
			break;
		}
		link->pin_path = pin;
		if ((unsigned int)strtoul(dot + 1, NULL, 10) >= obj->next_link_pin)
			obj->next_link_pin = (unsigned int)strtoul(dot + 1, NULL, 10) + 1;
	}
	lbk_links_in_pin_order(obj);
	if (d)
		closedir(d);
	free(path);
	return err;
}

struct open_pinned_args {
	const char *dir;
	bool keep_verifier_log;
	struct bpfkeys_object *obj; /* out */
};

/* The pinned object's messages before it exists are the holder's. */
static int open_pinned(struct bpfkeys_object *holder, void *arg)
{
	struct open_pinned_args *args = arg;
	const char *dir = args->dir;
	struct bpfkeys_object *obj = NULL;
	struct meta_header header;
	char *meta_path = lbk_pin_path(dir, "meta", NULL);
	void *image = NULL;
	bool *seen = NULL;
	int meta = -1, err;

	err = lock_dir(holder, dir);
	if (!err)
		err = lbk_journal_recover(holder, dir);
	if (!err) {
		meta = bpf_obj_get(meta_path);
		if (meta < 0)
			err = lbk_error(holder, errno, "%s",
					errno == ENOENT ? "no object pinned here (bpfkeys_pin)"
							: strerror(errno));
	}
	if (!err && bpf_map_lookup_elem(meta, &(uint32_t){ 0 }, &header))
		err = lbk_error(holder, errno, "%s: %s", meta_path, strerror(errno));
	if (!err && memcmp(header.magic, PIN_MAGIC, sizeof(PIN_MAGIC)))
		err = lbk_error(holder, EINVAL, "%s: not a libbpfkeys pin (%s expected)", meta_path,
				PIN_MAGIC);
	if (!err)
		err = lbk_pin_check_meta(holder, dir, meta, &header);
	if (!err && !(image = read_object(holder, dir, &header)))
		err = -errno;
	if (!err) {
		header.object_name[sizeof(header.object_name) - 1] = '\0';
		LIBBPFKEYS_OPTS(bpfkeys_open_opts, pinned_opts, .object_name = header.object_name,
				.keep_verifier_log = args->keep_verifier_log,
				.print = holder->print, .print_ctx = holder->print_ctx);
		obj = bpfkeys_open_mem(image, header.object_size, dir, &pinned_opts);
		if (!obj)
			err = -errno;
	}
	free(image);
	if (err)
		goto out;
	obj->lock_fd = holder->lock_fd;
	holder->lock_fd = -1;
	if (header.key_count != bpfkeys_key_count(obj))
		err = lbk_error(obj, EINVAL, "%s: %u key(s) recorded, the pinned object has %zu",
				meta_path, header.key_count, bpfkeys_key_count(obj));
	seen = err ? NULL : bk_xcalloc(obj->bk.key_count + 1, sizeof(bool));
	for (uint32_t i = 1; i <= header.key_count && !err; i++) {
		struct meta_key key;
		ssize_t k;

		if (bpf_map_lookup_elem(meta, &i, &key)) {
			err = lbk_error(obj, errno, "%s: %s", meta_path, strerror(errno));
			break;
		}
		key.name[sizeof(key.name) - 1] = '\0';
		k = bk_key_by_name(&obj->bk, key.name);
		if (k < 0 || !obj->bk.keys[k].is_static_key)
			err = lbk_error(obj, EINVAL, "%s: key '%s' is not in the pinned object",
					meta_path, key.name);
		else if (seen[k])
			err = lbk_error(obj, EINVAL, "%s: key '%s' recorded twice", meta_path,
					key.name);
		else
			obj->on[k] = key.on;
		if (!err)
			seen[k] = true;
	}
	free(seen);
	if (!err)
		err = open_pinned_maps(obj, dir);
	if (!err)
		err = lbk_pin_check_maps(obj, dir);
	for (size_t p = 0; p < obj->program_count && !err; p++) {
		char *pin = lbk_pin_path(dir, "progs", obj->programs[p].name);

		obj->programs[p].pinned_fd = bpf_obj_get(pin);
		if (obj->programs[p].pinned_fd < 0 && errno != ENOENT)
			err = lbk_error(obj, errno, "%s: %s", pin, strerror(errno));
		free(pin);
	}
	if (!err)
		err = open_pinned_links(obj, dir);
	if (!err)
		err = lbk_pin_check_links(obj, dir);
	obj->pin_dir = bk_xstrdup(dir);
	obj->loaded = true;
	if (err) {
		bpfkeys_close(obj);
		obj = NULL;
	}
out:
	if (meta >= 0)
		close(meta);
	free(meta_path);
	args->obj = obj;
	return err;
}

struct bpfkeys_object *bpfkeys_open_pinned(const char *dir, const struct bpfkeys_open_opts *opts)
{
	struct open_pinned_args args = { dir, LBK_OPT(opts, keep_verifier_log, false), NULL };
	struct bpfkeys_object *holder = lbk_new_object(dir, opts);
	int err;

	if (!holder)
		return NULL;
	err = lbk_core(holder, open_pinned, &args);
	bpfkeys_close(holder);
	if (err) {
		errno = -err;
		return NULL;
	}
	return args.obj;
}

int bpfkeys_pin(struct bpfkeys_object *obj, const char *dir)
{
	return lbk_core(obj, pin_object, (void *)dir);
}
