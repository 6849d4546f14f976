// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libbpfkeys, open and load: the raw object is read and analyzed once by
 * bpfkeys' core (the instances of `bpfkeys list`); each load, the initial one
 * and every flip's variant, lowers it in memory for a set of key states with
 * bk_lower() (the code of `bpfkeys lower`) and opens the bytes with libbpf.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "internal.h"

int bpfkeys_error(struct bpfkeys_object *obj, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(obj->errmsg, sizeof(obj->errmsg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "libbpfkeys: %s: error: %s\n", obj->path, obj->errmsg);
	err = err < 0 ? -err : err;
	errno = err;
	return -err;
}

const char *bpfkeys_errmsg(const struct bpfkeys_object *obj)
{
	return obj->errmsg;
}

const char *bpfkeys_verifier_log(const struct bpfkeys_object *obj)
{
	return obj->verifier_log;
}

ssize_t bpfkeys_program_index(const struct bpfkeys_object *obj, const char *name)
{
	for (size_t i = 0; i < obj->program_count; i++)
		if (strcmp(obj->programs[i].name, name) == 0)
			return (ssize_t)i;
	return -1;
}

static ssize_t static_key_index(const struct bpfkeys_object *obj, const char *name)
{
	ssize_t k = bk_key_by_name(&obj->bk, name);

	return k >= 0 && obj->bk.keys[k].is_static_key ? k : -1;
}

/* "dir/prog.o" -> "prog", as libbpf names an object opened from a file */
static char *default_name(const char *path)
{
	const char *base = strrchr(path, '/');
	char *name = bk_xstrdup(base ? base + 1 : path);
	char *dot = strrchr(name, '.');

	if (dot && dot != name)
		*dot = '\0';
	return name;
}

static struct bpfkeys_object *open_common(struct bpfkeys_object *obj, int read_err,
					  const struct bpfkeys_open_opts *opts)
{
	size_t static_keys = 0;
	int err;

	if (read_err) {
		err = bpfkeys_error(obj, EINVAL, "cannot read the object (see above)");
		goto fail;
	}
	if (obj->bk.instances_section && !obj->bk.static_keys_section) {
		err = bpfkeys_error(obj, EINVAL,
				    "already resolved (has %s): libbpfkeys takes the linked object "
				    "before `bpfkeys resolve`",
				    BPFKEYS_SECTION);
		goto fail;
	}
	if (bk_analyze(&obj->bk)) {
		err = bpfkeys_error(obj, EINVAL, "static keys do not resolve (see above)");
		goto fail;
	}
	if (bk_refuse_references_on_stock(&obj->bk)) {
		err = bpfkeys_error(
			obj, EOPNOTSUPP,
			"programs flip static keys from BPF (see above): that needs the "
			"patched kernel");
		goto fail;
	}
	for (size_t k = 0; k < obj->bk.key_count; k++)
		static_keys += obj->bk.keys[k].is_static_key;
	if (!static_keys) {
		err = bpfkeys_error(obj, EINVAL,
				    "no static keys: nothing to flip (load it with libbpf)");
		goto fail;
	}
	obj->keep_verifier_log = opts && opts->keep_verifier_log;
	obj->name =
		opts && opts->object_name ? bk_xstrdup(opts->object_name) : default_name(obj->path);
	obj->on = bk_xcalloc(obj->bk.key_count, sizeof(bool));
	for (size_t k = 0; k < obj->bk.key_count; k++)
		obj->on[k] = obj->bk.keys[k].map_extra & BPF_F_STATIC_KEY_ON;
	for (size_t f = 0; f < obj->bk.function_count; f++)
		if (obj->bk.functions[f].is_program)
			obj->program_count++;
	obj->programs = bk_xcalloc(obj->program_count, sizeof(*obj->programs));
	for (size_t f = 0, p = 0; f < obj->bk.function_count; f++)
		if (obj->bk.functions[f].is_program) {
			obj->programs[p].name = bk_xstrdup(obj->bk.functions[f].name);
			obj->programs[p].pinned_fd = -1;
			obj->programs[p++].autoload = true;
		}
	return obj;
fail:
	bpfkeys_close(obj);
	errno = -err;
	return NULL;
}

/* bpfkeys' core reports as "<progname>: file: error: ..." */
static void name_the_reporter(void)
{
	if (strcmp(elfobj_progname, "elfobj") == 0)
		elfobj_progname = "libbpfkeys";
}

/* bpfkeys' reader silences libbpf (for the CLI); the caller's printer comes back */
static int read_keeping_libbpf_print(struct bpfkeys_object *obj, const void *buf, size_t size)
{
	libbpf_print_fn_t caller_print = libbpf_set_print(NULL);
	int err = buf ? bk_object_read_memory(&obj->bk, obj->path, buf, size)
		      : bk_object_read(&obj->bk, obj->path);

	libbpf_set_print(caller_print);
	return err;
}

struct bpfkeys_object *bpfkeys_open_file(const char *path, const struct bpfkeys_open_opts *opts)
{
	struct bpfkeys_object *obj = bk_xcalloc(1, sizeof(*obj));

	name_the_reporter();
	obj->lock_fd = -1;
	obj->path = bk_xstrdup(path);
	if (access(path, R_OK)) { /* say ENOENT or EACCES, not only "cannot read" */
		int err = bpfkeys_error(obj, errno, "cannot open: %s", strerror(errno));

		bpfkeys_close(obj);
		errno = -err;
		return NULL;
	}
	return open_common(obj, read_keeping_libbpf_print(obj, NULL, 0), opts);
}

struct bpfkeys_object *bpfkeys_open_mem(const void *buf, size_t size, const char *name,
					const struct bpfkeys_open_opts *opts)
{
	struct bpfkeys_object *obj = bk_xcalloc(1, sizeof(*obj));

	name_the_reporter();
	obj->lock_fd = -1;
	obj->path = bk_xstrdup(name ? name : "<memory>");
	return open_common(obj, read_keeping_libbpf_print(obj, buf, size), opts);
}

int bpfkeys_set_autoload(struct bpfkeys_object *obj, const char *program, bool autoload)
{
	ssize_t p = bpfkeys_program_index(obj, program);

	if (p < 0)
		return bpfkeys_error(obj, ENOENT, "no program named '%s'", program);
	if (obj->loaded)
		return bpfkeys_error(obj, EBUSY, "program '%s': autoload is set before load",
				     program);
	obj->programs[p].autoload = autoload;
	return 0;
}

size_t bpfkeys_key_count(const struct bpfkeys_object *obj)
{
	size_t n = 0;

	for (size_t k = 0; k < obj->bk.key_count; k++)
		n += obj->bk.keys[k].is_static_key;
	return n;
}

const char *bpfkeys_key_name(const struct bpfkeys_object *obj, size_t index)
{
	for (size_t k = 0; k < obj->bk.key_count; k++)
		if (obj->bk.keys[k].is_static_key && index-- == 0)
			return obj->bk.keys[k].name;
	errno = ENOENT;
	return NULL;
}

int bpfkeys_key_state(const struct bpfkeys_object *obj, const char *key)
{
	ssize_t k = static_key_index(obj, key);

	return k < 0 ? -ENOENT : obj->on[k];
}

/* Lower for on[] into a memfd (bk_lower writes through an fd) and read it back. */
static int lower_image(struct bpfkeys_object *obj, const bool *on, int fd)
{
	struct bk_setting *settings = bk_xcalloc(obj->bk.key_count, sizeof(*settings));
	size_t n = 0;
	int err;

	for (size_t k = 0; k < obj->bk.key_count; k++)
		if (obj->bk.keys[k].is_static_key) {
			settings[n].key = obj->bk.keys[k].name;
			settings[n++].on = on[k];
		}
	err = bk_lower(&obj->bk, settings, n, NULL, fd);
	free(settings);
	return err ? bpfkeys_error(obj, EINVAL, "cannot lower the object (see above)") : 0;
}

int bpfkeys_write_lowered(struct bpfkeys_object *obj, int fd)
{
	return lower_image(obj, obj->on, fd);
}

int bpfkeys_open_variant(struct bpfkeys_object *obj, const bool *on, struct bpfkeys_loaded **out)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts, .object_name = obj->name);
	struct bpfkeys_loaded *variant;
	int fd = memfd_create("bpfkeys-lowered", MFD_CLOEXEC);
	off_t size;
	int err;

	*out = NULL;
	if (fd < 0)
		return bpfkeys_error(obj, errno, "memfd_create: %s", strerror(errno));
	err = lower_image(obj, on, fd);
	if (err) {
		close(fd);
		return err;
	}
	variant = bk_xcalloc(1, sizeof(*variant));
	size = lseek(fd, 0, SEEK_END);
	if (size <= 0) {
		err = bpfkeys_error(obj, EIO, "the lowered object is empty");
		goto fail;
	}
	variant->image = bk_xcalloc((size_t)size, 1);
	if (pread(fd, variant->image, (size_t)size, 0) != size) {
		err = bpfkeys_error(obj, EIO, "cannot read the lowered object back: %s",
				    strerror(errno));
		goto fail;
	}
	variant->bpf = bpf_object__open_mem(variant->image, (size_t)size, &open_opts);
	if (!variant->bpf) {
		err = bpfkeys_error(obj, errno, "libbpf cannot open the lowered object: %s",
				    strerror(errno));
		goto fail;
	}
	close(fd);
	*out = variant;
	return 0;
fail:
	close(fd);
	free(variant->image);
	free(variant);
	return err;
}

void bpfkeys_loaded_put(struct bpfkeys_loaded *loaded)
{
	if (!loaded || --loaded->refs)
		return;
	bpf_object__close(loaded->bpf);
	free(loaded->image);
	free(loaded);
}

static const struct bpfkeys_map *find_map(const struct bpfkeys_object *obj, const char *name)
{
	for (size_t i = 0; i < obj->map_count; i++)
		if (strcmp(obj->maps[i].name, name) == 0)
			return &obj->maps[i];
	return NULL;
}

int bpfkeys_load_variant(struct bpfkeys_object *obj, struct bpfkeys_loaded *variant,
			 const bool *load_program)
{
	struct bpf_program *prog;
	struct bpf_map *map;
	char **logs = bk_xcalloc(obj->program_count, sizeof(char *));
	const char *failed = NULL;
	int err;

	/* every map of a variant is the one already loaded: counters survive */
	bpf_object__for_each_map(map, variant->bpf)
	{
		const struct bpfkeys_map *m;

		if (!obj->loaded)
			break;
		m = find_map(obj, bpf_map__name(map));
		if (!m) {
			err = bpfkeys_error(obj, EINVAL,
					    "map '%s' of the variant is not in the loaded object",
					    bpf_map__name(map));
			goto out;
		}
		err = bpf_map__reuse_fd(map, m->fd);
		if (err) {
			err = bpfkeys_error(obj, err, "map '%s': cannot reuse its fd: %s", m->name,
					    strerror(-err));
			goto out;
		}
	}
	/* one log buffer per program: libbpf fills the failing one's only */
	bpf_object__for_each_program(prog, variant->bpf)
	{
		ssize_t p = bpfkeys_program_index(obj, bpf_program__name(prog));
		bool load = p >= 0 && load_program[p];

		bpf_program__set_autoload(prog, load);
		if (!load)
			continue;
		logs[p] = bk_xrealloc(NULL, BPFKEYS_LOG_SIZE, 1);
		logs[p][0] = '\0';
		bpf_program__set_log_buf(prog, logs[p], BPFKEYS_LOG_SIZE);
	}
	err = bpf_object__load(variant->bpf);
	if (!err)
		goto out;
	for (size_t p = 0; p < obj->program_count && !failed; p++)
		if (logs[p] && logs[p][0]) {
			failed = obj->programs[p].name;
			free(obj->verifier_log);
			obj->verifier_log = obj->keep_verifier_log ? bk_xstrdup(logs[p]) : NULL;
		}
	if (failed)
		err = bpfkeys_error(obj, err, "program '%s' does not load: %s (%s)", failed,
				    strerror(-err),
				    obj->keep_verifier_log
					    ? "verifier log: bpfkeys_verifier_log()"
					    : "open with keep_verifier_log for the verifier's log");
	else
		err = bpfkeys_error(obj, err, "cannot load the object: %s", strerror(-err));
out:
	for (size_t p = 0; p < obj->program_count; p++)
		free(logs[p]);
	free(logs);
	return err;
}

int bpfkeys_load(struct bpfkeys_object *obj)
{
	struct bpfkeys_loaded *loaded;
	bool *load = bk_xcalloc(obj->program_count, sizeof(bool));
	struct bpf_map *map;
	int err;

	if (obj->loaded) {
		free(load);
		return bpfkeys_error(obj, EBUSY, "already loaded");
	}
	for (size_t p = 0; p < obj->program_count; p++)
		load[p] = obj->programs[p].autoload;
	err = bpfkeys_open_variant(obj, obj->on, &loaded);
	if (err)
		goto out;
	err = bpfkeys_load_variant(obj, loaded, load);
	if (err) {
		loaded->refs = 1;
		bpfkeys_loaded_put(loaded);
		goto out;
	}
	bpf_object__for_each_map(map, loaded->bpf) obj->map_count++;
	obj->maps = bk_xcalloc(obj->map_count, sizeof(*obj->maps));
	obj->map_count = 0;
	bpf_object__for_each_map(map, loaded->bpf)
	{
		struct bpfkeys_map *m = &obj->maps[obj->map_count];

		m->fd = fcntl(bpf_map__fd(map), F_DUPFD_CLOEXEC, 3);
		if (m->fd < 0) {
			err = bpfkeys_error(obj, errno, "map '%s': dup: %s", bpf_map__name(map),
					    strerror(errno));
			break;
		}
		m->name = bk_xstrdup(bpf_map__name(map));
		obj->map_count++;
	}
	for (size_t p = 0; p < obj->program_count; p++)
		if (load[p]) {
			obj->programs[p].loaded = loaded;
			loaded->refs++;
		}
	if (!loaded->refs) { /* no program at all: keep the maps only */
		loaded->refs = 1;
		bpfkeys_loaded_put(loaded);
	}
	obj->loaded = !err;
out:
	free(load);
	return err;
}

struct bpf_program *bpfkeys_program(const struct bpfkeys_object *obj, const char *name)
{
	ssize_t p = bpfkeys_program_index(obj, name);

	if (p < 0 || !obj->programs[p].loaded) {
		/* opened from a pin: there is an fd (bpfkeys_program_fd), no libbpf program */
		errno = p < 0 ? ENOENT : obj->programs[p].pinned_fd >= 0 ? EOPNOTSUPP : EINVAL;
		return NULL;
	}
	return bpf_object__find_program_by_name(obj->programs[p].loaded->bpf, name);
}

size_t bpfkeys_program_count(const struct bpfkeys_object *obj)
{
	return obj->program_count;
}

const char *bpfkeys_program_name(const struct bpfkeys_object *obj, size_t index)
{
	if (index >= obj->program_count) {
		errno = ENOENT;
		return NULL;
	}
	return obj->programs[index].name;
}

bool bpfkeys_program_loaded(const struct bpfkeys_object *obj, size_t program)
{
	return obj->programs[program].loaded || obj->programs[program].pinned_fd >= 0;
}

int bpfkeys_program_fd(const struct bpfkeys_object *obj, const char *name)
{
	ssize_t p = bpfkeys_program_index(obj, name);
	struct bpf_program *prog;

	if (p >= 0 && !obj->programs[p].loaded && obj->programs[p].pinned_fd >= 0)
		return obj->programs[p].pinned_fd;
	prog = bpfkeys_program(obj, name);
	return prog ? bpf_program__fd(prog) : -errno;
}

int bpfkeys_map_fd(const struct bpfkeys_object *obj, const char *name)
{
	for (size_t i = 0; i < obj->map_count; i++) {
		const char *n = obj->maps[i].name;
		size_t nl = strlen(n), l = strlen(name);

		/* ".bss" names the global-data map "<object>.bss" */
		if (strcmp(n, name) == 0 ||
		    (name[0] == '.' && nl > l && strcmp(n + nl - l, name) == 0))
			return obj->maps[i].fd;
	}
	return -ENOENT;
}

void bpfkeys_close(struct bpfkeys_object *obj)
{
	if (!obj)
		return;
	/* our references only: what is pinned stays */
	while (obj->links)
		bpfkeys_link_release(obj->links);
	for (size_t p = 0; p < obj->program_count; p++) {
		bpfkeys_loaded_put(obj->programs[p].loaded);
		if (obj->programs[p].pinned_fd >= 0)
			close(obj->programs[p].pinned_fd);
		free(obj->programs[p].name);
	}
	for (size_t i = 0; i < obj->map_count; i++) {
		close(obj->maps[i].fd);
		free(obj->maps[i].name);
	}
	free(obj->programs);
	free(obj->maps);
	free(obj->on);
	free(obj->verifier_log);
	free(obj->name);
	free(obj->path);
	free(obj->pin_dir);
	if (obj->lock_fd >= 0)
		close(obj->lock_fd);
	bk_object_free(&obj->bk);
	free(obj);
}
